// SourceViewer: one kernel's whole source, read-only, with line numbers and syntax highlighting.
#pragma once

#include "core/common/cancel.h"
#include "widgets/diff/diff_document.h"

#include <QWidget>

#include <memory>

class QLabel;

namespace gpuf {

class CodeTextEdit;
class SyntaxHighlighting;

class SourceViewer : public QWidget
{
    Q_OBJECT

public:
    // syntax may be null: the source then shows as plain text.
    explicit SourceViewer(std::shared_ptr<const SyntaxHighlighting> syntax, QWidget *parent = nullptr);
    ~SourceViewer() override;

    // Shows the text at once; highlighting is computed in the background and applied when ready.
    void setSource(const DiffSide &source);
    const DiffSide &source() const { return m_source; }
    CodeTextEdit *editor() const { return m_edit; }
    // True once the highlighting of the current source (and theme) has been applied, or found to be unavailable.
    bool isHighlighted() const { return m_highlighted; }

    // Opens a source in its own window, deleted when closed.
    static SourceViewer *showWindow(
        const DiffSide &source, std::shared_ptr<const SyntaxHighlighting> syntax, QWidget *parent = nullptr);

Q_SIGNALS:
    void highlighted();

protected:
    void changeEvent(QEvent *event) override;

private:
    void startHighlighting();
    void applyFormats(const QList<LineFormats> &lines);

    std::shared_ptr<const SyntaxHighlighting> m_syntax;
    DiffSide m_source;
    QLabel *m_title;
    CodeTextEdit *m_edit;
    SyntaxTheme m_theme;
    bool m_highlighted = false;
    quint64 m_generation = 0;
    CancelToken m_cancel;
};

} // namespace gpuf
