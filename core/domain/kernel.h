// Kernel: a reference or candidate kernel's source and lineage (DESIGN §3).
#pragma once

#include "core/domain/problem.h"

#include <QByteArray>
#include <QJsonObject>

namespace gpuf {

struct Kernel
{
    RowId id = 0;
    RowId problemId = 0;
    RowId parentId = 0;
    QString name; // optional human name ("v3 shared-memory tiling")
    QString language; // "cuda" | "triton" | "python" | "ptx" | …
    QString source;
    QString contentHash; // lower-case hex SHA-256 of the UTF-8 source
    QString origin; // "seed" | "corpus" | "param" | "llm:<model>" | "manual" | "import:<source>"
    QJsonObject parameters;
    QString notes; // teaching text
    QDateTime createdAt;
};

// SHA-256 of the source's UTF-8 bytes, lower-case hex: same source ⇒ same kernel.
QString contentHashOf(const QString &source);

// Best guess of a source's language from its text ("cuda", "triton", "python").
QString guessLanguage(const QString &source);

bool isValidOrigin(const QString &origin);

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::Kernel)
