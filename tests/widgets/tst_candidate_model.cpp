// Tests of the candidate table model under QAbstractItemModelTester (fatal), and of its background sorting and
// filtering against independent brute-force answers over a real store's table.
#include "tst_candidate_store.h"

#include "core/bins/bins.h"
#include "core/store/candidate_rows.h"
#include "widgets/candidates/candidate_table_model.h"

#include <QAbstractItemModelTester>
#include <QDateTime>
#include <QFont>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <functional>

using namespace gpuf;

Q_DECLARE_METATYPE(gpuf::CandidateFilter)
Q_DECLARE_METATYPE(std::function<bool(const gpuf::CandidateTable &, int)>)

namespace {

using Predicate = std::function<bool(const CandidateTable &, int)>;

const MeasuredCell &firstGpu(const CandidateTable &t, int row) { return t.measuredCell(row, 0); }

} // namespace

class TestCandidateModel : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    testing::CandidateStoreFacts m_facts;
    CandidateTablePtr m_table;

    // Applies `filter` and waits for the background result.
    static void applyFilter(CandidateTableModel &model, const CandidateFilter &filter)
    {
        QSignalSpy applied(&model, &CandidateTableModel::orderApplied);
        model.setFilter(filter);
        QVERIFY(applied.wait(5000));
        QTRY_VERIFY(!model.isUpdating());
    }

    static void applySort(CandidateTableModel &model, int column, Qt::SortOrder order)
    {
        QSignalSpy applied(&model, &CandidateTableModel::orderApplied);
        model.sort(column, order);
        QVERIFY(applied.wait(5000));
    }

    void newModel(CandidateTableModel &model)
    {
        QSignalSpy applied(&model, &CandidateTableModel::orderApplied);
        model.setTable(m_table);
        QVERIFY(applied.wait(5000));
        QCOMPARE(model.view().hardware, 0);
        QCOMPARE(model.view().forecaster, 0);
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_facts = testing::makeCandidateStore(m_dir.filePath(QStringLiteral("model.gpuf")));
        auto store = Store::open(m_dir.filePath(QStringLiteral("model.gpuf")), Store::Mode::ReadOnly);
        QVERIFY2(store.ok(), qPrintable(store.error()));
        auto table = loadCandidateTable(**store);
        QVERIFY2(table.ok(), qPrintable(table.error()));
        auto lines = computeChangedLines(**store, *table);
        QVERIFY2(lines.ok(), qPrintable(lines.error()));
        for (qsizetype row = 0; row < table->rows.size(); ++row)
            table->rows[row].changedLines = lines->perRow[row];
        m_table = std::make_shared<const CandidateTable>(std::move(*table));
        QCOMPARE(m_table->rows.size(), 60);
    }

    // The forecast's columns say what they are (issue 27, item 17): the predicted bin is the most likely bin, the
    // expected speedup the distribution's mean, which may lie in another bin.
    void headersSayWhatColumnsHold()
    {
        const CandidateTableModel model;
        const auto tip
            = [&model](int column) { return model.headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString(); };
        QVERIFY(tip(PredictedBinColumn).contains(QLatin1StringView("most likely bin")));
        QVERIFY(tip(ExpectedSpeedupColumn).contains(QLatin1StringView("mean speedup")));
        QVERIFY(tip(ExpectedSpeedupColumn).contains(QLatin1StringView("another bin than the predicted one")));
        QVERIFY(tip(ConfidenceColumn).contains(QLatin1StringView("probability the forecast gives its predicted bin")));
        QVERIFY(tip(SpeedupColumn).startsWith(QLatin1StringView("Measured speedup")));
    }

    void passesModelTester()
    {
        CandidateTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        newModel(model);
        QCOMPARE(model.rowCount(), 60);
        QPersistentModelIndex kept(model.index(7, NameColumn));
        const RowId keptId = kept.data(CandidateTableModel::KernelIdRole).toLongLong();
        for (int column = 0; column < CandidateColumnCount; ++column) {
            applySort(model, column, Qt::DescendingOrder);
            QVERIFY(kept.isValid());
            QCOMPARE(kept.data(CandidateTableModel::KernelIdRole).toLongLong(), keptId); // moved with its row
        }
        CandidateFilter filter;
        filter.text = QStringLiteral("soft");
        applyFilter(model, filter);
        QCOMPARE(model.rowCount(), 20);
        model.setHardwareIndex(1);
        model.setForecasterIndex(1);
        model.setTrustThreshold(0.2);
        model.setPendingIds({m_facts.kernels[3]});
        QTRY_VERIFY(!model.isUpdating());
        model.updateTable(m_table);
        QTRY_VERIFY(!model.isUpdating());
        for (int row = 0; row < model.rowCount(); ++row) {
            for (int column = 0; column < CandidateColumnCount; ++column) {
                for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole), int(Qt::FontRole),
                         int(CandidateTableModel::ReplayedRole)})
                    model.index(row, column).data(role);
            }
        }
        QSignalSpy applied(&model, &CandidateTableModel::orderApplied);
        model.setTable(nullptr);
        QVERIFY(applied.count() > 0 || applied.wait(5000));
        QCOMPARE(model.rowCount(), 0);
    }

    void sortsByRawKeys_data()
    {
        QTest::addColumn<int>("column");
        QTest::addColumn<int>("order");
        for (int column = 0; column < CandidateColumnCount; ++column) {
            if (column == TimesColumn)
                continue; // this store holds no Python timings: tst_python_times sorts by them
            for (Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
                const QByteArray name = CandidateTableModel().headerData(column, Qt::Horizontal).toString().toUtf8()
                    + (order == Qt::AscendingOrder ? " asc" : " desc");
                QTest::newRow(name.constData()) << column << int(order);
            }
        }
    }

    // Adjacent rows are in key order, rows without a value come last in either order, ties keep id order.
    void sortsByRawKeys()
    {
        QFETCH(int, column);
        QFETCH(int, order);
        CandidateTableModel model;
        newModel(model);
        applySort(model, column, Qt::SortOrder(order));
        QCOMPARE(model.rowCount(), 60);
        bool seenNone = false;
        int withValue = 0;
        for (int row = 0; row < model.rowCount(); ++row) {
            const double key = model.index(row, column).data(CandidateTableModel::SortRole).toDouble();
            if (std::isnan(key)) {
                seenNone = true;
                continue;
            }
            ++withValue;
            QVERIFY2(!seenNone, "a row with a value after a row without one");
            if (row == 0)
                continue;
            const double previous = model.index(row - 1, column).data(CandidateTableModel::SortRole).toDouble();
            QVERIFY(order == Qt::AscendingOrder ? previous <= key : previous >= key);
            if (previous == key)
                QVERIFY(model.kernelIdAt(row - 1) < model.kernelIdAt(row));
        }
        QVERIFY(withValue > 0);
    }

    void sortsTextColumnsAlphabetically()
    {
        CandidateTableModel model;
        newModel(model);
        applySort(model, ProblemColumn, Qt::AscendingOrder);
        QCOMPARE(model.index(0, ProblemColumn).data().toString(), QStringLiteral("axpy"));
        QCOMPARE(model.index(20, ProblemColumn).data().toString(), QStringLiteral("gemm"));
        QCOMPARE(model.index(59, ProblemColumn).data().toString(), QStringLiteral("softmax"));
        applySort(model, NameColumn, Qt::AscendingOrder);
        for (int row = 1; row < model.rowCount(); ++row) {
            const QString a = model.index(row - 1, NameColumn).data().toString();
            const QString b = model.index(row, NameColumn).data().toString();
            QVERIFY2(QString::compare(a, b, Qt::CaseInsensitive) <= 0, qPrintable(a + QStringLiteral(" > ") + b));
        }
    }

    void filters_data()
    {
        QTest::addColumn<CandidateFilter>("filter");
        QTest::addColumn<Predicate>("expected");
        const auto status = [](CandidateStatus s) {
            CandidateFilter f;
            f.status = s;
            return f;
        };
        CandidateFilter f;
        f.text = QStringLiteral("AXPY v");
        QTest::newRow("text in the name") << f << Predicate([](const CandidateTable &t, int r) {
            return t.rows[r].name.startsWith(QStringLiteral("axpy v"));
        });
        f = {};
        f.text = QStringLiteral("triton");
        QTest::newRow("text in the language") << f << Predicate([](const CandidateTable &t, int r) {
            return t.rows[r].language == QLatin1StringView("triton");
        });
        f = {};
        f.problemId = m_facts.problems[2];
        QTest::newRow("problem") << f << Predicate([this](const CandidateTable &t, int r) {
            return t.rows[r].problemId == m_facts.problems[2];
        });
        f = {};
        f.problemId = m_facts.problems[1];
        f.searchId = m_facts.search;
        QTest::newRow("search") << f << Predicate([this](const CandidateTable &t, int r) {
            return m_facts.searchKernels.contains(t.rows[r].id);
        });
        f = {};
        f.measuredBin = CandidateFilter::kFailedBin;
        QTest::newRow("failed") << f << Predicate([](const CandidateTable &t, int r) {
            const MeasuredCell &c = firstGpu(t, r);
            return c.state == MeasuredCell::State::Failed || (c.usesLabel() && !c.labelSpeedup);
        });
        for (int bin : {2, 4, 5}) {
            f = {};
            f.measuredBin = bin;
            QTest::addRow("measured bin %d", bin) << f << Predicate([bin](const CandidateTable &t, int r) {
                const MeasuredCell &c = firstGpu(t, r);
                const std::optional<double> s = c.state == MeasuredCell::State::Speedup ? std::optional(c.speedup)
                    : c.state == MeasuredCell::State::None                              ? c.labelSpeedup
                                                                                        : std::nullopt;
                return s && bins::binOf(*s) == bin;
            });
            f = {};
            f.predictedBin = bin;
            QTest::addRow("predicted bin %d", bin) << f << Predicate([bin](const CandidateTable &t, int r) {
                return t.forecastCell(r, 0).isValid() && t.forecastCell(r, 0).predictedBin == bin;
            });
        }
        f = {};
        f.minConfidence = 0.3;
        f.maxConfidence = 0.4;
        QTest::newRow("confidence range") << f << Predicate([](const CandidateTable &t, int r) {
            const ForecastCell &c = t.forecastCell(r, 0);
            return c.isValid() && c.confidence >= 0.3 && c.confidence <= 0.4;
        });
        f = {};
        f.origin = QStringLiteral("param");
        QTest::newRow("origin") << f << Predicate([](const CandidateTable &t, int r) {
            return t.rows[r].origin == QLatin1StringView("param");
        });
        // Which kernels are replays comes from how the store was made, not from the loader's flag.
        const auto isReplayed = [this](const CandidateTable &t, int r) {
            return m_facts.kernels.indexOf(t.rows[r].id) % 20 == testing::kReplayedIndex;
        };
        QTest::newRow("measured") << status(CandidateStatus::Measured)
                                  << Predicate([isReplayed](const CandidateTable &t, int r) {
                                         return firstGpu(t, r).isKnown() && !isReplayed(t, r);
                                     });
        QTest::newRow("measured (replay)")
            << status(CandidateStatus::MeasuredReplay) << Predicate([isReplayed](const CandidateTable &t, int r) {
                   return firstGpu(t, r).isKnown() && isReplayed(t, r);
               });
        QTest::newRow("pending") << status(CandidateStatus::Pending)
                                 << Predicate([this](const CandidateTable &t, int r) {
                                        return !firstGpu(t, r).isKnown() && t.rows[r].id == m_facts.kernels[9];
                                    });
        QTest::newRow("trusted") << status(CandidateStatus::Trusted)
                                 << Predicate([this](const CandidateTable &t, int r) {
                                        const ForecastCell &c = t.forecastCell(r, 0);
                                        return !firstGpu(t, r).isKnown() && t.rows[r].id != m_facts.kernels[9]
                                            && c.isValid() && c.confidence >= 0.25;
                                    });
        QTest::newRow("not measured") << status(CandidateStatus::NotMeasured)
                                      << Predicate([this](const CandidateTable &t, int r) {
                                             const ForecastCell &c = t.forecastCell(r, 0);
                                             return !firstGpu(t, r).isKnown() && t.rows[r].id != m_facts.kernels[9]
                                                 && !(c.isValid() && c.confidence >= 0.25);
                                         });
        f = {};
        f.restrictToIds = true;
        f.ids = {m_facts.kernels[1], m_facts.kernels[30], m_facts.kernels[59]};
        QTest::newRow("drill-down ids") << f << Predicate([this](const CandidateTable &t, int r) {
            const RowId id = t.rows[r].id;
            return id == m_facts.kernels[1] || id == m_facts.kernels[30] || id == m_facts.kernels[59];
        });
    }

    void filters()
    {
        QFETCH(CandidateFilter, filter);
        QFETCH(Predicate, expected);
        CandidateTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        newModel(model);
        model.setTrustThreshold(0.25);
        model.setPendingIds({m_facts.kernels[9]});
        applyFilter(model, filter);
        QList<RowId> wanted;
        for (int row = 0; row < m_table->rows.size(); ++row) {
            if (expected(*m_table, row))
                wanted.append(m_table->rows[row].id);
        }
        QVERIFY2(!wanted.isEmpty(), "the test store has no row for this filter: the check would prove nothing");
        QList<RowId> shown;
        for (int row = 0; row < model.rowCount(); ++row)
            shown.append(model.kernelIdAt(row));
        QCOMPARE(shown, wanted); // no sort column: id order
    }

    void switchingHardwareChangesValues()
    {
        CandidateTableModel model;
        newModel(model);
        const int row = model.viewRowOf(m_facts.kernels[14]); // labelled on the first GPU, measured on the second
        QVERIFY(row >= 0);
        QVERIFY(model.index(row, SpeedupColumn).data(CandidateTableModel::ImportedRole).toBool());
        QVERIFY(model.index(row, SpeedupColumn).data(Qt::FontRole).value<QFont>().italic());
        model.setHardwareIndex(1);
        QTRY_VERIFY(!model.isUpdating());
        QVERIFY(!model.index(row, SpeedupColumn).data(CandidateTableModel::ImportedRole).toBool());
        const double speedup = model.index(row, SpeedupColumn).data(CandidateTableModel::SortRole).toDouble();
        QCOMPARE(speedup, m_table->measuredCell(m_table->rowOf(m_facts.kernels[14]), 1).speedup);
        QVERIFY(model.index(row, SpeedupColumn).data().toString().endsWith(QStringLiteral("×")));
        const int failing = model.viewRowOf(m_facts.kernels[6]); // an incorrect case
        QCOMPARE(model.index(failing, SpeedupColumn).data().toString(), QStringLiteral("incorrect"));
        QCOMPARE(model.index(failing, MeasuredBinColumn).data().toString(), QStringLiteral("incorrect"));
        QCOMPARE(model.index(failing, SpeedupColumn).data(CandidateTableModel::SortRole).toDouble(), 0.0);
    }

    // A reference against itself reads as the baseline, not as "1.00× · 4 · slight speedup"; every other speedup
    // is written with enough digits that the number shown lies in the bin shown beside it.
    void referenceIsTheBaselineAndSpeedupsMatchTheirBins()
    {
        CandidateTableModel model;
        newModel(model);
        int references = 0;
        int speedups = 0;
        for (int row = 0; row < model.rowCount(); ++row) {
            const RowId id = model.kernelIdAt(row);
            const QString speedup = model.index(row, SpeedupColumn).data().toString();
            const QString bin = model.index(row, MeasuredBinColumn).data().toString();
            if (m_facts.references.contains(id)) {
                if (speedup.isEmpty()
                    || model.index(row, SpeedupColumn).data(CandidateTableModel::ImportedRole).toBool())
                    continue;
                ++references;
                QVERIFY2(speedup.startsWith(QStringLiteral("baseline")), qPrintable(speedup));
                QCOMPARE(bin, QStringLiteral("reference"));
                QVERIFY(model.index(row, SpeedupColumn)
                            .data(Qt::ToolTipRole)
                            .toString()
                            .contains(QStringLiteral("reference")));
                continue;
            }
            if (!speedup.contains(QStringLiteral("×")))
                continue;
            ++speedups;
            const double shown = speedup.left(speedup.indexOf(QStringLiteral("×"))).toDouble();
            QCOMPARE(QString::number(bins::binOf(shown).value_or(0)), bin.section(QStringLiteral(" · "), 0, 0));
        }
        QVERIFY(references > 0);
        QVERIFY(speedups > 10);
    }

    // A speedup that rests on replayed runtimes says so in every column that shows it, and the status filter tells it
    // apart; the same kernel run here on the other GPU, and a kernel run here, carry no mark.
    void replayedMeasurementsAreMarked()
    {
        CandidateTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        newModel(model);
        const RowId replayed = m_facts.kernels[testing::kReplayedIndex];
        const RowId local = m_facts.kernels[testing::kReplayedIndex - 1];
        const auto text = [&model](RowId kernel, int column, int role = Qt::DisplayRole) {
            return model.index(model.viewRowOf(kernel), column).data(role);
        };
        QVERIFY(m_table->measuredCell(m_table->rowOf(local), 0).state == MeasuredCell::State::Speedup);
        QVERIFY(m_table->measuredCell(m_table->rowOf(replayed), 0).state == MeasuredCell::State::Speedup);

        const QString speedup = text(replayed, SpeedupColumn).toString();
        QVERIFY2(speedup.endsWith(QStringLiteral("× ↺")), qPrintable(speedup));
        QCOMPARE(text(replayed, StatusColumn).toString(), QStringLiteral("measured (replay)"));
        QCOMPARE(text(replayed, StatusColumn, CandidateTableModel::StatusRole).toInt(),
            int(CandidateStatus::MeasuredReplay));
        QVERIFY(text(replayed, SpeedupColumn, CandidateTableModel::ReplayedRole).toBool());
        QVERIFY(!text(replayed, SpeedupColumn, CandidateTableModel::ImportedRole).toBool());
        for (int column : {int(SpeedupColumn), int(MeasuredBinColumn)})
            QVERIFY(text(replayed, column, Qt::FontRole).value<QFont>().italic());
        const QString when = QDateTime::fromString(testing::kReplayRecordedAt, Qt::ISODateWithMs)
                                 .toLocalTime()
                                 .toString(QStringLiteral("yyyy-MM-dd HH:mm"));
        const QString tip = text(replayed, SpeedupColumn, Qt::ToolTipRole).toString();
        QVERIFY2(
            tip.contains(QStringLiteral("Replayed from runtimes recorded on GPU one (%1)").arg(when)), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("Geometric mean over 2 case")), qPrintable(tip));
        // The sort key is the speedup itself: the mark is for people, not for ordering.
        QCOMPARE(text(replayed, SpeedupColumn, CandidateTableModel::SortRole).toDouble(),
            m_table->measuredCell(m_table->rowOf(replayed), 0).speedup);

        QVERIFY(!text(local, SpeedupColumn).toString().contains(QStringLiteral("↺")));
        QCOMPARE(text(local, StatusColumn).toString(), QStringLiteral("measured"));
        QVERIFY(!text(local, SpeedupColumn, CandidateTableModel::ReplayedRole).toBool());
        QVERIFY(!text(local, SpeedupColumn, Qt::FontRole).isValid());
        QVERIFY(!text(local, SpeedupColumn, Qt::ToolTipRole).toString().contains(QStringLiteral("Replayed")));

        model.setHardwareIndex(1); // the second GPU ran the same kernel here
        QTRY_VERIFY(!model.isUpdating());
        QVERIFY(!text(replayed, SpeedupColumn).toString().contains(QStringLiteral("↺")));
        QCOMPARE(text(replayed, StatusColumn).toString(), QStringLiteral("measured"));
        QVERIFY(!text(replayed, SpeedupColumn, CandidateTableModel::ReplayedRole).toBool());

        // The status filter tells the two kinds of measurement apart.
        model.setHardwareIndex(0);
        QTRY_VERIFY(!model.isUpdating());
        CandidateFilter replays;
        replays.status = CandidateStatus::MeasuredReplay;
        applyFilter(model, replays);
        QCOMPARE(model.rowCount(), 3); // one per problem
        QVERIFY(model.viewRowOf(replayed) >= 0);
        QCOMPARE(model.viewRowOf(local), -1);
        CandidateFilter measured;
        measured.status = CandidateStatus::Measured;
        applyFilter(model, measured);
        QCOMPARE(model.viewRowOf(replayed), -1);
        QVERIFY(model.viewRowOf(local) >= 0);
    }

    void latestRequestWins()
    {
        CandidateTableModel model;
        newModel(model);
        CandidateFilter first;
        first.problemId = m_facts.problems[0];
        CandidateFilter second;
        second.problemId = m_facts.problems[1];
        QSignalSpy applied(&model, &CandidateTableModel::orderApplied);
        model.setFilter(first);
        model.sort(CreatedColumn, Qt::DescendingOrder);
        model.setFilter(second);
        QTRY_VERIFY(!model.isUpdating());
        QCOMPARE(applied.count(), 1); // the two older results were dropped
        QCOMPARE(model.rowCount(), 20);
        for (int row = 0; row < model.rowCount(); ++row)
            QCOMPARE(m_table->rows[model.tableRowAt(row)].problemId, m_facts.problems[1]);
    }
};

QTEST_MAIN(TestCandidateModel)
#include "tst_candidate_model.moc"
