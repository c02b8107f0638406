// Offscreen tests of the explorer's translations: the German catalog compiled into the application translates the
// real main window, and a locale without a catalog leaves it in English.
#include "app/explorer/app_translations.h"
#include "app/explorer/main_window.h"
#include "core/session/settings.h"
#include "core/session/store_session.h"

#include <QCoreApplication>
#include <QDockWidget>
#include <QFileInfo>
#include <QMenuBar>
#include <QStandardPaths>
#include <QTest>

using namespace gpuf;

namespace {

// The menu bar's titles, in order, as the user sees them.
QStringList menuTitles(const MainWindow &window)
{
    QStringList titles;
    const QList<QAction *> actions = window.menuBar()->actions();
    for (const QAction *action : actions)
        titles.append(action->text());
    return titles;
}

QString dockTitle(const MainWindow &window, const QString &objectName)
{
    const auto *dock = window.findChild<QDockWidget *>(objectName);
    return dock ? dock->windowTitle() : QString();
}

} // namespace

class TestTranslations : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void germanCatalogTranslatesMainWindow()
    {
        QObject owner; // the translators' parent: leaving the test uninstalls them
        const InstalledTranslations installed = installTranslations(QLocale(QLocale::German, QLocale::Germany), &owner);
        QCOMPARE(installed.language, QStringLiteral("de"));
        QCOMPARE(installed.appCatalog, QStringLiteral(":/i18n/gpuf_de.qm"));

        Settings settings;
        StoreSession session;
        MainWindow window(&settings, &session);
        const QStringList titles = menuTitles(window);
        QVERIFY2(!titles.isEmpty(), "the main window has no menus");
        QCOMPARE(titles.first(), QStringLiteral("&Datei"));
        QVERIFY(titles.contains(QStringLiteral("&Ansicht")));
        QCOMPARE(dockTitle(window, QStringLiteral("CandidatesDock")), QStringLiteral("Kandidaten"));
    }

    void localeWithoutCatalogLeavesEnglish_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("English") << QStringLiteral("en_US");
        QTest::newRow("French (no catalog)") << QStringLiteral("fr_FR");
        QTest::newRow("unknown code") << QStringLiteral("xx");
        QTest::newRow("C") << QStringLiteral("C");
    }

    void localeWithoutCatalogLeavesEnglish()
    {
        QFETCH(QString, name);
        QObject owner;
        const InstalledTranslations installed = installTranslations(interfaceLocale(name), &owner);
        QVERIFY(installed.language.isEmpty());
        QVERIFY(installed.appCatalog.isEmpty());
        QVERIFY(installed.qtCatalog.isEmpty());

        Settings settings;
        StoreSession session;
        MainWindow window(&settings, &session);
        QCOMPARE(menuTitles(window).value(0), QStringLiteral("&File"));
        QCOMPARE(dockTitle(window, QStringLiteral("CandidatesDock")), QStringLiteral("Candidates"));
    }

    void regionalVariantsUseTheLanguageCatalog_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("de") << QStringLiteral("de");
        QTest::newRow("Austria") << QStringLiteral("de_AT");
        QTest::newRow("Switzerland") << QStringLiteral("de_CH");
    }

    void regionalVariantsUseTheLanguageCatalog()
    {
        QFETCH(QString, name);
        QObject owner;
        const InstalledTranslations installed = installTranslations(interfaceLocale(name), &owner);
        QCOMPARE(installed.appCatalog, QStringLiteral(":/i18n/gpuf_de.qm"));
        QCOMPARE(QCoreApplication::translate("gpuf::MainWindow", "&File"), QStringLiteral("&Datei"));
    }

    void uninstalledWithTheirOwner()
    {
        {
            QObject owner;
            installTranslations(QLocale(QLocale::German), &owner);
            QCOMPARE(QCoreApplication::translate("gpuf::MainWindow", "&View"), QStringLiteral("&Ansicht"));
        }
        QCOMPARE(QCoreApplication::translate("gpuf::MainWindow", "&View"), QStringLiteral("&View"));
    }

    void qtCatalogFollowsTheAppCatalog()
    {
        QObject owner;
        const InstalledTranslations installed = installTranslations(QLocale(QLocale::German), &owner);
        if (installed.qtCatalog.isEmpty())
            QSKIP("Qt's own German catalog (qtbase_de.qm) is not installed here (Debian: qt6-translations-l10n)");
        QCOMPARE(QFileInfo(installed.qtCatalog).fileName(), QStringLiteral("qtbase_de.qm"));
        // A string of Qt's own dialogs: its context and text are Qt's.
        QCOMPARE(QCoreApplication::translate("QPlatformTheme", "Cancel"), QStringLiteral("Abbrechen"));
    }
};

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
