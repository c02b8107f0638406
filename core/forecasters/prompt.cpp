// The forecaster prompt; see prompt.h. The wording is ours; the structure follows paper-facts §2. Prompt text is
// never translated: what a model reads must not depend on the user interface's language.
#include "core/forecasters/prompt.h"

#include "core/bins/bins.h"

#include <QJsonDocument>

#include <array>
#include <cmath>
#include <limits>

namespace gpuf::forecasters {
namespace {

// The authors' table: upper-inclusive edges between bins 1..8 (paper-facts §1).
constexpr std::array<double, bins::kBinCount - 1> kPaperEdges {0.25, 0.5, 0.71, 1.0, 1.41, 2.0, 4.0};

// At most `decimals` decimals, trailing zeros dropped but one kept: 0.5, 0.7071, 1.0, 4.0.
QString edgeText(double value, int decimals)
{
    QString text = QString::number(value, 'f', decimals);
    while (text.endsWith(QLatin1Char('0')) && !text.endsWith(QLatin1StringView(".0")))
        text.chop(1);
    return text;
}

// What a bin between `lower` and `upper` (either may be open: 0 / +∞) means, in times of the reference.
QString binMeaning(double lower, double upper, bool upperInclusive)
{
    const auto times = [](double v) -> QString { return edgeText(v, 2) + QStringLiteral("×"); };
    if (upper <= 1.0) {
        if (lower <= 0.0)
            return QStringLiteral("the candidate needs more than %1 the reference's time").arg(times(1.0 / upper));
        return QStringLiteral("the candidate needs %1 to %2 the reference's time")
            .arg(times(1.0 / upper), times(1.0 / lower));
    }
    if (std::isinf(upper)) {
        return (upperInclusive ? QStringLiteral("the candidate runs more than %1 as fast as the reference")
                               : QStringLiteral("the candidate runs at least %1 as fast as the reference"))
            .arg(times(lower));
    }
    return QStringLiteral("the candidate runs %1 to %2 as fast as the reference").arg(times(lower), times(upper));
}

QList<BinRow> defaultTable()
{
    QList<BinRow> rows;
    for (int b = 1; b <= bins::kBinCount; ++b) {
        const double lower = bins::lowerEdge(b);
        const double upper = bins::upperEdge(b);
        QString range;
        if (b == 1)
            range = QStringLiteral("S < %1").arg(edgeText(upper, 4));
        else if (b == bins::kBinCount)
            range = QStringLiteral("S ≥ %1").arg(edgeText(lower, 4));
        else
            range = QStringLiteral("%1 ≤ S < %2").arg(edgeText(lower, 4), edgeText(upper, 4));
        rows.append(BinRow {b, bins::untranslatedLabel(b), range, binMeaning(lower, upper, false)});
    }
    return rows;
}

QList<BinRow> paperTable()
{
    QList<BinRow> rows;
    for (int b = 1; b <= bins::kBinCount; ++b) {
        const double lower = b == 1 ? 0.0 : kPaperEdges[b - 2];
        const double upper = b == bins::kBinCount ? std::numeric_limits<double>::infinity() : kPaperEdges[b - 1];
        QString range;
        if (b == 1)
            range = QStringLiteral("S ≤ %1").arg(edgeText(upper, 2));
        else if (b == bins::kBinCount)
            range = QStringLiteral("S > %1").arg(edgeText(lower, 2));
        else
            range = QStringLiteral("%1 < S ≤ %2").arg(edgeText(lower, 2), edgeText(upper, 2));
        // The authors named their bins after the tool's fields.
        const QString name = bins::key(b).replace(QLatin1Char('_'), QLatin1Char(' '));
        rows.append(BinRow {b, name, range, binMeaning(lower, upper, true)});
    }
    return rows;
}

QString binsSection(PromptProfile profile)
{
    QString text = QStringLiteral("## Speedup bins\n\n| Bin | Name | Speedup range | Meaning |\n|---|---|---|---|\n");
    for (const BinRow &row : binTable(profile))
        text += QStringLiteral("| %1 | %2 | %3 | %4 |\n").arg(row.bin).arg(row.name, row.range, row.description);
    return text;
}

QString probabilitySection()
{
    QString fields;
    for (int b = 1; b <= bins::kBinCount; ++b)
        fields += QStringLiteral("- bin %1: `%2`\n").arg(b).arg(probabilityField(b));
    return QStringLiteral(
               "## Probabilities\n\n"
               "Give eight probabilities, one per bin, each between 0 and 1, adding up to 1. They should say how "
               "sure you are: usually most of the mass sits on one bin or on two neighbouring bins. Put all of it on "
               "a single bin only when the code leaves no real doubt.\n\n"
               "The probability fields follow the bins in order; go by the bin number, not by the field's wording:\n")
        + fields;
}

QString analysisSection()
{
    return QStringLiteral(
        "## How to analyse\n\n"
        "Compare the two kernels on each of these points and weigh what matters for this operation:\n\n"
        "1. Algorithmic complexity: the amount of work each one does for the same result.\n"
        "2. Memory access patterns: coalescing, reuse through shared memory or caches, redundant traffic.\n"
        "3. Arithmetic intensity: whether the kernel is bound by memory bandwidth or by compute.\n"
        "4. Thread divergence: branches that split warps, and idle lanes.\n"
        "5. Occupancy and resource pressure: registers, shared memory, spills, resident warps per SM.\n"
        "6. Parallelism and grid dimensions: enough blocks and threads to fill the device, and no more.\n"
        "7. Synchronisation overhead: barriers, atomics, serialised sections.\n"
        "8. Kernel launch overhead: how many launches, and how small each one is.\n"
        "9. Library calls versus custom code: vendor libraries such as cuBLAS and cuDNN are hard to beat.\n"
        "10. Data types and special hardware: FP16, BF16 or INT8 arithmetic and tensor cores.\n\n"
        "What counts is the candidate's speed relative to the reference, not how fast either is in absolute "
        "terms.\n");
}

QString answerSection(bool toolCalling)
{
    if (toolCalling) {
        return QStringLiteral("## Your answer\n\n"
                              "Reason about the two kernels first. Then call the tool `%1` exactly once, with the bin "
                              "you predict, the eight probabilities and a short rationale of one to three sentences.\n")
            .arg(kToolName);
    }
    QString example = QStringLiteral("{\"predicted_bin\": <1-8>");
    for (int b = 1; b <= bins::kBinCount; ++b)
        example += QStringLiteral(", \"%1\": <0-1>").arg(probabilityField(b));
    example += QStringLiteral(", \"reasoning\": \"<one to three sentences>\"}");
    return QStringLiteral("## Your answer\n\n"
                          "Reason about the two kernels first. Then end your reply with exactly one JSON object, in a "
                          "```json fenced block, holding the bin you predict, the eight probabilities and a short "
                          "rationale of one to three sentences:\n\n%1\n")
        .arg(example);
}

} // namespace

QString promptProfileName(PromptProfile profile)
{
    return profile == PromptProfile::Paper ? QStringLiteral("paper") : QStringLiteral("default");
}

std::optional<PromptProfile> promptProfileFromName(const QString &name)
{
    if (name == QLatin1StringView("default"))
        return PromptProfile::Default;
    if (name == QLatin1StringView("paper"))
        return PromptProfile::Paper;
    return std::nullopt;
}

QList<BinRow> binTable(PromptProfile profile)
{
    return profile == PromptProfile::Paper ? paperTable() : defaultTable();
}

QString probabilityField(int bin) { return QStringLiteral("p_") + bins::key(bin); }

QStringList answerFields()
{
    QStringList fields {QStringLiteral("predicted_bin")};
    for (int b = 1; b <= bins::kBinCount; ++b)
        fields.append(probabilityField(b));
    fields.append(QStringLiteral("reasoning"));
    return fields;
}

QString systemMessage(const PromptOptions &options)
{
    return QStringLiteral(
               "You simulate how GPU kernels execute. You are shown a reference kernel and a candidate kernel that "
               "compute the same operation, and you predict how fast the candidate runs compared with the "
               "reference.\n\n"
               "## Speedup\n\n"
               "S = reference runtime / candidate runtime, on the GPU described (over several input sizes, the "
               "geometric mean of the per-size ratios). S > 1 means the candidate is faster; S < 1 means it is "
               "slower.\n\n")
        + binsSection(options.profile) + QLatin1Char('\n') + probabilitySection() + QLatin1Char('\n')
        + analysisSection() + QLatin1Char('\n') + answerSection(options.toolCalling);
}

QString fenceLanguage(const QString &language)
{
    const QString l = language.trimmed().toLower();
    if (l == QLatin1StringView("cuda") || l == QLatin1StringView("cu"))
        return QStringLiteral("cuda");
    if (l == QLatin1StringView("triton") || l == QLatin1StringView("python") || l == QLatin1StringView("pytorch"))
        return QStringLiteral("python");
    if (l == QLatin1StringView("ptx"))
        return QStringLiteral("ptx");
    if (l == QLatin1StringView("c++") || l == QLatin1StringView("cpp"))
        return QStringLiteral("cpp");
    return {};
}

QString fencedBlock(const QString &source, const QString &language)
{
    // A fence must be longer than any run of backticks inside the block, or the block would end early.
    qsizetype longest = 0;
    qsizetype run = 0;
    for (QChar c : source) {
        run = c == QLatin1Char('`') ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const QString fence(std::max<qsizetype>(3, longest + 1), QLatin1Char('`'));
    QString body = source;
    if (!body.endsWith(QLatin1Char('\n')))
        body += QLatin1Char('\n');
    return fence + fenceLanguage(language) + QLatin1Char('\n') + body + fence + QLatin1Char('\n');
}

QString hardwareTable(const std::optional<Hardware> &hardware)
{
    if (!hardware)
        return {};
    const Hardware &h = *hardware;
    QString text = QStringLiteral("| Property | Value |\n|---|---|\n");
    const auto row = [&text](const char *name, const QString &value) {
        text += QStringLiteral("| %1 | %2 |\n").arg(QLatin1StringView(name), value);
    };
    row("Device", h.name);
    row("Compute Capability", h.computeCapability);
    row("Global Memory", QString::asprintf("%.1f GB", h.globalMemoryGb));
    row("Multiprocessors", QString::number(h.smCount));
    row("Max Threads/SM", QString::number(h.maxThreadsPerSm));
    row("Clock Rate", QString::asprintf("%.2f GHz", h.clockGhz));
    row("Memory Clock", QString::asprintf("%.2f GHz", h.memoryClockGhz));
    row("Memory Bus Width", QStringLiteral("%1 bits").arg(h.busWidthBits));
    return text;
}

QString userMessage(const ForecastRequest &request, const PromptOptions &options)
{
    QString text = QStringLiteral("# Task: %1\n\n"
                                  "Both kernels below implement the operation \"%1\". Predict the candidate's speedup "
                                  "over the reference.\n\n")
                       .arg(request.operation);
    text += QStringLiteral("## Reference kernel\n\n")
        + fencedBlock(request.reference.source, request.reference.language);
    text += QStringLiteral("\n## Candidate kernel\n\n")
        + fencedBlock(request.candidate.source, request.candidate.language);
    if (request.hardware)
        text += QStringLiteral("\n## Hardware\n\n") + hardwareTable(request.hardware);
    text += options.toolCalling
        ? QStringLiteral("\nThink it through, then call `%1` once with your estimate.\n").arg(kToolName)
        : QStringLiteral("\nThink it through, then end your reply with the JSON object described above.\n");
    return text;
}

QJsonArray promptMessages(const ForecastRequest &request, const PromptOptions &options)
{
    return QJsonArray {
        QJsonObject {
            {QStringLiteral("role"), QStringLiteral("system")}, {QStringLiteral("content"), systemMessage(options)}},
        QJsonObject {{QStringLiteral("role"), QStringLiteral("user")},
            {QStringLiteral("content"), userMessage(request, options)}},
    };
}

QJsonObject toolDefinition()
{
    QJsonObject properties;
    properties.insert(QStringLiteral("predicted_bin"),
        QJsonObject {{QStringLiteral("type"), QStringLiteral("integer")},
            {QStringLiteral("enum"), QJsonArray {1, 2, 3, 4, 5, 6, 7, 8}},
            {QStringLiteral("description"), QStringLiteral("The bin (1-8) you predict for the candidate's speedup.")}});
    for (int b = 1; b <= bins::kBinCount; ++b) {
        properties.insert(probabilityField(b),
            QJsonObject {{QStringLiteral("type"), QStringLiteral("number")},
                {QStringLiteral("description"), QStringLiteral("Probability of bin %1, between 0 and 1.").arg(b)}});
    }
    properties.insert(QStringLiteral("reasoning"),
        QJsonObject {{QStringLiteral("type"), QStringLiteral("string")},
            {QStringLiteral("description"), QStringLiteral("One to three sentences on why.")}});
    QJsonArray required;
    for (const QString &field : answerFields())
        required.append(field);
    const QJsonObject parameters {{QStringLiteral("type"), QStringLiteral("object")},
        {QStringLiteral("properties"), properties}, {QStringLiteral("required"), required}};
    return QJsonObject {{QStringLiteral("type"), QStringLiteral("function")},
        {QStringLiteral("function"),
            QJsonObject {{QStringLiteral("name"), QString(kToolName)},
                {QStringLiteral("description"),
                    QStringLiteral("Submit the estimated speedup of the candidate kernel over the reference as a "
                                   "distribution over the eight bins.")},
                {QStringLiteral("parameters"), parameters}}}};
}

QJsonObject toolChoice()
{
    return QJsonObject {{QStringLiteral("type"), QStringLiteral("function")},
        {QStringLiteral("function"), QJsonObject {{QStringLiteral("name"), QString(kToolName)}}}};
}

} // namespace gpuf::forecasters
