// Import of the kernel corpus (resources/corpus/<operation>/{problem.json,variants.json,*.cu}; docs/kernel-spec.md)
// into a store: one problem per operation, one kernel per variant with its teaching note, lineage and complete
// kernel spec, and optionally the measurements gpuf-measure made of them (tests/gpu/measure_corpus.py output).
#pragma once

#include "core/common/result.h"

#include <QJsonObject>
#include <QString>

namespace gpuf {
class Store;
}

namespace gpuf::interop {

struct CorpusReport
{
    int problems = 0;
    int kernels = 0;
    int measurements = 0;
    // Of Python problems' references, timed in each candidate's process (docs/python-problems.md); not in
    // `measurements`.
    int referenceMeasurements = 0;
    QString text() const;
};

// The complete gpuf-kernel/1 spec of one variant: the problem's shared part plus the variant's source and launches.
Result<QJsonObject> corpusVariantSpec(const QString &operationDir, const QString &variant);

// Imports every operation under `corpusDir` and, when `resultsFile` is given, its measurement results — all in one
// transaction (all or nothing). Kernels already stored are reused (content-deduplicated).
Result<CorpusReport> importCorpus(Store &store, const QString &corpusDir, const QString &resultsFile = {});

} // namespace gpuf::interop
