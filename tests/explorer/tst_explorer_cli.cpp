// gpuf-explorer's --help and --version as a terminal without a display sees them: the real program, started with
// neither QT_QPA_PLATFORM nor DISPLAY nor WAYLAND_DISPLAY set, must print and exit 0 (no QApplication is needed).
#include "gpuf_config.h"
#include "tests/support/cli_run.h"

#include <QProcessEnvironment>
#include <QTest>

namespace {

// gpuf-explorer as started from a terminal without any display.
gpuf::test::CliText runWithoutDisplay(const QStringList &args)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
        env.remove(QString::fromLatin1(name));
    return gpuf::test::asText(gpuf::test::runProgram(QStringLiteral(GPUF_EXPLORER_PATH), args, 60000, env));
}

} // namespace

class TestExplorerCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void printsWithoutDisplay_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        QTest::newRow("--help") << QStringList {QStringLiteral("--help")} << QStringLiteral("--color-scheme");
        QTest::newRow("-h") << QStringList {QStringLiteral("-h")} << QStringLiteral("[STORE | CASE]");
        QTest::newRow("--version") << QStringList {QStringLiteral("--version")}
                                   << QStringLiteral("gpuf-explorer " GPUF_VERSION_STRING);
        QTest::newRow("--lang de --help") << QStringList {QStringLiteral("--lang"), QStringLiteral("de"),
            QStringLiteral("--help")} << QStringLiteral("--sample");
    }

    void printsWithoutDisplay()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        const gpuf::test::CliText r = runWithoutDisplay(args);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err)); // -1: it hung, -2: it crashed
        QVERIFY2(r.out.contains(expected), qPrintable(r.out + r.err));
        QVERIFY2(!r.err.contains(QStringLiteral("could not connect to display")), qPrintable(r.err));
    }

    // Without those options the program still needs a display, and says so instead of hanging.
    void unknownOptionFailsWithoutDisplay()
    {
        const gpuf::test::CliText r = runWithoutDisplay({QStringLiteral("--frobnicate"), QStringLiteral("--help")});
        QVERIFY(r.exitCode != -1); // it did not hang
        QVERIFY(r.exitCode != 0);
        QVERIFY(r.err.contains(QStringLiteral("frobnicate")));
    }
};

QTEST_GUILESS_MAIN(TestExplorerCli)
#include "tst_explorer_cli.moc"
