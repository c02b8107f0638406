// Names of the measurement queue's values; see measure_types.h.
#include "core/measure/measure_types.h"

namespace gpuf {

QString measureItemStateName(MeasureItemState state)
{
    switch (state) {
    case MeasureItemState::Queued:
        return QStringLiteral("queued");
    case MeasureItemState::Running:
        return QStringLiteral("running");
    case MeasureItemState::Done:
        return QStringLiteral("done");
    case MeasureItemState::Failed:
        return QStringLiteral("failed");
    case MeasureItemState::TimedOut:
        return QStringLiteral("timeout");
    case MeasureItemState::Cancelled:
        return QStringLiteral("cancelled");
    }
    return {};
}

QString measureKindName(MeasureKind kind)
{
    switch (kind) {
    case MeasureKind::Measure:
        return QStringLiteral("measure");
    case MeasureKind::Compile:
        return QStringLiteral("compile");
    case MeasureKind::Hello:
        return QStringLiteral("hello");
    }
    return {};
}

MeasureKind measureKindFromName(const QString &name)
{
    if (name == QLatin1String("compile"))
        return MeasureKind::Compile;
    if (name == QLatin1String("hello"))
        return MeasureKind::Hello;
    return MeasureKind::Measure;
}

bool isFinished(MeasureItemState state)
{
    return state != MeasureItemState::Queued && state != MeasureItemState::Running;
}

const MeasureItem *MeasureSnapshot::item(quint64 id) const
{
    for (const MeasureItem &i : items) {
        if (i.id == id)
            return &i;
    }
    return nullptr;
}

} // namespace gpuf
