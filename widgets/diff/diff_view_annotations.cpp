// DiffView's forecast annotations: the cost model's line marks on the panes and the overview bar, shown only for the
// pair they were made for, either way round.
#include "widgets/diff/diff_view.h"

#include "widgets/diff/diff_overview_bar.h"
#include "widgets/diff/diff_pane.h"

#include <QAction>
#include <QHash>

namespace gpuf {

void DiffView::setForecastAnnotations(const ForecastAnnotations &annotations)
{
    m_annotations = annotations;
    applyAnnotations();
}

void DiffView::clearForecastAnnotations() { setForecastAnnotations({}); }

std::optional<PaneSide> DiffView::annotatedReferenceSide() const
{
    if (!m_document || m_annotations.isEmpty())
        return std::nullopt;
    const DiffBuildRequest &shown = m_document->request;
    if (shown.left.source == m_annotations.referenceSource && shown.right.source == m_annotations.candidateSource)
        return PaneSide::Left;
    if (shown.right.source == m_annotations.referenceSource && shown.left.source == m_annotations.candidateSource)
        return PaneSide::Right;
    return std::nullopt;
}

bool DiffView::forecastAnnotationsShown() const
{
    return m_showAnnotations->isChecked() && annotatedReferenceSide().has_value();
}

void DiffView::applyAnnotations()
{
    const std::optional<PaneSide> reference = annotatedReferenceSide();
    m_showAnnotations->setEnabled(reference.has_value());
    m_showAnnotations->setToolTip(reference
            ? tr("Mark the lines that carry the features behind forecast #%1: violet pushes toward a faster "
                 "candidate, orange toward a slower one")
                  .arg(m_annotations.forecastId)
            : tr("No cost-model forecast explains this pair"));
    QList<LineAnnotation> left;
    QList<LineAnnotation> right;
    if (reference && m_showAnnotations->isChecked()) {
        left = *reference == PaneSide::Left ? m_annotations.reference : m_annotations.candidate;
        right = *reference == PaneSide::Left ? m_annotations.candidate : m_annotations.reference;
    }
    m_leftPane->setLineAnnotations(left);
    m_rightPane->setLineAnnotations(right);
    QList<OverviewAnnotation> marks;
    if (m_document && (!left.isEmpty() || !right.isEmpty())) {
        QHash<int, Push> leftPush, rightPush;
        for (const LineAnnotation &a : std::as_const(left))
            leftPush.insert(a.line, a.push);
        for (const LineAnnotation &a : std::as_const(right))
            rightPush.insert(a.line, a.push);
        for (int row = 0; row < m_document->diff.rows.size(); ++row) {
            const diff::DiffRow &r = m_document->diff.rows.at(row);
            if (const auto it = leftPush.constFind(r.leftLine); r.hasLeft() && it != leftPush.cend())
                marks.append({row, PaneSide::Left, *it});
            if (const auto it = rightPush.constFind(r.rightLine); r.hasRight() && it != rightPush.cend())
                marks.append({row, PaneSide::Right, *it});
        }
    }
    m_overview->setAnnotations(marks);
}

} // namespace gpuf
