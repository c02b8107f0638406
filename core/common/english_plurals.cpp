// EnglishPlurals; see english_plurals.h.
#include "core/common/english_plurals.h"

#include <QCoreApplication>

namespace gpuf {

QString englishPlural(const QString &text, int n)
{
    QString out = text;
    const bool one = n == 1;
    out.replace(QStringLiteral("(es)"), one ? QString() : QStringLiteral("es"));
    out.replace(QStringLiteral("(s)"), one ? QString() : QStringLiteral("s"));
    return out;
}

QString EnglishPlurals::translate(const char *, const char *sourceText, const char *, int n) const
{
    if (n < 0 || !sourceText)
        return {};
    const QString source = QString::fromUtf8(sourceText);
    const QString plural = englishPlural(source, n);
    return plural == source ? QString() : plural; // empty: "no translation here", the next catalog is asked
}

void installEnglishPlurals()
{
    auto *app = QCoreApplication::instance();
    if (!app || app->findChild<EnglishPlurals *>(QString(), Qt::FindDirectChildrenOnly))
        return;
    QCoreApplication::installTranslator(new EnglishPlurals(app));
}

} // namespace gpuf
