// Helpers shared by the interop suites: fixture paths, temporary stores and files, and a byte-exact snapshot of a
// store (its exported bundle) to prove that a failed import left it unchanged.
#pragma once

#include "core/interop/interop.h"
#include "core/store/store.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace gpuf::testing {

inline QString fixture(const char *name)
{
    return QStringLiteral(GPUF_TEST_DATA_DIR "/interop/") + QString::fromLatin1(name);
}

inline QByteArray readAll(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

inline bool writeFile(const QString &path, const QByteArray &content)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(content) == content.size();
}

inline std::unique_ptr<Store> openStore(const QTemporaryDir &dir, const QString &name)
{
    auto store = Store::open(dir.filePath(name));
    if (!store) {
        qWarning("%s", qPrintable(store.error()));
        return nullptr;
    }
    return std::move(*store);
}

// The store's whole content as bundle bytes: equal snapshots ⇔ equal stores (for everything a bundle carries).
inline QByteArray snapshot(Store &store, const QTemporaryDir &dir)
{
    const QString path = dir.filePath(QStringLiteral("snapshot.gpufb"));
    const Status s = interop::exportBundle(store, path);
    if (!s) {
        qWarning("%s", qPrintable(s.error()));
        return {};
    }
    return readAll(path);
}

inline qint64 added(const interop::ImportReport &report, const char *kind)
{
    return report.total(QString::fromLatin1(kind)).added;
}

inline qint64 deduplicated(const interop::ImportReport &report, const char *kind)
{
    return report.total(QString::fromLatin1(kind)).deduplicated;
}

} // namespace gpuf::testing
