// gpuf-explorer's --help and --version as a terminal without a display sees them: the real program, started with
// neither QT_QPA_PLATFORM nor DISPLAY nor WAYLAND_DISPLAY set, must print and exit 0 (no QApplication is needed).
#include "gpuf_config.h"

#include <QProcess>
#include <QProcessEnvironment>
#include <QTest>

class TestExplorerCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void printsWithoutDisplay_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        QTest::newRow("--help") << QStringList {QStringLiteral("--help")} << QStringLiteral("--color-scheme");
        QTest::newRow("-h") << QStringList {QStringLiteral("-h")} << QStringLiteral("[STORE]");
        QTest::newRow("--version") << QStringList {QStringLiteral("--version")}
                                   << QStringLiteral("gpuf-explorer " GPUF_VERSION_STRING);
        QTest::newRow("--lang de --help") << QStringList {QStringLiteral("--lang"), QStringLiteral("de"),
            QStringLiteral("--help")} << QStringLiteral("--sample");
    }

    void printsWithoutDisplay()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
            env.remove(QString::fromLatin1(name));
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(GPUF_EXPLORER_PATH), args);
        QVERIFY(p.waitForFinished(60000));
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(p.exitStatus() == QProcess::NormalExit, qPrintable(err));
        QVERIFY2(p.exitCode() == 0, qPrintable(err));
        QVERIFY2(out.contains(expected), qPrintable(out + err));
        QVERIFY2(!err.contains(QStringLiteral("could not connect to display")), qPrintable(err));
    }

    // Without those options the program still needs a display, and says so instead of hanging.
    void unknownOptionFailsWithoutDisplay()
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
            env.remove(QString::fromLatin1(name));
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(GPUF_EXPLORER_PATH), {QStringLiteral("--frobnicate"), QStringLiteral("--help")});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY(p.exitCode() != 0);
        QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains(QStringLiteral("frobnicate")));
    }
};

QTEST_GUILESS_MAIN(TestExplorerCli)
#include "tst_explorer_cli.moc"
