// Colour schemes: the system palette, or a light or dark Fusion palette chosen by the user. Views derive their
// colours from the palette and follow changes live (STYLE practice 11).
#pragma once

#include <QPalette>
#include <QString>

namespace gpuf {

enum class ColorScheme { System, Light, Dark };

QString colorSchemeName(ColorScheme scheme); // "system" | "light" | "dark"
ColorScheme colorSchemeFromName(const QString &name);

QPalette lightPalette();
QPalette darkPalette();

// Applies the scheme to the running application (style Fusion for light and dark, so the palette is honoured).
void applyColorScheme(ColorScheme scheme);

} // namespace gpuf
