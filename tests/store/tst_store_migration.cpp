// Tests for the schema 1 → 2 migration: a version-1 store with forecasts keeps every forecaster and forecast, accepts
// forecasters of kind 'human' afterwards, and gains the lesson tables; a forecaster's deletion still cascades. The
// version-1 store brought to the latest version gains the index the free evaluations' lookup by binary hash reads.
#include "core/store/forecast_repo.h"
#include "core/store/schema.h"
#include "core/store/store.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;

namespace {

// A version-1 store written through a raw connection, as the previous program left it.
void makeVersion1Store(const QString &path)
{
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("v1"));
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QStringList statements = store::migrationStatements(1);
        statements << QStringLiteral("PRAGMA application_id = %1").arg(store::kApplicationId)
                   << QStringLiteral("PRAGMA user_version = 1")
                   << QStringLiteral("INSERT INTO problems (id, name, created_at) VALUES (1, 'axpy', 'now')")
                   << QStringLiteral("INSERT INTO kernels (id, problem_id, language, source, content_hash, origin, "
                                     "created_at) VALUES (1, 1, 'cuda', 'a', 'h1', 'corpus', 'now'), "
                                     "(2, 1, 'cuda', 'b', 'h2', 'corpus', 'now')")
                   << QStringLiteral("INSERT INTO forecasters (id, name, kind) VALUES (7, 'costmodel', 'costmodel')")
                   << QStringLiteral("INSERT INTO forecasts (reference_kernel_id, candidate_kernel_id, forecaster_id,"
                                     " p1, p2, p3, p4, p5, p6, p7, p8, predicted_bin, status, created_at) VALUES "
                                     "(1, 2, 7, 0, 0, 0, 0.5, 0.5, 0, 0, 0, 5, 'ok', 'now')");
        for (const QString &s : std::as_const(statements))
            QVERIFY2(q.exec(s), qPrintable(s));
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("v1"));
}

} // namespace

class TestStoreMigration : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void version1KeepsForecastsAndAcceptsHumans()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("v1.gpuf"));
        makeVersion1Store(path);
        auto store = Store::open(path, Store::Mode::ExistingOnly);
        QVERIFY2(store.ok(), qPrintable(store.error()));
        QCOMPARE((*store)->schemaVersion(), gpuf::store::kSchemaVersion);

        auto forecasts = ForecastRepo(**store).list();
        QVERIFY(forecasts.ok());
        QCOMPARE(forecasts->size(), 1);
        QCOMPARE(forecasts->at(0).forecasterId, 7);
        QCOMPARE(forecasts->at(0).predictedBin, std::optional<int>(5));

        Forecaster student;
        student.name = QStringLiteral("student:ada");
        student.kind = ForecasterKind::Human;
        student.displayName = QStringLiteral("Ada");
        auto id = ForecasterRepo(**store).ensure(student);
        QVERIFY2(id.ok(), qPrintable(id.error()));
        auto back = ForecasterRepo(**store).find(*id);
        QVERIFY(back.ok() && back->has_value());
        QCOMPARE((*back)->kind, ForecasterKind::Human);

        QSqlQuery q((*store)->database());
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM lessons")) && q.next());
        QCOMPARE(q.value(0).toInt(), 0);
        QVERIFY(q.exec(QStringLiteral("PRAGMA foreign_key_check")));
        QVERIFY(!q.next());
        // The forecasts' foreign key names the rebuilt forecasters table: deleting a forecaster still cascades.
        QVERIFY(q.exec(QStringLiteral("DELETE FROM forecasters WHERE id = 7")));
        QCOMPARE(ForecastRepo(**store).list()->size(), 0);
    }

    // The lookup of local measurements by binary hash (MeasurementRepo::localRunsOfBinary's condition) is answered from
    // the partial index, not by reading every measurement's provenance, in a migrated store as in a new one.
    void binaryLookupUsesItsIndex()
    {
        QTemporaryDir dir;
        const QString migrated = dir.filePath(QStringLiteral("v1.gpuf"));
        makeVersion1Store(migrated);
        for (const QString &path : {migrated, dir.filePath(QStringLiteral("new.gpuf"))}) {
            auto store = Store::open(path);
            QVERIFY2(store.ok(), qPrintable(store.error()));
            QCOMPARE((*store)->schemaVersion(), 5);
            QSqlQuery q((*store)->database());
            QVERIFY(q.exec(QStringLiteral(
                "EXPLAIN QUERY PLAN SELECT id FROM measurements WHERE hardware_id = 1 AND source = 'local' AND "
                "json_extract(provenance_json, '$.binary_sha256') = 'ab' ORDER BY id")));
            QString plan;
            while (q.next())
                plan += q.value(3).toString() + QLatin1Char('\n');
            QVERIFY2(plan.contains(QLatin1StringView("measurements_local_binary")), qPrintable(plan));
        }
    }
};

QTEST_GUILESS_MAIN(TestStoreMigration)
#include "tst_store_migration.moc"
