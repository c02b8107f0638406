// A replay world for search tests: the shipped corpus and its H100 measurements imported into a fresh store, so
// searches run offline on real recorded runtimes.
#pragma once

#include "core/interop/corpus.h"
#include "core/store/store.h"

#include "gpuf_config.h"

#include <QString>

namespace gpuf::testing {

inline QString corpusDir() { return QStringLiteral(GPUF_SOURCE_DIR "/resources/corpus"); }

inline QString corpusResults()
{
    return QStringLiteral(GPUF_SOURCE_DIR "/resources/measurements/corpus-h100-2026-11-21.jsonl");
}

// Creates `path` holding the corpus and its H100 runtimes; an empty string when that worked, else why not.
inline QString makeWorldStore(const QString &path)
{
    auto store = Store::open(path);
    if (!store)
        return store.error();
    auto report = interop::importCorpus(**store, corpusDir(), corpusResults());
    return report ? QString() : report.error();
}

} // namespace gpuf::testing
