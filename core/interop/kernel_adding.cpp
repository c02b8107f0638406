// Adding kernels; see kernel_adding.h.
#include "core/interop/kernel_adding.h"

#include "core/interop/kernel_input.h"
#include "core/store/problem_repo.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>

namespace gpuf::interop {
namespace {

KernelInput inputOf(const QString &label, Result<Kernel> kernel)
{
    KernelInput input;
    input.label = label;
    if (kernel)
        input.kernel = std::move(*kernel);
    else
        input.error = kernel.error();
    return input;
}

} // namespace

QList<KernelInput> readKernelInputs(const QStringList &files, const QString &pastedText)
{
    QList<KernelInput> inputs;
    for (const QString &file : files)
        inputs.append(inputOf(QFileInfo(file).fileName(), kernelFromFile(file)));
    if (files.isEmpty())
        inputs.append(
            inputOf(QCoreApplication::translate("gpuf::AddKernelDialog", "Pasted code"), kernelFromText(pastedText)));
    return inputs;
}

Result<QStringList> listProblemNames(Store &store, const CancelToken &cancel)
{
    auto problems = ProblemRepo(store).list();
    if (!problems)
        return problems.failure();
    if (cancel.isCancelled())
        return Error::cancelled();
    QStringList names;
    for (const Problem &p : std::as_const(*problems))
        names.append(p.name);
    return names;
}

Result<QList<ProblemChoice>> listProblemChoices(Store &store, const CancelToken &cancel)
{
    auto problems = ProblemRepo(store).list();
    if (!problems)
        return problems.failure();
    auto kernels = KernelRepo(store).summaries();
    if (!kernels)
        return kernels.failure();
    if (cancel.isCancelled())
        return Error::cancelled();
    QList<ProblemChoice> choices;
    QHash<RowId, int> index;
    for (const Problem &problem : std::as_const(*problems)) {
        index.insert(problem.id, int(choices.size()));
        choices.append({problem.id, problem.name, problem.referenceKernelId, {}});
    }
    for (const KernelSummary &kernel : std::as_const(*kernels)) {
        const auto it = index.constFind(kernel.problemId);
        if (it == index.cend())
            continue;
        const QString name = kernel.name.isEmpty() ? kernel.contentHash.left(10) : kernel.name;
        choices[*it].kernels.append({kernel.id, QStringLiteral("#%1 %2 (%3)").arg(kernel.id).arg(name, kernel.origin)});
    }
    return choices;
}

QList<AddKernelOutcome> addKernelInputs(Store &store, const QList<KernelInput> &inputs, RowId problemId, RowId parentId)
{
    QList<AddKernelOutcome> outcomes;
    for (const KernelInput &input : inputs) {
        AddKernelOutcome outcome;
        outcome.label = input.label;
        if (!input.error.isEmpty()) {
            outcome.error = input.error;
        } else {
            Kernel kernel = input.kernel;
            kernel.problemId = problemId;
            kernel.parentId = parentId;
            auto added = addKernel(store, kernel);
            if (added) {
                outcome.id = added->id;
                outcome.inserted = added->inserted;
                outcome.specAdded = added->specAdded;
            } else {
                outcome.error = added.error();
            }
        }
        outcomes.append(outcome);
    }
    return outcomes;
}

Result<KernelBaseSpec> loadBaseSpec(Store &store, RowId parentId, RowId referenceId, const CancelToken &cancel)
{
    KernelBaseSpec base;
    KernelRepo kernels(store);
    for (const auto &[id, role] :
        {std::pair {parentId, QCoreApplication::translate("gpuf::AddKernelDialog", "the parent")},
            std::pair {referenceId, QCoreApplication::translate("gpuf::AddKernelDialog", "the problem's reference")}}) {
        if (id == 0)
            continue;
        if (cancel.isCancelled())
            return Error::cancelled();
        auto kernel = kernels.find(id);
        if (!kernel)
            return kernel.failure();
        if (!kernel->has_value())
            continue;
        const QJsonObject spec = (**kernel).parameters.value(QStringLiteral("spec")).toObject();
        if (spec.value(QStringLiteral("buffers")).toArray().isEmpty())
            continue;
        base.spec = spec;
        base.from = QStringLiteral("%1 (#%2 %3)").arg(role).arg(id).arg((**kernel).name);
        for (const QJsonValue launch : spec.value(QStringLiteral("launches")).toArray())
            base.launches.append(launchFields(launch.toObject()));
        return base;
    }
    return base;
}

} // namespace gpuf::interop
