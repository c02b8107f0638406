// gpuf cluster: the Slurm cluster profiles (list, set, remove), the cluster jobs a store has out (status), collecting
// them (collect) and asking a node's gpuf-measure what it has (hello). See docs/cluster.md.
#include "app/cli/cli_engine.h"
#include "app/cli/invocation.h"
#include "app/cli/option_names.h"
#include "app/cli/progress.h"
#include "core/measure/cluster_profile.h"
#include "core/measure/measure_engine.h"
#include "core/store/cluster_repo.h"
#include "core/store/store.h"

#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>

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

int listProfiles(Invocation &run)
{
    const QList<ClusterProfile> profiles = loadClusterProfiles();
    if (run.json()) {
        QJsonArray all;
        for (const ClusterProfile &p : profiles)
            all.append(profileJson(p));
        run.printJson(QJsonObject {{QStringLiteral("profiles"), all}});
        return Success;
    }
    if (profiles.isEmpty())
        run.out() << "no cluster profiles (gpuf cluster set-profile NAME --shared-dir DIR makes one)\n";
    for (const ClusterProfile &p : profiles) {
        run.out() << p.name << ": sbatch " << sbatchResourceOptions(p).join(QLatin1Char(' ')) << "; shared "
                  << p.sharedDirectory << "; " << p.workerPath << " on the nodes\n";
    }
    return Success;
}

