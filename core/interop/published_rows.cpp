// Import of the paper's published rows (paper-facts §8): the eval set, discovery pairs and RL pool become kernels
// and pair labels; predictions become forecasts of imported forecasters, joined to the eval set's labels.
#include "core/bins/bins.h"
#include "core/interop/field_reader.h"
#include "core/interop/import_context.h"
#include "core/interop/importers.h"
#include "core/interop/line_reader.h"
#include "core/interop/python_problems.h"

#include <QSet>

namespace gpuf::interop {
namespace {

using Need = FieldReader::Need;

// Where each published pair format keeps its parts.
struct PairFormat
{
    const char *kind; // pair label kind
    const char *source; // kernel origin and label source
    const char *idKey; // external id
    const char *problemKey;
    const char *referenceKey;
    const char *candidateKey;
    const char *speedupKey;
    const char *binKey;
    bool candidateIsChild; // the candidate's parent is the reference
};

const PairFormat kEvalSet {"eval", "import:paper-eval", "comparison_id", "pack", "anchor_code", "candidate_code",
    "aggregated_speedup", "true_bin", false};
const PairFormat kDiscovery {"discovery", "import:paper-discovery", "pair_id", "problem_id", "parent_code",
    "child_code", "g_speedup", "true_bin", true};
const PairFormat kRlPool {"rl_pool", "import:paper-rl-pool", "row_id", "pack", "anchor_code", "candidate_code",
    "aggregated_speedup", "relative_bin", false};

QString key(const char *name) { return QString::fromLatin1(name); }

Backend backendOf(const QString &language)
{
    if (language == QLatin1StringView("triton"))
        return Backend::Triton;
    if (language == QLatin1StringView("python"))
        return Backend::PyTorch;
    return Backend::Cuda;
}

// Counts kept while reading one file, turned into warnings at its end.
struct RowNotes
{
    int nonFiniteLines = 0;
    int binDisagreements = 0;
    int unusableSpeedups = 0;

    void report(ImportContext &context, const QString &file) const
    {
        if (nonFiniteLines > 0)
            context.warn(QStringLiteral("%1: %2 lines wrote NaN or Infinity (not JSON); those values were read as"
                                        " null")
                             .arg(file)
                             .arg(nonFiniteLines));
        if (binDisagreements > 0)
            context.warn(QStringLiteral("%1: %2 published bins differ from the bin of their speedup; kept as"
                                        " published")
                             .arg(file)
                             .arg(binDisagreements));
        if (unusableSpeedups > 0)
            context.warn(QStringLiteral("%1: %2 speedups were not positive; stored as failures (no speedup), the"
                                        " published value kept in the label's extra fields")
                             .arg(file)
                             .arg(unusableSpeedups));
    }
};

class PairRowImporter
{
public:
    PairRowImporter(ImportContext &context, const PairFormat &format)
        : m_context(context)
        , m_format(format)
    { }

    Status row(const QJsonObject &object, const QString &location);
    RowNotes notes;

private:
    Result<RowId> kernel(
        const QString &problemName, RowId problemId, const QString &source, RowId parentId, const QString &location);

