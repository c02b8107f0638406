// Progress; see progress.h.
#include "app/cli/progress.h"

#include <cstdio>
#include <unistd.h>

namespace gpuf::cli {

Progress::Progress(QTextStream &err, bool quiet)
    : m_err(err)
    , m_quiet(quiet)
    , m_terminal(::isatty(::fileno(stderr)) != 0)
{ }

void Progress::line(const QString &text)
{
    if (m_quiet)
        return;
    QMutexLocker lock(&m_lock);
    m_err << text << '\n';
    m_err.flush();
}

void Progress::count(int done, int total, const QString &text)
{
    line(QStringLiteral("[%1/%2] ").arg(done).arg(total) + text);
}

void Progress::redraw(const QString &text)
{
    if (m_quiet || !m_terminal)
        return;
    QMutexLocker lock(&m_lock);
    m_err << '\r' << text;
    m_err.flush();
    m_redrawn = true;
}

void Progress::endRedraw()
{
    QMutexLocker lock(&m_lock);
    if (!m_redrawn)
        return;
    m_redrawn = false;
    m_err << '\n';
    m_err.flush();
}

void Progress::start(int total)
{
    m_total = total;
    m_done = 0;
    m_failed = 0;
}

void Progress::item(const QString &text, bool failed)
{
    ++m_done;
    m_failed += failed ? 1 : 0;
    if (m_quiet)
        return;
    if (m_terminal)
        drawBar();
    else
        count(m_done, m_total, text);
}

void Progress::drawBar()
{
    constexpr int width = 40;
    const int filled = m_total > 0 ? width * m_done / m_total : width;
    QMutexLocker lock(&m_lock);
    m_err << "\r[" << QString(filled, QLatin1Char('#')) << QString(width - filled, QLatin1Char('.')) << "] " << m_done
          << "/" << m_total << ", " << m_failed << " failed";
    if (m_done == m_total)
        m_err << '\n';
    m_err.flush();
}

} // namespace gpuf::cli
