// Tests for deleting rows with what depends on them and restoring them: every kind of deletion round-trips to a store
// whose every row is identical to the one before (values, storage classes and ids), counting changes nothing, cascades
// and cleared links follow the schema, and a restore that would collide with a row added since is refused whole.
#include "../widgets/tst_candidate_store.h"

#include "core/store/deletion.h"

#include <QSqlQuery>
#include <QSqlRecord>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;

namespace {

// Every row of every table: per row its table, then each column's value and SQLite storage class.
QList<QVariantList> dump(Store &store)
{
    QList<QVariantList> rows;
    QSqlQuery tables(store.database());
    tables.exec(QStringLiteral("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"));
    QStringList names;
    while (tables.next())
        names.append(tables.value(0).toString());
    for (const QString &table : std::as_const(names)) {
        QSqlQuery columns(store.database());
        columns.exec(QStringLiteral("PRAGMA table_info(%1)").arg(table));
        QStringList selected;
        while (columns.next()) {
            const QString column = columns.value(1).toString();
            selected << column << QStringLiteral("typeof(%1)").arg(column);
        }
        QSqlQuery query(store.database());
        if (!query.exec(QStringLiteral("SELECT %1 FROM %2 ORDER BY rowid").arg(selected.join(u", "), table)))
            qFatal("dump: %s", qPrintable(table));
        while (query.next()) {
            QVariantList row {table};
            for (int i = 0; i < query.record().count(); ++i)
                row.append(query.value(i));
            rows.append(row);
        }
    }
    return rows;
}

qint64 count(Store &store, const QString &statement)
{
    QSqlQuery query(store.database());
    if (!query.exec(statement) || !query.next())
        qFatal("count: %s", qPrintable(statement));
    return query.value(0).toLongLong();
}

QStringList names(std::initializer_list<const char *> list)
{
    QStringList out;
    for (const char *name : list)
        out.append(QString::fromLatin1(name));
    return out;
}

} // namespace

class TestDeletion : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    testing::CandidateStoreFacts m_facts;
    std::unique_ptr<Store> m_store;

    RowId forecasterId(const QString &name)
    {
        auto forecaster = ForecasterRepo(*m_store).findByName(name);
        if (!forecaster || !forecaster->has_value())
            qFatal("no forecaster %s", qPrintable(name));
        return (*forecaster)->id;
    }

    // A kernel that is neither a reference nor a leaf: deleting it leaves children without a parent.
    RowId innerKernel()
    {
        auto kernels = KernelRepo(*m_store).summaries();
        QSet<RowId> parents;
        for (const KernelSummary &k : *kernels)
            parents.insert(k.parentId);
        for (const KernelSummary &k : *kernels) {
            if (parents.contains(k.id) && !m_facts.references.contains(k.id))
                return k.id;
        }
        qFatal("no inner kernel");
    }

