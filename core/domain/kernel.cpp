// Kernel identity (content hash), language guess and origin validation.
#include "core/domain/kernel.h"

#include <QCryptographicHash>
#include <QRegularExpression>

namespace gpuf {

QString contentHashOf(const QString &source)
{
    return QString::fromLatin1(QCryptographicHash::hash(source.toUtf8(), QCryptographicHash::Sha256).toHex());
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
