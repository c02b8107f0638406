// Text names of the domain enums, as stored and exported.
#include "core/domain/forecast.h"
#include "core/domain/measurement.h"
#include "core/domain/problem.h"

#include <array>
#include <utility>

namespace gpuf {
namespace {

template<typename E, std::size_t N>
QString nameOf(const std::array<std::pair<E, const char *>, N> &table, E value)
{
    for (const auto &[e, name] : table) {
        if (e == value)
            return QString::fromLatin1(name);
    }
    return {};
}

template<typename E, std::size_t N>
std::optional<E> valueOf(const std::array<std::pair<E, const char *>, N> &table, const QString &name)
{
    for (const auto &[e, text] : table) {
        if (name == QLatin1StringView(text))
            return e;
    }
    return std::nullopt;
}

constexpr std::array<std::pair<Backend, const char *>, 3> kBackends {
    {{Backend::Cuda, "cuda"}, {Backend::Triton, "triton"}, {Backend::PyTorch, "pytorch"}}};
constexpr std::array<std::pair<MeasurementStatus, const char *>, 6> kMeasurementStatuses {
    {{MeasurementStatus::Ok, "ok"}, {MeasurementStatus::CompileFailed, "compile_failed"},
        {MeasurementStatus::RuntimeError, "runtime_error"}, {MeasurementStatus::Incorrect, "incorrect"},
        {MeasurementStatus::Timeout, "timeout"}, {MeasurementStatus::InfrastructureFailure, "infrastructure_failure"}}};
constexpr std::array<std::pair<MeasurementSource, const char *>, 3> kMeasurementSources {
    {{MeasurementSource::Local, "local"}, {MeasurementSource::Replay, "replay"},
        {MeasurementSource::Import, "import"}}};
constexpr std::array<std::pair<ForecastStatus, const char *>, 3> kForecastStatuses {
    {{ForecastStatus::Ok, "ok"}, {ForecastStatus::ParseFailed, "parse_failed"}, {ForecastStatus::Error, "error"}}};
constexpr std::array<std::pair<ForecasterKind, const char *>, 4> kForecasterKinds {{{ForecasterKind::Llm, "llm"},
    {ForecasterKind::CostModel, "costmodel"}, {ForecasterKind::Import, "import"}, {ForecasterKind::Human, "human"}}};

} // namespace

QString backendName(Backend backend) { return nameOf(kBackends, backend); }
std::optional<Backend> backendFromName(const QString &name) { return valueOf(kBackends, name); }
QString measurementStatusName(MeasurementStatus status) { return nameOf(kMeasurementStatuses, status); }
std::optional<MeasurementStatus> measurementStatusFromName(const QString &name)
{
    return valueOf(kMeasurementStatuses, name);
}
QString measurementSourceName(MeasurementSource source) { return nameOf(kMeasurementSources, source); }
std::optional<MeasurementSource> measurementSourceFromName(const QString &name)
{
    return valueOf(kMeasurementSources, name);
}
QString forecastStatusName(ForecastStatus status) { return nameOf(kForecastStatuses, status); }
std::optional<ForecastStatus> forecastStatusFromName(const QString &name) { return valueOf(kForecastStatuses, name); }
QString forecasterKindName(ForecasterKind kind) { return nameOf(kForecasterKinds, kind); }
std::optional<ForecasterKind> forecasterKindFromName(const QString &name) { return valueOf(kForecasterKinds, name); }

} // namespace gpuf