int setProfile(Invocation &run, const QString &name)
{
    run.setPrefix(QStringLiteral("cluster set-profile"));
    auto existing = clusterProfile(name);
    ClusterProfile p = existing ? *existing : ClusterProfile {};
    p.name = name;
    const auto text = [&](const QString &option, QString *target) {
        if (run.isSet(option))
            *target = run.value(option);
    };
    text(kShared, &p.sharedDirectory);
    text(kPartition, &p.partition);
    text(kAccount, &p.account);
    text(kGpuType, &p.gpuType);
    text(kTime, &p.timeLimit);
    text(kWorker, &p.workerPath);
    text(kArch, &p.compileArch);
    if (run.isSet(kSbatchOption))
        p.extraOptions = run.values(kSbatchOption);
    if (run.isSet(kWorkerArg))
        p.workerArguments = run.values(kWorkerArg);
    auto given = run.checkOptions({kGpus, kPoll, kPerTask, kAttempts});
    if (!given)
        return run.usage(given.error());
    p.gpuCount = given->integer(kGpus, p.gpuCount);
    p.pollIntervalMs = given->integer(kPoll, p.pollIntervalMs);
    p.requestsPerTask = given->integer(kPerTask, p.requestsPerTask);
    p.maxAttempts = given->integer(kAttempts, p.maxAttempts);
    if (Status s = saveClusterProfile(p); !s)
        return run.bad(s.error());
    if (run.json())
        run.printJson(profileJson(p));
    else
        run.out() << (existing ? "updated" : "saved") << " cluster profile " << p.name << '\n';
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

int status(Invocation &run, const QString &storePath)
{
    run.setPrefix(QStringLiteral("cluster status"));
    auto store = run.existingStore(storePath);
    if (!store)
        return run.bad(store.error());
    ClusterRepo repo(**store);
    auto tasks = run.isSet(kAll) ? repo.tasks() : repo.openTasks();
    if (!tasks)
        return run.bad(tasks.error());
    if (run.json()) {
        QJsonArray all;
        for (const ClusterTask &t : std::as_const(*tasks))
            all.append(taskJson(t));
        run.printJson(QJsonObject {{QStringLiteral("tasks"), all}});
        return Success;
    }
    if (tasks->isEmpty())
        run.out() << (run.isSet(kAll) ? "no cluster jobs in this store\n"
                                      : "no cluster jobs out (--all lists finished ones)\n");
    for (const ClusterTask &t : std::as_const(*tasks)) {
        run.out() << t.profile << " job " << (t.jobId.isEmpty() ? QStringLiteral("(not submitted)") : t.jobId) << '_'
                  << t.arrayIndex << ": " << t.state << (t.node.isEmpty() ? QString() : QStringLiteral(" on ") + t.node)
                  << ", attempt " << t.attempts << ", " << t.results.size() << " of "
                  << (t.results.size() + t.requests.size()) << " requests finished";
        if (!t.message.isEmpty())
            run.out() << " — " << t.message;
        run.out() << '\n';
    }
    return Success;
}

void printCollected(Invocation &run, const MeasureSnapshot &s)
{
    if (run.json()) {
        QJsonArray results;
        for (const MeasureItem &item : s.items) {
            results.append(QJsonObject {{QStringLiteral("kernel_id"), item.job.kernelId},
                {QStringLiteral("label"), item.kernelLabel}, {QStringLiteral("cluster"), item.cluster},
                {QStringLiteral("job"), item.clusterJobId}, {QStringLiteral("node"), item.clusterNode},
                {QStringLiteral("state"), measureItemStateName(item.state)}, {QStringLiteral("outcome"), item.outcome},
                {QStringLiteral("message"), item.message},
                {QStringLiteral("measurements"), item.measurementIds.size()}});
        }
        run.printJson(QJsonObject {{QStringLiteral("results"), results}});
        return;
    }
    if (s.items.isEmpty())
        run.out() << "no cluster jobs out\n";
    for (const MeasureItem &item : s.items) {
        run.out() << item.kernelLabel << ": "
                  << (item.outcome.isEmpty() ? measureItemStateName(item.state) : item.outcome) << " [job "
                  << item.clusterJobId << " on " << item.clusterNode << "]";
        if (!item.measurementIds.isEmpty())
            run.out() << ", " << item.measurementIds.size() << " measurement(s) stored";
        if (!item.message.isEmpty())
            run.out() << " — " << item.message;
        run.out() << '\n';
    }
}

// Runs the engine over the store (picking up its open jobs, plus `jobs`) until nothing is out any more.
int collect(Invocation &run, const QString &storePath, const QList<MeasureJob> &jobs)
{
    if (auto store = run.existingStore(storePath); !store)
        return run.bad(store.error());
    CliEngine engine(CliEngine::ForCluster {});
    Progress progress(run.err());
    QObject::connect(&engine.engine(), &MeasureEngine::notice, &engine.engine(),
        [&progress](const QString &text) { progress.line(QStringLiteral("cluster: ") + text); });
    engine->setStorePath(storePath);
    if (!jobs.isEmpty())
        engine->enqueue(jobs);
    const MeasureSnapshot s = engine.runUntilIdle();
    printCollected(run, s);
    const bool allDone = std::all_of(
        s.items.cbegin(), s.items.cend(), [](const MeasureItem &i) { return i.state == MeasureItemState::Done; });
    return allDone ? int(Success) : int(BadInput);
}

int hello(Invocation &run, const QString &storePath, const QString &cluster)
{
    if (auto profile = usableClusterProfile(cluster); !profile) {
        run.setPrefix(QStringLiteral("cluster hello"));
        return run.bad(profile.error());
    }
    MeasureJob job;
    job.mode = MeasureMode::Cluster;
    job.cluster = cluster;
    job.kind = MeasureKind::Hello;
    return collect(run, storePath, {job});
}

int runCluster(Invocation &run)
{
    const QStringList &args = run.args();
    const QString verb = args.value(0);
    if (verb == QLatin1String("profiles"))
        return listProfiles(run);
    if (verb == QLatin1String("set-profile") && args.size() == 2)
        return setProfile(run, args[1]);
    if (verb == QLatin1String("remove-profile") && args.size() == 2) {
        run.setPrefix(QStringLiteral("cluster remove-profile"));
        if (!removeClusterProfile(args[1]))
            return run.bad(QStringLiteral("no cluster profile named '%1'").arg(args[1]));
        run.out() << "removed cluster profile " << args[1] << '\n';
        return Success;
    }
    if (verb == QLatin1String("status") && args.size() == 2)
        return status(run, args[1]);
    if (verb == QLatin1String("collect") && args.size() == 2)
        return collect(run, args[1], {});
    if (verb == QLatin1String("hello") && args.size() == 3)
        return hello(run, args[1], args[2]);
    return run.usage(QStringLiteral("give profiles | set-profile NAME | remove-profile NAME | status STORE | collect "
                                    "STORE | hello STORE PROFILE"));
}

// set-profile's numbers, each refused as "--NAME takes a number of at least MIN".
Option numberOption(const QString &name, const QString &help, const QString &valueName, int minimum)
{
    return Option::integer(name, valueName, help)
        .atLeast(minimum)
        .refusedAs(QStringLiteral("takes a number of at least %1").arg(minimum));
}

QList<Option> clusterOptions()
{
    return {
        Option::text(kShared, QStringLiteral("DIR"),
            QStringLiteral("set-profile: the directory this machine and the nodes share")),
        Option::text(kPartition, QStringLiteral("P"), QStringLiteral("set-profile: sbatch --partition")),
        Option::text(kAccount, QStringLiteral("A"), QStringLiteral("set-profile: sbatch --account")),
        Option::text(kGpuType, QStringLiteral("TYPE"), QStringLiteral("set-profile: the gres GPU type (h100)")),
        numberOption(
            kGpus, QStringLiteral("set-profile: GPUs per task (default 1; 0 asks for none)"), QStringLiteral("N"), 0),
        Option::text(
            kTime, QStringLiteral("T"), QStringLiteral("set-profile: sbatch --time per task (default 01:00:00)")),
        Option::text(
            kSbatchOption, QStringLiteral("OPT"), QStringLiteral("set-profile: one more sbatch option (repeatable)")),
        Option::text(kWorker, QStringLiteral("PATH"), QStringLiteral("set-profile: gpuf-measure's path on the nodes")),
        Option::text(kWorkerArg, QStringLiteral("ARG"),
            QStringLiteral("set-profile: an argument for gpuf-measure (repeatable)")),
        numberOption(
            kPoll, QStringLiteral("set-profile: how often squeue is asked (default 30000)"), QStringLiteral("MS"), 100),
        numberOption(
            kPerTask, QStringLiteral("set-profile: requests per array task (default 16)"), QStringLiteral("N"), 1),
        numberOption(kAttempts, QStringLiteral("set-profile: submissions of a task whose node failed (default 3)"),
            QStringLiteral("N"), 1),
        Option::text(kArch, QStringLiteral("SM"),
            QStringLiteral("set-profile: architecture of compile requests (default sm_90)")),
        Option::flag(kAll, QStringLiteral("status: list finished tasks too")),
    };
}

} // namespace

Command clusterCommand()
{
    Command c;
    c.name = QStringLiteral("cluster");
    c.summary = QStringLiteral("Slurm cluster profiles, and the cluster jobs of a store: status, collect, hello.");
    c.usage = QStringLiteral("profiles | set-profile NAME | remove-profile NAME | status STORE | collect STORE | "
                             "hello STORE PROFILE");
    c.arguments = {{QStringLiteral("VERB"), QStringLiteral("what to do")}};
    c.options = clusterOptions();
    c.invoke = runCluster;
    return c;
}

} // namespace gpuf::cli
