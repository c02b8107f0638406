// gpuf bins SPEEDUP…: the bin of each speedup.
#include "app/cli/invocation.h"
#include "core/bins/bins.h"

#include <QJsonArray>

namespace gpuf::cli {

Command binsCommand()
{
    Command c;
    c.name = QStringLiteral("bins");
    c.summary = QStringLiteral("Print the speedup bin (1..8) of each SPEEDUP.");
    c.usage = QStringLiteral("SPEEDUP…");
    c.arguments
        = {{QStringLiteral("SPEEDUP"), QStringLiteral("reference time / candidate time"), QStringLiteral("SPEEDUP…")}};
    c.invoke = [](Invocation &run) {
        if (run.args().isEmpty())
            return run.usage(QStringLiteral("give at least one SPEEDUP"));
        QStringList jsonRows; // written by hand to keep the documented key order: speedup, then bin
        QStringList lines;
        for (const QString &arg : run.args()) {
            bool ok = false;
            const double speedup = arg.toDouble(&ok);
            const auto bin = ok ? bins::binOf(speedup) : std::nullopt;
            if (!bin)
                return run.bad(QStringLiteral("'%1' is not a positive number").arg(arg));
            const QByteArray number = QJsonDocument(QJsonArray {speedup}).toJson(QJsonDocument::Compact);
            jsonRows << QStringLiteral("{\"speedup\":%1,\"bin\":%2}")
                            .arg(QString::fromLatin1(number.mid(1, number.size() - 2)))
                            .arg(*bin);
            lines << QStringLiteral("%1\t%2\t%3 (%4)").arg(arg).arg(*bin).arg(bins::label(*bin), bins::rangeText(*bin));
        }
        if (run.json()) {
            run.out() << '[' << jsonRows.join(QLatin1Char(',')) << "]\n";
        } else {
            for (const QString &line : lines)
                run.out() << line << '\n';
        }
        return int(Success);
    };
    return c;
}

} // namespace gpuf::cli
