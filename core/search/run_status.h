// What a running search's engine is doing (SearchSnapshot::status), with the words the CLI's output and JSON show.
#pragma once

#include <QString>

#include <optional>

namespace gpuf::search {

enum class RunStatus {
    Running, // acting
    Waiting, // for answers to its open requests
    Pausing, // paused, with answers still to come
    Paused,
    Finished,
    Stopped,
    Failed,
};

// "running" | "waiting" | "pausing" | "paused" | "finished" | "stopped" | "failed"
inline QString runStatusName(RunStatus status)
{
    switch (status) {
    case RunStatus::Running:
        return QStringLiteral("running");
    case RunStatus::Waiting:
        return QStringLiteral("waiting");
    case RunStatus::Pausing:
        return QStringLiteral("pausing");
    case RunStatus::Paused:
        return QStringLiteral("paused");
    case RunStatus::Finished:
        return QStringLiteral("finished");
    case RunStatus::Stopped:
        return QStringLiteral("stopped");
    case RunStatus::Failed:
        return QStringLiteral("failed");
    }
    return {};
}

// The status a name stands for; nullopt for any other text.
inline std::optional<RunStatus> runStatusFromName(const QString &name)
{
    for (RunStatus s : {RunStatus::Running, RunStatus::Waiting, RunStatus::Pausing, RunStatus::Paused,
             RunStatus::Finished, RunStatus::Stopped, RunStatus::Failed}) {
        if (runStatusName(s) == name)
            return s;
    }
    return std::nullopt;
}

} // namespace gpuf::search
