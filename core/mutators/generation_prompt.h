// The kernel-generation prompt of the LLM mutator and the reading of its answers (paper-facts §7, in our own words;
// docs/search.md "The LLM mutator"): one user message with the task, the rules and the parent's code and evaluation
// feedback; the answer's code is the last fenced block of the right language. Pure functions, tested directly.
#pragma once

#include "core/common/result.h"
#include "core/mutators/mutator.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace gpuf::families {

// Bumped whenever the text of the prompt changes; recorded with every mutation.
inline constexpr QLatin1StringView kGenerationPromptVersion {"gen-1"};

// What the generator is told about the problem, loaded once per search.
struct GenerationTask
{
    RowId problemId = 0;
    QString problemName;
    QString description;
    QString language; // "cuda": raw kernels with a gpuf-kernel/1 launch; "python": a Triton / PyTorch module
    QString referenceSource;
    QJsonObject
        referenceSpec; // cuda: the reference's complete gpuf-kernel/1 spec (buffers, cases, tolerance, launches)
    QString hardware; // e.g. "NVIDIA H100 80GB HBM3 (sm_90)"; empty: not said
};

// The chat messages: exactly one user message (paper-facts §7).
QJsonArray generationMessages(const GenerationTask &task, const search::MutationParent &parent);

// The last fenced block opened by three backticks, one of `languages` and a newline; its body runs to the next
// newline followed by three backticks, or to the end of the text; trailing whitespace is stripped. nullopt when there
// is no such block or its body is empty. CRLF line ends count as newlines.
std::optional<QString> lastFencedBlock(const QString &input, const QStringList &languages);

// The tags a CUDA source block may carry, and the launch block's.
QStringList cudaFenceTags(); // cuda, cu, c++, cpp
QStringList launchFenceTags(); // json

// A model's answer turned into a proposal's code: the source, and for CUDA the complete spec (the parent's buffers,
// cases and tolerance, the answer's launches or else the parent's) validated like any spec. Errors say what was
// missing or wrong, for the mutation_failed event.
struct GeneratedKernel
{
    QString source;
    QJsonObject spec; // cuda only: complete, source included
    bool launchesFromAnswer = false;
};
Result<GeneratedKernel> readGeneratedKernel(
    const QString &answer, const GenerationTask &task, const search::MutationParent &parent);

} // namespace gpuf::families
