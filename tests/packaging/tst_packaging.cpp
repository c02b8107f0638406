// Desktop integration and the installed data (packaging/): every manual page says what its program's --help says,
// the desktop entry and AppStream metainfo validate, the MIME type recognises a store by its content, the icons are
// rendered at every size, the bash completion completes commands and options from the real gpuf, and the installed
// sample store and catalogs are the ones the explorer uses.
#include "app/explorer/app_translations.h"
#include "core/session/sample_store.h"
#include "core/session/store_session.h"
#include "core/store/store.h"
#include "gpuf_config.h"
#include "tests/support/cli_run.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QMimeDatabase>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace gpuf;

namespace {

const QString kAppId = QStringLiteral("io.github.gpuf.Explorer");

QString packagingSource(const QString &relative) { return QStringLiteral(GPUF_SOURCE_DIR "/packaging/") + relative; }
QString packagingBuild(const QString &relative) { return QStringLiteral(GPUF_PACKAGING_BUILD_DIR "/") + relative; }

using Run = gpuf::test::CliText;

// Opens the sample store as the explorer does, with `dataDir` as the installation's shared data and no sample store
// of the user's yet.
void openSampleStoreFrom(const QString &dataDir, StoreSession &session, int timeoutMs)
{
    qputenv("GPUF_RESOURCE_DIR", dataDir.toLocal8Bit());
    QFile::remove(sampleStorePath());
    QFile::remove(sampleStorePath() + QStringLiteral(".source"));
    QSignalSpy opened(&session, &StoreSession::opened);
    QSignalSpy failed(&session, &StoreSession::openFailed);
    openSampleStore(&session);
    QTRY_VERIFY_WITH_TIMEOUT(!opened.isEmpty() || !failed.isEmpty(), timeoutMs);
    qunsetenv("GPUF_RESOURCE_DIR");
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(1).toString()));
}

Run run(const QString &program, const QStringList &args, const QProcessEnvironment &extra = {})
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
    env.insert(QStringLiteral("GPUF_LANG"), QStringLiteral("en"));
    for (const QString &key : extra.keys())
        env.insert(key, extra.value(key));
    return gpuf::test::asText(gpuf::test::runProgram(program, args, 120000, env));
}

// The text a reader of the page sees: macro lines dropped, escapes and font changes undone, whitespace collapsed.
QString manText(const QString &roff)
{
    QStringList kept;
    for (const QString &line : roff.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1Char('.')))
            continue;
        QString text = line;
        text.remove(QRegularExpression(QStringLiteral("\\\\f[BIRP]")));
        text.replace(QStringLiteral("\\-"), QStringLiteral("-"));
        text.replace(QStringLiteral("\\&"), QString());
        text.replace(QStringLiteral("\\e"), QStringLiteral("\\"));
        kept.append(text);
    }
    return kept.join(QLatin1Char(' ')).simplified();
}

QString readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

QStringList gpufCommands()
{
    const Run r = run(QStringLiteral(GPUF_CLI_PATH), {QStringLiteral("--help")});
    QStringList names;
    bool listing = false;
    for (const QString &line : r.out.split(QLatin1Char('\n'))) {
        if (line == QLatin1String("Commands:"))
            listing = true;
        else if (listing && line.startsWith(QLatin1String("  ")))
            names.append(line.trimmed().section(QLatin1Char(' '), 0, 0));
    }
    return names;
}

QString findTool(const char *name) { return QStandardPaths::findExecutable(QString::fromLatin1(name)); }

} // namespace