    ImportContext &m_context;
    const PairFormat &m_format;
};

Result<RowId> PairRowImporter::kernel(
    const QString &problemName, RowId problemId, const QString &source, RowId parentId, const QString &location)
{
    Kernel k;
    k.problemId = problemId;
    k.source = source;
    k.language = guessLanguage(source);
    k.origin = key(m_format.source);
    k.parentId = parentId;
    // A pack our own Python problems reproduce (same input layout): its kernels can be measured here against our
    // reference ("Measure on GPU"); see python_problems.h.
    linkToPythonProblem(k, pythonProblemForPack(problemName));
    auto id = m_context.ensureKernel(k);
    if (!id)
        return Error {QStringLiteral("%1: problem '%2': %3").arg(location, problemName, id.error())};
    return id;
}

Status PairRowImporter::row(const QJsonObject &object, const QString &location)
{
    FieldReader r(object, location);
    const QString externalId = r.idText(key(m_format.idKey));
    const QString problemName = r.idText(key(m_format.problemKey));
    const QString referenceCode = r.string(key(m_format.referenceKey), Need::Required);
    const QString candidateCode = r.string(key(m_format.candidateKey), Need::Required);
    const QString hardwareName = r.string(QStringLiteral("hardware"));
    std::optional<double> speedup = r.optionalNumber(key(m_format.speedupKey));
    const std::optional<qint64> trueBin = r.optionalInteger(key(m_format.binKey));
    if (trueBin && (*trueBin < 1 || *trueBin > bins::kBinCount))
        r.fail(key(m_format.binKey), QStringLiteral("must be a bin 1..8, got %1").arg(*trueBin));
    if (!r.ok())
        return Error {r.error()};

    QJsonObject extra = object;
    for (const char *consumed : {m_format.idKey, m_format.problemKey, m_format.referenceKey, m_format.candidateKey,
             m_format.speedupKey, m_format.binKey, "hardware"})
        extra.remove(key(consumed));
    if (speedup && !(*speedup > 0)) {
        extra.insert(key(m_format.speedupKey), *speedup);
        speedup.reset();
        ++notes.unusableSpeedups;
    }
    if (speedup && trueBin && bins::binOf(*speedup) != std::optional<int>(int(*trueBin)))
        ++notes.binDisagreements;

    Problem problem;
    problem.name = problemName;
    problem.backend = backendOf(guessLanguage(referenceCode));
    auto problemId = m_context.ensureProblem(problem);
    if (!problemId)
        return Error {location + QStringLiteral(": ") + problemId.error()};
    auto reference = kernel(problemName, *problemId, referenceCode, 0, location);
    if (!reference)
        return Error {reference.error()};
    auto candidate
        = kernel(problemName, *problemId, candidateCode, m_format.candidateIsChild ? *reference : 0, location);
    if (!candidate)
        return Error {candidate.error()};

    PairLabel label;
    label.referenceKernelId = *reference;
    label.candidateKernelId = *candidate;
    label.speedup = speedup;
    if (trueBin)
        label.trueBin = int(*trueBin);
    label.kind = key(m_format.kind);
    label.externalId = externalId;
    label.source = key(m_format.source);
    label.extra = extra;
    if (!hardwareName.trimmed().isEmpty()) {
        auto hardware = m_context.ensurePublishedHardware(hardwareName);
        if (!hardware)
            return Error {location + QStringLiteral(": ") + hardware.error()};
        label.hardwareId = *hardware;
    }

    auto existing = m_context.labels().findByExternalId(label.kind, externalId);
    if (!existing)
        return Error {location + QStringLiteral(": ") + existing.error()};
    if (existing->has_value()) {
        const PairLabel &stored = **existing;
        if (stored.referenceKernelId != label.referenceKernelId || stored.candidateKernelId != label.candidateKernelId)
            return Error {QStringLiteral("%1: field '%2': '%3' is already stored for a different pair of kernels")
                              .arg(location, key(m_format.idKey), externalId)};
        m_context.count(QStringLiteral("pair_label"), false);
        return {};
    }
    if (auto id = m_context.labels().insert(label); !id)
        return Error {location + QStringLiteral(": ") + id.error()};
    m_context.count(QStringLiteral("pair_label"), true);
    return {};
}

// Reads every row of `file`, handing each parsed object to `row`.
template<typename Row>
Status forEachRow(ImportContext &context, const QString &file, RowNotes &notes, Row row)
{
    LineReader reader(file);
    if (Status s = reader.open(); !s)
        return s;
    while (reader.next()) {
        int replaced = 0;
        auto object = parseLenientJsonObject(reader.line(), &replaced);
        if (!object)
            return Error {reader.location() + QStringLiteral(": ") + object.error()};
        if (replaced > 0)
            ++notes.nonFiniteLines;
        ++context.report().lines;
        if (Status s = row(*object, reader.location()); !s)
            return s;
        if (!context.progress(reader, 0, 1))
            return Error {QStringLiteral("import cancelled")};
    }
    if (!reader.readError().isEmpty())
        return Error {reader.readError()};
    return {};
}

struct Prediction
{
    QString comparisonId;
    QString label;
    Forecast forecast;
};

std::optional<bins::Distribution> readBinProbabilities(FieldReader &r)
{
    const QJsonArray items = r.array(QStringLiteral("bin_probabilities"), Need::Required);
    bins::Distribution p {};
    QSet<qint64> seen;
    for (qsizetype i = 0; i < items.size(); ++i) {
        const QString name = QStringLiteral("bin_probabilities[%1]").arg(i);
        auto item = r.nested(items.at(i), name);
        if (!item)
            return std::nullopt;
        const qint64 bin = item->integer(QStringLiteral("bin"), 0, Need::Required);
        const double value = item->number(QStringLiteral("p"), 0.0, Need::Required);
        if (!r.ok())
            return std::nullopt;
        if (bin < 1 || bin > bins::kBinCount)
            item->fail(QStringLiteral("bin"), QStringLiteral("must be a bin 1..8, got %1").arg(bin));
        else if (seen.contains(bin))
            item->fail(QStringLiteral("bin"), QStringLiteral("bin %1 is given twice").arg(bin));
        else if (!(value >= 0.0 && value <= 1.0))
            item->fail(QStringLiteral("p"), QStringLiteral("must be in [0, 1], got %1").arg(value));
        if (!r.ok())
            return std::nullopt;
        seen.insert(bin);
        p[bin - 1] = value;
    }
    return p;
}

Prediction readPrediction(FieldReader &r)
{
    Prediction out;
    Forecast &f = out.forecast;
    out.comparisonId = r.idText(QStringLiteral("comparison_id"));
    out.label = r.string(QStringLiteral("surrogate_label"), Need::Required);
    const qint64 repeat = r.integer(QStringLiteral("repeat"), 0);
    if (repeat < 0 || repeat > std::numeric_limits<int>::max())
        r.fail(QStringLiteral("repeat"), QStringLiteral("must be a non-negative integer"));
    f.repeat = int(repeat);
    const bool parseFailed = r.boolean(QStringLiteral("parse_failed"), false);
    const std::optional<qint64> predicted = r.optionalInteger(QStringLiteral("predicted_bin"));
    if (predicted && (*predicted < 1 || *predicted > bins::kBinCount))
        r.fail(QStringLiteral("predicted_bin"), QStringLiteral("must be a bin 1..8, got %1").arg(*predicted));
    f.rawProbabilitySum = r.optionalNumber(QStringLiteral("raw_probability_sum"));
    f.reasoning = r.string(QStringLiteral("reasoning"));
    const QString parseError = r.string(QStringLiteral("parse_error"));
    for (auto [field, target] : {std::pair {"input_tokens", &f.tokensIn}, std::pair {"output_tokens", &f.tokensOut}}) {
        const std::optional<qint64> tokens = r.optionalInteger(key(field));
        if (tokens && *tokens < 0)
            r.fail(key(field), QStringLiteral("must not be negative"));
        *target = tokens.value_or(-1);
    }
    const std::optional<double> elapsed = r.optionalNumber(QStringLiteral("elapsed_s"));
    if (elapsed && !(*elapsed >= 0))
        r.fail(QStringLiteral("elapsed_s"), QStringLiteral("must not be negative"));
    f.latencySeconds = elapsed.value_or(-1.0);
    if (!r.ok())
        return out;
    if (parseFailed) {
        // The published rows carry a uniform placeholder for failures; a failure has no distribution.
        f.status = ForecastStatus::ParseFailed;
        f.errorText = parseError;
        f.probabilities.fill(0.0);
        f.predictedBin.reset();
        return out;
    }
    if (!predicted) {
        r.fail(QStringLiteral("predicted_bin"), QStringLiteral("missing for a prediction that parsed"));
        return out;
    }
    f.predictedBin = int(*predicted);
    const std::optional<bins::Distribution> raw = readBinProbabilities(r);
    if (!raw)
        return out;
    const std::optional<bins::Distribution> normalised = bins::renormalised(*raw);
    if (!normalised) {
        r.fail(QStringLiteral("bin_probabilities"), QStringLiteral("the probabilities sum to zero"));
        return out;
    }
    f.probabilities = *normalised;
    if (!f.rawProbabilitySum) {
        double sum = 0.0;
        for (double p : *raw)
            sum += p;
        f.rawProbabilitySum = sum;
    }
    f.status = ForecastStatus::Ok;
    return out;
}

Status importPrediction(ImportContext &context, const QJsonObject &object, const QString &location)
{
    FieldReader r(object, location);
    Prediction prediction = readPrediction(r);
    if (!r.ok())
        return Error {r.error()};
    auto label = context.labels().findByExternalId(QStringLiteral("eval"), prediction.comparisonId);
    if (!label)
        return Error {location + QStringLiteral(": ") + label.error()};
    if (!label->has_value())
        return Error {QStringLiteral("%1: field 'comparison_id': unknown comparison_id '%2'; import the eval set first"
                                     " (or in the same call)")
                          .arg(location, prediction.comparisonId)};
    Forecaster forecaster;
    forecaster.name = prediction.label;
    forecaster.kind = ForecasterKind::Import;
    forecaster.displayName = prediction.label;
    forecaster.config = QJsonObject {{QStringLiteral("source"), QStringLiteral("paper-predictions")}};
    auto forecasterId = context.ensureForecaster(forecaster);
    if (!forecasterId)
        return Error {location + QStringLiteral(": ") + forecasterId.error()};

    Forecast &f = prediction.forecast;
    f.referenceKernelId = (*label)->referenceKernelId;
    f.candidateKernelId = (*label)->candidateKernelId;
    f.hardwareId = (*label)->hardwareId;
    f.forecasterId = *forecasterId;
    // The key names the published row, so importing the same predictions again finds them.
    f.cacheKey = QStringLiteral("import:paper-predictions/%1/%2/%3")
                     .arg(prediction.label, prediction.comparisonId)
                     .arg(f.repeat);
    auto existing = context.forecasts().findByCacheKey(f.cacheKey);
    if (!existing)
        return Error {location + QStringLiteral(": ") + existing.error()};
    if (existing->has_value()) {
        context.count(QStringLiteral("forecast"), false);
        return {};
    }
    if (auto id = context.forecasts().insert(f); !id)
        return Error {location + QStringLiteral(": ") + id.error()};
    context.count(QStringLiteral("forecast"), true);
    return {};
}

} // namespace

Status importPairRows(ImportContext &context, const QString &file, FileFormat format)
{
    const PairFormat &spec = format == FileFormat::DiscoveryPairs ? kDiscovery
        : format == FileFormat::RlPool                            ? kRlPool
                                                                  : kEvalSet;
    PairRowImporter importer(context, spec);
    Status s = forEachRow(context, file, importer.notes,
        [&importer](const QJsonObject &object, const QString &at) { return importer.row(object, at); });
    if (s)
        importer.notes.report(context, file);
    return s;
}

Status importPredictions(ImportContext &context, const QString &file)
{
    RowNotes notes;
    Status s = forEachRow(context, file, notes,
        [&context](const QJsonObject &object, const QString &at) { return importPrediction(context, object, at); });
    if (s)
        notes.report(context, file);
    return s;
}

} // namespace gpuf::interop
