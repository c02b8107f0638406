// What a command says on stderr while it works: lines of their own (a worker's notice, a training fold, a failed
// request) and a count of finished items, drawn as a bar redrawn in place on a terminal and as one line per item
// otherwise (logs, pipes, tests stay readable). Quiet: nothing at all.
#pragma once

#include <QMutex>
#include <QString>
#include <QTextStream>

namespace gpuf::cli {

class Progress
{
public:
    explicit Progress(QTextStream &err, bool quiet = false);

    bool isQuiet() const { return m_quiet; }
    bool isTerminal() const { return m_terminal; }
    // Whether stderr is a terminal is detected; a test chooses.
    void setTerminal(bool terminal) { m_terminal = terminal; }

    // One line; safe from any thread (training reports from its workers).
    void line(const QString &text);
    // "[done/total] text" on a line of its own.
    void count(int done, int total, const QString &text);
    // On a terminal, `text` drawn over the current line in place (a bar); nothing otherwise.
    void redraw(const QString &text);
    // Ends the line redraw() drew on, when it drew one.
    void endRedraw();

    // Counting `total` items: item() after each finishes, `text` saying what it was and how it went.
    void start(int total);
    void item(const QString &text, bool failed);

private:
    void drawBar();

    QTextStream &m_err;
    QMutex m_lock;
    bool m_quiet = false;
    bool m_terminal = false;
    bool m_redrawn = false;
    int m_total = 0;
    int m_done = 0;
    int m_failed = 0;
};

} // namespace gpuf::cli
