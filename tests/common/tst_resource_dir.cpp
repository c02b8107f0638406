// The shared-data lookup (core/common/resource_dir.h): an installed program finds <prefix>/share/gpuf and nothing of
// its source or build tree, a program in its build tree finds the source tree's resources, a missing folder is
// reported as missing, and GPUF_RESOURCE_DIR relocates the data.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Probe
{
    bool installed = false;
    QString root;
    QMap<QString, QString> found;
    QStringList workerFolders;
};

Probe runProbe(const QString &program, const QStringList &args, const QProcessEnvironment &env)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    Probe probe;
    if (!p.waitForFinished(30000) || p.exitCode() != 0) {
        qWarning() << "probe failed:" << p.readAllStandardError();
        return probe;
    }
    const QStringList lines = QString::fromUtf8(p.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const QString &line : lines) {
        const QString value = line.section(QLatin1Char(' '), 1);
        if (line.startsWith(QLatin1String("installed ")))
            probe.installed = value == QLatin1String("1");
        else if (line.startsWith(QLatin1String("root ")))
            probe.root = value;
        else if (line.startsWith(QLatin1String("find ")))
            probe.found.insert(value.section(QLatin1Char(' '), 0, 0), value.section(QLatin1Char(' '), 1));
        else if (line.startsWith(QLatin1String("worker-folder ")))
            probe.workerFolders.append(value);
    }
    return probe;
}

QProcessEnvironment cleanEnvironment()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("GPUF_RESOURCE_DIR"));
    return env;
}

// Copies the probe into PREFIX/bin (a copy, since the lookup follows the executable's real path).
QString installProbe(const QString &prefix)
{
    QDir().mkpath(prefix + QStringLiteral("/bin"));
    const QString copy = prefix + QStringLiteral("/bin/resource_dir_probe");
    if (!QFile::copy(QStringLiteral(GPUF_PROBE_PATH), copy))
        return {};
    QFile::setPermissions(copy, QFile::permissions(QStringLiteral(GPUF_PROBE_PATH)));
    return copy;
}

} // namespace

class TestResourceDir : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void buildTreeUsesSourceResources()
    {
        const Probe p = runProbe(
            QStringLiteral(GPUF_PROBE_PATH), {QStringLiteral("corpus"), QStringLiteral("absent")}, cleanEnvironment());
        QVERIFY(!p.installed);
        QCOMPARE(QDir(p.root).canonicalPath(), QDir(QStringLiteral(GPUF_SOURCE_DIR "/resources")).canonicalPath());
        QCOMPARE(p.found.value(QStringLiteral("corpus")), p.root + QStringLiteral("/corpus"));
        QVERIFY(p.found.value(QStringLiteral("absent")).isEmpty());
        // A program run from its build tree finds the worker built beside it.
        QVERIFY(p.workerFolders.contains(QStringLiteral(GPUF_BINARY_DIR "/app/measure")));
    }

    void installedProgramUsesItsPrefixOnly()
    {
        QTemporaryDir prefix;
        QVERIFY(prefix.isValid());
        QVERIFY(QDir().mkpath(prefix.filePath(QStringLiteral("share/gpuf/corpus"))));
        const QString probe = installProbe(prefix.path());
        QVERIFY(!probe.isEmpty());

        const Probe p = runProbe(
            probe, {QStringLiteral("corpus"), QStringLiteral("python"), QStringLiteral("models")}, cleanEnvironment());
        QVERIFY(p.installed);
        QCOMPARE(p.root, prefix.filePath(QStringLiteral("share/gpuf")));
        QCOMPARE(p.found.value(QStringLiteral("corpus")), prefix.filePath(QStringLiteral("share/gpuf/corpus")));
        // Folders this installation lacks are missing, never taken from the source tree.
        QVERIFY(p.found.value(QStringLiteral("python")).isEmpty());
        QVERIFY(p.found.value(QStringLiteral("models")).isEmpty());
        // The worker is looked for beside the program (then on PATH), never in the build tree.
        QCOMPARE(p.workerFolders, QStringList {prefix.filePath(QStringLiteral("bin"))});
    }

    void programWithoutSharedDataIsNotInstalled()
    {
        QTemporaryDir prefix;
        QVERIFY(prefix.isValid());
        const QString probe = installProbe(prefix.path());
        QVERIFY(!probe.isEmpty());
        const Probe p = runProbe(probe, {}, cleanEnvironment());
        QVERIFY(!p.installed);
        QCOMPARE(QDir(p.root).canonicalPath(), QDir(QStringLiteral(GPUF_SOURCE_DIR "/resources")).canonicalPath());
    }

    void environmentRelocatesTheData()
    {
        QTemporaryDir data;
        QVERIFY(data.isValid());
        QVERIFY(QDir().mkpath(data.filePath(QStringLiteral("python"))));
        QProcessEnvironment env = cleanEnvironment();
        env.insert(QStringLiteral("GPUF_RESOURCE_DIR"), data.path());
        const Probe p
            = runProbe(QStringLiteral(GPUF_PROBE_PATH), {QStringLiteral("python"), QStringLiteral("corpus")}, env);
        QCOMPARE(p.root, data.path());
        QCOMPARE(p.found.value(QStringLiteral("python")), data.filePath(QStringLiteral("python")));
        QVERIFY(p.found.value(QStringLiteral("corpus")).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestResourceDir)
#include "tst_resource_dir.moc"
