// CandidateTableModel's cells: the data roles of a row, the texts and tool tips of each column, and the column headers.
#include "widgets/candidates/candidate_table_model.h"

#include "core/bins/bins.h"

#include <QDateTime>
#include <QFont>

namespace gpuf {
namespace {

// Enough digits that the text lies in the speedup's own bin (bins::speedupText).
QString speedupText(double speedup) { return bins::speedupText(speedup, speedup < 10.0 ? 2 : 1); }

// "11.0 µs", "8.25 µs", "6410.1 µs"
QString timesMicroseconds(float us)
{
    return QString::number(double(us), 'f', us < 10.0F ? 2 : 1) + QStringLiteral(" µs");
}

QString failureText(MeasurementStatus status)
{
    return measurementStatusName(status).replace(QLatin1Char('_'), QLatin1Char(' '));
}

// Follows a speedup (or failure) that rests on replayed runtimes, so a replay never passes for a run made here.
const QString kReplayMarker = QStringLiteral(" ↺");

QString replayedText(const QString &text, const MeasuredCell &cell)
{
    return cell.isReplay() ? text + kReplayMarker : text;
}

bool isNumeric(int column)
{
    switch (column) {
    case ChangedLinesColumn:
    case SpeedupColumn:
    case ConfidenceColumn:
    case ExpectedSpeedupColumn:
        return true;
    default:
        return false;
    }
}

} // namespace

QVariant CandidateTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = m_order[index.row()];
    const CandidateRow &r = m_table->rows[row];
    switch (role) {
    case Qt::DisplayRole:
        return displayData(row, index.column());
    case Qt::ToolTipRole:
        return toolTipData(row, index.column());
    case Qt::TextAlignmentRole:
        return isNumeric(index.column()) ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::FontRole: {
        const MeasuredCell *cell = measuredCellOf(*m_table, row, m_view);
        // Italic: a speedup that was not measured here (an imported label, or replayed runtimes).
        const bool notMeasuredHere = cell && (cell->usesLabel() || cell->isReplay())
            && (index.column() == SpeedupColumn || index.column() == MeasuredBinColumn);
        if (!notMeasuredHere && !(r.isReference && index.column() == NameColumn))
            return {};
        QFont font;
        font.setItalic(notMeasuredHere);
        font.setBold(r.isReference && index.column() == NameColumn);
        return font;
    }
    case SortRole:
        return candidateSortKey(*m_table, row, index.column(), m_view);
    case KernelIdRole:
        return r.id;
    case BaselineIdRole:
        return r.baselineId;
    case ParentIdRole:
        return r.parentId;
    case StatusRole:
        return int(candidateStatus(*m_table, row, m_view));
    case ImportedRole: {
        const MeasuredCell *cell = measuredCellOf(*m_table, row, m_view);
        return cell && cell->usesLabel();
    }
    case ReplayedRole: {
        const MeasuredCell *cell = measuredCellOf(*m_table, row, m_view);
        return cell && cell->isReplay();
    }
    case ImplausibleRole: {
        const MeasuredCell *cell = measuredCellOf(*m_table, row, m_view);
        return cell && cell->implausibleCases > 0;
    }
    default:
        return {};
    }
}

// The measured speedup and bin: failed, the baseline, replayed, or implausible, as the row's measurement says.
QVariant CandidateTableModel::measuredDisplayData(int row, int column) const
{
    const MeasuredCell *cell = measuredCellOf(*m_table, row, m_view);
    if (!cell || !cell->isKnown())
        return {};
    if (cell->failed())
        return cell->hasMeasurement() ? replayedText(failureText(cell->failure), *cell) : tr("failed");
    // The reference against itself is 1× by definition: it is what the other rows are measured against.
    if (m_table->rows[row].isReference && !cell->usesLabel())
        return column == SpeedupColumn ? replayedText(tr("baseline"), *cell) : tr("reference");
    if (column == MeasuredBinColumn) {
        const std::optional<int> bin = cell->truthBin();
        return bin ? bins::numberedLabel(*bin) : QString();
    }
    const std::optional<double> speedup = cell->truthSpeedup();
    const QString text = replayedText(speedup ? speedupText(*speedup) : QStringLiteral("—"), *cell);
    // A speedup resting on a time no memory could deliver is marked where it is read, not only in its column.
    return cell->implausibleCases > 0 ? text + QStringLiteral(" ⚠") : text;
}

