// Bundle import. The first pass validates every line and indexes it by record type; later passes re-read only
// the lines they need, in dependency order, so references may point forward and memory stays small.
#include "core/interop/bundle_records.h"
#include "core/interop/event_log_check.h"
#include "core/interop/import_context.h"
#include "core/interop/importers.h"
#include "core/interop/line_reader.h"

namespace gpuf::interop {
namespace {

using bundle::RecordType;

struct IndexedLine
{
    qint64 offset = 0;
    qint64 lineNumber = 0;
    RecordType type = RecordType::Header;
};

// A reference found while writing that can only be resolved once every kernel is stored.
struct PendingLink
{
    QString location;
    RowId ownerId = 0; // problem or kernel
    RowId problemId = 0;
    QString problemName;
    QString hash;
    bool apply = false; // false: the owner was deduplicated; the reference is checked but not written
};

constexpr int kPasses = 4; // validate, entities, kernels and searches, the rest

class BundleImporter
{
public:
    BundleImporter(ImportContext &context, const QString &file)
        : m_context(context)
        , m_reader(file)
    { }

    Status run();

private:
    Status index();
    Status validate(const QJsonObject &object, bool first, RecordType *type);
    Status pass(int number, std::initializer_list<RecordType> types);
    Status write(RecordType type, FieldReader &r);
    Status writeProblem(FieldReader &r);
    Status writeKernel(FieldReader &r);
    Status writeMeasurement(FieldReader &r);
    Status writePairLabel(FieldReader &r);
    Status writeForecast(FieldReader &r);
    Status writeSearch(FieldReader &r);
    Status writeSearchEvent(FieldReader &r);
    Status writeLesson(FieldReader &r);
    Status checkCaseView(FieldReader &r);
    Status resolveLinks();
    Status checkSearchLogs();

    Result<RowId> kernelId(FieldReader &r, const QString &field, const bundle::KernelRef &ref);
    Result<RowId> named(FieldReader &r, const QString &field, const QString &name, const char *what,
        Result<RowId> (ImportContext::*lookup)(const QString &));
    Error fieldError(FieldReader &r, const QString &field, const QString &what)
    {
        r.fail(field, what);
        return Error {r.error()};
    }

