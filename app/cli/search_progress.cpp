// SearchProgress; see search_progress.h.
#include "app/cli/search_progress.h"

#include <algorithm>

namespace gpuf::cli {

SearchProgress::SearchProgress(Progress &progress)
    : m_progress(progress)
{ }

QString SearchProgress::figures(const search::SearchSnapshot &s)
{
    QString text = QStringLiteral("step %1/%2, %3 GPU evaluation(s)").arg(s.step).arg(s.steps).arg(s.gpuEvaluations);
    if (s.replayedEvaluations > 0)
        text += QStringLiteral(" (replay)");
    if (s.reusedEvaluations > 0)
        text += QStringLiteral(", %1 reused").arg(s.reusedEvaluations);
    if (s.forecasts > 0)
        text += QStringLiteral(", %1 forecast(s), %2 deferred").arg(s.forecasts).arg(s.deferred);
    if (s.bestSpeedup)
        text += QStringLiteral(", best %1×").arg(*s.bestSpeedup, 0, 'f', 3);
    return text;
}

void SearchProgress::snapshot(const search::SearchSnapshot &s)
{
    if (s.steps <= 0)
        return;
    constexpr int width = 30;
    const int filled = std::min(width, s.step * width / s.steps);
    m_progress.redraw(u'[' + QString(filled, QLatin1Char('#')) + QString(width - filled, QLatin1Char('.'))
        + QStringLiteral("] ") + figures(s) + QStringLiteral("   "));
    m_drawn = true;
}

void SearchProgress::step(const search::SearchSnapshot &s)
{
    if (m_progress.isTerminal())
        snapshot(s);
    else
        m_progress.line(s.name + QStringLiteral(": ") + figures(s));
}

void SearchProgress::finish(const search::SearchSnapshot &s)
{
    if (m_drawn)
        snapshot(s);
    m_progress.endRedraw();
    if (s.status == search::RunStatus::Paused || s.status == search::RunStatus::Stopped)
        m_progress.line(
            QStringLiteral("%1: %2 at step %3").arg(s.name, search::runStatusName(s.status), QString::number(s.step)));
    else if (s.exhausted)
        m_progress.line(QStringLiteral("%1: finished at step %2 of %3: %4")
                            .arg(s.name, QString::number(s.step), QString::number(s.steps), s.finishReason));
}

} // namespace gpuf::cli
