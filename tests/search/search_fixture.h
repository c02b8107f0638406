// A replay world for search tests: the shipped corpus and its H100 measurements imported into a fresh store, with the
// recorded H100 sweep of the sgemm_tiled family, so searches run offline on real recorded runtimes and a search of
// sgemm has a pool of 268 kernels to draw from (the corpus alone has 10, which a search spends in a step or two).
#pragma once

#include "core/interop/corpus.h"
#include "core/mutators/shipped_families.h"
#include "core/mutators/sweep_file.h"
#include "core/search/event_sink.h"
#include "core/search/search_run.h"
#include "core/search/search_setup.h"
#include "core/store/search_repo.h"
#include "core/store/store.h"

#include "gpuf_config.h"

#include <QString>

namespace gpuf::testing {

inline QString corpusDir() { return QStringLiteral(GPUF_SOURCE_DIR "/resources/corpus"); }

inline QString corpusResults()
{
    return QStringLiteral(GPUF_SOURCE_DIR "/resources/measurements/corpus-h100-2026-11-21.jsonl");
}

inline QString sgemmSweep()
{
    return QStringLiteral(GPUF_SOURCE_DIR "/resources/sweeps/sgemm_tiled-h100-2026-11-26.jsonl");
}

// Creates `path` holding the corpus and its H100 runtimes; an empty string when that worked, else why not.
inline QString makeCorpusStore(const QString &path)
{
    auto store = Store::open(path);
    if (!store)
        return store.error();
    auto report = interop::importCorpus(**store, corpusDir(), corpusResults());
    return report ? QString() : report.error();
}

// Creates `path` holding the corpus, its H100 runtimes and the sgemm_tiled H100 sweep; an empty string when that
// worked, else why not.
inline QString makeWorldStore(const QString &path)
{
    if (QString error = makeCorpusStore(path); !error.isEmpty())
        return error;
    auto store = Store::open(path, Store::Mode::ExistingOnly);
    if (!store)
        return store.error();
    auto sweep = families::readSweep(sgemmSweep());
    if (!sweep)
        return sweep.error();
    auto family = families::findFamily(sweep->family);
    if (!family)
        return family.error();
    auto imported = families::importSweep(**store, *sweep, *family, families::shippedCorpusDir());
    return imported ? QString() : imported.error();
}

// Runs the stored search `name` to its end (or its pause) on this thread, through a SearchRun over the store.
inline Status runToEnd(Store &store, const QString &name)
{
    auto config = search::storedConfig(store, name);
    if (!config)
        return Error {config.error()};
    auto parts = search::buildParts(store, *config);
    if (!parts)
        return Error {parts.error()};
    auto found = SearchRepo(store).findByName(name);
    if (!found || !*found)
        return Error {QStringLiteral("no search named %1").arg(name)};
    search::SearchRun run(std::make_unique<search::StoreSink>(store, (*found)->id), std::move(*parts));
    if (Status s = run.open(); !s)
        return s;
    for (int guard = 0; guard < 100000; ++guard) {
        if (Status s = run.pump(); !s)
            return s;
        if (run.next() == search::NextAction::Done || run.next() == search::NextAction::Paused)
            return {};
    }
    return Error {QStringLiteral("the search did not end")};
}

} // namespace gpuf::testing