private Q_SLOTS:
    void init()
    {
        static int counter = 0;
        const QString path = m_dir.filePath(QStringLiteral("deletion-%1.gpuf").arg(++counter));
        m_facts = testing::makeCandidateStore(path);
        auto store = Store::open(path, Store::Mode::ExistingOnly);
        QVERIFY2(store.ok(), qPrintable(store.error()));
        m_store = std::move(*store);
    }
    void cleanup() { m_store.reset(); }

    void roundTrip_data()
    {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QStringList>("deletedTables"); // each loses rows
        QTest::addColumn<QStringList>("unlinkedTables"); // each has rows left with a link cleared
        QTest::newRow("inner kernel") << QStringLiteral("inner") << names({"kernels", "measurements", "forecasts"})
                                      << names({"kernels"});
        QTest::newRow("reference kernel")
            << QStringLiteral("reference") << names({"kernels", "measurements", "forecasts", "pair_labels"})
            << names({"kernels", "problems"});
        QTest::newRow("problem") << QStringLiteral("problem")
                                 << names({"problems", "kernels", "measurements", "forecasts", "pair_labels"})
                                 << names({"searches"});
        QTest::newRow("forecaster") << QStringLiteral("forecaster") << names({"forecasters", "forecasts"}) << names({});
        QTest::newRow("one forecast") << QStringLiteral("forecast") << names({"forecasts"}) << names({});
        QTest::newRow("search") << QStringLiteral("search") << names({"searches", "search_events"}) << names({});
        QTest::newRow("forecasts of candidates by one forecaster")
            << QStringLiteral("candidate forecasts") << names({"forecasts"}) << names({});
    }

    void roundTrip()
    {
        QFETCH(QString, what);
        QFETCH(QStringList, deletedTables);
        QFETCH(QStringList, unlinkedTables);
        DeletionRequest request;
        if (what == QLatin1StringView("inner"))
            request = DeletionRequest::of(RowKind::Kernel, {innerKernel()});
        else if (what == QLatin1StringView("reference"))
            request = DeletionRequest::of(RowKind::Kernel, {m_facts.references[1]});
        else if (what == QLatin1StringView("problem"))
            request = DeletionRequest::of(RowKind::Problem, {m_facts.problems[1]});
        else if (what == QLatin1StringView("forecaster"))
            request = DeletionRequest::of(RowKind::Forecaster, {forecasterId(QStringLiteral("model-a"))});
        else if (what == QLatin1StringView("forecast"))
            request = DeletionRequest::of(RowKind::Forecast, {ForecastRepo(*m_store).list()->at(5).id});
        else if (what == QLatin1StringView("search"))
            request = DeletionRequest::of(RowKind::Search, {m_facts.search});
        else {
            request.forecastsOfCandidates = {m_facts.kernels[3], m_facts.kernels[4], m_facts.kernels[6]};
            request.forecastsBy = forecasterId(QStringLiteral("model-b"));
        }

        const QList<QVariantList> before = dump(*m_store);
        auto plan = planDeletion(*m_store, request);
        QVERIFY2(plan.ok(), qPrintable(plan.error()));
        QCOMPARE(dump(*m_store), before); // counting changes nothing
        for (const QString &table : deletedTables)
            QVERIFY2(plan->deleted.value(table) > 0, qPrintable(table));
        for (const QString &table : unlinkedTables)
            QVERIFY2(plan->unlinked.value(table) > 0, qPrintable(table));
        QCOMPARE(plan->deleted.size(), deletedTables.size()); // nothing else goes

        auto deleted = deleteRows(*m_store, request);
        QVERIFY2(deleted.ok(), qPrintable(deleted.error()));
        QCOMPARE(deleted->plan.deleted, plan->deleted);
        QCOMPARE(deleted->plan.unlinked, plan->unlinked);
        const QList<QVariantList> after = dump(*m_store);
        QCOMPARE(qint64(before.size() - after.size()), plan->total());
        for (const ClearedLink &link : deleted->links) {
            QCOMPARE(count(*m_store,
                         QStringLiteral("SELECT COUNT(*) FROM %1 WHERE rowid = %2 AND %3 IS NULL")
                             .arg(link.table)
                             .arg(link.rowid)
                             .arg(link.column)),
                1);
        }
        const Status restored = restoreRows(*m_store, *deleted);
        QVERIFY2(restored.ok(), qPrintable(restored.error()));
        QCOMPARE(dump(*m_store), before); // every row back, byte for byte, with its id
        QCOMPARE(count(*m_store, QStringLiteral("SELECT COUNT(*) FROM pragma_foreign_key_check")), 0);

        // Redo: the same rows go again, and come back again.
        auto again = deleteRows(*m_store, deleted->request());
        QVERIFY2(again.ok(), qPrintable(again.error()));
        QCOMPARE(again->plan.deleted, plan->deleted);
        QCOMPARE(dump(*m_store), after);
        QVERIFY(restoreRows(*m_store, *again).ok());
        QCOMPARE(dump(*m_store), before);
        // Enforcement was off only while the rows were written.
        QCOMPARE(count(*m_store, QStringLiteral("PRAGMA foreign_keys")), 1);
    }

    void forecastsOfCandidatesKeepOtherForecasters()
    {
        const RowId b = forecasterId(QStringLiteral("model-b"));
        const RowId a = forecasterId(QStringLiteral("model-a"));
        const QString byA = QStringLiteral("SELECT COUNT(*) FROM forecasts WHERE forecaster_id = %1").arg(a);
        const qint64 aBefore = count(*m_store, byA);
        DeletionRequest request;
        request.forecastsOfCandidates = {m_facts.kernels[2], m_facts.kernels[3]};
        request.forecastsBy = b;
        auto deleted = deleteRows(*m_store, request);
        QVERIFY2(deleted.ok(), qPrintable(deleted.error()));
        QVERIFY(deleted->plan.count(RowKind::Forecast) > 0);
        QCOMPARE(count(*m_store, byA), aBefore);
        QCOMPARE(
            count(*m_store,
                QStringLiteral("SELECT COUNT(*) FROM forecasts WHERE forecaster_id = %1 AND candidate_kernel_id IN "
                               "(%2, %3)")
                    .arg(b)
                    .arg(m_facts.kernels[2])
                    .arg(m_facts.kernels[3])),
            0);
    }

    void missingIdsDeleteNothing()
    {
        const QList<QVariantList> before = dump(*m_store);
        DeletionRequest request = DeletionRequest::of(RowKind::Kernel, {987654});
        request.rows.insert(RowKind::Problem, {55555});
        auto plan = planDeletion(*m_store, request);
        QVERIFY2(plan.ok(), qPrintable(plan.error()));
        QCOMPARE(plan->total(), 0);
        auto deleted = deleteRows(*m_store, request);
        QVERIFY2(deleted.ok(), qPrintable(deleted.error()));
        QVERIFY(deleted->tables.isEmpty());
        QCOMPARE(dump(*m_store), before);
        QVERIFY(DeletionRequest().isEmpty());
        QVERIFY(!request.isEmpty());
    }

    void restoreRefusedWhenAnIdWasTaken()
    {
        // The newest kernel's id is handed out again by SQLite once it is gone.
        const RowId newest = m_facts.kernels.last();
        auto deleted = deleteRows(*m_store, DeletionRequest::of(RowKind::Kernel, {newest}));
        QVERIFY2(deleted.ok(), qPrintable(deleted.error()));
        Kernel k;
        k.problemId = m_facts.problems.last();
        k.source = QStringLiteral("// added after the deletion\n");
        k.language = QStringLiteral("cuda");
        k.origin = QStringLiteral("manual");
        const RowId added = testing::mustInsert(KernelRepo(*m_store).insertOrGet(k));
        QCOMPARE(added, newest);
        const QList<QVariantList> before = dump(*m_store);
        const Status restored = restoreRows(*m_store, *deleted);
        QVERIFY(!restored.ok());
        QVERIFY2(restored.error().contains(QStringLiteral("kernel %1").arg(newest)), qPrintable(restored.error()));
        QVERIFY2(restored.error().contains(QStringLiteral("holds its id")), qPrintable(restored.error()));
        QCOMPARE(dump(*m_store), before); // nothing half restored
    }

    void restoreRefusedWhenANameWasTaken()
    {
        const RowId problem = m_facts.problems[0];
        auto deleted = deleteRows(*m_store, DeletionRequest::of(RowKind::Problem, {problem}));
        QVERIFY2(deleted.ok(), qPrintable(deleted.error()));
        // Keep the old ids free: a new problem of the same name, with an id no deleted row had.
        for (int i = 0; i < 4; ++i) {
            Problem filler;
            filler.name = QStringLiteral("filler %1").arg(i);
            testing::mustInsert(ProblemRepo(*m_store).insert(filler));
        }
        Problem same;
        same.name = QStringLiteral("axpy");
        const RowId added = testing::mustInsert(ProblemRepo(*m_store).insert(same));
        QVERIFY(added != problem);
        const QList<QVariantList> before = dump(*m_store);
        const Status restored = restoreRows(*m_store, *deleted);
        QVERIFY(!restored.ok());
        QVERIFY2(restored.error().contains(QStringLiteral("same name")), qPrintable(restored.error()));
        QVERIFY2(!restored.error().contains(QStringLiteral("INSERT")), qPrintable(restored.error()));
        QCOMPARE(dump(*m_store), before);
    }

    void restoreRefusedWhenWhatItReferredToIsGone()
    {
        // The kernel's forecasts come back only with their forecaster; deleted meanwhile, it makes the restore fail.
        auto kernel = deleteRows(*m_store, DeletionRequest::of(RowKind::Kernel, {m_facts.kernels[7]}));
        QVERIFY2(kernel.ok(), qPrintable(kernel.error()));
        QVERIFY(kernel->plan.count(RowKind::Forecast) > 0);
        auto forecaster
            = deleteRows(*m_store, DeletionRequest::of(RowKind::Forecaster, {forecasterId(QStringLiteral("model-a"))}));
        QVERIFY2(forecaster.ok(), qPrintable(forecaster.error()));
        const QList<QVariantList> before = dump(*m_store);
        const Status restored = restoreRows(*m_store, *kernel);
        QVERIFY(!restored.ok());
        QVERIFY2(restored.error().contains(QStringLiteral("a forecast would refer to a forecaster")),
            qPrintable(restored.error()));
        QCOMPARE(dump(*m_store), before);
        QCOMPARE(count(*m_store, QStringLiteral("PRAGMA foreign_keys")), 1);
        // In the order an undo stack keeps, both come back.
        QVERIFY(restoreRows(*m_store, *forecaster).ok());
        QVERIFY(restoreRows(*m_store, *kernel).ok());
    }

    void readOnlyStoreRefuses()
    {
        auto readOnly = Store::open(m_store->path(), Store::Mode::ReadOnly);
        QVERIFY(readOnly.ok());
        auto deleted = deleteRows(**readOnly, DeletionRequest::of(RowKind::Kernel, {m_facts.kernels[1]}));
        QVERIFY(!deleted.ok());
        QVERIFY2(deleted.error().contains(QStringLiteral("read-only")), qPrintable(deleted.error()));
    }
};

QTEST_GUILESS_MAIN(TestDeletion)
#include "tst_deletion.moc"
