// Colour schemes; see color_scheme.h.
#include "widgets/common/color_scheme.h"

#include <QApplication>
#include <QStyle>
#include <QStyleFactory>

namespace gpuf {

QString colorSchemeName(ColorScheme scheme)
{
    switch (scheme) {
    case ColorScheme::Light:
        return QStringLiteral("light");
    case ColorScheme::Dark:
        return QStringLiteral("dark");
    case ColorScheme::System:
        break;
    }
    return QStringLiteral("system");
}

ColorScheme colorSchemeFromName(const QString &name)
{
    if (name == QLatin1StringView("light"))
        return ColorScheme::Light;
    if (name == QLatin1StringView("dark"))
        return ColorScheme::Dark;
    return ColorScheme::System;
}

QPalette lightPalette()
{
    QStyle *fusion = QStyleFactory::create(QStringLiteral("Fusion"));
    QPalette palette = fusion ? fusion->standardPalette() : QPalette();
    delete fusion;
    return palette;
}

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x30);
    const QColor base(0x1e, 0x1f, 0x22);
    const QColor text(0xdf, 0xe1, 0xe5);
    const QColor disabled(0x7f, 0x84, 0x8e);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2b));
    p.setColor(QPalette::ToolTipBase, window);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Light, QColor(0x3c, 0x3f, 0x44));
    p.setColor(QPalette::Midlight, QColor(0x34, 0x36, 0x3a));
    p.setColor(QPalette::Mid, QColor(0x24, 0x25, 0x28));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, QColor(0x35, 0x74, 0xf0));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6c, 0xa6, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xb0, 0x8c, 0xff));
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

void applyColorScheme(ColorScheme scheme)
{
    static const QString originalStyle = QApplication::style()->name();
    static const QPalette originalPalette = QApplication::palette();
    switch (scheme) {
    case ColorScheme::System:
        QApplication::setStyle(originalStyle);
        QApplication::setPalette(originalPalette);
        break;
    case ColorScheme::Light:
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(lightPalette());
        break;
    case ColorScheme::Dark:
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(darkPalette());
        break;
    }
}

} // namespace gpuf
