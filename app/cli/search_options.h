// The options of `gpuf search` and the configuration they describe: their names and typed descriptions (the runner
// checks counts and rates against their ranges), the family and its folders, a tuning space of the store, the run's
// set-up options, and what a resume's options change against a stored configuration.
#pragma once

#include "app/cli/options.h"
#include "core/common/result.h"
#include "core/mutators/shipped_families.h"
#include "core/search/search_config.h"
#include "core/search/search_setup.h"

#include <QCommandLineParser>
#include <QJsonObject>
#include <QStringList>

#include <utility>

namespace gpuf {
class Store;
}

namespace gpuf::cli {

inline const QString kName = QStringLiteral("name");
inline const QString kMode = QStringLiteral("mode");
inline const QString kMutator = QStringLiteral("mutator");
inline const QString kSteps = QStringLiteral("steps");
inline const QString kParents = QStringLiteral("parents");
inline const QString kProposals = QStringLiteral("proposals");
inline const QString kMeasure = QStringLiteral("measure");
inline const QString kKeep = QStringLiteral("keep");
inline const QString kTau = QStringLiteral("tau");
inline const QString kAlpha = QStringLiteral("alpha");
inline const QString kPolicy = QStringLiteral("policy");
inline const QString kGpu = QStringLiteral("gpu");
inline const QString kSeeds = QStringLiteral("seeds");
inline const QString kFactor = QStringLiteral("k");
inline const QString kStrategies = QStringLiteral("strategies");
inline const QString kJobs = QStringLiteral("jobs");
inline const QString kPool = QStringLiteral("pool");
inline const QString kGenerator = QStringLiteral("generator");
inline const QString kPace = QStringLiteral("pace");
inline const QString kPaused = QStringLiteral("paused");

// Every option of every sub-command, with its type and range.
QList<Option> searchOptions();
// --family F with --families-dir and --corpus-dir: the family and the mutator configuration naming it.
Result<std::pair<families::KernelFamily, QJsonObject>> familyFromOptions(const QCommandLineParser &p);
// A --family that is neither a family file nor a tuning space imported into the store is refused.
Status knownSpace(Store &store, const search::SearchConfig &config);
// The configuration the options describe (defaults for what is not given); `given` holds the numbers, checked.
Result<search::SearchConfig> configFromOptions(const QCommandLineParser &p, const OptionValues &given);
search::SetupOptions setupFrom(const QCommandLineParser &p);
// Each option given to resume that differs from the stored configuration, "--mode surrogate (the search has …)".
QStringList differencesFromOptions(const QCommandLineParser &p, const search::SearchConfig &stored);

} // namespace gpuf::cli
