// The explorer's languages: picks the locale to show (system, or an override for testing and screenshots) and
// installs the translators for it: the installed catalog (share/gpuf/translations) or else the one compiled in under
// :/i18n, and Qt's own qtbase catalog.
#pragma once

#include <QLocale>
#include <QString>

class QObject;

namespace gpuf {

// What installTranslations found; a path is empty when that catalog was not loaded.
struct InstalledTranslations
{
    QString language; // the language of the loaded gpuf catalog ("de"), empty when the interface stays English
    QString appCatalog;
    QString qtCatalog;
};

// The locale for the interface: `override` (a name such as "de" or "de_AT", from --lang or GPUF_LANG) when it
// is not empty, else the system locale.
QLocale interfaceLocale(const QString &override);

// Installs translators for the first of the locale's UI languages that has a gpuf catalog, plus Qt's catalog for
// that same language when the system has one (so standard dialogs do not mix languages). The translators are
// children of `owner`: deleting it uninstalls them. A locale without a catalog installs nothing (English).
InstalledTranslations installTranslations(const QLocale &locale, QObject *owner);

} // namespace gpuf
