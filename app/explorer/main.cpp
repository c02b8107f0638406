// gpuf-explorer: the desktop application. Opens the store given on the command line, or with --sample the
// bundled sample store, or else the last store used; on the very first run the sample store. Speaks the system
// locale's language when a catalog for it is compiled in; --lang or GPUF_LANG picks another.
#include "app/explorer/app_translations.h"
#include "app/explorer/main_window.h"
#include "core/common/background_pool.h"
#include "core/session/sample_store.h"
#include "core/session/settings.h"
#include "core/session/store_follower.h"
#include "core/session/store_session.h"
#include "gpuf_config.h"
#include "widgets/common/color_scheme.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QIcon>
#include <QThreadPool>
#include <QTimer>

#include <cstdio>

namespace {

QCommandLineOption languageOption()
{
    return QCommandLineOption(QStringLiteral("lang"),
        QCoreApplication::translate("gpuf::explorer",
            "The interface language, e.g. de or en (default: the system's; the GPUF_LANG variable works too)."),
        QStringLiteral("CODE"));
}

// --lang, else GPUF_LANG. Read before the real parser is built, so that its --help text is already translated;
// the other options are unknown to this parser, and the real one reports any error.
QString languageOverride(const QStringList &arguments)
{
    QCommandLineParser early;
    early.addOption(languageOption());
    early.parse(arguments);
    return early.isSet(QStringLiteral("lang")) ? early.value(QStringLiteral("lang"))
                                               : qEnvironmentVariable("GPUF_LANG");
}

// The options of the command line, shared by the display-free pass (--help, --version) and the real one.
struct Options
{
    QCommandLineOption sample {
        QStringLiteral("sample"), QCoreApplication::translate("gpuf::explorer", "Open the bundled sample store.")};
    QCommandLineOption scheme {QStringLiteral("color-scheme"),
        QCoreApplication::translate("gpuf::explorer", "system, light or dark (remembered for later starts)."),
        QStringLiteral("SCHEME")};
    // For checks of an installation: exits 0 once the store is open, 1 when it cannot be opened.
    QCommandLineOption quitAfterLoad {
        QStringLiteral("quit-after-load"), QStringLiteral("Quit once the store is open.")};
    Options() { quitAfterLoad.setFlags(QCommandLineOption::HiddenFromHelp); }
};

void describeApplication()
{
    QCoreApplication::setApplicationName(QStringLiteral("gpuf-explorer"));
    QCoreApplication::setOrganizationName(QStringLiteral("gpuf"));
    QCoreApplication::setApplicationVersion(QStringLiteral(GPUF_VERSION_STRING));
}

// Installs the translators for --lang / GPUF_LANG / the system locale before any text is built.
void installLanguage(QCoreApplication &app)
{
    const QString language = languageOverride(QCoreApplication::arguments());
    const QLocale locale = gpuf::interfaceLocale(language);
    if (!language.isEmpty())
        QLocale::setDefault(locale); // numbers and dates follow the chosen language as they would the system's
    gpuf::installTranslations(locale, &app);
}

void fillParser(QCommandLineParser &parser, const Options &options)
{
    parser.setApplicationDescription(QCoreApplication::translate("gpuf::explorer", "GPU Forecaster Explorer"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOption(options.sample);
    parser.addOption(options.scheme);
    parser.addOption(languageOption());
    parser.addOption(options.quitAfterLoad);
    parser.addPositionalArgument(QStringLiteral("FILE"),
        QCoreApplication::translate("gpuf::explorer",
            "the store to open (created when missing), or a case file (*.gpufcase) to open in a store of its own"),
        QStringLiteral("[STORE | CASE]"));
}

// --help and --version print and exit before a QApplication exists: they need no display (a terminal over SSH, a
// packaging script). Any other argument, and any error, is left to the real parser.
bool wantsTextOnly(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        const QByteArray a(argv[i]);
        if (a == "--") // what follows is a store's path
            return false;
        if (a == "-h" || a == "--help" || a == "-?" || a == "--help-all" || a == "-v" || a == "--version")
            return true;
    }
    return false;
}

int printTextOnly(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    describeApplication();
    installLanguage(app);
    QCommandLineParser parser;
    const Options options;
    fillParser(parser, options);
    parser.process(app); // prints the help or the version and exits, or reports an unknown option and exits
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    if (wantsTextOnly(argc, argv))
        return printTextOnly(argc, argv);
    QApplication app(argc, argv);
    describeApplication();
    QApplication::setApplicationDisplayName(QStringLiteral("GPU Forecaster Explorer"));
    // The desktop entry's name (packaging/): Wayland's app id, and how the desktop matches windows to the entry.
    QApplication::setDesktopFileName(QStringLiteral("io.github.gpuf.Explorer"));
    QApplication::setWindowIcon(QIcon::fromTheme(
        QStringLiteral("io.github.gpuf.Explorer"), QIcon(QStringLiteral(":/gpuf/icons/io.github.gpuf.Explorer.svg"))));

    // Before any widget exists: the windows translate their texts once, when they are built.
    installLanguage(app);

    QCommandLineParser parser;
    const Options options;
    fillParser(parser, options);
    parser.process(app);
    const QCommandLineOption &sample = options.sample;
    const QCommandLineOption &scheme = options.scheme;

    gpuf::Settings settings;
    if (parser.isSet(scheme))
        settings.setColorScheme(gpuf::colorSchemeName(gpuf::colorSchemeFromName(parser.value(scheme))));
    gpuf::applyColorScheme(gpuf::colorSchemeFromName(settings.colorScheme()));
    gpuf::StoreSession session;
    // What other programs write to the open store (a gpuf search, an import) reaches the views as typed changes.
    const gpuf::StoreFollower follower(&session);
    gpuf::MainWindow window(&settings, &session);
    window.show();
    if (parser.isSet(options.quitAfterLoad)) {
        // Queued, so that an answer given before the event loop runs still ends it.
        QObject::connect(&session, &gpuf::StoreSession::opened, &app,
            [&app]() { QTimer::singleShot(0, &app, []() { QCoreApplication::exit(0); }); });
        QObject::connect(
            &session, &gpuf::StoreSession::openFailed, &app, [&app](const QString &path, const QString &why) {
                std::fprintf(stderr, "gpuf-explorer: cannot open %s: %s\n", qPrintable(path), qPrintable(why));
                QTimer::singleShot(0, &app, []() { QCoreApplication::exit(1); });
            });
    }

    const QStringList args = parser.positionalArguments();
    if (!args.isEmpty())
        window.openPath(args.first()); // a store, or a case file (a double-click on either)
    else if (parser.isSet(sample) || settings.lastStore().isEmpty() || !QFileInfo::exists(settings.lastStore()))
        gpuf::openSampleStore(&session);
    else
        session.open(settings.lastStore());
    const int rc = QApplication::exec();
    // Loaders still running in the background open store connections; the pools are waited for only after the
    // application object has gone, so they would run (and fail) without one. Finish them here.
    gpuf::backgroundPool()->waitForDone();
    QThreadPool::globalInstance()->waitForDone();
    return rc;
}
