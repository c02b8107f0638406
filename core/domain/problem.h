// Problem: an operation to optimise, its reference kernel and its benchmark cases (DESIGN §3).
#pragma once

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QMetaType>
#include <QString>

namespace gpuf {

using RowId = qint64; // SQLite rowid; 0 means "not stored yet" or "none"

enum class Backend { Cuda, Triton, PyTorch };

QString backendName(Backend backend);
std::optional<Backend> backendFromName(const QString &name);

struct Problem
{
    RowId id = 0;
    QString name; // unique within a store
    QString description;
    QString family; // operation family, e.g. "softmax"
    RowId referenceKernelId = 0;
    QJsonArray cases; // size bindings, e.g. [{"name":"4096x1024","n":4096,"d":1024}]
    QJsonObject tolerances; // {"rtol":…, "atol":…}
    Backend backend = Backend::Cuda;
    QDateTime createdAt;
};

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::Problem)
