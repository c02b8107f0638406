// A small store whose measurements carry the evidence gpuf-measure records (clocks, stop rule, correctness, bytes,
// a binary hash), one import that carries none, and a pair whose interval straddles √2: for tst_evidence and
// tst_cli_evidence.
#pragma once

#include "tst_metrics_store_fixture.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace gpuf::testing {

struct EvidenceStore
{
    RowId gpu = 0;
    RowId problem = 0;
    RowId reference = 0;
    RowId k = 0; // two cases, 1.6× each; clocks drift in the first, RSE 3 % in the second
    RowId q = 0; // imported without any evidence
    RowId s = 0; // 1.418×, its interval straddles √2
    RowId kSmall = 0, kLarge = 0, qSmall = 0, sSmall = 0, refSmall = 0; // measurement ids
};

struct Run
{
    double medianNs = 0.0;
    double rse = 0.0;
    int samples = 0;
    double bytes = 0.0;
    double smAfter = 1980.0;
};

inline QJsonObject clocks(double sm) { return {{u"available"_s, true}, {u"sm_mhz"_s, sm}, {u"mem_mhz"_s, 2619}}; }

inline RowId insertRun(Store &store, RowId kernel, RowId gpu, const QString &caseName, const Run &run)
{
    Measurement m;
    m.kernelId = kernel;
    m.hardwareId = gpu;
    m.caseName = caseName;
    m.runtime = RuntimeStats {run.medianNs, run.medianNs, run.medianNs, 0.0, run.rse, run.samples};
    m.timingMethod = QStringLiteral("cuda_events");
    m.l2Flush = true;
    m.counters = {{u"bytes_moved"_s, run.bytes},
        {u"correctness"_s,
            QJsonObject {{u"checked"_s, true}, {u"runs"_s, 2}, {u"elements"_s, 1048576}, {u"mismatches"_s, 0},
                {u"buffers"_s, QJsonArray {QJsonObject {{u"max_abs_error"_s, 2e-6}, {u"max_rel_error"_s, 1e-5}}}}}}};
    m.provenance = {{u"gpu"_s, u"Test GPU"_s}, {u"worker_version"_s, u"0.9"_s}, {u"clocks_before"_s, clocks(1980)},
        {u"clocks_after"_s, clocks(run.smAfter)}, {u"flush_l2"_s, true}, {u"binary_sha256"_s, u"c0ffee"_s},
        {u"stop_rule"_s,
            QJsonObject {{u"reached_target"_s, true}, {u"target_rel_std_error"_s, 0.005}, {u"min_samples"_s, 10},
                {u"max_samples"_s, 2000}, {u"time_budget_ms"_s, 2000}, {u"warmup"_s, 3}}}};
    auto id = MeasurementRepo(store).insert(m);
    if (!id)
        qFatal("measurement: %s", qPrintable(id.error()));
    return *id;
}

inline EvidenceStore buildEvidenceStore(Store &store)
{
    EvidenceStore s;
    Hardware h;
    h.name = QStringLiteral("Test GPU");
    h.memoryClockGhz = 1.0; // 2 × 1 GHz × 1024 bits / 8 = 256 GB/s
    h.busWidthBits = 1024;
    s.gpu = *HardwareRepo(store).ensure(h);
    Problem p;
    p.name = QStringLiteral("copy");
    p.tolerances = {{u"rtol"_s, 1e-3}, {u"atol"_s, 1e-5}};
    s.problem = *ProblemRepo(store).insert(p);
    s.reference = insertKernel(store, s.problem, QStringLiteral("// reference\n"), QStringLiteral("seed"));
    if (!ProblemRepo(store).setReferenceKernel(s.problem, s.reference))
        qFatal("reference");
    s.k = insertKernel(store, s.problem, QStringLiteral("// k\n"), QStringLiteral("manual"));
    s.q = insertKernel(store, s.problem, QStringLiteral("// q\n"), QStringLiteral("manual"));
    s.s = insertKernel(store, s.problem, QStringLiteral("// s\n"), QStringLiteral("manual"));
    const QString small = QStringLiteral("n=1M"), large = QStringLiteral("n=4M");
    s.refSmall = insertRun(store, s.reference, s.gpu, small, {2000.0, 0.004, 50, 256000.0});
    insertRun(store, s.reference, s.gpu, large, {8000.0, 0.003, 40, 1024000.0});
    s.kSmall = insertRun(store, s.k, s.gpu, small, {1250.0, 0.005, 120, 256000.0, 1500.0});
    s.kLarge = insertRun(store, s.k, s.gpu, large, {5000.0, 0.03, 2000, 1024000.0});
    s.sSmall = insertRun(store, s.s, s.gpu, small, {1410.0, 0.01, 80, 256000.0});
    Measurement imported;
    imported.kernelId = s.q;
    imported.hardwareId = s.gpu;
    imported.caseName = small;
    imported.runtime = RuntimeStats {1400.0, 1400.0, 1400.0, 0.0, 0.0, 0};
    imported.source = MeasurementSource::Import;
    s.qSmall = *MeasurementRepo(store).insert(imported);
    return s;
}

} // namespace gpuf::testing
