// A Slurm cluster as the measurement queue uses it (docs/cluster.md): where jobs go (partition, account, GPUs, time
// limit, extra sbatch options), the directory the login node and the compute nodes share, and gpuf-measure's path
// on the nodes. Profiles live in the settings file gpuf/clusters.conf (shared by gpuf and gpuf-explorer) under
// cluster/profiles/NAME; they hold no secrets (Slurm authenticates the user by munge, not by anything gpuf keeps).
#pragma once

#include "core/common/result.h"

#include <QList>
#include <QString>
#include <QStringList>

class QSettings;

namespace gpuf {

// The bounds a profile's counts must keep (clusterProfileProblems).
inline constexpr int kMaxGpusPerTask = 64;
inline constexpr int kMaxPollIntervalMs = 3600000;
inline constexpr int kMaxRequestsPerTask = 10000;
inline constexpr int kMaxAttempts = 100;

struct ClusterProfile
{
    QString name;
    QString partition; // empty: the cluster's default partition
    QString account; // empty: the user's default account
    QString gpuType; // gres type ("h100"); empty: any GPU
    int gpuCount = 1; // 0: ask for no GPU (compile-only work, tests on a CPU node)
    QString timeLimit = QStringLiteral("01:00:00"); // sbatch --time per task
    QStringList extraOptions; // further sbatch options, each one argument ("--qos=short")
    QString sharedDirectory; // seen at the same path by this machine and the compute nodes
    QString workerPath = QStringLiteral("gpuf-measure"); // on the nodes; a bare name is looked up on the node's PATH
    QStringList workerArguments; // e.g. {"--cache-dir", "/scratch/u/gpuf-cubins"}
    int pollIntervalMs = 30000; // squeue every so often while jobs are out
    int requestsPerTask = 16; // requests one array task runs, one after the other, on one GPU
    int maxAttempts = 3; // submissions of a task whose node failed, before its requests are marked failed
    QString compileArch = QStringLiteral("sm_90"); // the architecture of compile-only requests
};

// Everything wrong with a profile, one message per field; empty when it is usable.
QStringList clusterProfileProblems(const ClusterProfile &profile);

// The sbatch options a profile asks for (without --array, --parsable, the output files and the script).
QStringList sbatchResourceOptions(const ClusterProfile &profile);

// The settings file that holds the profiles when no `settings` is given (gpuf/clusters.conf in the user's
// configuration folder; docs/cluster.md names it).
QString clusterSettingsFile();
// Profiles in `settings` (default: clusterSettingsFile()), sorted by name.
QList<ClusterProfile> loadClusterProfiles(QSettings *settings = nullptr);
Result<ClusterProfile> clusterProfile(const QString &name, QSettings *settings = nullptr);
// The profile named `name` when it exists and has no problems (a profile edited by hand can have some): what every
// command that submits work uses, so that an unusable profile is refused before anything is written.
Result<ClusterProfile> usableClusterProfile(const QString &name, QSettings *settings = nullptr);
Status saveClusterProfile(const ClusterProfile &profile, QSettings *settings = nullptr);
bool removeClusterProfile(const QString &name, QSettings *settings = nullptr);

} // namespace gpuf
