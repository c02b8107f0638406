// The gpuf bundle's record types: each store row with its references written as natural keys (problem names,
// kernel (problem, content hash), hardware/forecaster/search names), and the decoders that validate them.
#pragma once

#include "core/domain/forecast.h"
#include "core/domain/hardware.h"
#include "core/domain/kernel.h"
#include "core/domain/lesson.h"
#include "core/domain/measurement.h"
#include "core/domain/search.h"
#include "core/interop/field_reader.h"

#include <optional>

namespace gpuf::interop::bundle {

inline constexpr int kVersion = 1;
inline constexpr const char *kFormat = "gpuf-bundle";

enum class RecordType : quint8 {
    Header,
    Hardware,
    Forecaster,
    Problem,
    Kernel,
    Measurement,
    PairLabel,
    Forecast,
    Search,
    SearchEvent,
    Lesson,
    CaseView,
};
std::optional<RecordType> recordTypeFromName(const QString &name);
QString recordTypeName(RecordType type);

struct KernelRef
{
    QString problem;
    QString hash;
};

struct ProblemRecord
{
    Problem problem;
    QString referenceHash; // empty: none
};

struct KernelRecord
{
    QString problem;
    QString parentHash; // empty: none
    Kernel kernel; // contentHash checked against the source
};

struct MeasurementRecord
{
    KernelRef kernel;
    QString hardware;
    Measurement measurement;
    // The user's verdict (issue 28): {"state": "quarantined", "note": …, "at": …}; absent when none.
    bool quarantined = false;
    QString verdictNote;
    QDateTime verdictAt;
};

struct PairLabelRecord
{
    KernelRef reference;
    KernelRef candidate;
    QString hardware; // empty: none
    PairLabel label;
};

struct ForecastRecord
{
    KernelRef reference;
    KernelRef candidate;
    QString hardware; // empty: none
    QString forecaster;
    Forecast forecast;
};

struct SearchRecord
{
    QString problem; // empty: none
    Search search;
};

struct SearchEventRecord
{
    QString search;
    qint64 sequence = 0;
    SearchEvent event;
};

// A lesson with its steps' kernels written as natural keys (the steps in teaching order).
struct LessonStepRecord
{
    KernelRef reference;
    KernelRef kernel;
    QString note;
};

struct LessonRecord
{
    Lesson lesson; // steps left empty: they are resolved from `steps` once the kernels are stored
    QList<LessonStepRecord> steps;
};

// A case file's view (issue 28): what the explorer shows when it opens the case — the pair, and the forecaster, GPU
// and trust threshold τ the window had chosen when the case was written. It describes a window, not the store: an
// import reads and checks it, and stores nothing of it.
struct CaseViewRecord
{
    KernelRef reference;
    KernelRef candidate;
    QString forecaster; // empty: none chosen
    QString hardware; // empty: none
    std::optional<double> trustThreshold;
};

// Each decoder reads every field of its record through `r`; the caller checks r.ok() afterwards.
void decodeHeader(FieldReader &r);
Hardware decodeHardware(FieldReader &r);
Forecaster decodeForecaster(FieldReader &r);
ProblemRecord decodeProblem(FieldReader &r);
KernelRecord decodeKernel(FieldReader &r);
MeasurementRecord decodeMeasurement(FieldReader &r);
PairLabelRecord decodePairLabel(FieldReader &r);
ForecastRecord decodeForecast(FieldReader &r);
SearchRecord decodeSearch(FieldReader &r);
SearchEventRecord decodeSearchEvent(FieldReader &r);
LessonRecord decodeLesson(FieldReader &r);
CaseViewRecord decodeCaseView(FieldReader &r);

bool isContentHash(const QString &text); // 64 lower-case hex digits

} // namespace gpuf::interop::bundle