    ImportContext &m_context;
    LineReader m_reader;
    QList<IndexedLine> m_lines;
    QList<PendingLink> m_problemReferences;
    QList<PendingLink> m_kernelParents;
    // The searches this file adds events to: their name, and each event's FILE:LINE by sequence.
    QHash<RowId, std::pair<QString, QHash<qint64, QString>>> m_eventLines;
};

Status BundleImporter::run()
{
    if (Status s = m_reader.open(); !s)
        return s;
    if (Status s = index(); !s)
        return s;
    if (Status s = pass(1, {RecordType::Hardware, RecordType::Forecaster, RecordType::Problem}); !s)
        return s;
    if (Status s = pass(2, {RecordType::Kernel, RecordType::Search}); !s)
        return s;
    if (Status s = resolveLinks(); !s)
        return s;
    if (Status s = pass(3,
            {RecordType::Measurement, RecordType::PairLabel, RecordType::Forecast, RecordType::SearchEvent,
                RecordType::Lesson, RecordType::CaseView});
        !s)
        return s;
    return checkSearchLogs();
}

// Each search the file added events to, whole (what the store held and what the file added), passes the checks a
// standalone event log passes: a log gpuf's fold calls corrupt could never be shown or resumed.
Status BundleImporter::checkSearchLogs()
{
    for (auto it = m_eventLines.cbegin(); it != m_eventLines.cend(); ++it) {
        auto events = m_context.searches().events(it.key());
        if (!events)
            return Error {events.error()};
        QList<ReadEvent> log;
        log.reserve(events->size());
        for (const SearchEvent &e : std::as_const(*events)) {
            const QString location = it->second.value(e.sequence);
            log.append({e,
                location.isEmpty()
                    ? QStringLiteral("search '%1' (in the store), event %2").arg(it->first).arg(e.sequence)
                    : location});
        }
        if (Status checked = checkEventLog(log); !checked)
            return Error {
                QStringLiteral("%1; search '%2' could never be shown or resumed").arg(checked.error(), it->first)};
    }
    return {};
}

Status BundleImporter::index()
{
    bool first = true;
    while (m_reader.next()) {
        auto object = parseJsonObject(m_reader.line());
        if (!object)
            return Error {m_reader.location() + QStringLiteral(": ") + object.error()};
        RecordType type = RecordType::Header;
        if (Status s = validate(*object, first, &type); !s)
            return s;
        if (!first)
            m_lines.append({m_reader.offset(), m_reader.lineNumber(), type});
        first = false;
        ++m_context.report().lines;
        if (!m_context.progress(m_reader, 0, kPasses))
            return Error {QStringLiteral("import cancelled")};
    }
    if (!m_reader.readError().isEmpty())
        return Error {m_reader.readError()};
    if (first)
        return Error {QStringLiteral("%1: empty file; a gpuf bundle starts with a header record").arg(m_reader.path())};
    return {};
}

Status BundleImporter::validate(const QJsonObject &object, bool first, RecordType *type)
{
    FieldReader r(object, m_reader.location());
    if (first) {
        bundle::decodeHeader(r);
        return r.ok() ? Status() : Status(Error {r.error()});
    }
    const QString typeName = r.string(QStringLiteral("type"), FieldReader::Need::Required);
    if (!r.ok())
        return Error {r.error()};
    const auto recordType = bundle::recordTypeFromName(typeName);
    if (!recordType)
        return fieldError(r, QStringLiteral("type"), QStringLiteral("unknown record type '%1'").arg(typeName));
    *type = *recordType;
    switch (*recordType) {
    case RecordType::Header:
        return fieldError(r, QStringLiteral("type"), QStringLiteral("a second header record"));
    case RecordType::Hardware:
        bundle::decodeHardware(r);
        break;
    case RecordType::Forecaster:
        bundle::decodeForecaster(r);
        break;
    case RecordType::Problem:
        bundle::decodeProblem(r);
        break;
    case RecordType::Kernel:
        bundle::decodeKernel(r);
        break;
    case RecordType::Measurement:
        bundle::decodeMeasurement(r);
        break;
    case RecordType::PairLabel:
        bundle::decodePairLabel(r);
        break;
    case RecordType::Forecast:
        bundle::decodeForecast(r);
        break;
    case RecordType::Search:
        bundle::decodeSearch(r);
        break;
    case RecordType::SearchEvent:
        bundle::decodeSearchEvent(r);
        break;
    case RecordType::Lesson:
        bundle::decodeLesson(r);
        break;
    case RecordType::CaseView:
        bundle::decodeCaseView(r);
        break;
    }
    return r.ok() ? Status() : Status(Error {r.error()});
}

Status BundleImporter::pass(int number, std::initializer_list<RecordType> types)
{
    for (const IndexedLine &line : std::as_const(m_lines)) {
        if (std::find(types.begin(), types.end(), line.type) == types.end())
            continue;
        if (Status s = m_reader.seek(line.offset, line.lineNumber); !s)
            return s;
        if (!m_reader.next())
            return Error {QStringLiteral("%1:%2: the file changed while it was being imported")
                              .arg(m_reader.path())
                              .arg(line.lineNumber)};
        auto object = parseJsonObject(m_reader.line());
        if (!object)
            return Error {m_reader.location() + QStringLiteral(": ") + object.error()};
        FieldReader r(*object, m_reader.location());
        if (Status s = write(line.type, r); !s)
            return s;
        if (!m_context.progress(m_reader, number, kPasses))
            return Error {QStringLiteral("import cancelled")};
    }
    return {};
}

Status BundleImporter::write(RecordType type, FieldReader &r)
{
    auto stored = [&r](const auto &id) {
        return id ? Status() : Status(Error {r.location() + QStringLiteral(": ") + id.error()});
    };
    switch (type) {
    case RecordType::Header:
        return {};
    case RecordType::Hardware: {
        Hardware h = bundle::decodeHardware(r);
        return stored(m_context.ensureHardware(h));
    }
    case RecordType::Forecaster: {
        Forecaster f = bundle::decodeForecaster(r);
        return stored(m_context.ensureForecaster(f));
    }
    case RecordType::Problem:
        return writeProblem(r);
    case RecordType::Kernel:
        return writeKernel(r);
    case RecordType::Measurement:
        return writeMeasurement(r);
    case RecordType::PairLabel:
        return writePairLabel(r);
    case RecordType::Forecast:
        return writeForecast(r);
    case RecordType::Search:
        return writeSearch(r);
    case RecordType::SearchEvent:
        return writeSearchEvent(r);
    case RecordType::Lesson:
        return writeLesson(r);
    case RecordType::CaseView:
        return checkCaseView(r);
    }
    return {};
}

Status BundleImporter::writeProblem(FieldReader &r)
{
    bundle::ProblemRecord rec = bundle::decodeProblem(r);
    bool added = false;
    auto id = m_context.ensureProblem(rec.problem, &added);
    if (!id)
        return Error {r.location() + QStringLiteral(": ") + id.error()};
    if (!rec.referenceHash.isEmpty())
        m_problemReferences.append({r.location(), *id, *id, rec.problem.name, rec.referenceHash, added});
    return {};
}

Status BundleImporter::writeKernel(FieldReader &r)
{
    bundle::KernelRecord rec = bundle::decodeKernel(r);
    auto problemId = named(r, QStringLiteral("problem"), rec.problem, "problem", &ImportContext::problemByName);
    if (!problemId)
        return Error {problemId.error()};
    rec.kernel.problemId = *problemId;
    bool added = false;
    auto id = m_context.ensureKernel(rec.kernel, &added);
    if (!id)
        return Error {r.location() + QStringLiteral(": ") + id.error()};
    if (!rec.parentHash.isEmpty())
        m_kernelParents.append({r.location(), *id, *problemId, rec.problem, rec.parentHash, added});
    return {};
}

Status BundleImporter::resolveLinks()
{
    auto resolve = [this](const PendingLink &link, const char *field) -> Result<RowId> {
        auto id = m_context.kernelByHash(link.problemId, link.hash);
        if (!id)
            return Error {link.location + QStringLiteral(": ") + id.error()};
        if (*id == 0)
            return Error {QStringLiteral("%1: field '%2': no kernel with hash %3 in problem '%4'")
                              .arg(link.location, QString::fromLatin1(field), link.hash, link.problemName)};
        return id;
    };
    for (const PendingLink &link : std::as_const(m_problemReferences)) {
        auto kernel = resolve(link, "reference_hash");
        if (!kernel)
            return Error {kernel.error()};
        if (link.apply) {
            if (Status s = m_context.problems().setReferenceKernel(link.ownerId, *kernel); !s)
                return Error {link.location + QStringLiteral(": ") + s.error()};
        }
    }
    for (const PendingLink &link : std::as_const(m_kernelParents)) {
        auto parent = resolve(link, "parent_hash");
        if (!parent)
            return Error {parent.error()};
        if (link.apply) {
            if (Status s = m_context.kernels().setParent(link.ownerId, *parent); !s)
                return Error {link.location + QStringLiteral(": ") + s.error()};
        }
    }
    m_problemReferences.clear();
    m_kernelParents.clear();
    return {};
}

Result<RowId> BundleImporter::named(FieldReader &r, const QString &field, const QString &name, const char *what,
    Result<RowId> (ImportContext::*lookup)(const QString &))
{
    auto id = (m_context.*lookup)(name);
    if (!id)
        return Error {r.location() + QStringLiteral(": ") + id.error()};
    if (*id == 0)
        return fieldError(r, field,
            QStringLiteral("unknown %1 '%2' (neither in the file nor in the store)")
                .arg(QString::fromLatin1(what), name));
    return id;
}

Result<RowId> BundleImporter::kernelId(FieldReader &r, const QString &field, const bundle::KernelRef &ref)
{
    auto problemId
        = named(r, field + QStringLiteral(".problem"), ref.problem, "problem", &ImportContext::problemByName);
    if (!problemId)
        return problemId;
    auto id = m_context.kernelByHash(*problemId, ref.hash);
    if (!id)
        return Error {r.location() + QStringLiteral(": ") + id.error()};
    if (*id == 0)
        return fieldError(r, field + QStringLiteral(".hash"),
            QStringLiteral("no kernel with hash %1 in problem '%2'").arg(ref.hash, ref.problem));
    return id;
}

Status BundleImporter::writeMeasurement(FieldReader &r)
{
    bundle::MeasurementRecord rec = bundle::decodeMeasurement(r);
    auto kernel = kernelId(r, QStringLiteral("kernel"), rec.kernel);
    if (!kernel)
        return Error {kernel.error()};
    auto hardware = named(r, QStringLiteral("hardware"), rec.hardware, "hardware", &ImportContext::hardwareByName);
    if (!hardware)
        return Error {hardware.error()};
    rec.measurement.kernelId = *kernel;
    rec.measurement.hardwareId = *hardware;
    if (auto added = m_context.ensureMeasurement(rec.measurement); !added)
        return Error {r.location() + QStringLiteral(": ") + added.error()};
    if (rec.quarantined) {
        auto verdict = m_context.ensureQuarantine(rec.measurement.id, rec.verdictNote, rec.verdictAt);
        if (!verdict)
            return Error {r.location() + QStringLiteral(": ") + verdict.error()};
    }
    return {};
}

Status BundleImporter::writePairLabel(FieldReader &r)
{
    bundle::PairLabelRecord rec = bundle::decodePairLabel(r);
    auto reference = kernelId(r, QStringLiteral("reference"), rec.reference);
    if (!reference)
        return Error {reference.error()};
    auto candidate = kernelId(r, QStringLiteral("candidate"), rec.candidate);
    if (!candidate)
        return Error {candidate.error()};
    rec.label.referenceKernelId = *reference;
    rec.label.candidateKernelId = *candidate;
    if (!rec.hardware.isEmpty()) {
        auto hardware = named(r, QStringLiteral("hardware"), rec.hardware, "hardware", &ImportContext::hardwareByName);
        if (!hardware)
            return Error {hardware.error()};
        rec.label.hardwareId = *hardware;
    }
    if (auto added = m_context.ensurePairLabel(rec.label); !added)
        return Error {r.location() + QStringLiteral(": ") + added.error()};
    return {};
}

Status BundleImporter::writeForecast(FieldReader &r)
{
    bundle::ForecastRecord rec = bundle::decodeForecast(r);
    auto reference = kernelId(r, QStringLiteral("reference"), rec.reference);
    if (!reference)
        return Error {reference.error()};
    auto candidate = kernelId(r, QStringLiteral("candidate"), rec.candidate);
    if (!candidate)
        return Error {candidate.error()};
    auto forecaster
        = named(r, QStringLiteral("forecaster"), rec.forecaster, "forecaster", &ImportContext::forecasterByName);
    if (!forecaster)
        return Error {forecaster.error()};
    Forecast &f = rec.forecast;
    f.referenceKernelId = *reference;
    f.candidateKernelId = *candidate;
    f.forecasterId = *forecaster;
    if (!rec.hardware.isEmpty()) {
        auto hardware = named(r, QStringLiteral("hardware"), rec.hardware, "hardware", &ImportContext::hardwareByName);
        if (!hardware)
            return Error {hardware.error()};
        f.hardwareId = *hardware;
    }
    if (auto added = m_context.ensureForecast(f); !added)
        return Error {r.location() + QStringLiteral(": ") + added.error()};
    return {};
}

Status BundleImporter::writeSearch(FieldReader &r)
{
    bundle::SearchRecord rec = bundle::decodeSearch(r);
    if (!rec.problem.isEmpty()) {
        auto problem = named(r, QStringLiteral("problem"), rec.problem, "problem", &ImportContext::problemByName);
        if (!problem)
            return Error {problem.error()};
        rec.search.problemId = *problem;
    }
    if (auto id = m_context.ensureSearch(rec.search); !id)
        return Error {r.location() + QStringLiteral(": ") + id.error()};
    return {};
}

Status BundleImporter::writeSearchEvent(FieldReader &r)
{
    bundle::SearchEventRecord rec = bundle::decodeSearchEvent(r);
    auto search = named(r, QStringLiteral("search"), rec.search, "search", &ImportContext::searchByName);
    if (!search)
        return Error {search.error()};
    rec.event.searchId = *search;
    if (Status s = m_context.putEvent(rec.event, rec.sequence); !s)
        return fieldError(r, QStringLiteral("sequence"), QStringLiteral("search '%1': %2").arg(rec.search, s.error()));
    auto &lines = m_eventLines[*search];
    lines.first = rec.search;
    lines.second.insert(rec.sequence, r.location());
    return {};
}

// A lesson whose name the store already holds is kept as it is (a teacher may have edited it): importing a bundle
// twice adds nothing. Every step's kernels must be in the file or the store.
// A case file's view is the window's, not the store's: nothing of it is stored, but the pair it shows must be in the
// file or the store.
Status BundleImporter::checkCaseView(FieldReader &r)
{
    const bundle::CaseViewRecord rec = bundle::decodeCaseView(r);
    if (auto reference = kernelId(r, QStringLiteral("reference"), rec.reference); !reference)
        return Error {reference.error()};
    if (auto candidate = kernelId(r, QStringLiteral("candidate"), rec.candidate); !candidate)
        return Error {candidate.error()};
    return {};
}

Status BundleImporter::writeLesson(FieldReader &r)
{
    bundle::LessonRecord rec = bundle::decodeLesson(r);
    auto existing = m_context.lessons().findByName(rec.lesson.name);
    if (!existing)
        return Error {r.location() + QStringLiteral(": ") + existing.error()};
    for (qsizetype i = 0; i < rec.steps.size(); ++i) {
        const QString field = QStringLiteral("steps[%1].").arg(i);
        // A step compares a candidate with a reference of its own problem: a speedup across problems means nothing.
        if (rec.steps[i].reference.problem != rec.steps[i].kernel.problem)
            return fieldError(r, field + QStringLiteral("kernel.problem"),
                QStringLiteral("the step compares a kernel of '%1' with a reference of '%2'; a step's two kernels "
                               "solve the same problem")
                    .arg(rec.steps[i].kernel.problem, rec.steps[i].reference.problem));
        auto reference = kernelId(r, field + QStringLiteral("reference"), rec.steps[i].reference);
        if (!reference)
            return Error {reference.error()};
        auto kernel = kernelId(r, field + QStringLiteral("kernel"), rec.steps[i].kernel);
        if (!kernel)
            return Error {kernel.error()};
        rec.lesson.steps.append({0, *reference, *kernel, rec.steps[i].note});
    }
    if (existing->has_value()) {
        m_context.count(QStringLiteral("lesson"), false);
        return {};
    }
    if (auto id = m_context.lessons().insert(rec.lesson); !id)
        return Error {r.location() + QStringLiteral(": ") + id.error()};
    m_context.count(QStringLiteral("lesson"), true);
    return {};
}

} // namespace

Status importBundle(ImportContext &context, const QString &file) { return BundleImporter(context, file).run(); }

} // namespace gpuf::interop
