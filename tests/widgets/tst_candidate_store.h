// A small real store for the candidate browser tests: three problems with kernel lineages, two GPUs, two
// forecasters, measurements (some failed, some replayed), imported labels and one search, made through the
// repositories.
#pragma once

#include "core/store/forecast_repo.h"
#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/search_repo.h"
#include "core/store/store.h"

#include <QList>
#include <QRandomGenerator>

#include <cmath>

namespace gpuf::testing {

struct CandidateStoreFacts
{
    QList<RowId> problems;
    QList<RowId> references; // per problem
    QList<RowId> kernels; // every kernel, references included
    RowId search = 0;
    QList<RowId> searchKernels; // ascending
};

// In each problem, the kernel at this index is measured on the first GPU by replayed runtimes only (source
// 'replay'); on the second GPU it runs here, as every other kernel does.
inline constexpr int kReplayedIndex = 8;
inline const QString kReplayRecordedAt = QStringLiteral("2026-02-01T10:30:00.000Z");

inline RowId mustInsert(Result<RowId> id)
{
    if (!id)
        qFatal("test store: %s", qPrintable(id.error()));
    return *id;
}

// Writes the store at `path`; every value comes from a seeded generator, so runs are repeatable.
inline CandidateStoreFacts makeCandidateStore(const QString &path, int kernelsPerProblem = 20)
{
    CandidateStoreFacts facts;
    auto opened = Store::open(path);
    if (!opened)
        qFatal("test store: %s", qPrintable(opened.error()));
    Store &store = **opened;
    QRandomGenerator random(7);
    Transaction transaction(store);
    if (!transaction.begin())
        qFatal("test store: cannot begin");
    QList<RowId> hardware;
    for (const char *name : {"GPU one", "GPU two"}) {
        Hardware h;
        h.name = QString::fromLatin1(name);
        hardware.append(mustInsert(HardwareRepo(store).ensure(h)));
    }
    QList<RowId> forecasters;
    for (const char *name : {"model-a", "model-b"}) {
        Forecaster f;
        f.name = QString::fromLatin1(name);
        f.displayName = f.name.toUpper(); // a display name unlike the name, so views show which one they use
        forecasters.append(mustInsert(ForecasterRepo(store).ensure(f)));
    }
    const QStringList origins {QStringLiteral("manual"), QStringLiteral("param"), QStringLiteral("llm:qwen")};
    const QStringList problemNames {QStringLiteral("axpy"), QStringLiteral("softmax"), QStringLiteral("gemm")};
    for (const QString &problemName : problemNames) {
        Problem p;
        p.name = problemName;
        const RowId problem = mustInsert(ProblemRepo(store).insert(p));
        facts.problems.append(problem);
        QList<RowId> mine;
        for (int i = 0; i < kernelsPerProblem; ++i) {
            Kernel k;
            k.problemId = problem;
            k.parentId = i == 0 ? 0 : mine[int(random.bounded(i))];
            k.name = i % 3 == 0 ? QStringLiteral("%1 v%2").arg(problemName).arg(i) : QString();
            k.language = i % 4 == 0 ? QStringLiteral("triton") : QStringLiteral("cuda");
            k.origin = i == 0 ? QStringLiteral("seed") : origins[i % origins.size()];
            k.source = QStringLiteral("// %1\nkernel body\nline %2\n").arg(problemName).arg(i);
            k.createdAt = QDateTime(QDate(2026, 3, 1), QTime(8, 0), Qt::UTC).addSecs(60 * (i * 7 % 13));
            const RowId id = mustInsert(KernelRepo(store).insertOrGet(k));
            mine.append(id);
            facts.kernels.append(id);
        }
        facts.references.append(mine.first());
        if (!ProblemRepo(store).setReferenceKernel(problem, mine.first()))
            qFatal("test store: reference");
        for (int i = 0; i < mine.size(); ++i) {
            for (int h = 0; h < hardware.size(); ++h) {
                if (i % 5 == 4 && h == 0)
                    continue; // not measured on the first GPU: a label below stands in for half of these
                if (i % 3 == 1 && h == 1)
                    continue; // the second GPU has fewer measurements: the first is the default
                for (const char *caseName : {"small", "large"}) {
                    Measurement m;
                    m.kernelId = mine[i];
                    m.hardwareId = hardware[h];
                    m.caseName = QString::fromLatin1(caseName);
                    m.status = i % 7 == 6 ? MeasurementStatus::Incorrect : MeasurementStatus::Ok;
                    if (m.status == MeasurementStatus::Ok) {
                        const double ns = 100.0 * std::pow(2.0, random.generateDouble() * 4.0 - 2.0);
                        m.runtime = RuntimeStats {ns, ns, ns, 0.0, 0.001, 10};
                    }
                    if (i == kReplayedIndex && h == 0) {
                        // Replayed from runtimes recorded earlier (as measure::replayRows stores them).
                        m.source = MeasurementSource::Replay;
                        m.provenance.insert(QStringLiteral("replay_of_time"), kReplayRecordedAt);
                    }
                    mustInsert(MeasurementRepo(store).insert(m));
                }
            }
            if (i % 10 == 4) {
                PairLabel l;
                l.referenceKernelId = mine.first();
                l.candidateKernelId = mine[i];
                l.hardwareId = hardware[0];
                l.speedup = 0.5 + random.generateDouble() * 3.0;
                l.kind = QStringLiteral("eval");
                l.externalId = QString::number(mine[i]);
                mustInsert(PairLabelRepo(store).insert(l));
            }
            for (int f = 0; f < forecasters.size(); ++f) {
                if ((i + f) % 6 == 5)
                    continue; // some candidates have no forecast by one of the forecasters
                Forecast fc;
                fc.forecasterId = forecasters[f];
                fc.referenceKernelId = mine.first();
                fc.candidateKernelId = mine[i];
                fc.hardwareId = hardware[0];
                double sum = 0.0;
                for (double &p : fc.probabilities)
                    sum += (p = random.generateDouble() * random.generateDouble());
                for (double &p : fc.probabilities)
                    p /= sum;
                mustInsert(ForecastRepo(store).insert(fc));
            }
        }
        if (problemName == QLatin1StringView("softmax")) {
            Search s;
            s.name = QStringLiteral("softmax run");
            s.problemId = problem;
            s.mode = QStringLiteral("standard");
            facts.search = mustInsert(SearchRepo(store).ensure(s));
            for (int i = 0; i < mine.size(); i += 2) {
                SearchEvent e;
                e.searchId = facts.search;
                e.kind = QStringLiteral("evaluation_completed");
                e.payload.insert(QStringLiteral("kernel_id"), mine[i]);
                e.time = QDateTime::currentDateTimeUtc();
                mustInsert(SearchRepo(store).append(e));
                facts.searchKernels.append(mine[i]);
            }
        }
    }
    if (!transaction.commit())
        qFatal("test store: cannot commit");
    return facts;
}

} // namespace gpuf::testing
