// SearchProgress; see search_progress.h.
#include "app/cli/search_progress.h"

#include <cstdio>
#include <unistd.h>

namespace gpuf::cli {

SearchProgress::SearchProgress(QTextStream &err, bool quiet)
    : m_err(err)
    , m_quiet(quiet)
    , m_terminal(::isatty(::fileno(stderr)) != 0)
{ }

QString SearchProgress::figures(const search::SearchSnapshot &s) const
{
    QString text = QStringLiteral("step %1/%2, %3 GPU evaluation(s)").arg(s.step).arg(s.steps).arg(s.gpuEvaluations);
    if (s.replayedEvaluations > 0)
        text += QStringLiteral(" (replay)");
    if (s.forecasts > 0)
        text += QStringLiteral(", %1 forecast(s), %2 deferred").arg(s.forecasts).arg(s.deferred);
    if (s.bestSpeedup)
        text += QStringLiteral(", best %1×").arg(*s.bestSpeedup, 0, 'f', 3);
    return text;
}

void SearchProgress::snapshot(const search::SearchSnapshot &s)
{
    if (m_quiet || !m_terminal || s.steps <= 0)
        return;
    constexpr int width = 30;
    const int filled = std::min(width, s.step * width / s.steps);
    m_err << '\r' << '[' << QString(filled, QLatin1Char('#')) << QString(width - filled, QLatin1Char('.')) << "] "
          << figures(s) << "   ";
    m_err.flush();
    m_drawn = true;
}

void SearchProgress::step(const search::SearchSnapshot &s)
{
    if (m_quiet)
        return;
    if (m_terminal) {
        snapshot(s);
        return;
    }
    m_err << s.name << ": " << figures(s) << '\n';
    m_err.flush();
}

void SearchProgress::finish(const search::SearchSnapshot &s)
{
    if (m_quiet)
        return;
    if (m_terminal && m_drawn) {
        snapshot(s);
        m_err << '\n';
    }
    if (s.status == search::RunStatus::Paused || s.status == search::RunStatus::Stopped)
        m_err << s.name << ": " << search::runStatusName(s.status) << " at step " << s.step << '\n';
    else if (s.exhausted)
        m_err << s.name << ": finished at step " << s.step << " of " << s.steps << ": " << s.finishReason << '\n';
    m_err.flush();
}

} // namespace gpuf::cli
