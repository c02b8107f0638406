// Adding one kernel by hand: read a dropped `.cu`/`.cuh`/`.py` file or pasted text, check it, and store it under a
// problem with the parent the user chose (the store deduplicates by content).
#pragma once

#include "core/common/result.h"
#include "core/domain/kernel.h"

namespace gpuf {

class Store;

namespace interop {

// Larger sources are refused: a kernel is text a person reads, and a 1 MiB limit keeps a mistaken drop (a log,
// a binary) from landing in the store.
constexpr qint64 kMaxKernelSourceBytes = 1 << 20;

// The file suffixes accepted for a dropped kernel, lower case, without the dot.
QStringList kernelFileSuffixes();
bool isKernelFile(const QString &path);

// A kernel read from `path`: source (UTF-8, CRLF kept as written), language from the suffix (`.py` is "triton"
// when the text uses Triton, else "python"), name = the file name, origin "manual". Refused with a specific
// message: unknown suffix, missing or unreadable file, a directory, empty or blank, too large, NUL bytes,
// bytes that are not UTF-8.
Result<Kernel> kernelFromFile(const QString &path);

// A kernel from pasted text; language guessed from the text. Same refusals as for a file.
Result<Kernel> kernelFromText(const QString &text, const QString &name = {});

// The same checks on raw bytes; `what` names the input in messages (a path, or "the pasted text").
Result<QString> decodeKernelSource(const QByteArray &bytes, const QString &what);

struct AddedKernel
{
    RowId id = 0;
    bool inserted = false; // false: the same source was already stored under this problem
    RowId existingParentId = 0; // when not inserted: the stored kernel's parent (left as it was)
    bool specAdded = false; // when not inserted: the stored kernel had no launch spec and now has the given one
};

// Stores `kernel` under kernel.problemId with kernel.parentId (0: none) in one transaction. The problem must
// exist; the parent must exist and belong to the same problem. A source already stored under the problem is
// not stored again: its id comes back with inserted = false and nothing is changed — except that a stored kernel
// without a launch spec (parameters.spec) takes the one `kernel` brings (specAdded), since that loses nothing.
Result<AddedKernel> addKernel(Store &store, Kernel kernel);

} // namespace interop
} // namespace gpuf
