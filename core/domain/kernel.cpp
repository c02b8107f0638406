// Kernel identity (content hash), language guess and origin validation.
#include "core/domain/kernel.h"

#include <QRegularExpression>

#include <openssl/evp.h>

namespace gpuf {

QString contentHashOf(const QString &source)
{
    // OpenSSL's SHA-256 uses the CPU's SHA instructions: hashing was half the cost of a batched kernel insert
    // with QCryptographicHash.
    const QByteArray bytes = source.toUtf8();
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_Digest(bytes.constData(), size_t(bytes.size()), digest, &length, EVP_sha256(), nullptr);
    return QString::fromLatin1(QByteArray::fromRawData(reinterpret_cast<const char *>(digest), int(length)).toHex());
}

QString guessLanguage(const QString &source)
{
    if (source.contains(QLatin1StringView("@triton.jit")) || source.contains(QLatin1StringView("import triton")))
        return QStringLiteral("triton");
    static const QRegularExpression pythonMarkers(
        QStringLiteral(R"((^|\n)\s*(import |from \S+ import |def |class \w+.*:))"));
    const bool looksPython = pythonMarkers.match(source).hasMatch();
    if (source.contains(QLatin1StringView("__global__")) && !looksPython)
        return QStringLiteral("cuda");
    if (source.contains(QLatin1StringView(".entry ")) && source.contains(QLatin1StringView(".version")))
        return QStringLiteral("ptx");
    if (looksPython)
        return QStringLiteral("python");
    return QStringLiteral("cuda");
}

bool isValidOrigin(const QString &origin)
{
    static const QRegularExpression pattern(QStringLiteral(R"(^(seed|corpus|param|manual|llm:\S+|import:\S+)$)"));
    return pattern.match(origin).hasMatch();
}

} // namespace gpuf