class TestPackaging : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void manPageSaysWhatHelpSays_data()
    {
        QTest::addColumn<QString>("page");
        QTest::addColumn<QString>("program");
        QTest::addColumn<QStringList>("args");
        QTest::newRow("gpuf") << QStringLiteral("gpuf") << QStringLiteral(GPUF_CLI_PATH) << QStringList {};
        const QStringList commands = gpufCommands();
        QVERIFY(commands.size() >= 5);
        for (const QString &command : commands) {
            QTest::addRow("gpuf %s", qPrintable(command))
                << QStringLiteral("gpuf") << QStringLiteral(GPUF_CLI_PATH) << QStringList {command};
        }
        QTest::newRow("gpuf-explorer") << QStringLiteral("gpuf-explorer") << QStringLiteral(GPUF_EXPLORER_PATH)
                                       << QStringList {};
        if (!QStringLiteral(GPUF_MEASURE_PATH).isEmpty()) {
            QTest::newRow("gpuf-measure")
                << QStringLiteral("gpuf-measure") << QStringLiteral(GPUF_MEASURE_PATH) << QStringList {};
        }
    }

    void manPageSaysWhatHelpSays()
    {
        if (!GPUF_MAN_PAGES)
            QSKIP("built with GPUF_BUILD_MAN_PAGES=OFF");
        QFETCH(QString, page);
        QFETCH(QString, program);
        QFETCH(QStringList, args);
        const QString roff = readFile(packagingBuild(QStringLiteral("man/%1.1").arg(page)));
        QVERIFY2(!roff.isEmpty(), qPrintable(page + QStringLiteral(".1 was not generated")));
        QVERIFY(roff.contains(QStringLiteral(".TH %1 1 ").arg(page.toUpper())));
        const QString man = manText(roff);

        const Run help = run(program, args + QStringList {QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        const QString name = QFileInfo(program).fileName();
        int lines = 0;
        for (QString line : help.out.split(QLatin1Char('\n'))) {
            line.replace(program, name);
            line = line.simplified();
            // Headings ("Options:") become the page's section titles; everything else appears word for word.
            if (line.isEmpty() || QRegularExpression(QStringLiteral("^[A-Z][A-Za-z ]*:$")).match(line).hasMatch())
                continue;
            if (line.startsWith(QLatin1String("Usage:"), Qt::CaseInsensitive))
                line = line.mid(6).trimmed();
            // The page points the help's guides in the source tree at the installed ones.
            line.replace(QRegularExpression(QStringLiteral("\\bdocs/")), QStringLiteral(GPUF_INSTALL_DOCDIR "/"));
            QVERIFY2(man.contains(line), qPrintable(QStringLiteral("%1.1 lacks the help line '%2'").arg(page, line)));
            ++lines;
        }
        QVERIFY(lines >= 2);
    }

    // What a reader looks for besides the options: the whole usage under SYNOPSIS (gpuf-measure's takes two lines of
    // --help), a DESCRIPTION of more than the one-line summary, EXAMPLES, and FILES naming this build's prefix; no
    // reference to a file of the source tree, which an installed system does not have.
    void manPageSections_data()
    {
        QTest::addColumn<QString>("page");
        QTest::addColumn<QString>("program");
        QTest::newRow("gpuf") << QStringLiteral("gpuf") << QStringLiteral(GPUF_CLI_PATH);
        QTest::newRow("gpuf-explorer") << QStringLiteral("gpuf-explorer") << QStringLiteral(GPUF_EXPLORER_PATH);
        if (!QStringLiteral(GPUF_MEASURE_PATH).isEmpty())
            QTest::newRow("gpuf-measure") << QStringLiteral("gpuf-measure") << QStringLiteral(GPUF_MEASURE_PATH);
    }

    void manPageSections()
    {
        if (!GPUF_MAN_PAGES)
            QSKIP("built with GPUF_BUILD_MAN_PAGES=OFF");
        QFETCH(QString, page);
        QFETCH(QString, program);
        const QString roff = readFile(packagingBuild(QStringLiteral("man/%1.1").arg(page)));
        QVERIFY(!roff.isEmpty());
        const auto section = [&roff](const QString &name) {
            const QRegularExpression heading(
                QStringLiteral("^\\.SH \"?%1\"?$").arg(name), QRegularExpression::MultilineOption);
            const auto start = heading.match(roff);
            if (!start.hasMatch())
                return QString();
            const qsizetype next = roff.indexOf(QStringLiteral("\n.SH "), start.capturedEnd());
            return roff.mid(start.capturedEnd(), next < 0 ? -1 : next - start.capturedEnd());
        };
        // The usage as --help prints it, over however many lines it takes.
        const Run help = run(program, {QStringLiteral("--help")});
        QStringList usage;
        for (const QString &line : help.out.split(QLatin1Char('\n'))) {
            if (line.startsWith(QLatin1String("Usage:")))
                usage.append(line.mid(6));
            else if (!usage.isEmpty() && line.startsWith(QLatin1Char(' ')))
                usage.append(line);
            else if (!usage.isEmpty())
                break;
        }
        QString expected = usage.join(QLatin1Char(' ')).simplified();
        expected.replace(program, QFileInfo(program).fileName());
        QCOMPARE(manText(section(QStringLiteral("SYNOPSIS"))), expected);
        const QString description = manText(section(QStringLiteral("DESCRIPTION")));
        QVERIFY2(!description.startsWith(QLatin1Char('[')), qPrintable(description));
        QVERIFY2(description.size() > 150, qPrintable(description));
        const QString examples = manText(section(QStringLiteral("EXAMPLES")));
        QVERIFY2(examples.contains(page + QLatin1Char(' ')), qPrintable(examples));
        if (page != QLatin1String("gpuf-measure")) {
            // The paths are the .I lines of FILES, which manText leaves out with the other macro lines.
            const QString files = section(QStringLiteral("FILES"));
            QVERIFY2(files.contains(QStringLiteral(".I " GPUF_INSTALL_DATADIR "/gpuf\n")), qPrintable(files));
            QVERIFY2(files.contains(QStringLiteral(".I " GPUF_INSTALL_DOCDIR "\n")), qPrintable(files));
        }
        QVERIFY2(!manText(roff).contains(QRegularExpression(QStringLiteral("(^|[\\s(])docs/"))),
            "the page names a file of the source tree");
    }

    void manPageDocumentsEveryCommand()
    {
        if (!GPUF_MAN_PAGES)
            QSKIP("built with GPUF_BUILD_MAN_PAGES=OFF");
        const QString roff = readFile(packagingBuild(QStringLiteral("man/gpuf.1")));
        for (const QString &command : gpufCommands())
            QVERIFY2(roff.contains(QStringLiteral(".SS \"gpuf %1\"").arg(command)), qPrintable(command));
    }

    void desktopEntryValidates()
    {
        const QString tool = findTool("desktop-file-validate");
        if (tool.isEmpty())
            QSKIP("desktop-file-validate is not installed (desktop-file-utils; scripts/setup installs it)");
        const Run r = run(tool, {packagingSource(kAppId + QStringLiteral(".desktop"))});
        QVERIFY2(r.exitCode == 0 && r.out.trimmed().isEmpty(), qPrintable(r.out + r.err));
    }

    void desktopEntryNamesTheInstalledPieces()
    {
        const QString entry = readFile(packagingSource(kAppId + QStringLiteral(".desktop")));
        QVERIFY(entry.contains(QStringLiteral("\nExec=gpuf-explorer %f\n")));
        QVERIFY(entry.contains(QStringLiteral("\nIcon=") + kAppId + QLatin1Char('\n')));
        QVERIFY(entry.contains(QStringLiteral("\nMimeType=application/x-gpuf-store;application/x-gpuf-case;\n")));
    }

    void metainfoValidates()
    {
        const QString metainfo = packagingBuild(kAppId + QStringLiteral(".metainfo.xml"));
        const QString text = readFile(metainfo);
        QVERIFY(!text.isEmpty());
        QVERIFY2(!text.contains(QLatin1Char('@')), "a configure placeholder was left in the metainfo");
        // The newest release is this version.
        const auto release = QRegularExpression(QStringLiteral("<release version=\"([^\"]+)\"")).match(text);
        QVERIFY(release.hasMatch());
        QCOMPARE(release.captured(1), QStringLiteral(GPUF_VERSION_STRING));
        QVERIFY(
            text.contains(QStringLiteral("<launchable type=\"desktop-id\">") + kAppId + QStringLiteral(".desktop")));
        // A home page and screenshots only where the build was told of real ones (GPUF_HOMEPAGE_URL,
        // GPUF_SCREENSHOT_BASE_URL): software centres would show dead links.
        const QString homepage = QStringLiteral(GPUF_HOMEPAGE_URL);
        QCOMPARE(text.contains(QStringLiteral("<url type=\"homepage\">")), !homepage.isEmpty());
        QCOMPARE(text.contains(QStringLiteral("<screenshots>")), !QStringLiteral(GPUF_SCREENSHOT_BASE_URL).isEmpty());
        const QRegularExpression link(QStringLiteral("https?://[^<\"]+"));
        for (auto it = link.globalMatch(text); it.hasNext();) {
            const QString url = it.next().captured();
            QVERIFY2(url.startsWith(homepage.isEmpty() ? QStringLiteral("\x01") : homepage)
                    || (!QStringLiteral(GPUF_SCREENSHOT_BASE_URL).isEmpty()
                        && url.startsWith(QStringLiteral(GPUF_SCREENSHOT_BASE_URL))),
                qPrintable(url));
        }

        const QString tool = findTool("appstreamcli");
        if (tool.isEmpty())
            QSKIP("appstreamcli is not installed (appstream; scripts/setup installs it)");
        Run r = run(tool, {QStringLiteral("validate"), QStringLiteral("--no-net"), metainfo});
        // Without a published home page the URL is left out on purpose; AppStream 1.0 warns of that (0.16 knows no
        // such issue), so that one warning, and only it, is lowered to a note.
        if (r.exitCode != 0 && homepage.isEmpty()
            && QString(r.out + r.err).contains(QStringLiteral("url-homepage-missing")))
            r = run(tool,
                {QStringLiteral("validate"), QStringLiteral("--no-net"),
                    QStringLiteral("--override=url-homepage-missing=info"), metainfo});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    }

    void mimeTypeRecognisesStoresByContent()
    {
        // Qt reads MIME packages from XDG_DATA_DIRS; ours comes first, the system's after it.
        QTemporaryDir data;
        QVERIFY(data.isValid());
        QVERIFY(QDir().mkpath(data.filePath(QStringLiteral("mime/packages"))));
        QVERIFY(QFile::copy(
            packagingSource(QStringLiteral("mime/gpuf.xml")), data.filePath(QStringLiteral("mime/packages/gpuf.xml"))));
        const QString updater = findTool("update-mime-database");
        if (updater.isEmpty())
            QSKIP("update-mime-database is not installed (shared-mime-info; scripts/setup installs it)");
        QVERIFY(QFile::copy(QStringLiteral("/usr/share/mime/packages/freedesktop.org.xml"),
            data.filePath(QStringLiteral("mime/packages/freedesktop.org.xml"))));
        const Run compiled = run(updater, {data.filePath(QStringLiteral("mime"))});
        // (It notes on stderr that the folder is not searched by default; the test sets XDG_DATA_DIRS below.)
        QVERIFY2(compiled.exitCode == 0, qPrintable(compiled.err));
        qputenv("XDG_DATA_DIRS", data.path().toLocal8Bit());

        QTemporaryDir files;
        QVERIFY(files.isValid());
        const QString store = files.filePath(QStringLiteral("forecasts.gpuf"));
        QVERIFY(Store::open(store, Store::Mode::CreateIfMissing).ok());
        // The same store under a name that says nothing, or says "SQLite".
        QVERIFY(QFile::copy(store, files.filePath(QStringLiteral("unnamed"))));
        QVERIFY(QFile::copy(store, files.filePath(QStringLiteral("forecasts.sqlite"))));
        // An SQLite database that is not a store.
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("plain"));
            db.setDatabaseName(files.filePath(QStringLiteral("plain.sqlite")));
            QVERIFY(db.open());
            QVERIFY(QSqlQuery(db).exec(QStringLiteral("CREATE TABLE t (x)")));
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("plain"));

        const QMimeDatabase mime;
        QCOMPARE(mime.mimeTypeForFile(store).name(), QStringLiteral("application/x-gpuf-store"));
        QCOMPARE(mime.mimeTypeForFile(files.filePath(QStringLiteral("unnamed"))).name(),
            QStringLiteral("application/x-gpuf-store"));
        QCOMPARE(mime.mimeTypeForFile(files.filePath(QStringLiteral("forecasts.sqlite"))).name(),
            QStringLiteral("application/x-gpuf-store"));
        QCOMPARE(mime.mimeTypeForFile(files.filePath(QStringLiteral("unnamed")), QMimeDatabase::MatchContent).name(),
            QStringLiteral("application/x-gpuf-store"));
        QCOMPARE(
            mime.mimeTypeForFile(files.filePath(QStringLiteral("plain.sqlite")), QMimeDatabase::MatchContent).name(),
            QStringLiteral("application/vnd.sqlite3"));
        QVERIFY(mime.mimeTypeForName(QStringLiteral("application/x-gpuf-store"))
                    .inherits(QStringLiteral("application/vnd.sqlite3")));
        // A case file (one pair, JSON Lines) by its suffix; the desktop entry opens both types.
        const QString caseFile = files.filePath(QStringLiteral("mistake.gpufcase"));
        QVERIFY(QFile::copy(QStringLiteral(GPUF_SOURCE_DIR "/resources/sample/sample-bundle.jsonl"), caseFile));
        QCOMPARE(mime.mimeTypeForFile(caseFile).name(), QStringLiteral("application/x-gpuf-case"));
        QVERIFY(mime.mimeTypeForName(QStringLiteral("application/x-gpuf-case")).inherits(QStringLiteral("text/plain")));
    }

    void iconsAreRenderedAtEverySize_data()
    {
        QTest::addColumn<int>("size");
        for (int size : {16, 22, 24, 32, 48, 64, 128, 256, 512})
            QTest::addRow("%d", size) << size;
    }

    void iconsAreRenderedAtEverySize()
    {
        QFETCH(int, size);
        const QImage icon(packagingBuild(QStringLiteral("icons/%1x%1/apps/%2.png").arg(size).arg(kAppId)));
        QCOMPARE(icon.size(), QSize(size, size));
        // Transparent corners (a rounded chip), an opaque middle.
        QCOMPARE(qAlpha(icon.pixel(0, 0)), 0);
        QCOMPARE(qAlpha(icon.pixel(size / 2, size / 2)), 255);
    }

    void bashCompletesCommandsAndOptions_data()
    {
        QTest::addColumn<QStringList>("words");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("command") << QStringList {QStringLiteral("gpuf"), QStringLiteral("imp")}
                                 << QStringList {QStringLiteral("import")};
        QTest::newRow("top-level option")
            << QStringList {QStringLiteral("gpuf"), QStringLiteral("--v")} << QStringList {QStringLiteral("--version")};
        QTest::newRow("flag") << QStringList {QStringLiteral("gpuf"), QStringLiteral("stats"), QStringLiteral("--js")}
                              << QStringList {QStringLiteral("--json")};
        QTest::newRow("option with a value") << QStringList {QStringLiteral("gpuf"), QStringLiteral("corpus"),
            QStringLiteral("--res")} << QStringList {QStringLiteral("--results")};
        QTest::newRow("store argument") << QStringList {QStringLiteral("gpuf"), QStringLiteral("stats"),
            QStringLiteral("sto")} << QStringList {QStringLiteral("store.gpuf")};
    }

    void bashCompletesCommandsAndOptions()
    {
        QFETCH(QStringList, words);
        QFETCH(QStringList, expected);
        const QString bash = findTool("bash");
        if (bash.isEmpty())
            QSKIP("bash is not installed");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile(dir.filePath(QStringLiteral("store.gpuf"))).open(QIODevice::WriteOnly);
        QFile(dir.filePath(QStringLiteral("notes.txt"))).open(QIODevice::WriteOnly);
        QDir().mkpath(dir.filePath(QStringLiteral("bin")));
        QVERIFY(QFile::link(QStringLiteral(GPUF_CLI_PATH), dir.filePath(QStringLiteral("bin/gpuf"))));
        const QString script = QStringLiteral("source \"$1\"; shift; COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); "
                                              "_gpuf; printf '%s\\n' \"${COMPREPLY[@]}\"");
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PATH"),
            dir.filePath(QStringLiteral("bin")) + QLatin1Char(':') + env.value(QStringLiteral("PATH")));
        p.setProcessEnvironment(env);
        p.setWorkingDirectory(dir.path());
        p.start(bash,
            QStringList {QStringLiteral("-c"), script, QStringLiteral("bash"),
                packagingSource(QStringLiteral("completion/gpuf.bash"))}
                + words);
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        const QStringList got
            = QString::fromUtf8(p.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(got, expected);
    }

    void zshCompletionParses()
    {
        const QString zsh = findTool("zsh");
        if (zsh.isEmpty())
            QSKIP("zsh is not installed");
        const Run r = run(zsh, {QStringLiteral("-n"), packagingSource(QStringLiteral("completion/_gpuf"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }

    void explorerCopiesTheInstalledSampleStore()
    {
        const QString built = packagingBuild(QStringLiteral("sample/sample.gpuf"));
        if (!QFile::exists(built))
            QSKIP("this tree has no sample bundle");
        // An installation's shared data with the sample store made at build time.
        QTemporaryDir data;
        QVERIFY(data.isValid());
        QVERIFY(QDir().mkpath(data.filePath(QStringLiteral("sample"))));
        const QString installed = data.filePath(QStringLiteral("sample/sample.gpuf"));
        QVERIFY(QFile::copy(built, installed));
        QVERIFY(QFile::copy(built + QStringLiteral(".source"), installed + QStringLiteral(".source")));
        QFile::setPermissions(installed, QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther);
        StoreSession session;
        openSampleStoreFrom(data.path(), session, 60000);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(session.path(), sampleStorePath());
        QVERIFY(session.snapshot().statistics.totals.kernels > 0);
        // A copy of the installed file (not a fresh import), and one the user may write.
        QFile original(built);
        QVERIFY(original.open(QIODevice::ReadOnly));
        QFile copy(sampleStorePath());
        QVERIFY(copy.open(QIODevice::ReadOnly));
        QCOMPARE(QCryptographicHash::hash(copy.readAll(), QCryptographicHash::Sha256),
            QCryptographicHash::hash(original.readAll(), QCryptographicHash::Sha256));
        QVERIFY(QFileInfo(sampleStorePath()).isWritable());
    }

    // With no sample store installed (a build tree), the explorer makes one from the embedded bundle and every shipped
    // sweep, so a family search on it replays as on an installed one.
    void explorerMakesTheSampleStoreFromBundleAndSweeps()
    {
        const QString sweep = QStringLiteral(GPUF_SOURCE_DIR "/resources/sweeps/transpose-h100-2026-11-26.jsonl");
        if (!QFile::exists(sweep))
            QSKIP("the recorded transpose sweep is not in resources/sweeps");
        QTemporaryDir data;
        QVERIFY(data.isValid());
        QVERIFY(QDir().mkpath(data.filePath(QStringLiteral("sweeps"))));
        QVERIFY(QFile::copy(sweep, data.filePath(QStringLiteral("sweeps/transpose-h100-2026-11-26.jsonl"))));
        StoreSession session;
        openSampleStoreFrom(data.path(), session, 120000);
        if (QTest::currentTestFailed())
            return;
        const StoreStatistics &statistics = session.snapshot().statistics;
        // The bundle's forecasts, and the sweep's 216 transpose configurations with their 434 cases measured on the
        // H100 (more than the bundle's own transpose kernels and measurements).
        QCOMPARE(statistics.totals.forecasts, 4976);
        const auto transpose = std::find_if(statistics.perProblem.cbegin(), statistics.perProblem.cend(),
            [](const NamedCounts &c) { return c.name == QStringLiteral("transpose"); });
        QVERIFY(transpose != statistics.perProblem.cend());
        QVERIFY2(transpose->kernels >= 216, qPrintable(QString::number(transpose->kernels)));
        QVERIFY2(transpose->measurements >= 434, qPrintable(QString::number(transpose->measurements)));
    }

    void installedCatalogIsPreferred()
    {
        QTemporaryDir data;
        QVERIFY(data.isValid());
        QVERIFY(QDir().mkpath(data.filePath(QStringLiteral("translations"))));
        const QString catalog = data.filePath(QStringLiteral("translations/gpuf_de.qm"));
        QVERIFY(QFile::copy(QStringLiteral(":/i18n/gpuf_de.qm"), catalog));
        qputenv("GPUF_RESOURCE_DIR", data.path().toLocal8Bit());
        QObject owner;
        const InstalledTranslations installed = installTranslations(QLocale(QLocale::German, QLocale::Germany), &owner);
        qunsetenv("GPUF_RESOURCE_DIR");
        QCOMPARE(installed.language, QStringLiteral("de"));
        QCOMPARE(installed.appCatalog, catalog);
        QCOMPARE(QCoreApplication::translate("gpuf::explorer", "Open the bundled sample store."),
            QStringLiteral("Die mitgelieferte Beispieldatenbank öffnen."));
    }
};

QTEST_MAIN(TestPackaging)
#include "tst_packaging.moc"
