// Python problems in the store: resources/problems imports as problems with problem.py as reference and one kernel per
// variant (teaching note, lineage, python_problem link), the device measurements import onto their GPU, bad folders
// fail with a specific error and change nothing, a stored variant plans as a gpuf-python/1 request, and imported
// paper rows of a pack we reproduce (TriMul, Gated DeltaNet chunk_fwd_o) are linked and plan the same way.
#include "core/interop/corpus.h"
#include "core/interop/interop.h"
#include "core/interop/python_problems.h"
#include "core/measure/measure_plan.h"
#include "core/measure/worker_locator.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"
#include "gpuf_config.h"
#include "interop_test_util.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;
using namespace Qt::StringLiterals;

namespace {
const QString kProblems = QStringLiteral(GPUF_SOURCE_DIR "/resources/problems");
const QString kH100 = QStringLiteral(GPUF_SOURCE_DIR "/resources/measurements/python-h100-2026-11-26.jsonl");
} // namespace

class TestPythonProblems : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_count = 0;

    std::unique_ptr<Store> freshStore()
    {
        auto store = Store::open(m_dir.filePath(QStringLiteral("p%1.gpuf").arg(++m_count)));
        return store ? std::move(*store) : nullptr;
    }

    Kernel kernelNamed(Store &store, const QString &problem, const QString &name)
    {
        auto p = ProblemRepo(store).findByName(problem);
        if (!p || !p->has_value())
            return {};
        auto kernels = KernelRepo(store).list((*p)->id);
        if (!kernels)
            return {};
        for (const Kernel &k : *kernels) {
            if (k.name == name)
                return k;
        }
        return {};
    }

