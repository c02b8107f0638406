// Adding one kernel by hand; see kernel_input.h.
#include "core/interop/kernel_input.h"

#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QStringDecoder>

namespace gpuf::interop {
namespace {

// Offset of the first byte that does not start or continue a valid UTF-8 sequence; -1 when all are valid.
qsizetype firstInvalidUtf8(const QByteArray &bytes)
{
    const auto *data = reinterpret_cast<const unsigned char *>(bytes.constData());
    const qsizetype size = bytes.size();
    for (qsizetype i = 0; i < size;) {
        const unsigned char lead = data[i];
        int length = 0;
        unsigned minimum = 0;
        if (lead < 0x80) {
            ++i;
            continue;
        } else if ((lead & 0xE0) == 0xC0) {
            length = 2;
            minimum = 0x80;
        } else if ((lead & 0xF0) == 0xE0) {
            length = 3;
            minimum = 0x800;
        } else if ((lead & 0xF8) == 0xF0) {
            length = 4;
            minimum = 0x10000;
        } else {
            return i;
        }
        if (i + length > size)
            return i;
        unsigned code = lead & (0x7F >> length);
        for (int k = 1; k < length; ++k) {
            if ((data[i + k] & 0xC0) != 0x80)
                return i;
            code = (code << 6) | (data[i + k] & 0x3F);
        }
        if (code < minimum || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
            return i; // overlong, beyond Unicode, or a surrogate
        i += length;
    }
    return -1;
}

QString languageForFile(const QString &suffix, const QString &source)
{
    if (suffix == QLatin1StringView("py"))
        return guessLanguage(source) == QLatin1StringView("triton") ? QStringLiteral("triton")
                                                                    : QStringLiteral("python");
    return QStringLiteral("cuda");
}

} // namespace

QStringList kernelFileSuffixes() { return {QStringLiteral("cu"), QStringLiteral("cuh"), QStringLiteral("py")}; }

bool isKernelFile(const QString &path) { return kernelFileSuffixes().contains(QFileInfo(path).suffix().toLower()); }

Result<QString> decodeKernelSource(const QByteArray &bytes, const QString &what)
{
    if (bytes.size() > kMaxKernelSourceBytes) {
        return Error {QStringLiteral("%1 is %2 KiB; a kernel source may be at most %3 KiB")
                          .arg(what)
                          .arg((bytes.size() + 1023) / 1024)
                          .arg(kMaxKernelSourceBytes / 1024)};
    }
    QByteArray body = bytes;
    if (body.startsWith("\xEF\xBB\xBF"))
        body.remove(0, 3); // a byte-order mark is not part of the source
    if (const qsizetype nul = body.indexOf('\0'); nul >= 0)
        return Error {QStringLiteral("%1 holds a NUL byte at offset %2: it is not a text file").arg(what).arg(nul)};
    if (const qsizetype bad = firstInvalidUtf8(body); bad >= 0) {
        return Error {QStringLiteral("%1 is not UTF-8 (byte 0x%2 at offset %3); save it as UTF-8 and try again")
                          .arg(what)
                          .arg(quint8(body.at(bad)), 2, 16, QLatin1Char('0'))
                          .arg(bad)};
    }
    QString text = QString::fromUtf8(body);
    if (text.trimmed().isEmpty())
        return Error {QStringLiteral("%1 is empty").arg(what)};
    return text;
}

Result<Kernel> kernelFromFile(const QString &path)
{
    const QFileInfo info(path);
    if (info.isDir())
        return Error {QStringLiteral("%1 is a folder, not a kernel source file").arg(path)};
    if (!isKernelFile(path)) {
        return Error {QStringLiteral("%1: only .cu, .cuh and .py files can be added as kernels").arg(path)};
    }
    if (!info.exists())
        return Error {QStringLiteral("%1 does not exist").arg(path)};
    if (info.size() > kMaxKernelSourceBytes) {
        return Error {QStringLiteral("%1 is %2 KiB; a kernel source may be at most %3 KiB")
                          .arg(path)
                          .arg((info.size() + 1023) / 1024)
                          .arg(kMaxKernelSourceBytes / 1024)};
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error {QStringLiteral("cannot read %1: %2").arg(path, file.errorString())};
    auto source = decodeKernelSource(file.read(kMaxKernelSourceBytes + 1), path);
    if (!source)
        return Error {source.error()};

    Kernel kernel;
    kernel.name = info.fileName();
    kernel.source = std::move(*source);
    kernel.language = languageForFile(info.suffix().toLower(), kernel.source);
    kernel.origin = QStringLiteral("manual");
    return kernel;
}

Result<Kernel> kernelFromText(const QString &text, const QString &name)
{
    auto source = decodeKernelSource(text.toUtf8(), QStringLiteral("the pasted text"));
    if (!source)
        return Error {source.error()};
    Kernel kernel;
    kernel.name = name;
    kernel.source = std::move(*source);
    kernel.language = guessLanguage(kernel.source);
    kernel.origin = QStringLiteral("manual");
    return kernel;
}

Result<AddedKernel> addKernel(Store &store, Kernel kernel)
{
    ProblemRepo problems(store);
    KernelRepo kernels(store);
    Transaction transaction(store);
    if (Status s = transaction.begin(); !s)
        return Error {s.error()};

    auto problem = problems.find(kernel.problemId);
    if (!problem)
        return Error {problem.error()};
    if (!*problem)
        return Error {QStringLiteral("problem #%1 does not exist in this store").arg(kernel.problemId)};
    if (kernel.parentId != 0) {
        auto parent = kernels.find(kernel.parentId);
        if (!parent)
            return Error {parent.error()};
        if (!*parent)
            return Error {QStringLiteral("parent kernel #%1 does not exist in this store").arg(kernel.parentId)};
        if ((*parent)->problemId != kernel.problemId) {
            return Error {QStringLiteral("parent kernel #%1 belongs to another problem than %2")
                              .arg(kernel.parentId)
                              .arg((*problem)->name)};
        }
    }

    auto existing = kernels.findByHash(kernel.problemId, contentHashOf(kernel.source));
    if (!existing)
        return Error {existing.error()};
    if (*existing) {
        const Kernel &stored = **existing;
        const QString specKey = QStringLiteral("spec");
        if (kernel.parameters.value(specKey).isObject() && !stored.parameters.value(specKey).isObject()) {
            QJsonObject parameters = stored.parameters;
            parameters.insert(specKey, kernel.parameters.value(specKey));
            if (Status s = kernels.setParameters(stored.id, parameters); !s)
                return Error {s.error()};
            if (Status s = transaction.commit(); !s)
                return Error {s.error()};
            return AddedKernel {stored.id, false, stored.parentId, true};
        }
        return AddedKernel {stored.id, false, stored.parentId};
    }

    if (kernel.origin.isEmpty())
        kernel.origin = QStringLiteral("manual");
    kernel.createdAt = QDateTime::currentDateTimeUtc();
    bool inserted = false;
    auto id = kernels.insertOrGet(kernel, &inserted);
    if (!id)
        return Error {id.error()};
    if (Status s = transaction.commit(); !s)
        return Error {s.error()};
    return AddedKernel {*id, inserted, 0};
}

} // namespace gpuf::interop
