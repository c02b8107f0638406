// gpuf-explorer: the desktop application. Opens the store given on the command line, or with --sample the
// bundled sample store, or else the last store used; on the very first run the sample store.
#include "app/explorer/main_window.h"
#include "gpuf_config.h"
#include "widgets/common/color_scheme.h"
#include "widgets/session/sample_store.h"
#include "widgets/session/store_session.h"
#include "widgets/settings/settings.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("gpuf-explorer"));
    QApplication::setApplicationDisplayName(QStringLiteral("GPU Forecaster Explorer"));
    QApplication::setOrganizationName(QStringLiteral("gpuf"));
    QApplication::setApplicationVersion(QStringLiteral(GPUF_VERSION_STRING));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("GPU Forecaster Explorer"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption sample(QStringLiteral("sample"), QStringLiteral("Open the bundled sample store."));
    parser.addOption(sample);
    const QCommandLineOption scheme(QStringLiteral("color-scheme"),
        QStringLiteral("system, light or dark (remembered for later starts)."), QStringLiteral("SCHEME"));
    parser.addOption(scheme);
    parser.addPositionalArgument(
        QStringLiteral("STORE"), QStringLiteral("the store to open (created when missing)"), QStringLiteral("[STORE]"));
    parser.process(app);

    gpuf::Settings settings;
    if (parser.isSet(scheme))
        settings.setColorScheme(gpuf::colorSchemeName(gpuf::colorSchemeFromName(parser.value(scheme))));
    gpuf::applyColorScheme(gpuf::colorSchemeFromName(settings.colorScheme()));
    gpuf::StoreSession session;
    gpuf::MainWindow window(&settings, &session);
    window.show();

    const QStringList args = parser.positionalArguments();
    if (!args.isEmpty())
        session.open(args.first());
    else if (parser.isSet(sample) || settings.lastStore().isEmpty() || !QFileInfo::exists(settings.lastStore()))
        gpuf::openSampleStore(&session);
    else
        session.open(settings.lastStore());
    return QApplication::exec();
}