private Q_SLOTS:
    void importsProblemsAndVariants()
    {
        auto store = freshStore();
        QVERIFY(store);
        auto report = interop::importCorpus(*store, kProblems);
        QVERIFY2(report.ok(), qPrintable(report.error()));
        QCOMPARE(report->problems, 7);
        QCOMPARE(report->kernels, 70); // 7 references + 63 variants
        auto problem = ProblemRepo(*store).findByName(QStringLiteral("trimul"));
        QVERIFY(problem.ok() && problem->has_value());
        QCOMPARE((*problem)->backend, Backend::PyTorch);
        QCOMPARE((*problem)->cases.size(), 3);
        QCOMPARE((*problem)->tolerances.value(QStringLiteral("rtol")).toDouble(), 2e-2);
        auto kernels = KernelRepo(*store).list((*problem)->id);
        QVERIFY(kernels.ok());
        int linked = 0;
        for (const Kernel &k : *kernels) {
            QVERIFY(!k.notes.isEmpty());
            if (k.id == (*problem)->referenceKernelId) {
                QCOMPARE(k.name, QStringLiteral("reference"));
                QVERIFY(k.source.contains(QStringLiteral("def ref_kernel(")));
                continue;
            }
            QCOMPARE(k.parameters.value(QStringLiteral("python_problem")).toString(), QStringLiteral("trimul"));
            QCOMPARE(k.parameters.value(QStringLiteral("cases")).toArray().size(), 3);
            ++linked;
        }
        QCOMPARE(linked, 9);
        const Kernel v7 = kernelNamed(*store, QStringLiteral("trimul"), QStringLiteral("v7_triton_fused_tf32"));
        QCOMPARE(v7.language, QStringLiteral("triton"));
        QCOMPARE(
            v7.parentId, kernelNamed(*store, QStringLiteral("trimul"), QStringLiteral("v6_triton_fused_gates_out")).id);
    }

    void importsDeviceMeasurements()
    {
        auto store = freshStore();
        auto report = interop::importCorpus(*store, kProblems, kH100);
        QVERIFY2(report.ok(), qPrintable(report.error()));
        QCOMPARE(report->measurements, 189);
        const Kernel k = kernelNamed(*store, QStringLiteral("cross_entropy"), QStringLiteral("v4_triton_fused_row"));
        auto rows = MeasurementRepo(*store).forKernel(k.id);
        QVERIFY(rows.ok());
        QCOMPARE(rows->size(), 3);
        for (const Measurement &m : *rows) {
            QCOMPARE(m.status, MeasurementStatus::Ok);
            QVERIFY(m.runtime.has_value());
            QVERIFY(m.runtime->meanNs > 100e3); // each case of this kernel takes hundreds of microseconds
            QCOMPARE(m.timingMethod, QStringLiteral("cuda_events"));
            QVERIFY(m.l2Flush);
            QCOMPARE(m.provenance.value(QStringLiteral("gpu")).toString(), QStringLiteral("NVIDIA H100 80GB HBM3"));
        }
    }

    // Each result line's reference timing (same case, same process) is stored as a measurement of the problem's
    // reference kernel, marked as timed beside its candidate, so that the pair has a measured truth; on a real file.
    void importsReferenceTimings()
    {
        const QString path = m_dir.filePath(QStringLiteral("references.gpuf"));
        {
            auto store = Store::open(path);
            QVERIFY(store);
            auto report = interop::importCorpus(**store, kProblems, kH100);
            QVERIFY2(report.ok(), qPrintable(report.error()));
            QCOMPARE(report->measurements, 189);
            QCOMPARE(report->referenceMeasurements, 189); // every line of the file carries one
            QVERIFY(report->text().contains(QStringLiteral("189 of the Python references")));
        }
        auto store = Store::open(path); // read back from the file
        QVERIFY(store);
        auto problem = ProblemRepo(**store).findByName(QStringLiteral("cross_entropy"));
        QVERIFY(problem.ok() && problem->has_value());
        auto rows = MeasurementRepo(**store).forKernel((*problem)->referenceKernelId);
        QVERIFY(rows.ok());
        QCOMPARE(rows->size(), 27); // 9 variants x 3 cases
        QSet<QString> cases;
        QSet<QString> partners;
        for (const Measurement &m : *rows) {
            QCOMPARE(m.status, MeasurementStatus::Ok);
            QVERIFY(m.runtime && m.runtime->medianNs > 0);
            QCOMPARE(m.counters.value(QStringLiteral("timed_as")).toString(), QStringLiteral("reference"));
            QCOMPARE(m.timingMethod, QStringLiteral("cuda_events"));
            cases.insert(m.caseName);
            partners.insert(m.counters.value(QStringLiteral("timed_with")).toString());
        }
        QCOMPARE(cases.size(), 3);
        QCOMPARE(partners.size(), 9);
        // The line's own figures: v4_triton_fused_row's first case, its reference's median in ns.
        QFile file(kH100);
        QVERIFY(file.open(QIODevice::ReadOnly));
        double expected = 0.0;
        QString firstCase;
        while (!file.atEnd() && expected == 0.0) {
            const QJsonObject line = QJsonDocument::fromJson(file.readLine()).object();
            if (line.value(QStringLiteral("variant")) == QLatin1StringView("v4_triton_fused_row")) {
                firstCase = line.value(QStringLiteral("case")).toString();
                expected = line[QStringLiteral("reference_timing")][QStringLiteral("median_us")].toDouble() * 1e3;
            }
        }
        bool found = false;
        for (const Measurement &m : *rows) {
            if (m.caseName == firstCase
                && m.counters.value(QStringLiteral("timed_with")) == QLatin1StringView("v4_triton_fused_row")) {
                QCOMPARE(m.runtime->medianNs, expected);
                found = true;
            }
        }
        QVERIFY(found);
    }

    void badFolderChangesNothing_data()
    {
        QTest::addColumn<QString>("variantsJson");
        QTest::addColumn<QString>("problemPy");
        QTest::addColumn<QString>("error");
        const QString good = u"TOLERANCE = {\"rtol\": 1e-3, \"atol\": 1e-5}\nCASES = [{\"name\": \"a\"}]\n"
                             "def ref_kernel(data):\n    return data\n"_s;
        const QString variants = u"{\"format\": \"gpuf-python-variants/1\", \"problem\": {\"name\": \"x\", "
                                 "\"cases\": []}, \"variants\": []}"_s;
        QTest::newRow("wrong format") << R"({"format": "gpuf-variants/1", "problem": {"name": "x", "cases": []}})"
                                      << good << "field 'format': expected \"gpuf-python-variants/1\"";
        QTest::newRow("no cases") << R"({"format": "gpuf-python-variants/1", "problem": {"name": "x"}})" << good
                                  << "field 'problem': needs 'name' and 'cases'";
        QTest::newRow("file outside") << R"({"format": "gpuf-python-variants/1", "problem": {"name": "x", "cases": []},
            "variants": [{"name": "v0", "file": "../../etc/passwd"}]})"
                                      << good << "needs a 'name' and a 'file' inside the folder";
        QTest::newRow("missing file") << R"({"format": "gpuf-python-variants/1", "problem": {"name": "x", "cases": []},
            "variants": [{"name": "v0", "file": "variants/none.py"}]})"
                                      << good << "variants/none.py: cannot read";
        QTest::newRow("parent order") << R"({"format": "gpuf-python-variants/1", "problem": {"name": "x", "cases": []},
            "variants": [{"name": "v1", "file": "problem.py", "parent": "v0"}]})"
                                      << good << "parent 'v0' must be listed before it";
        QTest::newRow("not json") << "{" << good << "variants.json: offset";
        // problem.py that would measure anything as correct, or nothing at all.
        QTest::newRow("no TOLERANCE") << variants << u"CASES = [{\"name\": \"a\"}]\n"_s
                                      << "x/problem.py: no TOLERANCE; give TOLERANCE = {\"rtol\": ..., \"atol\": ...}";
        QTest::newRow("negative tolerance")
            << variants << u"TOLERANCE = {\"rtol\": -1e-3, \"atol\": 0}\nCASES = [{\"name\": \"a\"}]\n"_s
            << "x/problem.py: TOLERANCE holds a negative figure";
        QTest::newRow("CASES empty") << variants << u"TOLERANCE = {\"rtol\": 0, \"atol\": 0}\nCASES = []\n"_s
                                     << "x/problem.py: CASES is empty; give at least one case";
    }
    void badFolderChangesNothing()
    {
        QFETCH(QString, variantsJson);
        QFETCH(QString, problemPy);
        QFETCH(QString, error);
        QTemporaryDir root;
        QDir(root.path()).mkdir(QStringLiteral("x"));
        QFile py(root.filePath(QStringLiteral("x/problem.py")));
        QVERIFY(py.open(QIODevice::WriteOnly));
        py.write(problemPy.toUtf8());
        py.close();
        QFile variants(root.filePath(QStringLiteral("x/variants.json")));
        QVERIFY(variants.open(QIODevice::WriteOnly));
        variants.write(variantsJson.toUtf8());
        variants.close();
        auto store = freshStore();
        auto report = interop::importCorpus(*store, root.path());
        QVERIFY(!report.ok());
        QVERIFY2(report.error().contains(error), qPrintable(report.error()));
        QCOMPARE(store->counts()->problems, qint64(0)); // all or nothing
    }

    // Half a Python problem, or a folder holding no problem at all, is refused instead of "0 problems" imported.
    void halfAProblemIsRefused_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("error");
        QTest::newRow("problem.py alone") << u"problem.py"_s
                                          << u"/x: a Python problem needs problem.py and variants.json; variants.json "
                                             "is missing"_s;
        QTest::newRow("variants.json alone") << u"variants.json"_s
                                             << u"/x: a Python problem needs problem.py and variants.json; problem.py "
                                                "is missing"_s;
        QTest::newRow("no problem at all")
            << u"README"_s
            << u": no problem found (each problem is a folder holding problem.json, or problem.py and "
               "variants.json)"_s;
    }
    void halfAProblemIsRefused()
    {
        QFETCH(QString, file);
        QFETCH(QString, error);
        QTemporaryDir root;
        QDir(root.path()).mkdir(QStringLiteral("x"));
        QFile f(root.filePath(u"x/"_s + file));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{}\n");
        f.close();
        auto store = freshStore();
        auto report = interop::importCorpus(*store, root.path());
        QVERIFY(!report.ok());
        QVERIFY2(report.error().endsWith(error), qPrintable(report.error()));
        QVERIFY(report.error().startsWith(root.path()));
        QCOMPARE(store->counts()->problems, qint64(0));
    }

    void variantPlansAsPythonRequest()
    {
        auto store = freshStore();
        QVERIFY(interop::importCorpus(*store, kProblems).ok());
        const Kernel k
            = kernelNamed(*store, QStringLiteral("row_softmax_triton"), QStringLiteral("v3_triton_row_block_warps"));
        auto plan = measure::planMeasurement(*store, k.id);
        QVERIFY2(plan.ok(), qPrintable(plan.error()));
        QCOMPARE(plan->pythonProblem, QStringLiteral("row_softmax_triton"));
        QCOMPARE(plan->candidate.value(QStringLiteral("format")).toString(), QStringLiteral("gpuf-python/1"));
        QVERIFY(plan->candidate.value(QStringLiteral("source")).toString().contains(QStringLiteral("custom_kernel")));
        QCOMPARE(plan->cases,
            (QStringList {QStringLiteral("8192x2048"), QStringLiteral("32768x256"), QStringLiteral("2000x5003")}));
        const QJsonObject request = measure::measureRequest(*plan, 7, {});
        QCOMPARE(request.value(QStringLiteral("problem")).toObject().value(QStringLiteral("name")).toString(),
            QStringLiteral("row_softmax_triton"));
        QVERIFY(!request.contains(QStringLiteral("reference")));
        QVERIFY(measure::requestBudgetMs(*plan, {}) >= 300000); // the worker's own wall-clock limit, plus slack
        const Kernel reference = kernelNamed(*store, QStringLiteral("row_softmax_triton"), QStringLiteral("reference"));
        auto refPlan = measure::planMeasurement(*store, reference.id);
        QVERIFY(!refPlan.ok());
        QVERIFY(refPlan.error().contains(QStringLiteral("timed with every candidate")));
    }

    void paperRowsOfAReproducedPackAreLinked()
    {
        auto store = freshStore();
        QVERIFY(interop::importCorpus(*store, kProblems).ok());
        auto report = interop::importFiles(*store, {testing::fixture("eval_set.jsonl")});
        QVERIFY2(report.ok(), qPrintable(report.error()));
        auto problem = ProblemRepo(*store).findByName(QStringLiteral("trimul"));
        int linked = 0;
        auto kernels = KernelRepo(*store).list((*problem)->id);
        QVERIFY(kernels.ok());
        for (const Kernel &k : *kernels) {
            if (!k.origin.startsWith(QLatin1String("import:")))
                continue;
            const bool hasEntry = k.source.contains(QStringLiteral("def custom_kernel("));
            QCOMPARE(k.parameters.value(QStringLiteral("python_problem")).toString(),
                hasEntry ? QStringLiteral("trimul") : QString());
            if (hasEntry) {
                auto plan = measure::planMeasurement(*store, k.id);
                QVERIFY2(plan.ok(), qPrintable(plan.error()));
                QCOMPARE(plan->pythonProblem, QStringLiteral("trimul"));
                QCOMPARE(plan->cases.size(), 3); // the problem's cases
                ++linked;
            }
        }
        QVERIFY(linked > 0);
        QCOMPARE(interop::pythonProblemForPack(QStringLiteral("cross_entropy")), QString()); // layout not reproduced
        QCOMPARE(interop::pythonProblemForPack(QStringLiteral("fp8_quant")), QString());
    }

    // Gated DeltaNet chunk_fwd_o rows pass GPU MODE's (q, k, v_new, h, g), which gdn_chunk_o reproduces: a row's
    // candidate plans against that problem's cases; its anchor (a ref_kernel, no custom_kernel) stays unlinked.
    void gatedDeltaNetRowsAreLinked()
    {
        auto store = freshStore();
        QVERIFY(interop::importCorpus(*store, kProblems).ok());
        const QString path = m_dir.filePath(QStringLiteral("gdn_rows.jsonl"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const QJsonObject row {{QStringLiteral("row_id"), 7},
            {QStringLiteral("pack"), QStringLiteral("gated_deltanet_chunk_fwd_o")},
            {QStringLiteral("anchor_code"),
                QStringLiteral("def ref_kernel(data):\n    q, k, v, h, g = data\n    return q\n")},
            {QStringLiteral("candidate_code"),
                QStringLiteral("def custom_kernel(data):\n    q, k, v_new, h, g = data\n    return v_new\n")},
            {QStringLiteral("aggregated_speedup"), 1.5}, {QStringLiteral("relative_bin"), 5},
            {QStringLiteral("pair_type"), QStringLiteral("pair")},
            {QStringLiteral("hardware"), QStringLiteral("NVIDIA H100")},
            {QStringLiteral("source_id"), QStringLiteral("n1")},
            {QStringLiteral("source_search"), QStringLiteral("s1")},
            {QStringLiteral("internal_experiment"), QStringLiteral("e1")}};
        f.write(QJsonDocument(row).toJson(QJsonDocument::Compact) + "\n");
        f.close();
        auto report = interop::importFiles(*store, {path});
        QVERIFY2(report.ok(), qPrintable(report.error()));
        auto problem = ProblemRepo(*store).findByName(QStringLiteral("gated_deltanet_chunk_fwd_o"));
        QVERIFY(problem.ok() && problem->has_value());
        auto kernels = KernelRepo(*store).list((*problem)->id);
        QVERIFY(kernels.ok());
        int linked = 0;
        for (const Kernel &k : *kernels) {
            const QString link = k.parameters.value(QStringLiteral("python_problem")).toString();
            if (!k.source.contains(QStringLiteral("def custom_kernel("))) {
                QCOMPARE(link, QString());
                continue;
            }
            QCOMPARE(link, QStringLiteral("gdn_chunk_o"));
            auto plan = measure::planMeasurement(*store, k.id);
            QVERIFY2(plan.ok(), qPrintable(plan.error()));
            QCOMPARE(plan->pythonProblem, QStringLiteral("gdn_chunk_o"));
            QCOMPARE(plan->cases.size(), 3);
            ++linked;
        }
        QCOMPARE(linked, 1);
    }

    void interpreterSetting()
    {
        qputenv("GPUF_PYTHON", "/opt/venv/bin/python3");
        QCOMPARE(measure::withPythonInterpreter({QStringLiteral("--cache-dir"), QStringLiteral("/c")}),
            (QStringList {QStringLiteral("--cache-dir"), QStringLiteral("/c"), QStringLiteral("--python"),
                QStringLiteral("/opt/venv/bin/python3")}));
        QCOMPARE(measure::withPythonInterpreter({QStringLiteral("--python"), QStringLiteral("/x")}),
            (QStringList {QStringLiteral("--python"), QStringLiteral("/x")}));
        qunsetenv("GPUF_PYTHON");
    }
};

QTEST_GUILESS_MAIN(TestPythonProblems)
#include "tst_python_problems.moc"
