// SyntaxHighlighting: KSyntaxHighlighting behind a mutex when built with it, an honest "no formats" without.
#include "widgets/diff/syntax_highlighting.h"

#include "gpuf_config.h"

#include <QPalette>

#include <mutex>

#if GPUF_HAVE_SYNTAX_HIGHLIGHTING
#include <KSyntaxHighlighting/AbstractHighlighter>
#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Format>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/State>
#include <KSyntaxHighlighting/Theme>

#include <QHash>
#endif

namespace gpuf {

SyntaxTheme syntaxThemeFor(const QPalette &palette)
{
    const int base = palette.color(QPalette::Base).lightness();
    const int text = palette.color(QPalette::Text).lightness();
    return base < text ? SyntaxTheme::Dark : SyntaxTheme::Light;
}

#if GPUF_HAVE_SYNTAX_HIGHLIGHTING

namespace {

// Kernel languages are free text in the store; compare them without case and tolerate common spellings.
QString definitionNameFor(QStringView language)
{
    const QString key = language.trimmed().toString().toLower();
    if (key == u"cuda" || key == u"c++" || key == u"cpp" || key == u"c" || key == u"hip")
        return QStringLiteral("C++");
    if (key == u"python" || key == u"triton" || key == u"pytorch")
        return QStringLiteral("Python");
    if (key == u"ptx")
        return QStringLiteral("PTX");
    return {};
}

// Collects the formats of each line into values; the QTextCharFormat of each KSyntaxHighlighting format is made
// once per run since a 2 000-line kernel applies the same few dozen formats tens of thousands of times.
class LineCollector : public KSyntaxHighlighting::AbstractHighlighter
{
public:
    std::optional<QList<LineFormats>> run(const std::vector<QStringView> &lines, const CancelToken &cancel)
    {
        QList<LineFormats> result;
        result.reserve(static_cast<qsizetype>(lines.size()));
        KSyntaxHighlighting::State state;
        for (const QStringView line : lines) {
            if (cancel.isCancelled())
                return std::nullopt;
            m_line.clear();
            state = highlightLine(line, state);
            result.append(m_line);
        }
        return result;
    }

protected:
    void applyFormat(int offset, int length, const KSyntaxHighlighting::Format &format) override
    {
        if (length <= 0 || !format.isValid() || format.isDefaultTextStyle(theme()))
            return;
        auto it = m_cache.constFind(format.id());
        if (it == m_cache.constEnd())
            it = m_cache.insert(format.id(), charFormat(format));
        if (it->isValid())
            m_line.append(QTextLayout::FormatRange {offset, length, *it});
    }

private:
    QTextCharFormat charFormat(const KSyntaxHighlighting::Format &format) const
    {
        QTextCharFormat result;
        if (format.hasTextColor(theme()))
            result.setForeground(format.textColor(theme()));
        if (format.isBold(theme()))
            result.setFontWeight(QFont::Bold);
        if (format.isItalic(theme()))
            result.setFontItalic(true);
        if (format.isUnderline(theme()))
            result.setFontUnderline(true);
        return result;
    }

    LineFormats m_line;
    QHash<int, QTextCharFormat> m_cache;
};

} // namespace

#endif

struct SyntaxHighlighting::Private
{
    mutable std::mutex mutex;
#if GPUF_HAVE_SYNTAX_HIGHLIGHTING
    KSyntaxHighlighting::Repository repository;
#endif
};

SyntaxHighlighting::SyntaxHighlighting()
    : d(std::make_unique<Private>())
{
#if GPUF_HAVE_SYNTAX_HIGHLIGHTING
    // The PTX definition is compiled into gpuf-widgets under :/gpuf/syntax-addons/syntax (see CMakeLists.txt).
    d->repository.addCustomSearchPath(QStringLiteral(":/gpuf/syntax-addons"));
#endif
}

SyntaxHighlighting::~SyntaxHighlighting() = default;

bool SyntaxHighlighting::isAvailable() { return GPUF_HAVE_SYNTAX_HIGHLIGHTING; }

QString SyntaxHighlighting::definitionName(QStringView language) const
{
#if GPUF_HAVE_SYNTAX_HIGHLIGHTING
    const QString name = definitionNameFor(language);
    if (name.isEmpty())
        return {};
    const std::lock_guard lock(d->mutex);
    const KSyntaxHighlighting::Definition definition = d->repository.definitionForName(name);
    return definition.isValid() ? definition.name() : QString();
#else
    Q_UNUSED(language)
    return {};
#endif
}

std::optional<QList<LineFormats>> SyntaxHighlighting::highlightLines(
    QStringView language, const std::vector<QStringView> &lines, SyntaxTheme theme, const CancelToken &cancel) const
{
#if GPUF_HAVE_SYNTAX_HIGHLIGHTING
    const QString name = definitionNameFor(language);
    if (name.isEmpty())
        return QList<LineFormats>();
    const std::lock_guard lock(d->mutex);
    const KSyntaxHighlighting::Definition definition = d->repository.definitionForName(name);
    if (!definition.isValid())
        return QList<LineFormats>();
    LineCollector collector;
    collector.setDefinition(definition);
    collector.setTheme(
        d->repository.defaultTheme(theme == SyntaxTheme::Dark ? KSyntaxHighlighting::Repository::DarkTheme
                                                              : KSyntaxHighlighting::Repository::LightTheme));
    return collector.run(lines, cancel);
#else
    Q_UNUSED(language)
    Q_UNUSED(lines)
    Q_UNUSED(theme)
    Q_UNUSED(cancel)
    return QList<LineFormats>();
#endif
}

} // namespace gpuf
