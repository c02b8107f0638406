// Cluster profiles; see cluster_profile.h.
#include "core/measure/cluster_profile.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QSettings>

#include <algorithm>
#include <memory>

namespace gpuf {
namespace {

const QString kGroup = QStringLiteral("cluster/profiles");

// The profiles' own settings file unless a caller gave one: the same for gpuf and gpuf-explorer, so a profile made
// with `gpuf cluster set-profile` is offered by the explorer too.
struct SettingsRef
{
    explicit SettingsRef(QSettings *given)
    {
        if (!given)
            owned = std::make_unique<QSettings>(
                QSettings::NativeFormat, QSettings::UserScope, QStringLiteral("gpuf"), QStringLiteral("clusters"));
        settings = given ? given : owned.get();
    }
    std::unique_ptr<QSettings> owned;
    QSettings *settings = nullptr;
};

ClusterProfile read(QSettings &s, const QString &name)
{
    ClusterProfile p;
    p.name = name;
    s.beginGroup(kGroup + QLatin1Char('/') + name);
    p.partition = s.value(QStringLiteral("partition")).toString();
    p.account = s.value(QStringLiteral("account")).toString();
    p.gpuType = s.value(QStringLiteral("gpu_type")).toString();
    p.gpuCount = s.value(QStringLiteral("gpu_count"), p.gpuCount).toInt();
    p.timeLimit = s.value(QStringLiteral("time_limit"), p.timeLimit).toString();
    p.extraOptions = s.value(QStringLiteral("extra_options")).toStringList();
    p.sharedDirectory = s.value(QStringLiteral("shared_directory")).toString();
    p.workerPath = s.value(QStringLiteral("worker_path"), p.workerPath).toString();
    p.workerArguments = s.value(QStringLiteral("worker_arguments")).toStringList();
    p.pollIntervalMs = s.value(QStringLiteral("poll_interval_ms"), p.pollIntervalMs).toInt();
    p.requestsPerTask = s.value(QStringLiteral("requests_per_task"), p.requestsPerTask).toInt();
    p.maxAttempts = s.value(QStringLiteral("max_attempts"), p.maxAttempts).toInt();
    p.compileArch = s.value(QStringLiteral("compile_arch"), p.compileArch).toString();
    s.endGroup();
    return p;
}

// A control character (a line break above all) in a field that ends up in a batch script or on sbatch's command line.
bool hasControlCharacter(const QString &text)
{
    return std::any_of(text.cbegin(), text.cend(), [](QChar c) { return c.category() == QChar::Other_Control; });
}

// Slurm's time formats ("minutes", "minutes:seconds", "hours:minutes:seconds", "days-hours",
// "days-hours:minutes", "days-hours:minutes:seconds"), with minutes and seconds under 60 and, after a day count,
// hours under 24.
bool isSlurmTime(const QString &text)
{
    static const QRegularExpression pattern(QStringLiteral("^(?:([0-9]+)-)?([0-9]+)(?::([0-9]+))?(?::([0-9]+))?$"));
    const QRegularExpressionMatch m = pattern.match(text);
    if (!m.hasMatch())
        return false;
    const bool days = m.hasCaptured(1);
    const int fields = 1 + int(m.hasCaptured(3)) + int(m.hasCaptured(4));
    const auto value = [&m](int group) { return m.captured(group).toLongLong(); };
    if (days)
        return value(2) < 24 && (fields < 2 || value(3) < 60) && (fields < 3 || value(4) < 60);
    // Without days: "M", "M:S" or "H:M:S"; the leading field may be as large as Slurm likes.
    if (fields == 2)
        return value(3) < 60;
    return fields == 1 || (value(3) < 60 && value(4) < 60);
}

} // namespace

QStringList clusterProfileProblems(const ClusterProfile &p)
{
    QStringList problems;
    static const QRegularExpression namePattern(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]*$"));
    if (!namePattern.match(p.name).hasMatch())
        problems << QCoreApplication::translate(
            "gpuf::Cluster", "name: '%1' is not a profile name (letters, digits, '.', '_' and '-')")
                        .arg(p.name);
    if (p.sharedDirectory.isEmpty() || !p.sharedDirectory.startsWith(QLatin1Char('/')))
        problems << QCoreApplication::translate("gpuf::Cluster",
            "shared directory: give an absolute path that this machine and the compute nodes both see");
    if (p.workerPath.isEmpty())
        problems << QCoreApplication::translate("gpuf::Cluster", "gpuf-measure path: empty");
    // Upper bounds too: a count a node cannot have, or a task submitted again without end, is a typing error.
    if (p.gpuCount < 0)
        problems << QCoreApplication::translate("gpuf::Cluster", "GPU count: %1 is negative").arg(p.gpuCount);
    else if (p.gpuCount > kMaxGpusPerTask)
        problems << QCoreApplication::translate("gpuf::Cluster", "GPU count: at most %1 a task, not %2")
                        .arg(kMaxGpusPerTask)
                        .arg(p.gpuCount);
    if (!p.timeLimit.isEmpty() && !isSlurmTime(p.timeLimit))
        problems << QCoreApplication::translate("gpuf::Cluster",
            "time limit: '%1' is not a Slurm time (minutes, MM:SS, HH:MM:SS, D-HH or D-HH:MM:SS, minutes and seconds "
            "under 60, hours under 24 after a day count)")
                        .arg(p.timeLimit);
    static const QRegularExpression archPattern(QStringLiteral("^sm_[1-9][0-9]{1,2}[af]?$"));
    if (!archPattern.match(p.compileArch).hasMatch())
        problems << QCoreApplication::translate(
            "gpuf::Cluster", "compile architecture: '%1' is not a GPU architecture (sm_80, sm_90, sm_90a, sm_100a)")
                        .arg(p.compileArch);
    const QList<std::pair<QString, QString>> lines {{QStringLiteral("partition"), p.partition},
        {QStringLiteral("account"), p.account}, {QStringLiteral("GPU type"), p.gpuType},
        {QStringLiteral("shared directory"), p.sharedDirectory}, {QStringLiteral("gpuf-measure path"), p.workerPath}};
    for (const auto &[field, value] : lines) {
        if (hasControlCharacter(value))
            problems << QCoreApplication::translate(
                "gpuf::Cluster", "%1: holds a line break or another control character")
                            .arg(field);
    }
    for (const QString &argument : p.workerArguments) {
        if (hasControlCharacter(argument))
            problems << QCoreApplication::translate(
                "gpuf::Cluster", "gpuf-measure argument: holds a line break or another control character");
    }
    if (p.pollIntervalMs < 100)
        problems << QCoreApplication::translate("gpuf::Cluster", "poll interval: at least 100 ms");
    else if (p.pollIntervalMs > kMaxPollIntervalMs)
        problems << QCoreApplication::translate("gpuf::Cluster", "poll interval: at most %1 ms (an hour), not %2")
                        .arg(kMaxPollIntervalMs)
                        .arg(p.pollIntervalMs);
    if (p.requestsPerTask < 1)
        problems << QCoreApplication::translate("gpuf::Cluster", "requests per task: at least 1");
    else if (p.requestsPerTask > kMaxRequestsPerTask)
        problems << QCoreApplication::translate("gpuf::Cluster", "requests per task: at most %1, not %2")
                        .arg(kMaxRequestsPerTask)
                        .arg(p.requestsPerTask);
    if (p.maxAttempts < 1)
        problems << QCoreApplication::translate("gpuf::Cluster", "attempts: at least 1");
    else if (p.maxAttempts > kMaxAttempts)
        problems << QCoreApplication::translate("gpuf::Cluster", "attempts: at most %1, not %2")
                        .arg(kMaxAttempts)
                        .arg(p.maxAttempts);
    for (const QString &option : p.extraOptions) {
        if (hasControlCharacter(option))
            problems << QCoreApplication::translate("gpuf::Cluster",
                "extra sbatch option '%1': holds a line break or another control character (one option per argument)")
                            .arg(QString(option).replace(QLatin1Char('\n'), QStringLiteral("\\n")));
        else if (!option.startsWith(QLatin1Char('-')))
            problems << QCoreApplication::translate("gpuf::Cluster",
                "extra sbatch option '%1': each option is one argument starting with '-' (--qos=short)")
                            .arg(option);
        else if (option.startsWith(QStringLiteral("--array")) || option.startsWith(QStringLiteral("--output"))
            || option.startsWith(QStringLiteral("--error")) || option.startsWith(QStringLiteral("--parsable")))
            problems << QCoreApplication::translate("gpuf::Cluster",
                "extra sbatch option '%1': gpuf sets the array, the output files and --parsable itself")
                            .arg(option);
    }
    return problems;
}

QStringList sbatchResourceOptions(const ClusterProfile &p)
{
    QStringList args;
    if (!p.partition.isEmpty())
        args << QStringLiteral("--partition=") + p.partition;
    if (!p.account.isEmpty())
        args << QStringLiteral("--account=") + p.account;
    if (p.gpuCount > 0)
        args << QStringLiteral("--gres=gpu:%1%2")
                    .arg(p.gpuType.isEmpty() ? QString() : p.gpuType + QLatin1Char(':'))
                    .arg(p.gpuCount);
    if (!p.timeLimit.isEmpty())
        args << QStringLiteral("--time=") + p.timeLimit;
    args << p.extraOptions;
    return args;
}

QString clusterSettingsFile() { return SettingsRef(nullptr).settings->fileName(); }

QList<ClusterProfile> loadClusterProfiles(QSettings *settings)
{
    SettingsRef ref(settings);
    ref.settings->beginGroup(kGroup);
    QStringList names = ref.settings->childGroups();
    ref.settings->endGroup();
    std::sort(names.begin(), names.end());
    QList<ClusterProfile> profiles;
    for (const QString &name : std::as_const(names))
        profiles.append(read(*ref.settings, name));
    return profiles;
}

Result<ClusterProfile> clusterProfile(const QString &name, QSettings *settings)
{
    SettingsRef ref(settings);
    ref.settings->beginGroup(kGroup);
    const bool known = ref.settings->childGroups().contains(name);
    ref.settings->endGroup();
    if (!known)
        return Error {QCoreApplication::translate("gpuf::Cluster",
            "no cluster profile named '%1' (gpuf cluster profiles lists them; gpuf cluster set-profile makes one)")
                          .arg(name)};
    return read(*ref.settings, name);
}

Result<ClusterProfile> usableClusterProfile(const QString &name, QSettings *settings)
{
    auto profile = clusterProfile(name, settings);
    if (!profile)
        return profile;
    if (const QStringList problems = clusterProfileProblems(*profile); !problems.isEmpty())
        return Error {QCoreApplication::translate(
            "gpuf::Cluster", "the cluster profile '%1' is not usable: %2 (fix it with gpuf cluster set-profile %1)")
                          .arg(name, problems.join(QStringLiteral("; ")))};
    return profile;
}

Status saveClusterProfile(const ClusterProfile &p, QSettings *settings)
{
    if (const QStringList problems = clusterProfileProblems(p); !problems.isEmpty())
        return Error {problems.join(QStringLiteral("; "))};
    SettingsRef ref(settings);
    QSettings &s = *ref.settings;
    s.remove(kGroup + QLatin1Char('/') + p.name);
    s.beginGroup(kGroup + QLatin1Char('/') + p.name);
    s.setValue(QStringLiteral("partition"), p.partition);
    s.setValue(QStringLiteral("account"), p.account);
    s.setValue(QStringLiteral("gpu_type"), p.gpuType);
    s.setValue(QStringLiteral("gpu_count"), p.gpuCount);
    s.setValue(QStringLiteral("time_limit"), p.timeLimit);
    s.setValue(QStringLiteral("extra_options"), p.extraOptions);
    s.setValue(QStringLiteral("shared_directory"), p.sharedDirectory);
    s.setValue(QStringLiteral("worker_path"), p.workerPath);
    s.setValue(QStringLiteral("worker_arguments"), p.workerArguments);
    s.setValue(QStringLiteral("poll_interval_ms"), p.pollIntervalMs);
    s.setValue(QStringLiteral("requests_per_task"), p.requestsPerTask);
    s.setValue(QStringLiteral("max_attempts"), p.maxAttempts);
    s.setValue(QStringLiteral("compile_arch"), p.compileArch);
    s.endGroup();
    s.sync();
    if (s.status() != QSettings::NoError)
        return Error {QCoreApplication::translate("gpuf::Cluster", "the settings file %1 could not be written")
                          .arg(s.fileName())};
    return {};
}

bool removeClusterProfile(const QString &name, QSettings *settings)
{
    SettingsRef ref(settings);
    ref.settings->beginGroup(kGroup);
    const bool known = ref.settings->childGroups().contains(name);
    if (known)
        ref.settings->remove(name);
    ref.settings->endGroup();
    ref.settings->sync();
    return known;
}

} // namespace gpuf
