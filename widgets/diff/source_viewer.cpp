// SourceViewer: plain text first, then the background highlighting's formats block by block (latest request wins).
#include "widgets/diff/source_viewer.h"

#include "core/diff/source_text.h"
#include "widgets/diff/code_text_edit.h"
#include "widgets/diff/diff_colors.h"
#include "widgets/diff/syntax_highlighting.h"

#include <QEvent>
#include <QFutureWatcher>
#include <QLabel>
#include <QTextBlock>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace gpuf {

SourceViewer::SourceViewer(std::shared_ptr<const SyntaxHighlighting> syntax, QWidget *parent)
    : QWidget(parent)
    , m_syntax(std::move(syntax))
    , m_title(new QLabel(this))
    , m_edit(new CodeTextEdit(this))
    , m_theme(syntaxThemeFor(palette()))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_title->setTextFormat(Qt::PlainText);
    m_title->setContentsMargins(4, 2, 4, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_edit, 1);
    const DiffColors colors = diffColorsFor(palette());
    m_edit->setGutterColors(colors.gutterBackground, colors.gutterText);
}

SourceViewer::~SourceViewer() { m_cancel.cancel(); }

SourceViewer *SourceViewer::showWindow(
    const DiffSide &source, std::shared_ptr<const SyntaxHighlighting> syntax, QWidget *parent)
{
    auto *viewer = new SourceViewer(std::move(syntax), parent);
    viewer->setWindowFlag(Qt::Window);
    viewer->setAttribute(Qt::WA_DeleteOnClose);
    viewer->setWindowTitle(source.title.isEmpty() ? tr("Kernel source") : source.title);
    viewer->setSource(source);
    viewer->resize(760, 640);
    viewer->show();
    return viewer;
}

void SourceViewer::setSource(const DiffSide &source)
{
    m_source = source;
    m_title->setText(source.language.isEmpty() ? source.title : tr("%1 — %2").arg(source.title, source.language));
    // The text as diffTexts and the highlighter see it: line endings normalised, one block per line.
    const diff::SplitText split = diff::splitLines(source.source);
    QStringList lines;
    lines.reserve(static_cast<qsizetype>(split.lines.size()));
    for (const QStringView line : split.lines)
        lines.append(line.toString());
    m_edit->setPlainText(lines.join(QLatin1Char('\n')));
    startHighlighting();
}

void SourceViewer::startHighlighting()
{
    ++m_generation;
    m_cancel.cancel();
    m_highlighted = false;
    if (!m_syntax || !SyntaxHighlighting::isAvailable()) {
        m_highlighted = true;
        Q_EMIT highlighted();
        return;
    }
    const CancelToken cancel = CancelToken::create();
    m_cancel = cancel;
    const quint64 generation = m_generation;
    auto *watcher = new QFutureWatcher<std::optional<QList<LineFormats>>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation]() {
        watcher->deleteLater();
        const std::optional<QList<LineFormats>> lines = watcher->result();
        if (generation != m_generation || !lines)
            return;
        applyFormats(*lines);
        m_highlighted = true;
        Q_EMIT highlighted();
    });
    watcher->setFuture(QtConcurrent::run([syntax = m_syntax, source = m_source, theme = m_theme, cancel]() {
        const diff::SplitText split = diff::splitLines(source.source);
        return syntax->highlightLines(source.language, split.lines, theme, cancel);
    }));
}

void SourceViewer::applyFormats(const QList<LineFormats> &lines)
{
    QTextDocument *doc = m_edit->document();
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next())
        block.layout()->setFormats(lines.value(block.blockNumber()));
    doc->markContentsDirty(0, doc->characterCount());
}

void SourceViewer::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() != QEvent::PaletteChange && event->type() != QEvent::ApplicationPaletteChange)
        return;
    const DiffColors colors = diffColorsFor(palette());
    m_edit->setGutterColors(colors.gutterBackground, colors.gutterText);
    const SyntaxTheme theme = syntaxThemeFor(palette());
    if (theme != m_theme) {
        m_theme = theme;
        startHighlighting();
    }
}

} // namespace gpuf
