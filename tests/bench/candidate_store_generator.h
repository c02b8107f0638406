// A generated candidate store for the benchmarks: 20 problems, measurements on two GPUs, forecasts by two
// forecasters, written through the repositories in one transaction.
#pragma once

#include "core/store/forecast_repo.h"
#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <QList>
#include <QRandomGenerator>
#include <QString>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace gpuf::bench {

[[noreturn]] inline void die(const QString &message)
{
    std::fprintf(stderr, "bench: %s\n", qPrintable(message));
    std::exit(1);
}

template<typename T>
T check(Result<T> r)
{
    if (!r)
        die(r.error());
    return std::move(*r);
}

inline void report(const char *name, double value)
{
    std::printf("%s %.1f\n", name, value);
    std::fflush(stdout);
}

inline double median(QList<double> values)
{
    std::sort(values.begin(), values.end());
    return values.isEmpty() ? 0.0 : values[values.size() / 2];
}

// A ~30-line kernel; variant v changes a few lines so the changed-line counts are real diffs.
inline QString kernelSource(int problem, int variant)
{
    QString source
        = QStringLiteral("// problem %1\nextern \"C\" __global__ void k(const float* x, float* y, int n)\n{\n")
              .arg(problem);
    for (int line = 0; line < 24; ++line) {
        const bool changed = variant > 0 && (line * 7 + variant) % 11 == 0;
        source += changed ? QStringLiteral("    float t%1 = x[(i + %2) %% n] * %3.0f; // variant %4\n")
                                .arg(line)
                                .arg(variant % 97)
                                .arg(line)
                                .arg(variant)
                          : QStringLiteral("    float t%1 = x[i %% n] * %1.0f;\n").arg(line);
    }
    return source + QStringLiteral("    y[i] = t0 + t1;\n}\n");
}

struct Ids
{
    QList<RowId> hardware;
    QList<RowId> forecasters;
};

inline Ids makeSlots(Store &store)
{
    Ids ids;
    for (const char *name : {"NVIDIA H200", "NVIDIA A100-SXM4-80GB"}) {
        Hardware h;
        h.name = QString::fromLatin1(name);
        ids.hardware.append(check(HardwareRepo(store).ensure(h)));
    }
    for (const char *name : {"costmodel", "gpt-oss-20b"}) {
        Forecaster f;
        f.name = QString::fromLatin1(name);
        f.kind = ForecasterKind::Import;
        ids.forecasters.append(check(ForecasterRepo(store).ensure(f)));
    }
    return ids;
}

inline void measureKernel(
    MeasurementRepo &repo, RowId kernel, RowId hardware, const QString &caseName, double ns, bool ok)
{
    Measurement m;
    m.kernelId = kernel;
    m.hardwareId = hardware;
    m.caseName = caseName;
    m.status = ok ? MeasurementStatus::Ok : MeasurementStatus::RuntimeError;
    if (ok)
        m.runtime = RuntimeStats {ns, ns, ns, 0.0, 0.002, 20};
    check(repo.insert(m));
}

// 20 problems × 5 000 kernels; 60 % measured on the first GPU (2 cases), 20 % on the second, every kernel forecast
// by both forecasters. Everything through the repositories, in one transaction.
inline void generateStore(const QString &path, int kernelCount)
{
    auto store = check(Store::open(path));
    Transaction transaction(*store);
    if (Status s = transaction.begin(); !s)
        die(s.error());
    const Ids ids = makeSlots(*store);
    ProblemRepo problems(*store);
    KernelRepo kernels(*store);
    MeasurementRepo measurements(*store);
    ForecastRepo forecasts(*store);
    QRandomGenerator random(42);
    constexpr int kProblems = 20;
    const QStringList origins {QStringLiteral("param"), QStringLiteral("llm:qwen3"), QStringLiteral("manual")};
    QList<RowId> references, problemIds;
    for (int p = 0; p < kProblems; ++p) {
        Problem problem;
        problem.name = QStringLiteral("problem_%1").arg(p, 2, 10, QLatin1Char('0'));
        problemIds.append(check(problems.insert(problem)));
        Kernel reference;
        reference.problemId = problem.id;
        reference.language = QStringLiteral("cuda");
        reference.origin = QStringLiteral("seed");
        reference.source = kernelSource(p, 0);
        references.append(check(kernels.insertOrGet(reference)));
        if (Status s = problems.setReferenceKernel(problem.id, references.last()); !s)
            die(s.error());
        for (int h = 0; h < 2; ++h) {
            for (const char *c : {"small", "large"})
                measureKernel(measurements, references.last(), ids.hardware[h], QString::fromLatin1(c), 1000.0, true);
        }
    }
    QList<RowId> previous(kProblems, 0);
    for (int i = 0; i < kernelCount - kProblems; ++i) {
        const int p = i % kProblems;
        Kernel k;
        k.problemId = problemIds[p];
        k.parentId = previous[p] != 0 && random.bounded(4) != 0 ? previous[p] : references[p];
        k.name = i % 10 == 0 ? QStringLiteral("variant %1").arg(i) : QString();
        k.language = QStringLiteral("cuda");
        k.origin = origins[i % origins.size()];
        k.source = kernelSource(p, i + 1);
        const RowId id = check(kernels.insertOrGet(k));
        previous[p] = id;
        const int draw = int(random.bounded(10));
        if (draw < 6) {
            const bool ok = draw != 0 || random.bounded(5) != 0;
            for (const char *c : {"small", "large"})
                measureKernel(measurements, id, ids.hardware[0], QString::fromLatin1(c),
                    1000.0 * std::pow(2.0, random.generateDouble() * 4.0 - 2.0), ok);
        } else if (draw < 8) {
            measureKernel(measurements, id, ids.hardware[1], QStringLiteral("small"),
                1000.0 * std::pow(2.0, random.generateDouble() * 4.0 - 2.0), true);
        }
        for (RowId forecaster : ids.forecasters) {
            Forecast f;
            f.forecasterId = forecaster;
            f.referenceKernelId = references[p];
            f.candidateKernelId = id;
            f.hardwareId = ids.hardware[0];
            double sum = 0.0;
            for (double &value : f.probabilities)
                sum += (value = random.generateDouble() * random.generateDouble());
            for (double &value : f.probabilities)
                value /= sum;
            check(forecasts.insert(f));
        }
    }
    if (Status s = transaction.commit(); !s)
        die(s.error());
}

} // namespace gpuf::bench
