// EndpointProbe (skeleton).
#include "core/llm/endpoint_probe.h"

namespace gpuf::llm {

class EndpointProbePrivate
{
public:
    EndpointProfile profile;
    ProbeReport report;
};

EndpointProbe::EndpointProbe(EndpointProfile profile, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<EndpointProbePrivate>())
{
    d->profile = std::move(profile);
}

EndpointProbe::~EndpointProbe() = default;

void EndpointProbe::start()
{
    QMetaObject::invokeMethod(
        this, [this] { Q_EMIT finished(d->report); }, Qt::QueuedConnection);
}

void EndpointProbe::cancel() { }

bool EndpointProbe::isRunning() const { return false; }

const ProbeReport &EndpointProbe::report() const { return d->report; }

} // namespace gpuf::llm
