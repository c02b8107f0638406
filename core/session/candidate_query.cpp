// Candidate filter, sort keys and statuses; see candidate_query.h.
#include "core/session/candidate_query.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpuf {

QString candidateStatusName(CandidateStatus status)
{
    switch (status) {
    case CandidateStatus::Measured:
        return QCoreApplication::translate("gpuf::candidates", "measured");
    case CandidateStatus::MeasuredReplay:
        return QCoreApplication::translate("gpuf::candidates", "measured (replay)");
    case CandidateStatus::Pending:
        return QCoreApplication::translate("gpuf::candidates", "pending");
    case CandidateStatus::Trusted:
        return QCoreApplication::translate("gpuf::candidates", "forecast trusted");
    case CandidateStatus::NotMeasured:
        break;
    }
    return QCoreApplication::translate("gpuf::candidates", "not measured");
}

const MeasuredCell *measuredCellOf(const CandidateTable &table, int row, const CandidateView &view)
{
    if (view.hardware < 0 || view.hardware >= table.hardware.size())
        return nullptr;
    return &table.measuredCell(row, view.hardware);
}

const ForecastCell *forecastCellOf(const CandidateTable &table, int row, const CandidateView &view)
{
    if (view.forecaster < 0 || view.forecaster >= table.forecasters.size())
        return nullptr;
    const ForecastCell &cell = table.forecastCell(row, view.forecaster);
    return cell.isValid() ? &cell : nullptr;
}

CandidateStatus candidateStatus(const CandidateTable &table, int row, const CandidateView &view)
{
    const MeasuredCell *measured = measuredCellOf(table, row, view);
    if (measured && measured->isKnown())
        return measured->isReplay() ? CandidateStatus::MeasuredReplay : CandidateStatus::Measured;
    if (view.pending.contains(table.rows[row].id))
        return CandidateStatus::Pending;
    const ForecastCell *forecast = forecastCellOf(table, row, view);
    if (forecast && forecast->confidence >= view.trustThreshold)
        return CandidateStatus::Trusted;
    return CandidateStatus::NotMeasured;
}

double candidateSortKey(const CandidateTable &table, int row, int column, const CandidateView &view)
{
    constexpr double none = std::numeric_limits<double>::quiet_NaN();
    const CandidateRow &r = table.rows[row];
    switch (column) {
    case NameColumn:
        return r.nameRank;
    case ProblemColumn:
        return r.problemRank >= 0 ? r.problemRank : none;
    case OriginColumn:
        return r.originRank;
    case ParentColumn: {
        const int parent = r.parentId ? table.rowOf(r.parentId) : -1;
        return parent >= 0 ? table.rows[parent].nameRank : none;
    }
    case LanguageColumn:
        return r.languageRank;
    case ChangedLinesColumn:
        return r.changedLines >= 0 ? r.changedLines : none;
    case SpeedupColumn:
    case MeasuredBinColumn: {
        const MeasuredCell *cell = measuredCellOf(table, row, view);
        if (!cell || !cell->isKnown())
            return none;
        if (cell->failed())
            return 0.0; // below every speedup and every bin
        if (column == SpeedupColumn)
            return cell->truthSpeedup().value_or(none);
        const std::optional<int> bin = cell->truthBin();
        return bin ? double(*bin) : none;
    }
    case PredictedBinColumn:
    case ConfidenceColumn:
    case ExpectedSpeedupColumn: {
        const ForecastCell *cell = forecastCellOf(table, row, view);
        if (!cell)
            return none;
        return column == PredictedBinColumn ? cell->predictedBin
            : column == ConfidenceColumn    ? cell->confidence
                                            : cell->expectedSpeedup;
    }
    case StatusColumn:
        return double(candidateStatus(table, row, view));
    case CreatedColumn:
        return double(r.createdAtMs);
    case PlausibilityColumn: {
        // Implausible rows (by their number of cases) above plausible ones; unmeasured rows last.
        const MeasuredCell *cell = measuredCellOf(table, row, view);
        return cell && cell->hasMeasurement() ? double(cell->implausibleCases) : none;
    }
    case TimesColumn: {
        // By the figure the speedup uses; rows without the two figures last.
        const MeasuredCell *cell = measuredCellOf(table, row, view);
        return cell && cell->hasTimes() ? double(cell->speedupByCall ? cell->callUs : cell->deviceUs) : none;
    }
    default:
        return none;
    }
}

namespace {

// Everything a filter needs that does not depend on the row, worked out once per query.
class Matcher
{
public:
    Matcher(const CandidateTable &table, const CandidateFilter &filter, const CandidateView &view)
        : m_table(table)
        , m_filter(filter)
        , m_view(view)
        , m_text(filter.text.trimmed())
    {
        if (filter.searchId != 0) {
            const int search = table.searchIndexOf(filter.searchId);
            m_searchMembers = search >= 0 ? &table.searches[search].kernelIds : &m_none;
        }
        if (!m_text.isEmpty()) {
            m_problemMatches.reserve(table.problems.size());
            for (const CandidateProblem &p : table.problems)
                m_problemMatches.append(p.name.contains(m_text, Qt::CaseInsensitive));
        }
        m_confidenceRange = filter.minConfidence > 0.0 || filter.maxConfidence < 1.0;
    }

