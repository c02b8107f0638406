// Explorer translations; see app_translations.h.
#include "app/explorer/app_translations.h"

#include "core/common/english_plurals.h"
#include "core/common/resources.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QTranslator>

namespace gpuf {

QLocale interfaceLocale(const QString &override) { return override.isEmpty() ? QLocale::system() : QLocale(override); }

InstalledTranslations installTranslations(const QLocale &locale, QObject *owner)
{
    InstalledTranslations installed;
    installEnglishPlurals(); // below every catalog: "%n kernel(s)" reads "3 kernels" where no catalog has it
    auto *app = new QTranslator(owner);
    // Tries each of the locale's UI languages, most specific first: gpuf_de_AT.qm, then gpuf_de.qm. A catalog
    // installed with the shared data wins over the compiled-in one, so a language can be added or corrected there
    // without rebuilding.
    const QString installedCatalogs = resourcePath(QStringLiteral("translations"));
    const bool loaded = (!installedCatalogs.isEmpty()
                            && app->load(locale, QStringLiteral("gpuf"), QStringLiteral("_"), installedCatalogs))
        || app->load(locale, QStringLiteral("gpuf"), QStringLiteral("_"), QStringLiteral(":/i18n"));
    if (!loaded) {
        delete app;
        return installed;
    }
    QCoreApplication::installTranslator(app);
    installed.language = app->language();
    installed.appCatalog = app->filePath();

    // Qt's catalog in the language the gpuf catalog has, not the locale's first choice: a French-then-German
    // user with only a German gpuf catalog gets German buttons in standard dialogs too.
    auto *qt = new QTranslator(owner);
    if (qt->load(QLocale(installed.language), QStringLiteral("qtbase"), QStringLiteral("_"),
            QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt);
        installed.qtCatalog = qt->filePath();
    } else {
        delete qt;
    }
    return installed;
}

} // namespace gpuf
