// gpuf sweep through the real gpuf binary: writing a plan, importing a recorded sweep into a real store (and the
// shipped sweeps in resources/sweeps), the local sweep on this machine (measured with a GPU, refused with the exact
// reason and nothing stored without one), and bad input.
#include "app/cli/command.h"
#include "app/cli/invocation.h"
#include "core/domain/kernel.h"
#include "core/mutators/shipped_families.h"
#include "core/mutators/sweep_file.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/recorded_spaces.h"
#include "core/store/store.h"
#include "gpuf_config.h"
#include "tests/support/cli_run.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace gpuf;
using namespace gpuf::families;
using namespace Qt::StringLiterals;

namespace {

using Run = gpuf::test::CliText;

// How long each gpuf run may take: the local sweep measures on this machine's GPU.
constexpr int kGpufTimeoutMs = 600000;

QByteArray fileBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestSweepCli : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void plan()
    {
        const QString path = m_dir.filePath(u"t.plan.jsonl"_s);
        const Run r = test::runGpuf(
            {u"sweep"_s, u"--family"_s, u"transpose"_s, u"--plan"_s, path, u"--sample"_s, u"10"_s, u"--seed"_s, u"3"_s},
            kGpufTimeoutMs);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, u"plan of 10 of 216 valid transpose configurations written to "_s + path + u"\n"_s);
        QCOMPARE(fileBytes(path).trimmed().split('\n').size(), 11);
        // The same seed gives the same plan.
        const QString again = m_dir.filePath(u"t2.plan.jsonl"_s);
        QCOMPARE(test::runGpuf({u"sweep"_s, u"--family"_s, u"transpose"_s, u"--plan"_s, again, u"--sample"_s, u"10"_s,
                                   u"--seed"_s, u"3"_s},
                     kGpufTimeoutMs)
                     .exitCode,
            0);
        QCOMPARE(fileBytes(again), fileBytes(path));
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("error");
        const QString plan = u"/tmp/never-written.plan.jsonl"_s;
        QTest::newRow("unknown family")
            << QStringList {u"sweep"_s, u"--family"_s, u"gemv"_s, u"--plan"_s, plan} << 1
            << u"gpuf: sweep: no kernel family named 'gemv' (there are: reduce_sum, reduce_sum_vec, row_softmax, "
               "sgemm_tiled, sgemm_warptile, transpose)\n"_s;
        QTest::newRow("no family") << QStringList {u"sweep"_s, u"--plan"_s, plan} << 1
                                   << u"gpuf: sweep: give --family NAME (gpuf search families lists them)\n"_s;
        QTest::newRow("sample 0") << QStringList {u"sweep"_s, u"--family"_s, u"transpose"_s, u"--plan"_s, plan,
            u"--sample"_s, u"0"_s} << 1
                                  << u"gpuf: sweep: --sample takes a positive number of configurations\n"_s;
        QTest::newRow("bad seed") << QStringList {u"sweep"_s, u"--family"_s, u"transpose"_s, u"--plan"_s, plan,
            u"--seed"_s, u"x"_s} << 1
                                  << u"gpuf: sweep: --seed takes a non-negative integer\n"_s;
        QTest::newRow("plan with a store") << QStringList {u"sweep"_s, u"s.gpuf"_s, u"--family"_s, u"transpose"_s,
            u"--plan"_s, plan} << 2 << u"gpuf: sweep: --plan writes a file and takes no STORE\n"_s;
        QTest::newRow("no store") << QStringList {u"sweep"_s, u"--family"_s, u"transpose"_s} << 2
                                  << u"gpuf: sweep: give exactly one STORE\n"_s;
        QTest::newRow("families folder missing") << QStringList {u"sweep"_s, u"--family"_s, u"transpose"_s, u"--plan"_s,
            plan, u"--families-dir"_s, u"/nonexistent"_s}
                                                 << 1 << u"gpuf: sweep: /nonexistent: no such folder\n"_s;
    }
    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, error);
        const Run r = test::runGpuf(args, kGpufTimeoutMs);
        QCOMPARE(r.err, error);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY(!QFile::exists(u"/tmp/never-written.plan.jsonl"_s));
    }

    void importBrokenSweepLeavesStoreAlone()
    {
        const QString store = m_dir.filePath(u"broken.gpuf"_s);
        QCOMPARE(test::runGpuf({u"init"_s, store}, kGpufTimeoutMs).exitCode, 0);
        const QByteArray before = fileBytes(store);
        const QString bad = m_dir.filePath(u"bad.jsonl"_s);
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"format\":\"gpuf-sweep/1\",\"record\":\"header\"}\n");
        f.close();
        const Run r = test::runGpuf({u"sweep"_s, store, u"--import"_s, bad}, kGpufTimeoutMs);
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.err, u"gpuf: sweep: "_s + bad + u":1: the header needs 'family', 'problem' and 'device.name'\n"_s);
        QCOMPARE(fileBytes(store), before);
    }

    // Every shipped sweep imports, and a replay has the runtimes of every configuration it measured.
    void shippedSweepsImport()
    {
        const QDir dir(QStringLiteral(GPUF_SOURCE_DIR "/resources/sweeps"));
        const QStringList files = dir.entryList({u"*.jsonl"_s}, QDir::Files, QDir::Name);
        if (files.isEmpty())
            QSKIP("no recorded sweeps in resources/sweeps");
        const QString store = m_dir.filePath(u"shipped.gpuf"_s);
        for (const QString &file : files) {
            auto sweep = readSweep(dir.filePath(file));
            QVERIFY2(sweep, qPrintable(sweep.error()));
            const Run r
                = test::runGpuf({u"sweep"_s, store, u"--import"_s, dir.filePath(file), u"--json"_s}, kGpufTimeoutMs);
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
            QCOMPARE(doc.value(u"kernels"_s).toInt(), sweep->entries.size());
            QVERIFY(doc.value(u"measurements"_s).toInt() > 0);
            int ok = 0;
            for (const SweepEntry &e : std::as_const(sweep->entries))
                ok += entrySpeedup(*sweep, e) ? 1 : 0;
            QVERIFY2(ok >= 200, qPrintable(file + u": %1 configurations with a speedup"_s.arg(ok)));
        }
    }

    // The sample store made at build time holds every shipped sweep: a family search on it replays out of the box, on
    // each family and GPU a sweep was recorded for, and measures something.
    void sampleStoreReplaysEveryShippedSweep()
    {
        const QString built = QStringLiteral(GPUF_BINARY_DIR "/packaging/sample/sample.gpuf");
        if (!QFile::exists(built))
            QSKIP("this tree has no sample store (no sample bundle)");
        const QDir dir(QStringLiteral(GPUF_SOURCE_DIR "/resources/sweeps"));
        const QStringList files = dir.entryList({u"*.jsonl"_s}, QDir::Files, QDir::Name);
        if (files.isEmpty())
            QSKIP("no recorded sweeps in resources/sweeps");
        const QString store = m_dir.filePath(u"sample-copy.gpuf"_s);
        QFile::remove(store);
        QVERIFY(QFile::copy(built, store));
        QFile::setPermissions(store, QFile::ReadOwner | QFile::WriteOwner);
        // What New Search… and the Compare view offer: each sweep's family on its GPU, with its entries (the
        // reference is not one of the family's configurations); two families of one problem are not mixed.
        QList<RecordedSpace> recorded;
        {
            auto opened = Store::open(store, Store::Mode::ExistingOnly);
            QVERIFY2(opened, qPrintable(opened.error()));
            auto spaces = recordedSpaces(**opened);
            QVERIFY2(spaces, qPrintable(spaces.error()));
            recorded = *spaces;
        }
        QCOMPARE(recorded.size(), files.size());
        int index = 0;
        for (const QString &file : files) {
            auto sweep = readSweep(dir.filePath(file));
            QVERIFY2(sweep, qPrintable(sweep.error()));
            const auto space = std::find_if(recorded.cbegin(), recorded.cend(), [&](const RecordedSpace &r) {
                return r.family == sweep->family && r.hardware == sweep->hardwareName();
            });
            QVERIFY2(space != recorded.cend(), qPrintable(file));
            QCOMPARE(space->problem, sweep->problem);
            QCOMPARE(space->configurations, int(sweep->entries.size()));
            const QString name = u"sample-%1"_s.arg(++index);
            const Run started
                = test::runGpuf({u"search"_s, u"start"_s, store, u"--name"_s, name, u"--family"_s, sweep->family,
                                    u"--gpu"_s, u"replay"_s, u"--hardware"_s, sweep->hardwareName(), u"--steps"_s,
                                    u"2"_s, u"--seed"_s, u"1"_s, u"--quiet"_s},
                    kGpufTimeoutMs);
            QVERIFY2(started.exitCode == 0, qPrintable(file + u": "_s + started.err));
            const Run status = test::runGpuf({u"search"_s, u"status"_s, store, name, u"--json"_s}, kGpufTimeoutMs);
            QVERIFY2(status.exitCode == 0, qPrintable(status.err));
            const QJsonObject doc = QJsonDocument::fromJson(status.out.toUtf8()).object();
            QVERIFY2(doc.value(u"gpu_evaluations"_s).toInt() > 0, qPrintable(file + u": "_s + status.out));
            QVERIFY2(doc.value(u"best_speedup"_s).toDouble() > 0.0, qPrintable(file + u": "_s + status.out));
        }
        // Without --hardware a family replays on the GPU with most of its recorded configurations, not on its
        // problem's busiest GPU: sgemm_tiled was swept on both H100 and H200, while the H200 holds the sgemm problem's
        // most runs (the 2 160 sgemm_warptile configurations).
        const Run started = test::runGpuf(
            {u"search"_s, u"start"_s, store, u"--name"_s, u"default-gpu"_s, u"--family"_s, u"sgemm_tiled"_s, u"--gpu"_s,
                u"replay"_s, u"--steps"_s, u"2"_s, u"--quiet"_s, u"--json"_s},
            kGpufTimeoutMs);
        QVERIFY2(started.exitCode == 0, qPrintable(started.err));
        const QJsonObject doc = QJsonDocument::fromJson(started.out.toUtf8()).object();
        QVERIFY2(doc.value(u"gpu_evaluations"_s).toInt() > 0, qPrintable(started.out));
        QCOMPARE(doc.value(u"hardware"_s).toString(), u"NVIDIA H100 80GB HBM3"_s);
        const Run compared = test::runGpuf(
            {u"search"_s, u"compare"_s, store, u"--family"_s, u"reduce_sum"_s, u"--steps"_s, u"2"_s, u"--seeds"_s,
                u"1"_s, u"--strategies"_s, u"standard,random"_s, u"--quiet"_s, u"--json"_s},
            kGpufTimeoutMs);
        QVERIFY2(compared.exitCode == 0, qPrintable(compared.err));
        QCOMPARE(QJsonDocument::fromJson(compared.out.toUtf8()).object().value(u"space_size"_s).toInt(), 264);
    }

    // A family search replaying on a store that has the family's problem but no recorded sweep is refused before
    // anything is written, and the refusal names the import (and the shipped sweep) that would make it work.
    void familyReplayWithoutSweepIsRefused()
    {
        const QString store = m_dir.filePath(u"no-sweep.gpuf"_s);
        QFile::remove(store);
        const Run imported = test::runGpuf(
            {u"import"_s, store, QStringLiteral(GPUF_SOURCE_DIR "/resources/sample/sample-bundle.jsonl")},
            kGpufTimeoutMs);
        QVERIFY2(imported.exitCode == 0, qPrintable(imported.err));
        const Run started = test::runGpuf(
            {u"search"_s, u"start"_s, store, u"--name"_s, u"f1"_s, u"--family"_s, u"transpose"_s, u"--gpu"_s,
                u"replay"_s, u"--hardware"_s, u"NVIDIA H100 80GB HBM3"_s, u"--steps"_s, u"3"_s},
            kGpufTimeoutMs);
        QCOMPARE(started.exitCode, 1);
        QVERIFY2(started.err.contains(u"has no recorded sweep of the family 'transpose' on NVIDIA H100 80GB HBM3"_s),
            qPrintable(started.err));
        QVERIFY2(started.err.contains(u"gpuf sweep "_s + store + u" --import FILE"_s), qPrintable(started.err));
        QVERIFY2(started.err.contains(u"transpose-h100-2026-11-26.jsonl"_s), qPrintable(started.err));
        const Run list = test::runGpuf({u"search"_s, u"list"_s, store, u"--json"_s}, kGpufTimeoutMs);
        QCOMPARE(list.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(list.out.toUtf8()).array().size(), 0);
    }

    // The `families` verb of gpuf search, called as the search command calls it: on an Invocation of that command.
    void searchFamilies()
    {
        const cli::Command command = cli::searchCommand();
        QCommandLineParser parser;
        cli::addCommandOptions(parser, command);
        QVERIFY(parser.parse({u"gpuf search"_s, u"families"_s}));
        QString out;
        QString err;
        QTextStream outStream(&out);
        QTextStream errStream(&err);
        cli::Io io {outStream, errStream, true}; // --json
        cli::Invocation json(command, parser, io);
        QCOMPARE(cli::runSearchFamilies(json), 0);
        outStream.flush();
        QCOMPARE(err, QString());
        const QJsonArray list = QJsonDocument::fromJson(out.toUtf8()).object().value(u"families"_s).toArray();
        QCOMPARE(list.size(), 6);
        QStringList names;
        for (const QJsonValue v : list) {
            const QJsonObject f = v.toObject();
            names.append(f.value(u"name"_s).toString());
            QVERIFY(f.value(u"valid"_s).toInt() >= 200);
            QVERIFY(f.value(u"valid"_s).toInt() <= f.value(u"combinations"_s).toInt());
            QVERIFY(!f.value(u"reference"_s).toString().isEmpty());
            for (const QJsonValue t : f.value(u"tunables"_s).toArray())
                QVERIFY(!t.toObject().value(u"note"_s).toString().isEmpty());
        }
        QCOMPARE(names,
            (QStringList {u"reduce_sum"_s, u"reduce_sum_vec"_s, u"row_softmax"_s, u"sgemm_tiled"_s, u"sgemm_warptile"_s,
                u"transpose"_s}));

        out.clear();
        io.json = false;
        cli::Invocation text(command, parser, io);
        QCOMPARE(cli::runSearchFamilies(text), 0);
        outStream.flush();
        QVERIFY2(
            out.startsWith(u"reduce_sum (problem reduce_sum): 264 valid of 288 configurations\n"_s), qPrintable(out));
        QVERIFY(out.contains(u"  TW ∈ {16, 32, 64}, default 32: Tile width in input columns"_s));
    }

    // A family search through the real gpuf: `search families` lists the shipped families, and `search start
    // --family` proposes with the family mutator and answers from an imported recorded sweep; the same seed gives the
    // same search.
    void familySearchThroughTheCli()
    {
        const QString sweep = QStringLiteral(GPUF_SOURCE_DIR "/resources/sweeps/transpose-h100-2026-11-26.jsonl");
        if (!QFile::exists(sweep))
            QSKIP("the recorded transpose sweep is not in resources/sweeps");
        const Run families = test::runGpuf({u"search"_s, u"families"_s, u"--json"_s}, kGpufTimeoutMs);
        QVERIFY2(families.exitCode == 0, qPrintable(families.err));
        QCOMPARE(QJsonDocument::fromJson(families.out.toUtf8()).object().value(u"families"_s).toArray().size(), 6);

        const QString store = m_dir.filePath(u"family-search.gpuf"_s);
        const Run imported = test::runGpuf({u"sweep"_s, store, u"--import"_s, sweep}, kGpufTimeoutMs);
        QVERIFY2(imported.exitCode == 0, qPrintable(imported.err));
        QList<QJsonObject> statuses;
        for (const QString &name : {u"fam-a"_s, u"fam-b"_s}) {
            const Run started
                = test::runGpuf({u"search"_s, u"start"_s, store, u"--name"_s, name, u"--family"_s, u"transpose"_s,
                                    u"--gpu"_s, u"replay"_s, u"--hardware"_s, u"NVIDIA H100 80GB HBM3"_s, u"--steps"_s,
                                    u"4"_s, u"--seed"_s, u"11"_s, u"--quiet"_s},
                    kGpufTimeoutMs);
            QVERIFY2(started.exitCode == 0, qPrintable(started.err));
            const Run status = test::runGpuf({u"search"_s, u"status"_s, store, name, u"--json"_s}, kGpufTimeoutMs);
            QVERIFY2(status.exitCode == 0, qPrintable(status.err));
            statuses.append(QJsonDocument::fromJson(status.out.toUtf8()).object());
        }
        const QJsonObject &a = statuses.first();
        QCOMPARE(a.value(u"step"_s).toInt(), 4);
        QVERIFY2(a.value(u"gpu_evaluations"_s).toInt() > 0, QJsonDocument(a).toJson().constData());
        QVERIFY(a.value(u"best_speedup"_s).toDouble() > 0.0);
        for (const QString &key : {u"step"_s, u"gpu_evaluations"_s, u"best_speedup"_s})
            QCOMPARE(statuses.last().value(key), a.value(key));
        // The same kernel is best (node ids carry the time of the run, so they differ).
        for (const QString &key : {u"kernel_id"_s, u"content_hash"_s, u"speedup"_s})
            QCOMPARE(statuses.last().value(u"best_kernel"_s).toObject().value(key),
                a.value(u"best_kernel"_s).toObject().value(key));

        const Run unknown
            = test::runGpuf({u"search"_s, u"start"_s, store, u"--name"_s, u"fam-x"_s, u"--family"_s,
                                u"no_such_family"_s, u"--gpu"_s, u"replay"_s, u"--problem"_s, u"transpose"_s},
                kGpufTimeoutMs);
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY2(unknown.err.contains(u"no_such_family"_s), qPrintable(unknown.err));
    }

    void localSweep()
    {
        const Run device = test::runGpuf({u"device"_s, u"--json"_s}, kGpufTimeoutMs);
        QCOMPARE(device.exitCode, 0);
        const QJsonObject d = QJsonDocument::fromJson(device.out.toUtf8()).object();
        const QString store = m_dir.filePath(u"local.gpuf"_s);
        const Run r
            = test::runGpuf({u"sweep"_s, store, u"--family"_s, u"transpose"_s, u"--sample"_s, u"3"_s}, kGpufTimeoutMs);
        if (!d.value(u"available"_s).toBool()) {
            QCOMPARE(r.exitCode, 1);
            QCOMPARE(r.err,
                u"gpuf: sweep: nothing measured: "_s
                    + (d.value(u"worker"_s).isNull() ? QString() : u"no GPU available: "_s)
                    + d.value(u"reason"_s).toString() + u"\n"_s);
            QVERIFY(!QFile::exists(store)); // nothing stored, not even the kernels
            return;
        }
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY(r.out.startsWith(u"transpose: 3 configurations measured on "_s));
        QVERIFY(r.err.contains(u"[3/3] transpose / transpose TW="_s));
        auto opened = Store::open(store, Store::Mode::ReadOnly);
        QVERIFY(opened);
        QCOMPARE(MeasurementRepo(**opened).list()->size(), 3 * 2);
    }
};

QTEST_GUILESS_MAIN(TestSweepCli)
#include "tst_sweep_cli.moc"