    bool matches(int row) const
    {
        const CandidateRow &r = m_table.rows[row];
        if (m_filter.problemId != 0 && r.problemId != m_filter.problemId)
            return false;
        if (m_searchMembers && !std::binary_search(m_searchMembers->cbegin(), m_searchMembers->cend(), r.id))
            return false;
        if (m_filter.restrictToIds && !std::binary_search(m_filter.ids.cbegin(), m_filter.ids.cend(), r.id))
            return false;
        if (!m_filter.origin.isEmpty() && r.origin != m_filter.origin)
            return false;
        if (!matchesValues(row))
            return false;
        if (m_filter.status && candidateStatus(m_table, row, m_view) != *m_filter.status)
            return false;
        return m_text.isEmpty() || matchesText(r);
    }

private:
    bool matchesValues(int row) const
    {
        if (m_filter.measuredBin != CandidateFilter::kAnyBin) {
            const MeasuredCell *cell = measuredCellOf(m_table, row, m_view);
            if (!cell)
                return false;
            if (m_filter.measuredBin == CandidateFilter::kFailedBin ? !cell->failed()
                                                                    : cell->truthBin() != m_filter.measuredBin)
                return false;
        }
        if (m_filter.predictedBin == CandidateFilter::kAnyBin && !m_confidenceRange)
            return true;
        const ForecastCell *forecast = forecastCellOf(m_table, row, m_view);
        if (!forecast)
            return false;
        if (m_filter.predictedBin != CandidateFilter::kAnyBin && forecast->predictedBin != m_filter.predictedBin)
            return false;
        return !m_confidenceRange
            || (forecast->confidence >= m_filter.minConfidence && forecast->confidence <= m_filter.maxConfidence);
    }

    bool matchesText(const CandidateRow &r) const
    {
        return r.name.contains(m_text, Qt::CaseInsensitive) || r.contentHash.startsWith(m_text, Qt::CaseInsensitive)
            || (r.problemIndex >= 0 && m_problemMatches[r.problemIndex])
            || r.origin.contains(m_text, Qt::CaseInsensitive) || r.language.contains(m_text, Qt::CaseInsensitive);
    }

    const CandidateTable &m_table;
    const CandidateFilter &m_filter;
    const CandidateView &m_view;
    const QString m_text;
    const QList<RowId> m_none;
    const QList<RowId> *m_searchMembers = nullptr;
    QList<bool> m_problemMatches;
    bool m_confidenceRange = false;
};

} // namespace

bool candidateMatches(const CandidateTable &table, int row, const CandidateFilter &filter, const CandidateView &view)
{
    return Matcher(table, filter, view).matches(row);
}

QList<int> candidateOrder(const CandidateTable &table, const CandidateFilter &filter, const CandidateView &view,
    int column, Qt::SortOrder order, const CancelToken &cancel)
{
    const Matcher matcher(table, filter, view);
    QList<int> rows;
    rows.reserve(table.rows.size());
    for (int row = 0; row < table.rows.size(); ++row) {
        if ((row & 0xfff) == 0 && cancel.isCancelled())
            return {};
        if (matcher.matches(row))
            rows.append(row);
    }
    if (column < 0 || column >= CandidateColumnCount)
        return rows; // already in id order

    struct Keyed
    {
        double key;
        int row;
    };
    QList<Keyed> keyed;
    keyed.reserve(rows.size());
    for (int row : std::as_const(rows))
        keyed.append({candidateSortKey(table, row, column, view), row});
    if (cancel.isCancelled())
        return {};
    const bool ascending = order == Qt::AscendingOrder;
    std::sort(keyed.begin(), keyed.end(), [ascending](const Keyed &a, const Keyed &b) {
        const bool aNone = std::isnan(a.key), bNone = std::isnan(b.key);
        if (aNone != bNone)
            return bNone; // rows without a value go last
        if (!aNone && a.key != b.key)
            return ascending ? a.key < b.key : a.key > b.key;
        return a.row < b.row;
    });
    for (qsizetype i = 0; i < keyed.size(); ++i)
        rows[i] = keyed[i].row;
    return rows;
}

RowId pairBaseline(const CandidateTable &table, int row, Selection::Baseline kind, RowId custom)
{
    const CandidateRow &r = table.rows[row];
    switch (kind) {
    case Selection::Baseline::Custom:
        if (custom != 0)
            return custom;
        break;
    case Selection::Baseline::Parent:
        if (r.parentId != 0)
            return r.parentId;
        break;
    case Selection::Baseline::Reference:
        break;
    }
    return r.baselineId;
}

} // namespace gpuf