QVariant CandidateTableModel::displayData(int row, int column) const
{
    const CandidateRow &r = m_table->rows[row];
    switch (column) {
    case NameColumn:
        return r.displayName();
    case ProblemColumn:
        return r.problemIndex >= 0 ? m_table->problems[r.problemIndex].name : QString();
    case OriginColumn:
        return r.origin;
    case ParentColumn: {
        const int parent = r.parentId ? m_table->rowOf(r.parentId) : -1;
        return parent >= 0 ? m_table->rows[parent].displayName() : QString();
    }
    case LanguageColumn:
        return r.language;
    case ChangedLinesColumn:
        return r.changedLines >= 0 ? QVariant(r.changedLines) : QVariant();
    case SpeedupColumn:
    case MeasuredBinColumn:
        return measuredDisplayData(row, column);
    case PredictedBinColumn:
    case ConfidenceColumn:
    case ExpectedSpeedupColumn: {
        const ForecastCell *cell = forecastCellOf(*m_table, row, m_view);
        if (!cell)
            return {};
        if (column == PredictedBinColumn)
            return bins::numberedLabel(cell->predictedBin);
        return column == ConfidenceColumn ? QString::number(cell->confidence, 'f', 2)
                                          : speedupText(cell->expectedSpeedup);
    }
    case StatusColumn:
        return candidateStatusName(candidateStatus(*m_table, row, m_view));
    case CreatedColumn:
        return r.createdAtMs > 0
            ? QDateTime::fromMSecsSinceEpoch(r.createdAtMs).toString(QStringLiteral("yyyy-MM-dd HH:mm"))
            : QString();
    case PlausibilityColumn: {
        const MeasuredCell *cell = measuredCellOf(*m_table, row, m_view);
        return cell && cell->implausibleCases > 0 ? tr("⚠ implausible") : QString();
    }
    case TimesColumn:
        return pythonTimesText(measuredCellOf(*m_table, row, m_view));
    default:
        return {};
    }
}

QVariant CandidateTableModel::toolTipData(int row, int column) const
{
    const CandidateRow &r = m_table->rows[row];
    switch (column) {
    case NameColumn:
        return tr("Kernel %1%2\nSHA-256 %3")
            .arg(r.id)
            .arg(r.isReference ? tr(" (reference)") : QString(), r.contentHash);
    case ChangedLinesColumn:
        return r.changedLines >= 0 ? tr("Lines changed against kernel %1").arg(r.baselineId)
            : r.baselineId == 0    ? tr("No reference kernel to compare with")
                                   : tr("Not computed yet");
    case SpeedupColumn:
    case MeasuredBinColumn: {
        const MeasuredCell *cell = measuredCellOf(*m_table, row, m_view);
        if (!cell || !cell->isKnown())
            return tr("Not measured on this hardware");
        if (cell->usesLabel())
            return tr("Imported label (published speedup) against kernel %1").arg(cell->labelReferenceId);
        if (r.isReference && !cell->failed())
            return tr("The problem's reference: the other kernels' speedups are measured against it");
        QString tip = implausibleToolTip(*cell);
        if (!tip.isEmpty())
            tip += QLatin1Char('\n');
        if (cell->state == MeasuredCell::State::NoBaseline)
            tip += tr("Measured, but the reference has no ok measurement of the same cases");
        else if (cell->state == MeasuredCell::State::Failed)
            tip += tr("A case failed: %1").arg(failureText(cell->failure));
        else
            tip += tr("Geometric mean over %n case(s) against kernel %1", nullptr, cell->cases).arg(r.baselineId);
        return cell->isReplay() ? replayToolTip(*cell) + QLatin1Char('\n') + tip : tip;
    }
    case PredictedBinColumn:
    case ConfidenceColumn:
    case ExpectedSpeedupColumn: {
        const ForecastCell *cell = forecastCellOf(*m_table, row, m_view);
        if (!cell)
            return tr("No forecast by this forecaster");
        return tr("Forecast %1 against kernel %2; expected bin %3")
            .arg(cell->forecastId)
            .arg(cell->referenceKernelId)
            .arg(cell->expectedBin, 0, 'f', 2);
    }
    case PlausibilityColumn: {
        const MeasuredCell *cell = measuredCellOf(*m_table, row, m_view);
        if (!cell || !cell->hasMeasurement())
            return tr("Not measured on this hardware");
        return cell->implausibleCases > 0 ? implausibleToolTip(*cell)
                                          : tr("No measured time beats the bandwidth floor (bytes ÷ peak bandwidth)");
    }
    case TimesColumn:
        return pythonTimesToolTip(measuredCellOf(*m_table, row, m_view));
    default:
        return {};
    }
}

// "device 11.0 µs · [call 14.7 µs]": the figure the speedup uses in brackets; empty without both figures.
QString CandidateTableModel::pythonTimesText(const MeasuredCell *cell)
{
    if (!cell || !cell->hasTimes())
        return {};
    const QString device = tr("device %1").arg(timesMicroseconds(cell->deviceUs));
    const QString call = tr("call %1").arg(timesMicroseconds(cell->callUs));
    QString text = cell->speedupByCall ? QString(device + QStringLiteral(" · [") + call + u']')
                                       : QString(u'[' + device + QStringLiteral("] · ") + call);
    if (cell->launchBoundCases > 0)
        text += tr(" · launch-bound");
    return text;
}

