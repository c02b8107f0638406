// Readable names for a search's nodes, for the views and the command line alike: a family configuration as its
// tunables ("BM=64 BN=64 BK=16 …"), another kernel by its name ("v7_double_buffer"), instead of a node id's tail or a
// content hash. Header-only: pure text from the proposal's parameters and name.
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace gpuf::search {

// "BK=16 BM=128 BN=128 TM=8 TN=8 VEC=4" from a proposal's parameters ({"tunables": {...}}), by name; empty when it
// has no tunables.
inline QString configurationText(const QJsonObject &parameters)
{
    const QJsonObject tunables = parameters.value(QStringLiteral("tunables")).toObject();
    QStringList parts;
    for (auto it = tunables.constBegin(); it != tunables.constEnd(); ++it)
        parts << QStringLiteral("%1=%2").arg(it.key(), it.value().toVariant().toString());
    return parts.join(QLatin1Char(' '));
}

// The name a node is shown by: a family configuration's name less the family ("BM=128 BN=128 …", in the family's
// order), else its tunables, else its kernel's name; empty when it has none (the caller falls back to the node id).
inline QString nodeDisplayName(const QJsonObject &parameters, const QString &name)
{
    const QString family = parameters.value(QStringLiteral("family")).toString();
    if (!family.isEmpty() && name.startsWith(family + QLatin1Char(' ')))
        return name.mid(family.size() + 1);
    if (QString configuration = configurationText(parameters); !configuration.isEmpty())
        return configuration;
    return name;
}

} // namespace gpuf::search
