// gpuf bins SPEEDUP…: the bin of each speedup.
#include "app/cli/command.h"
#include "core/bins/bins.h"

#include <QJsonArray>

namespace gpuf::cli {

Command binsCommand()
{
    Command c;
    c.name = QStringLiteral("bins");
    c.summary = QStringLiteral("Print the speedup bin (1..8) of each SPEEDUP.");
    c.usage = QStringLiteral("SPEEDUP…");
    c.addOptions = [](QCommandLineParser &parser) {
        parser.addPositionalArgument(
            QStringLiteral("SPEEDUP"), QStringLiteral("reference time / candidate time"), QStringLiteral("SPEEDUP…"));
    };
    c.run = [](const QCommandLineParser &parser, Io &io) {
        const QStringList args = parser.positionalArguments();
        if (args.isEmpty())
            return fail(io, UsageError, QStringLiteral("bins: give at least one SPEEDUP"));
        QStringList jsonRows; // written by hand to keep the documented key order: speedup, then bin
        QStringList lines;
        for (const QString &arg : args) {
            bool ok = false;
            const double speedup = arg.toDouble(&ok);
            const auto bin = ok ? bins::binOf(speedup) : std::nullopt;
            if (!bin)
                return fail(io, BadInput, QStringLiteral("bins: '%1' is not a positive number").arg(arg));
            const QByteArray number = QJsonDocument(QJsonArray {speedup}).toJson(QJsonDocument::Compact);
            jsonRows << QStringLiteral("{\"speedup\":%1,\"bin\":%2}")
                            .arg(QString::fromLatin1(number.mid(1, number.size() - 2)))
                            .arg(*bin);
            lines << QStringLiteral("%1\t%2\t%3 (%4)").arg(arg).arg(*bin).arg(bins::label(*bin), bins::rangeText(*bin));
        }
        if (parser.isSet(QStringLiteral("json"))) {
            io.out << '[' << jsonRows.join(QLatin1Char(',')) << "]\n";
        } else {
            for (const QString &line : lines)
                io.out << line << '\n';
        }
        return int(Success);
    };
    return c;
}

} // namespace gpuf::cli
