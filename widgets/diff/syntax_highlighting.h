// SyntaxHighlighting: the application's one syntax repository, turning source lines into per-line text formats.
#pragma once

#include "core/common/cancel.h"

#include <QList>
#include <QString>
#include <QStringView>
#include <QTextLayout>

#include <memory>
#include <optional>
#include <vector>

class QPalette;

namespace gpuf {

// The formats of one line, offsets relative to the line start (what QTextLayout::setFormats takes).
using LineFormats = QList<QTextLayout::FormatRange>;

enum class SyntaxTheme : quint8 { Light, Dark };

// Dark when the palette's base (text background) is darker than its text.
SyntaxTheme syntaxThemeFor(const QPalette &palette);

// Owns the KSyntaxHighlighting repository (when built with it) and the PTX add-on definition. Create one for the
// application and share it with every view; views hold a std::shared_ptr so that background jobs still running
// when a view closes keep it alive. Every member is thread-safe: definitions load lazily and rules cache compiled
// expressions as they run, so all use of the repository is serialised by an internal mutex.
class SyntaxHighlighting
{
public:
    SyntaxHighlighting();
    ~SyntaxHighlighting();
    SyntaxHighlighting(const SyntaxHighlighting &) = delete;
    SyntaxHighlighting &operator=(const SyntaxHighlighting &) = delete;

    // False in builds without KSyntaxHighlighting: every source then shows as plain text.
    static bool isAvailable();

    // The definition used for a kernel language ("cuda" → "C++", "triton"/"python" → "Python", "ptx" → "PTX");
    // empty when the language has none or highlighting is not available.
    QString definitionName(QStringView language) const;

    // Formats for each line, highlighting the lines as one continuous text; std::nullopt when cancelled, and an
    // empty list when the language has no definition or highlighting is not available.
    std::optional<QList<LineFormats>> highlightLines(QStringView language, const std::vector<QStringView> &lines,
        SyntaxTheme theme, const CancelToken &cancel = {}) const;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace gpuf
