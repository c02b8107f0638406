// The small table models under QAbstractItemModelTester, each fed by hand: the store overview's problem counts, a
// cost-model explanation and the measurement queue. What a view shows (texts, sort values, row counts) is checked
// alongside, through resets and in-place updates.
#include "widgets/forecast/explanation_model.h"
#include "widgets/measure/measure_queue_model.h"
#include "widgets/overview/problem_counts_model.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QSignalSpy>
#include <QTest>

#include <cmath>

using namespace gpuf;

namespace {

NamedCounts counts(const char *name, qint64 kernels, qint64 measurements, qint64 forecasts, qint64 labels)
{
    NamedCounts c;
    c.name = QString::fromUtf8(name);
    c.kernels = kernels;
    c.measurements = measurements;
    c.forecasts = forecasts;
    c.pairLabels = labels;
    return c;
}

ExplanationItem item(const char *feature, double reference, double candidate, double contribution,
    ExplanationItem::Kind kind = ExplanationItem::Kind::Kernel)
{
    ExplanationItem i;
    i.kind = kind;
    i.feature = QString::fromUtf8(feature);
    i.referenceValue = reference;
    i.candidateValue = candidate;
    i.contribution = contribution;
    i.text = i.feature + QStringLiteral(" explained");
    return i;
}

MeasureItem queued(quint64 id, RowId kernel, const char *label)
{
    MeasureItem i;
    i.id = id;
    i.job.kernelId = kernel;
    i.kernelLabel = QString::fromUtf8(label);
    return i;
}

QString text(const QAbstractItemModel &model, int row, int column)
{
    return model.index(row, column).data().toString();
}

} // namespace

class TestTableModels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }

    void problemCounts()
    {
        ProblemCountsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), int(ProblemCountsModel::ColumnCount));
        model.setRows({counts("axpy", 3, 1234, 2, 4), counts("softmax", 12, 0, 0, 1)});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(text(model, 0, ProblemCountsModel::NameColumn), QStringLiteral("axpy"));
        QCOMPARE(text(model, 0, ProblemCountsModel::KernelsColumn), QStringLiteral("3"));
        QCOMPARE(text(model, 0, ProblemCountsModel::MeasurementsColumn), QStringLiteral("1234"));
        QCOMPARE(text(model, 1, ProblemCountsModel::PairLabelsColumn), QStringLiteral("1"));
        QCOMPARE(model.index(1, ProblemCountsModel::KernelsColumn).data(ProblemCountsModel::SortRole).toLongLong(), 12);
        QCOMPARE(model.index(1, ProblemCountsModel::NameColumn).data(ProblemCountsModel::SortRole).toString(),
            QStringLiteral("softmax"));
        QCOMPARE(model.headerData(ProblemCountsModel::ForecastsColumn, Qt::Horizontal).toString(),
            QStringLiteral("Forecasts"));
        model.setRows({counts("gemm", 1, 1, 1, 1)});
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(text(model, 0, ProblemCountsModel::NameColumn), QStringLiteral("gemm"));
        model.setRows({});
        QCOMPARE(model.rowCount(), 0);
    }

    void explanation()
    {
        ExplanationModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        Explanation e;
        e.predictedBin = 5;
        e.items
            = {item("access_bytes", 4, 16, 0.8), item("hw_sm_count", 132, 132, -0.25, ExplanationItem::Kind::Hardware),
                item("unrolled", std::nan(""), 2.5, 0.0312)};
        model.setExplanation(e);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(text(model, 0, ExplanationModel::FeatureColumn), QStringLiteral("access_bytes"));
        QCOMPARE(text(model, 0, ExplanationModel::CandidateColumn), QStringLiteral("16"));
        QCOMPARE(text(model, 0, ExplanationModel::ContributionColumn), QStringLiteral("+0.80"));
        QCOMPARE(model.index(0, 0).data(Qt::ToolTipRole).toString(), QStringLiteral("access_bytes explained"));
        QCOMPARE(text(model, 1, ExplanationModel::FeatureColumn), QStringLiteral("hw_sm_count (GPU)"));
        QCOMPARE(text(model, 1, ExplanationModel::CandidateColumn), QString()); // the GPU is the same on both sides
        QCOMPARE(text(model, 1, ExplanationModel::ContributionColumn), QStringLiteral("-0.25"));
        QCOMPARE(text(model, 2, ExplanationModel::ReferenceColumn), QStringLiteral("—"));
        QCOMPARE(text(model, 2, ExplanationModel::CandidateColumn), QStringLiteral("2.5"));
        QCOMPARE(
            model.index(2, ExplanationModel::ContributionColumn).data(ExplanationModel::SortRole).toDouble(), 0.0312);

        // Only the strongest items are shown: they come sorted, the tail says little.
        Explanation many;
        for (int i = 0; i < ExplanationModel::kMaxItems + 5; ++i)
            many.items.append(item("f", i, i, 1.0 / (i + 1)));
        model.setExplanation(many);
        QCOMPARE(model.rowCount(), ExplanationModel::kMaxItems);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void measureQueue()
    {
        MeasureQueueModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QList<MeasureItem> items {queued(1, 10, "axpy / v1"), queued(2, 11, "axpy / v2")};
        model.setItems(items);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(text(model, 0, MeasureQueueModel::KernelColumn), QStringLiteral("axpy / v1"));
        QCOMPARE(text(model, 0, MeasureQueueModel::StatusColumn), QStringLiteral("queued"));
        QCOMPARE(text(model, 1, MeasureQueueModel::SourceColumn), QStringLiteral("local GPU"));
        QCOMPARE(model.index(1, 0).data(MeasureQueueModel::ItemIdRole).toULongLong(), 2u);

        // The same items further on: updated in place (a view keeps its selection), not reset.
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changes(&model, &QAbstractItemModel::dataChanged);
        items[0].state = MeasureItemState::Done;
        items[0].outcome = QStringLiteral("ok");
        items[0].casesOk = 2;
        items[0].casesTotal = 2;
        items[0].medianNs = 8580.0;
        items[1].state = MeasureItemState::Running;
        model.setItems(items);
        QCOMPARE(resets.size(), 0);
        QCOMPARE(changes.size(), 1);
        QCOMPARE(text(model, 0, MeasureQueueModel::StatusColumn), QStringLiteral("done: ok"));
        QCOMPARE(text(model, 0, MeasureQueueModel::CasesColumn), QStringLiteral("2/2 ok"));
        QCOMPARE(text(model, 0, MeasureQueueModel::MedianColumn), QStringLiteral("8.58 µs"));
        QCOMPARE(model.index(0, MeasureQueueModel::MedianColumn).data(MeasureQueueModel::SortRole).toDouble(), 8580.0);
        QCOMPARE(text(model, 1, MeasureQueueModel::StatusColumn), QStringLiteral("running"));

        // Other items: a reset.
        model.setItems({queued(3, 12, "softmax / v1")});
        QCOMPARE(resets.size(), 1);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(text(model, 0, MeasureQueueModel::KernelColumn), QStringLiteral("softmax / v1"));
        model.setItems({});
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TestTableModels)
#include "tst_table_models.moc"
