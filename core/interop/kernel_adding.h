// What adding kernels and problems reads and writes, for the explorer's Add Kernel and New Problem dialogs: the kernels
// read from files or pasted text, the problems (with their kernels) to add them to, the launch spec to start from, the
// names a new problem must avoid, and the adding.
#pragma once

#include "core/common/cancel.h"
#include "core/common/result.h"
#include "core/domain/kernel.h"
#include "core/interop/kernel_spec_form.h"

#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace gpuf {

class Store;

namespace interop {

struct KernelInput
{
    QString label; // file name, or "Pasted code"
    Kernel kernel; // when read without error
    QString error; // why it cannot be added
};

struct ProblemChoice
{
    RowId id = 0;
    QString name;
    RowId referenceId = 0;
    QList<QPair<RowId, QString>> kernels; // id, label; ordered by id
};

struct AddKernelOutcome
{
    QString label;
    RowId id = 0;
    bool inserted = false;
    bool specAdded = false;
    QString error;
};

// The spec an added kernel shares buffers and cases with, and the launches to start from.
struct KernelBaseSpec
{
    QJsonObject spec; // empty: neither the parent nor the reference has one
    QString from; // the kernel it came from, in words
    QList<LaunchFields> launches;
};

// One input per file, or one for `pastedText` when there are no files; a file that cannot be read carries its error.
QList<KernelInput> readKernelInputs(const QStringList &files, const QString &pastedText);

// The names of the store's problems (a new problem's name must be none of them).
Result<QStringList> listProblemNames(Store &store, const CancelToken &cancel = {});

// Every problem with its kernels, to choose the problem and the parent from.
Result<QList<ProblemChoice>> listProblemChoices(Store &store, const CancelToken &cancel = {});

// Adds the inputs read without error to `problemId` with `parentId`; one outcome per input, in order.
QList<AddKernelOutcome> addKernelInputs(Store &store, const QList<KernelInput> &inputs, RowId problemId, RowId parentId);

// The spec of the parent when it has one, else of the problem's reference; with its launches to start from.
Result<KernelBaseSpec> loadBaseSpec(Store &store, RowId parentId, RowId referenceId, const CancelToken &cancel = {});

} // namespace interop
} // namespace gpuf
