// Slurm batch files and command output; see cluster_batch.h.
#include "core/measure/cluster_batch.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>

namespace gpuf::cluster {
namespace {

// A word for sh inside single quotes.
QString shellQuote(const QString &text)
{
    QString quoted = text;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

QString tr(const char *text) { return QCoreApplication::translate("gpuf::Cluster", text); }

// "0-3" → {0,1,2,3}; "1,4-5%2" → {1,4,5} (the throttle after % does not matter here).
QList<int> expandIndices(QString spec)
{
    QList<int> indices;
    spec = spec.section(QLatin1Char('%'), 0, 0);
    for (const QString &part : spec.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QStringList ends = part.split(QLatin1Char('-'));
        bool okFirst = false;
        bool okLast = false;
        const int first = ends.value(0).toInt(&okFirst);
        const int last = ends.size() > 1 ? ends.value(1).toInt(&okLast) : first;
        if (!okFirst || (ends.size() > 1 && !okLast) || last < first || last - first > 100000)
            continue;
        for (int i = first; i <= last; ++i)
            indices.append(i);
    }
    return indices;
}

} // namespace

QString requestFile(const QString &batchDir, int index)
{
    return QStringLiteral("%1/requests/task-%2.jsonl").arg(batchDir).arg(index);
}

QString resultFile(const QString &batchDir, int index)
{
    return QStringLiteral("%1/results/task-%2.jsonl").arg(batchDir).arg(index);
}

QString errorLog(const QString &batchDir, int index)
{
    return QStringLiteral("%1/logs/task-%2.err").arg(batchDir).arg(index);
}

QString heartbeatFile(const QString &batchDir, int index)
{
    return QStringLiteral("%1/results/task-%2.alive").arg(batchDir).arg(index);
}

int heartbeatSeconds(const ClusterProfile &profile) { return std::clamp(profile.pollIntervalMs / 1000, 1, 60); }

qint64 lostAfterMs(const ClusterProfile &profile) { return qint64(6) * heartbeatSeconds(profile) * 1000; }

Heartbeat parseHeartbeat(const QByteArray &content)
{
    const QList<QByteArray> fields = content.trimmed().split(' ');
    bool ok = false;
    const qint64 epoch = fields.value(1).toLongLong(&ok);
    static const QRegularExpression idPattern(QStringLiteral("^[0-9]+$"));
    const QString jobId = QString::fromLatin1(fields.value(0));
    if (fields.size() != 2 || !ok || !idPattern.match(jobId).hasMatch())
        return {};
    return {jobId, epoch};
}

bool scriptWritesHeartbeat(const QString &batchDir)
{
    bool exists = false;
    return readFile(batchDir + QStringLiteral("/run.sh"), &exists).contains("task-$i.alive");
}

QByteArray jsonLine(const QJsonObject &object) { return QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n'; }

QByteArray readFile(const QString &path, bool *exists)
{
    QFile file(path);
    *exists = file.open(QIODevice::ReadOnly);
    return *exists ? file.readAll() : QByteArray();
}

QString errorTail(const QString &path)
{
    bool exists = false;
    const QByteArray text = readFile(path, &exists).trimmed();
    if (text.isEmpty())
        return {};
    const QList<QByteArray> lines = text.split('\n');
    QStringList tail;
    for (qsizetype i = std::max<qsizetype>(0, lines.size() - 3); i < lines.size(); ++i)
        tail << QString::fromUtf8(lines[i]).trimmed();
    return tail.join(QStringLiteral(" / "));
}

QStringList partFiles(const QString &batchDir, int index)
{
    const QFileInfo final(resultFile(batchDir, index));
    const QFileInfoList parts = final.dir().entryInfoList(
        {final.fileName() + QStringLiteral(".part-*")}, QDir::Files, QDir::Time | QDir::Reversed);
    QStringList paths;
    for (const QFileInfo &info : parts)
        paths << info.filePath();
    return paths;
}

QByteArray jobScript(const ClusterProfile &profile, const QString &batchDir)
{
    QStringList worker {shellQuote(profile.workerPath)};
    for (const QString &arg : profile.workerArguments)
        worker << shellQuote(arg);
    // Each gpuf-measure run starts with hello and device_info (the node's own hardware for every answer). A run that
    // ends early (restart_required, a crash) is followed by a new one over the requests not answered yet; a request
    // that got no answer at all is noted and skipped, so the loop always ends.
    QString script = QStringLiteral(R"SH(#!/bin/sh
# A gpuf cluster task (docs/cluster.md): runs gpuf-measure over requests/task-N.jsonl and leaves its answers in
# results/task-N.jsonl, renamed into place only once complete. Written by gpuf; needs only sh and gpuf-measure.
dir=@DIR@
i="${SLURM_ARRAY_TASK_ID:?this script runs as a task of a Slurm job array}"
req="$dir/requests/task-$i.jsonl"
out="$dir/results/task-$i.jsonl"
tmp="$out.part-${SLURM_JOB_ID:-$$}"
job="${SLURM_ARRAY_JOB_ID:-${SLURM_JOB_ID:-$$}}"
err="$dir/logs/task-$i.err"
# The heartbeat: rewritten while this task lives, so gpuf tells a lost node (it stops) from a slow kernel (it goes on).
alive="$dir/results/task-$i.alive"
beat() {
    while :; do
        printf '%s %s\n' "$job" "$(date +%s)" >"$alive.$job" && mv -f "$alive.$job" "$alive"
        sleep @BEAT@
    done
}
beat &
beat_pid=$!
trap 'kill "$beat_pid" 2>/dev/null' EXIT
answered() { grep -v -c -e '"id": *"gpuf-' -e '"gpuf_cluster":"start"' -e '"gpuf_cluster":"end"' "$tmp"; }
hellos() { grep -c '"id": *"gpuf-hello"' "$tmp"; }
printf '{"gpuf_cluster":"start","node":"%s","job_id":"%s","task":%s}\n' "$(hostname)" "${SLURM_JOB_ID:-}" "$i" >"$tmp" || exit 1
total=$(grep -c '' "$req")
rc=0
while :; do
    done_now=$(answered)
    [ "$done_now" -ge "$total" ] && break
    before=$(hellos)
    { printf '%s\n' '{"id":"gpuf-hello","type":"hello"}' '{"id":"gpuf-device","type":"device_info"}'
      tail -n +"$((done_now + 1))" "$req"; } | @WORKER@ >>"$tmp" 2>>"$err"
    rc=$?
    if [ "$(hellos)" -le "$before" ]; then
        printf '{"gpuf_cluster":"worker_failed","exit_code":%d}\n' "$rc" >>"$tmp"
        break
    fi
    if [ "$(answered)" -le "$done_now" ]; then
        printf '{"gpuf_cluster":"no_answer","line":%d,"exit_code":%d}\n' "$((done_now + 1))" "$rc" >>"$tmp"
    fi
done
printf '{"gpuf_cluster":"end","exit_code":%d}\n' "$rc" >>"$tmp"
mv -f "$tmp" "$out"
)SH");
    script.replace(QStringLiteral("@DIR@"), shellQuote(batchDir));
    script.replace(QStringLiteral("@WORKER@"), worker.join(QLatin1Char(' ')));
    script.replace(QStringLiteral("@BEAT@"), QString::number(heartbeatSeconds(profile)));
    return script.toUtf8();
}

QString arraySpec(QList<int> indices)
{
    std::sort(indices.begin(), indices.end());
    indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
    QStringList parts;
    for (qsizetype i = 0; i < indices.size();) {
        qsizetype j = i;
        while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1)
            ++j;
        parts << (j == i ? QString::number(indices[i]) : QStringLiteral("%1-%2").arg(indices[i]).arg(indices[j]));
        i = j + 1;
    }
    return parts.join(QLatin1Char(','));
}

QStringList sbatchArguments(const ClusterProfile &profile, const QString &batchDir, const QString &spec)
{
    QStringList args {QStringLiteral("--parsable"), QStringLiteral("--array=") + spec,
        QStringLiteral("--job-name=gpuf-measure"), QStringLiteral("--output=%1/logs/slurm-%A_%a.out").arg(batchDir)};
    args << sbatchResourceOptions(profile);
    args << batchDir + QStringLiteral("/run.sh");
    return args;
}

Result<QString> parseSbatchJobId(const QByteArray &output)
{
    // --parsable prints "jobid" or "jobid;cluster" on its last line; warnings may come before it.
    const QStringList lines = QString::fromUtf8(output).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const QString last = lines.isEmpty() ? QString() : lines.last().trimmed();
    static const QRegularExpression idPattern(QStringLiteral("^([0-9]+)(;.*)?$"));
    const auto match = idPattern.match(last);
    if (!match.hasMatch())
        return Error {tr("sbatch printed no job id (it said: %1)")
                          .arg(last.isEmpty() ? tr("nothing") : QStringLiteral("\"%1\"").arg(last.left(200)))};
    return match.captured(1);
}

QStringList squeueArguments(const QStringList &jobIds)
{
    return {QStringLiteral("--noheader"), QStringLiteral("--array"), QStringLiteral("--states=all"),
        QStringLiteral("--format=%i|%T|%N|%r"), QStringLiteral("--jobs=") + jobIds.join(QLatin1Char(','))};
}

QStringList sacctArguments(const QStringList &jobIds)
{
    return {QStringLiteral("--noheader"), QStringLiteral("--parsable2"), QStringLiteral("--allocations"),
        QStringLiteral("--format=JobID,State,NodeList"), QStringLiteral("--jobs=") + jobIds.join(QLatin1Char(','))};
}

QList<SlurmTaskState> parseSlurmStates(const QByteArray &output)
{
    QList<SlurmTaskState> states;
    static const QRegularExpression idPattern(QStringLiteral(R"(^([0-9]+)(?:_(?:([0-9]+)|\[([^\]]*)\]))?(?:\.\S+)?$)"));
    for (const QString &line : QString::fromUtf8(output).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QStringList fields = line.trimmed().split(QLatin1Char('|'));
        if (fields.size() < 3)
            continue;
        const auto match = idPattern.match(fields[0].trimmed());
        if (!match.hasMatch())
            continue;
        SlurmTaskState s;
        s.jobId = match.captured(1);
        s.state = fields[1].trimmed().section(QLatin1Char(' '), 0, 0);
        s.node = fields[2].trimmed();
        if (s.node == QLatin1String("None assigned") || s.node == QLatin1String("(null)"))
            s.node.clear();
        s.reason = fields.value(3).trimmed();
        if (!match.captured(2).isEmpty()) {
            s.arrayIndex = match.captured(2).toInt();
            states.append(s);
        } else if (!match.captured(3).isEmpty()) {
            for (int index : expandIndices(match.captured(3))) {
                s.arrayIndex = index;
                states.append(s);
            }
        } else {
            states.append(s);
        }
    }
    return states;
}

SlurmStateClass classifySlurmState(const QString &state)
{
    static const QStringList waiting {QStringLiteral("PENDING"), QStringLiteral("CONFIGURING"),
        QStringLiteral("REQUEUED"), QStringLiteral("REQUEUE_HOLD"), QStringLiteral("REQUEUE_FED"),
        QStringLiteral("RESV_DEL_HOLD"), QStringLiteral("SUSPENDED"), QStringLiteral("STOPPED"),
        QStringLiteral("RESIZING"), QStringLiteral("SIGNALING"), QStringLiteral("STAGE_OUT")};
    static const QStringList running {QStringLiteral("RUNNING"), QStringLiteral("COMPLETING")};
    static const QStringList finished {QStringLiteral("COMPLETED"), QStringLiteral("FAILED")};
    static const QStringList nodeFailed {QStringLiteral("NODE_FAIL"), QStringLiteral("PREEMPTED"),
        QStringLiteral("BOOT_FAIL"), QStringLiteral("CANCELLED"), QStringLiteral("DEADLINE"),
        QStringLiteral("REVOKED")};
    const QString s = state.section(QLatin1Char(' '), 0, 0).remove(QLatin1Char('+')).toUpper();
    if (waiting.contains(s))
        return SlurmStateClass::Waiting;
    if (running.contains(s))
        return SlurmStateClass::Running;
    if (finished.contains(s))
        return SlurmStateClass::Finished;
    if (nodeFailed.contains(s))
        return SlurmStateClass::NodeFailed;
    if (s == QLatin1String("TIMEOUT"))
        return SlurmStateClass::TimeLimit;
    if (s == QLatin1String("OUT_OF_MEMORY"))
        return SlurmStateClass::OutOfMemory;
    return SlurmStateClass::Unknown;
}

TaskResult parseTaskResult(const QByteArray &content)
{
    TaskResult result;
    for (const QByteArray &line : content.split('\n')) {
        if (line.trimmed().isEmpty())
            continue;
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject()) {
            ++result.unreadableLines;
            continue;
        }
        const QJsonObject o = doc.object();
        const QString marker = o.value(QStringLiteral("gpuf_cluster")).toString();
        const QJsonValue id = o.value(QStringLiteral("id"));
        if (marker == QLatin1String("start")) {
            result.node = o.value(QStringLiteral("node")).toString();
        } else if (marker == QLatin1String("end")) {
            result.ended = true;
            result.exitCode = o.value(QStringLiteral("exit_code")).toInt();
        } else if (marker == QLatin1String("no_answer")) {
            result.noAnswerLines.append(o.value(QStringLiteral("line")).toInt());
        } else if (marker == QLatin1String("worker_failed")) {
            result.workerFailed = true;
            result.exitCode = o.value(QStringLiteral("exit_code")).toInt();
        } else if (id.toString() == QLatin1String("gpuf-hello")) {
            if (result.hello.isEmpty() && o.value(QStringLiteral("status")).toString() == QLatin1String("ok"))
                result.hello = o;
        } else if (id.toString() == QLatin1String("gpuf-device")) {
            if (result.device.isEmpty() && o.value(QStringLiteral("status")).toString() == QLatin1String("ok"))
                result.device = o.value(QStringLiteral("device")).toObject();
        } else if (id.isDouble()) {
            result.responses.insert(id.toInteger(), o);
        } else {
            ++result.unreadableLines;
        }
    }
    return result;
}

} // namespace gpuf::cluster
