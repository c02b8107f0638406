// Tests for the store's repositories: round trips of every value type, kernel deduplication, transactions,
// foreign keys, and the refusal of secrets in forecaster configurations.
#include "core/store/forecast_repo.h"
#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/search_repo.h"
#include "core/store/store.h"

#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;

class TestStoreRepos : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<Store> m_store;
    RowId m_problem = 0;

    Kernel kernel(const QString &source, RowId parent = 0)
    {
        Kernel k;
        k.problemId = m_problem;
        k.parentId = parent;
        k.source = source;
        k.origin = QStringLiteral("corpus");
        k.notes = QStringLiteral("note");
        k.parameters = QJsonObject {{QStringLiteral("block"), 256}};
        return k;
    }

private Q_SLOTS:
    void init()
    {
        static int counter = 0;
        auto store = Store::open(m_dir.filePath(QStringLiteral("store-%1.gpuf").arg(++counter)));
        QVERIFY2(store.ok(), qPrintable(store.error()));
        m_store = std::move(*store);
        Problem p;
        p.name = QStringLiteral("row_softmax");
        p.family = QStringLiteral("softmax");
        p.cases = QJsonArray {QJsonObject {{QStringLiteral("name"), QStringLiteral("small")}}};
        p.tolerances = QJsonObject {{QStringLiteral("rtol"), 1e-5}};
        auto id = ProblemRepo(*m_store).insert(p);
        QVERIFY2(id.ok(), qPrintable(id.error()));
        m_problem = *id;
    }
    void cleanup() { m_store.reset(); }

    void problemRoundTrip()
    {
        ProblemRepo repo(*m_store);
        auto p = repo.findByName(QStringLiteral("row_softmax"));
        QVERIFY(p.ok() && p->has_value());
        QCOMPARE((*p)->family, QStringLiteral("softmax"));
        QCOMPARE((*p)->tolerances.value(QStringLiteral("rtol")).toDouble(), 1e-5);
        QCOMPARE((*p)->cases.size(), 1);
        QVERIFY((*p)->createdAt.isValid());
        Problem dup;
        dup.name = QStringLiteral("row_softmax");
        QVERIFY(!repo.insert(dup).ok()); // unique name
        QCOMPARE(*repo.ensure(dup), m_problem);
        Problem unnamed;
        QVERIFY(!repo.insert(unnamed).ok());
    }

    void kernelsDeduplicateByContent()
    {
        KernelRepo repo(*m_store);
        Kernel a = kernel(QStringLiteral("extern \"C\" __global__ void k(float* x) { x[0] = 1; }"));
        bool inserted = false;
        auto id = repo.insertOrGet(a, &inserted);
        QVERIFY2(id.ok(), qPrintable(id.error()));
        QVERIFY(inserted);
        QCOMPARE(a.language, QStringLiteral("cuda"));
        QCOMPARE(a.contentHash.size(), 64);
        Kernel again = kernel(a.source);
        auto id2 = repo.insertOrGet(again, &inserted);
        QVERIFY(id2.ok());
        QVERIFY(!inserted);
        QCOMPARE(*id2, *id);
        Kernel child = kernel(a.source + QStringLiteral("\n// v2"), *id);
        QVERIFY(repo.insertOrGet(child, &inserted).ok());
        QVERIFY(inserted);
        auto loaded = repo.find(child.id);
        QVERIFY(loaded.ok() && loaded->has_value());
        QCOMPARE((*loaded)->parentId, *id);
        QCOMPARE((*loaded)->parameters.value(QStringLiteral("block")).toInt(), 256);
        auto summaries = repo.summaries();
        QVERIFY(summaries.ok());
        QCOMPARE(summaries->size(), 2);
        QCOMPARE(summaries->at(1).parentId, *id);
        QVERIFY(!repo.setParent(child.id, child.id).ok());
    }

    void kernelRejectsBadOriginAndUnknownProblem()
    {
        KernelRepo repo(*m_store);
        Kernel bad = kernel(QStringLiteral("x"));
        bad.origin = QStringLiteral("from somewhere");
        auto r = repo.insertOrGet(bad);
        QVERIFY(!r.ok());
        QVERIFY(r.error().contains(QStringLiteral("origin")));
        Kernel orphan = kernel(QStringLiteral("y"));
        orphan.problemId = 9999;
        QVERIFY(!repo.insertOrGet(orphan).ok()); // foreign key
    }

    void measurementRoundTrip()
    {
        Kernel k = kernel(QStringLiteral("k"));
        QVERIFY(KernelRepo(*m_store).insertOrGet(k).ok());
        Hardware h = *hardwarePreset(QStringLiteral("A100"));
        QVERIFY(HardwareRepo(*m_store).ensure(h).ok());
        QCOMPARE(h.smCount, 108);
        Measurement m;
        m.kernelId = k.id;
        m.hardwareId = h.id;
        m.caseName = QStringLiteral("4096x1024");
        m.runtime = RuntimeStats {120000.5, 121000.0, 119000.0, 800.0, 0.004, 37};
        m.timingMethod = QStringLiteral("cupti");
        m.resources.registers = 32;
        m.resources.occupancy = 0.75;
        m.provenance = QJsonObject {{QStringLiteral("gpu"), QStringLiteral("NVIDIA H100")}};
        QVERIFY(MeasurementRepo(*m_store).insert(m).ok());
        Measurement failed;
        failed.kernelId = k.id;
        failed.hardwareId = h.id;
        failed.status = MeasurementStatus::Incorrect;
        failed.errorText = QStringLiteral("12 mismatches");
        QVERIFY(MeasurementRepo(*m_store).insert(failed).ok());
        Measurement okWithoutRuntime;
        okWithoutRuntime.kernelId = k.id;
        okWithoutRuntime.hardwareId = h.id;
        QVERIFY(!MeasurementRepo(*m_store).insert(okWithoutRuntime).ok());

        auto list = MeasurementRepo(*m_store).forKernel(k.id);
        QVERIFY(list.ok());
        QCOMPARE(list->size(), 2);
        QCOMPARE(list->at(0).runtime->samples, 37);
        QCOMPARE(list->at(0).runtime->medianNs, 120000.5);
        QCOMPARE(list->at(0).resources.registers, 32);
        QCOMPARE(list->at(0).resources.sharedMemoryBytes, -1);
        QCOMPARE(list->at(1).status, MeasurementStatus::Incorrect);
        QVERIFY(!list->at(1).runtime.has_value());
    }

    void pairLabelsAndForecasts()
    {
        Kernel ref = kernel(QStringLiteral("ref"));
        Kernel cand = kernel(QStringLiteral("cand"), 0);
        QVERIFY(KernelRepo(*m_store).insertOrGet(ref).ok());
        QVERIFY(KernelRepo(*m_store).insertOrGet(cand).ok());
        PairLabel l;
        l.referenceKernelId = ref.id;
        l.candidateKernelId = cand.id;
        l.speedup = 1.5;
        l.trueBin = 5;
        l.kind = QStringLiteral("eval");
        l.externalId = QStringLiteral("cmp-1");
        QVERIFY(PairLabelRepo(*m_store).insert(l).ok());
        auto found = PairLabelRepo(*m_store).findByExternalId(QStringLiteral("eval"), QStringLiteral("cmp-1"));
        QVERIFY(found.ok() && found->has_value());
        QCOMPARE((*found)->speedup, std::optional<double>(1.5));
        PairLabel badBin = l;
        badBin.trueBin = 9;
        QVERIFY(!PairLabelRepo(*m_store).insert(badBin).ok());

        Forecaster f;
        f.name = QStringLiteral("gemini3_flash");
        f.kind = ForecasterKind::Import;
        QVERIFY(ForecasterRepo(*m_store).ensure(f).ok());
        Forecast fc;
        fc.referenceKernelId = ref.id;
        fc.candidateKernelId = cand.id;
        fc.forecasterId = f.id;
        fc.probabilities = {0, 0, 0.1, 0.2, 0.6, 0.1, 0, 0};
        fc.predictedBin = 5;
        fc.rawProbabilitySum = 0.95;
        fc.reasoning = QStringLiteral("vectorised loads");
        fc.cacheKey = QStringLiteral("key-1");
        fc.tokensIn = 1200;
        QVERIFY(ForecastRepo(*m_store).insert(fc).ok());
        auto byKey = ForecastRepo(*m_store).findByCacheKey(QStringLiteral("key-1"));
        QVERIFY(byKey.ok() && byKey->has_value());
        QCOMPARE((*byKey)->probabilities[4], 0.6);
        QCOMPARE((*byKey)->tokensIn, 1200);
        QCOMPARE((*byKey)->tokensOut, -1);
        QCOMPARE((*byKey)->predictedBin, std::optional<int>(5));
        Forecast bad = fc;
        bad.probabilities[0] = 1.5;
        QVERIFY(!ForecastRepo(*m_store).insert(bad).ok());
    }

    void forecasterConfigNeverHoldsSecrets_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("refused");
        const QString key = QStringLiteral("sk-secret-123");
        QTest::newRow("api_key") << QStringLiteral("api_key") << key << true;
        QTest::newRow("Authorization") << QStringLiteral("Authorization") << key << true;
        QTest::newRow("access_token") << QStringLiteral("access_token") << key << true;
        QTest::newRow("api_key_env naming a variable")
            << QStringLiteral("api_key_env") << QStringLiteral("OPENAI_API_KEY") << false;
        // The field for a variable's name holding a key itself: refused like the key under any other name.
        QTest::newRow("api_key_env holding a key") << QStringLiteral("api_key_env") << key << true;
        QTest::newRow("api_key_env holding a token")
            << QStringLiteral("api_key_env") << QStringLiteral("hf_QpZk3q9XbT0aLmWn7") << true;
        QTest::newRow("max_tokens") << QStringLiteral("max_tokens") << key << false;
    }
    void forecasterConfigNeverHoldsSecrets()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(bool, refused);
        Forecaster f;
        f.name = QStringLiteral("llm-") + QString::number(QTest::currentDataTag()[0]) + key;
        f.kind = ForecasterKind::Llm;
        f.config = QJsonObject {{QStringLiteral("headers"), QJsonObject {{key, value}}}};
        auto id = ForecasterRepo(*m_store).ensure(f);
        QCOMPARE(!id.ok(), refused);
        if (refused)
            QVERIFY(!id.error().contains(value));
    }

    void transactionRollsBack()
    {
        {
            Transaction tx(*m_store);
            QVERIFY(tx.begin().ok());
            Problem p;
            p.name = QStringLiteral("temporary");
            QVERIFY(ProblemRepo(*m_store).insert(p).ok());
        } // no commit
        QCOMPARE(m_store->counts()->problems, 1);
        Transaction tx(*m_store);
        QVERIFY(tx.begin().ok());
        Problem p;
        p.name = QStringLiteral("kept");
        QVERIFY(ProblemRepo(*m_store).insert(p).ok());
        QVERIFY(tx.commit().ok());
        QCOMPARE(m_store->counts()->problems, 2);
    }

    void searchEventsAppendInOrder()
    {
        Search s;
        s.name = QStringLiteral("run-1");
        s.mode = QStringLiteral("standard");
        s.problemId = m_problem;
        SearchRepo repo(*m_store);
        QVERIFY(repo.ensure(s).ok());
        for (int i = 0; i < 5; ++i) {
            SearchEvent e;
            e.searchId = s.id;
            e.kind = i == 0 ? QStringLiteral("search_initialized") : QStringLiteral("step_started");
            QVERIFY(repo.append(e).ok());
            QCOMPARE(e.sequence, i);
        }
        SearchEvent unnamed;
        unnamed.searchId = s.id;
        QVERIFY(!repo.append(unnamed).ok());
        auto events = repo.events(s.id);
        QVERIFY(events.ok());
        QCOMPARE(events->size(), 5);
        QCOMPARE(events->first().kind, QStringLiteral("search_initialized"));
        QCOMPARE(*repo.eventCount(s.id), 5);
    }
};

QTEST_GUILESS_MAIN(TestStoreRepos)
#include "tst_store_repos.moc"