QString CandidateTableModel::pythonTimesToolTip(const MeasuredCell *cell)
{
    if (!cell || !cell->hasTimes())
        return tr("No device and call time recorded on this hardware (a CUDA kernel, or Python measured before "
                  "both were)");
    QString tip = tr("Geometric mean over %n case(s): device time %1 (the GPU's work), call time %2 (per call in a "
                     "loop, as triton.testing.do_bench times it).",
        nullptr, cell->timesCases)
                      .arg(timesMicroseconds(cell->deviceUs), timesMicroseconds(cell->callUs));
    tip += u'\n'
        + (cell->speedupByCall ? tr("The speedup uses the call time (the problem's SPEEDUP_TIME), in brackets.")
                               : tr("The speedup uses the device time (the problem's SPEEDUP_TIME), in brackets."));
    if (cell->launchBoundCases > 0)
        tip += u'\n'
            + tr("Launch-bound in %n case(s): the call takes longer than the GPU's work by the host's launch time.",
                nullptr, cell->launchBoundCases);
    return tip;
}

QString CandidateTableModel::implausibleToolTip(const MeasuredCell &cell) const
{
    if (cell.implausibleCases <= 0)
        return {};
    // Two short lines: a tool tip in plain text is never wrapped.
    return tr(
        "⚠ Implausible, faster than its bytes can move: %1.\nA broken or cheating kernel, a wrong bytes_moved, or "
        "data served from the L2 cache.")
        .arg(cell.implausibleText);
}

QString CandidateTableModel::replayToolTip(const MeasuredCell &cell) const
{
    const QString hardware = m_table->hardware[m_view.hardware].name;
    if (cell.replayRecordedMs <= 0)
        return tr("↺ Replayed from runtimes recorded earlier on %1, not measured here").arg(hardware);
    const QString when
        = QDateTime::fromMSecsSinceEpoch(cell.replayRecordedMs).toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    return tr("↺ Replayed from runtimes recorded on %1 (%2), not measured here").arg(hardware, when);
}

QString CandidateTableModel::headerToolTip(int section)
{
    // What each column holds, so the forecast's columns are not read as one figure: the predicted bin is the most
    // likely bin, the expected speedup the distribution's mean, and the two may lie in different bins.
    switch (section) {
    case ChangedLinesColumn:
        return tr("Lines added or removed against the baseline (the reference, or the parent)");
    case SpeedupColumn:
        return tr("Measured speedup: the baseline's time over this kernel's (above 1× is faster); ↺ replayed, "
                  "italic when not measured here");
    case MeasuredBinColumn:
        return tr("The half-octave bin (1–8) the measured speedup falls in");
    case PredictedBinColumn:
        return tr("The forecast's most likely bin (the bin with the largest probability) and what it means");
    case ConfidenceColumn:
        return tr("The probability the forecast gives its predicted bin");
    case ExpectedSpeedupColumn:
        return tr("The forecast's mean speedup (each bin's probability times its middle speedup): it can lie in "
                  "another bin than the predicted one when the probability is spread");
    case StatusColumn:
        return tr("Measured, forecast only, failed, or neither");
    case PlausibilityColumn:
        return tr("Whether a measured time beats what the GPU's memory bandwidth allows");
    case TimesColumn:
        return tr("A Python kernel's device time (its GPU work) and call time (per call in a loop, host launch "
                  "included); the one its speedup uses is in brackets");
    default:
        return {};
    }
}

QVariant CandidateTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= CandidateColumnCount)
        return {};
    if (role == Qt::TextAlignmentRole)
        return isNumeric(section) ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    if (role == Qt::ToolTipRole)
        return headerToolTip(section);
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Kernel");
    case ProblemColumn:
        return tr("Problem");
    case OriginColumn:
        return tr("Origin");
    case ParentColumn:
        return tr("Parent");
    case LanguageColumn:
        return tr("Language");
    case ChangedLinesColumn:
        return tr("Lines changed");
    case SpeedupColumn:
        return tr("Speedup");
    case MeasuredBinColumn:
        return tr("Measured bin");
    case PredictedBinColumn:
        return tr("Predicted bin");
    case ConfidenceColumn:
        return tr("Confidence");
    case ExpectedSpeedupColumn:
        return tr("Expected speedup");
    case StatusColumn:
        return tr("Status");
    case CreatedColumn:
        return tr("Created");
    case PlausibilityColumn:
        return tr("Plausibility");
    case TimesColumn:
        return tr("Device · call time");
    default:
        return {};
    }
}

} // namespace gpuf
