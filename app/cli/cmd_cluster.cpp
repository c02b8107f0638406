// gpuf cluster: the Slurm cluster profiles (list, set, remove), the cluster jobs a store has out (status), collecting
// them (collect) and asking a node's gpuf-measure what it has (hello). See docs/cluster.md.
#include "app/cli/command.h"
#include "app/cli/option_names.h"
#include "core/measure/cluster_profile.h"
#include "core/measure/measure_engine.h"
#include "core/store/cluster_repo.h"
#include "core/store/store.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonObject>

namespace gpuf::cli {
namespace {

const QString kShared = QStringLiteral("shared-dir");
const QString kPartition = QStringLiteral("partition");
const QString kAccount = QStringLiteral("account");
const QString kGpuType = QStringLiteral("gpu-type");
const QString kGpus = QStringLiteral("gpus");
const QString kTime = QStringLiteral("time");
const QString kSbatchOption = QStringLiteral("sbatch-option");
const QString kWorker = QStringLiteral("worker");
const QString kWorkerArg = QStringLiteral("worker-arg");
const QString kPoll = QStringLiteral("poll-ms");
const QString kPerTask = QStringLiteral("per-task");
const QString kAttempts = QStringLiteral("attempts");
const QString kAll = QStringLiteral("all");

QJsonObject profileJson(const ClusterProfile &p)
{
    return QJsonObject {{QStringLiteral("name"), p.name}, {QStringLiteral("partition"), p.partition},
        {QStringLiteral("account"), p.account}, {QStringLiteral("gpu_type"), p.gpuType},
        {QStringLiteral("gpu_count"), p.gpuCount}, {QStringLiteral("time_limit"), p.timeLimit},
        {QStringLiteral("extra_options"), QJsonArray::fromStringList(p.extraOptions)},
        {QStringLiteral("shared_directory"), p.sharedDirectory}, {QStringLiteral("worker_path"), p.workerPath},
        {QStringLiteral("worker_arguments"), QJsonArray::fromStringList(p.workerArguments)},
        {QStringLiteral("poll_interval_ms"), p.pollIntervalMs},
        {QStringLiteral("requests_per_task"), p.requestsPerTask}, {QStringLiteral("max_attempts"), p.maxAttempts},
        {QStringLiteral("compile_arch"), p.compileArch}};
}

int listProfiles(const QCommandLineParser &parser, Io &io)
{
    const QList<ClusterProfile> profiles = loadClusterProfiles();
    if (parser.isSet(QStringLiteral("json"))) {
        QJsonArray all;
        for (const ClusterProfile &p : profiles)
            all.append(profileJson(p));
        printJson(io, QJsonDocument(QJsonObject {{QStringLiteral("profiles"), all}}));
        return Success;
    }
    if (profiles.isEmpty())
        io.out << "no cluster profiles (gpuf cluster set-profile NAME --shared-dir DIR makes one)\n";
    for (const ClusterProfile &p : profiles) {
        io.out << p.name << ": sbatch " << sbatchResourceOptions(p).join(QLatin1Char(' ')) << "; shared "
               << p.sharedDirectory << "; " << p.workerPath << " on the nodes\n";
    }
    return Success;
}

// Reads a positive number option into `target`; false (with the message in `error`) when it is not one.
bool positive(const QCommandLineParser &parser, const QString &name, int minimum, int *target, QString *error)
{
    if (!parser.isSet(name))
        return true;
    bool ok = false;
    const int value = parser.value(name).toInt(&ok);
    if (!ok || value < minimum) {
        *error = QStringLiteral("--%1 takes a number of at least %2").arg(name).arg(minimum);
        return false;
    }
    *target = value;
    return true;
}

int setProfile(const QCommandLineParser &parser, Io &io, const QString &name)
{
    auto existing = clusterProfile(name);
    ClusterProfile p = existing ? *existing : ClusterProfile {};
    p.name = name;
    const auto text = [&](const QString &option, QString *target) {
        if (parser.isSet(option))
            *target = parser.value(option);
    };
    text(kShared, &p.sharedDirectory);
    text(kPartition, &p.partition);
    text(kAccount, &p.account);
    text(kGpuType, &p.gpuType);
    text(kTime, &p.timeLimit);
    text(kWorker, &p.workerPath);
    text(kArch, &p.compileArch);
    if (parser.isSet(kSbatchOption))
        p.extraOptions = parser.values(kSbatchOption);
    if (parser.isSet(kWorkerArg))
        p.workerArguments = parser.values(kWorkerArg);
    QString error;
    if (!positive(parser, kGpus, 0, &p.gpuCount, &error) || !positive(parser, kPoll, 100, &p.pollIntervalMs, &error)
        || !positive(parser, kPerTask, 1, &p.requestsPerTask, &error)
        || !positive(parser, kAttempts, 1, &p.maxAttempts, &error))
        return fail(io, UsageError, QStringLiteral("cluster set-profile: %1").arg(error));
    if (Status s = saveClusterProfile(p); !s)
        return fail(io, BadInput, QStringLiteral("cluster set-profile: %1").arg(s.error()));
    if (parser.isSet(QStringLiteral("json")))
        printJson(io, QJsonDocument(profileJson(p)));
    else
        io.out << (existing ? "updated" : "saved") << " cluster profile " << p.name << '\n';
    return Success;
}

QJsonObject taskJson(const ClusterTask &t)
{
    return QJsonObject {{QStringLiteral("task"), t.id}, {QStringLiteral("profile"), t.profile},
        {QStringLiteral("job"), t.jobId.isEmpty() ? QJsonValue() : QJsonValue(t.jobId)},
        {QStringLiteral("array_index"), t.arrayIndex}, {QStringLiteral("state"), t.state},
        {QStringLiteral("node"), t.node}, {QStringLiteral("attempts"), t.attempts},
        {QStringLiteral("open_requests"), t.requests.size()}, {QStringLiteral("finished_requests"), t.results.size()},
        {QStringLiteral("open"), t.open}, {QStringLiteral("message"), t.message}, {QStringLiteral("batch"), t.batchDir},
        {QStringLiteral("updated_at"), t.updatedAt}};
}

int status(const QCommandLineParser &parser, Io &io, const QString &storePath)
{
    auto store = Store::open(storePath, Store::Mode::ExistingOnly);
    if (!store)
        return fail(io, BadInput, QStringLiteral("cluster status: %1").arg(store.error()));
    ClusterRepo repo(**store);
    auto tasks = parser.isSet(kAll) ? repo.tasks() : repo.openTasks();
    if (!tasks)
        return fail(io, BadInput, QStringLiteral("cluster status: %1").arg(tasks.error()));
    if (parser.isSet(QStringLiteral("json"))) {
        QJsonArray all;
        for (const ClusterTask &t : std::as_const(*tasks))
            all.append(taskJson(t));
        printJson(io, QJsonDocument(QJsonObject {{QStringLiteral("tasks"), all}}));
        return Success;
    }
    if (tasks->isEmpty())
        io.out << (parser.isSet(kAll) ? "no cluster jobs in this store\n"
                                      : "no cluster jobs out (--all lists finished ones)\n");
    for (const ClusterTask &t : std::as_const(*tasks)) {
        io.out << t.profile << " job " << (t.jobId.isEmpty() ? QStringLiteral("(not submitted)") : t.jobId) << '_'
               << t.arrayIndex << ": " << t.state << (t.node.isEmpty() ? QString() : QStringLiteral(" on ") + t.node)
               << ", attempt " << t.attempts << ", " << t.results.size() << " of "
               << (t.results.size() + t.requests.size()) << " requests finished";
        if (!t.message.isEmpty())
            io.out << " — " << t.message;
        io.out << '\n';
    }
    return Success;
}

// Runs the engine over the store (picking up its open jobs, plus `jobs`) until nothing is out any more.
int collect(const QCommandLineParser &parser, Io &io, const QString &storePath, const QList<MeasureJob> &jobs)
{
    if (auto store = Store::open(storePath, Store::Mode::ExistingOnly); !store)
        return fail(io, BadInput, QStringLiteral("cluster: %1").arg(store.error()));
    MeasureEngine engine(MeasureEngineConfig {});
    QObject::connect(&engine, &MeasureEngine::notice, &engine, [&io](const QString &text) {
        io.err << "cluster: " << text << '\n';
        io.err.flush();
    });
    engine.setStorePath(storePath);
    if (!jobs.isEmpty())
        engine.enqueue(jobs);
    QEventLoop loop;
    const auto done = [](const MeasureSnapshot &s) { return s.queued == 0 && s.running == 0; };
    QObject::connect(&engine, &MeasureEngine::snapshotReady, &loop, [&](const MeasureSnapshot &s) {
        if (done(s))
            loop.quit();
    });
    if (!done(engine.snapshot()))
        loop.exec();
    const MeasureSnapshot s = engine.snapshot();
    QJsonArray results;
    bool allDone = true;
    for (const MeasureItem &item : s.items) {
        allDone = allDone && item.state == MeasureItemState::Done;
        results.append(QJsonObject {{QStringLiteral("kernel_id"), item.job.kernelId},
            {QStringLiteral("label"), item.kernelLabel}, {QStringLiteral("cluster"), item.cluster},
            {QStringLiteral("job"), item.clusterJobId}, {QStringLiteral("node"), item.clusterNode},
            {QStringLiteral("state"), measureItemStateName(item.state)}, {QStringLiteral("outcome"), item.outcome},
            {QStringLiteral("message"), item.message}, {QStringLiteral("measurements"), item.measurementIds.size()}});
    }
    if (parser.isSet(QStringLiteral("json"))) {
        printJson(io, QJsonDocument(QJsonObject {{QStringLiteral("results"), results}}));
    } else {
        if (s.items.isEmpty())
            io.out << "no cluster jobs out\n";
        for (const MeasureItem &item : s.items) {
            io.out << item.kernelLabel << ": "
                   << (item.outcome.isEmpty() ? measureItemStateName(item.state) : item.outcome) << " [job "
                   << item.clusterJobId << " on " << item.clusterNode << "]";
            if (!item.measurementIds.isEmpty())
                io.out << ", " << item.measurementIds.size() << " measurement(s) stored";
            if (!item.message.isEmpty())
                io.out << " — " << item.message;
            io.out << '\n';
        }
    }
    return allDone ? int(Success) : int(BadInput);
}

int runCluster(const QCommandLineParser &parser, Io &io)
{
    const QStringList args = parser.positionalArguments();
    const QString verb = args.value(0);
    if (verb == QLatin1String("profiles"))
        return listProfiles(parser, io);
    if (verb == QLatin1String("set-profile") && args.size() == 2)
        return setProfile(parser, io, args[1]);
    if (verb == QLatin1String("remove-profile") && args.size() == 2) {
        if (!removeClusterProfile(args[1]))
            return fail(
                io, BadInput, QStringLiteral("cluster remove-profile: no cluster profile named '%1'").arg(args[1]));
        io.out << "removed cluster profile " << args[1] << '\n';
        return Success;
    }
    if (verb == QLatin1String("status") && args.size() == 2)
        return status(parser, io, args[1]);
    if (verb == QLatin1String("collect") && args.size() == 2)
        return collect(parser, io, args[1], {});
    if (verb == QLatin1String("hello") && args.size() == 3) {
        if (auto profile = clusterProfile(args[2]); !profile)
            return fail(io, BadInput, QStringLiteral("cluster hello: %1").arg(profile.error()));
        MeasureJob hello;
        hello.mode = MeasureMode::Cluster;
        hello.cluster = args[2];
        hello.kind = MeasureKind::Hello;
        return collect(parser, io, args[1], {hello});
    }
    return fail(io, UsageError,
        QStringLiteral("cluster: give profiles | set-profile NAME | remove-profile NAME | status STORE | collect STORE "
                       "| hello STORE PROFILE"));
}

} // namespace

Command clusterCommand()
{
    Command c;
    c.name = QStringLiteral("cluster");
    c.summary = QStringLiteral("Slurm cluster profiles, and the cluster jobs of a store: status, collect, hello.");
    c.usage = QStringLiteral("profiles | set-profile NAME | remove-profile NAME | status STORE | collect STORE | "
                             "hello STORE PROFILE");
    c.addOptions = [](QCommandLineParser &parser) {
        parser.addPositionalArgument(QStringLiteral("VERB"), QStringLiteral("what to do"));
        parser.addOption({kShared, QStringLiteral("set-profile: the directory this machine and the nodes share"),
            QStringLiteral("DIR")});
        parser.addOption({kPartition, QStringLiteral("set-profile: sbatch --partition"), QStringLiteral("P")});
        parser.addOption({kAccount, QStringLiteral("set-profile: sbatch --account"), QStringLiteral("A")});
        parser.addOption({kGpuType, QStringLiteral("set-profile: the gres GPU type (h100)"), QStringLiteral("TYPE")});
        parser.addOption(
            {kGpus, QStringLiteral("set-profile: GPUs per task (default 1; 0 asks for none)"), QStringLiteral("N")});
        parser.addOption(
            {kTime, QStringLiteral("set-profile: sbatch --time per task (default 01:00:00)"), QStringLiteral("T")});
        parser.addOption(
            {kSbatchOption, QStringLiteral("set-profile: one more sbatch option (repeatable)"), QStringLiteral("OPT")});
        parser.addOption(
            {kWorker, QStringLiteral("set-profile: gpuf-measure's path on the nodes"), QStringLiteral("PATH")});
        parser.addOption({kWorkerArg, QStringLiteral("set-profile: an argument for gpuf-measure (repeatable)"),
            QStringLiteral("ARG")});
        parser.addOption(
            {kPoll, QStringLiteral("set-profile: how often squeue is asked (default 30000)"), QStringLiteral("MS")});
        parser.addOption(
            {kPerTask, QStringLiteral("set-profile: requests per array task (default 16)"), QStringLiteral("N")});
        parser.addOption({kAttempts, QStringLiteral("set-profile: submissions of a task whose node failed (default 3)"),
            QStringLiteral("N")});
        parser.addOption({kArch, QStringLiteral("set-profile: architecture of compile requests (default sm_90)"),
            QStringLiteral("SM")});
        parser.addOption({kAll, QStringLiteral("status: list finished tasks too")});
    };
    c.run = runCluster;
    return c;
}

} // namespace gpuf::cli
