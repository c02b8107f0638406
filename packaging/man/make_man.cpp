// gpuf-make-man: writes a program's manual page from its own --help text at build time (and, for gpuf, from each
// command's --help), so the manual says exactly what the program says; tests/packaging checks that they agree.
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTextStream>
#include <QTimeZone>

#include <cstdio>

namespace {

struct Item
{
    QString term;
    QString text;
};

// One --help text cut into its parts: the usage line, the description, and titled lists ("Options:", "Commands:").
struct HelpText
{
    QString usage;
    QStringList description;
    QList<std::pair<QString, QList<Item>>> lists;
};

// Escapes text for roff: backslashes, minus signs (so options copy and paste as ASCII), and a leading dot or quote.
QString roff(QString text)
{
    text.replace(QLatin1Char('\\'), QStringLiteral("\\e"));
    text.replace(QLatin1Char('-'), QStringLiteral("\\-"));
    if (text.startsWith(QLatin1Char('.')) || text.startsWith(QLatin1Char('\'')))
        text.prepend(QStringLiteral("\\&"));
    return text;
}

HelpText parseHelp(const QString &help)
{
    static const QRegularExpression heading(QStringLiteral("^([A-Z][A-Za-z ]*):$"));
    static const QRegularExpression item(QStringLiteral("^  (\\S(?:.*?\\S)?)(?:\\s{2,}(\\S.*))?$"));
    HelpText out;
    QList<Item> *list = nullptr;
    for (const QString &line : help.split(QLatin1Char('\n'))) {
        const QString trimmed = line.trimmed();
        if (out.usage.isEmpty() && trimmed.startsWith(QLatin1String("Usage:"), Qt::CaseInsensitive)) {
            out.usage = trimmed.mid(6).trimmed();
            continue;
        }
        // A usage too long for one line goes on over indented lines, before the description starts.
        if (!out.usage.isEmpty() && out.description.isEmpty() && !list && line.startsWith(QLatin1Char(' '))
            && !trimmed.isEmpty()) {
            out.usage += QLatin1Char(' ') + trimmed;
            continue;
        }
        if (const auto m = heading.match(line); m.hasMatch()) {
            out.lists.append({m.captured(1), {}});
            list = &out.lists.last().second;
            continue;
        }
        if (trimmed.isEmpty())
            continue;
        const auto m = item.match(line);
        if (list && line.startsWith(QLatin1String("   ")) && !list->isEmpty()) {
            // A wrapped description continues on deeper-indented lines.
            Item &last = list->last();
            last.text += (last.text.isEmpty() ? QString() : QStringLiteral(" ")) + trimmed;
        } else if (list && m.hasMatch()) {
            list->append({m.captured(1), m.captured(2)});
        } else {
            out.description.append(trimmed); // before the first list, or a paragraph between lists
        }
    }
    return out;
}

// Points the help's references into the source tree ("docs/search.md") at the installed documentation.
void pointAtInstalledDocs(HelpText &help, const QString &docDir)
{
    if (docDir.isEmpty())
        return;
    static const QRegularExpression source(QStringLiteral("\\bdocs/([\\w.-]+\\.md)\\b"));
    const QString installed = docDir + QStringLiteral("/\\1");
    help.usage.replace(source, installed);
    for (QString &line : help.description)
        line.replace(source, installed);
    for (auto &[title, items] : help.lists) {
        for (Item &i : items)
            i.text.replace(source, installed);
    }
}

// The text of a file of roff given on the command line, or an error.
bool readRoff(const QString &path, QString *text)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "gpuf-make-man: cannot read %s\n", qPrintable(path));
        return false;
    }
    *text = QString::fromUtf8(file.readAll());
    return true;
}

QString runHelp(const QString &program, const QStringList &arguments, QString *error)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    // The manual is written in the untranslated language, without a display.
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
    env.insert(QStringLiteral("LANGUAGE"), QStringLiteral("en"));
    env.insert(QStringLiteral("GPUF_LANG"), QStringLiteral("en"));
    process.setProcessEnvironment(env);
    process.start(program, arguments);
    if (!process.waitForFinished(60000) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        *error = QStringLiteral("'%1 %2' failed: %3")
                     .arg(program, arguments.join(QLatin1Char(' ')),
                         QString::fromUtf8(process.readAllStandardError()) + process.errorString());
        return {};
    }
    // Qt prints the program as it was started; the manual names it.
    QString text = QString::fromUtf8(process.readAllStandardOutput());
    text.replace(program, QFileInfo(program).fileName());
    return text;
}

void writeLists(QTextStream &out, const HelpText &help, const QString &headingMacro)
{
    for (const auto &[title, items] : help.lists) {
        out << headingMacro << ' ' << roff(title.toUpper()) << '\n';
        for (const Item &i : items)
            out << ".TP\n"
                << "\\fB" << roff(i.term) << "\\fR\n"
                << roff(i.text) << '\n';
    }
}

// The page's date: SOURCE_DATE_EPOCH when set (reproducible builds), else today.
QString pageDate()
{
    bool ok = false;
    const qint64 epoch = qEnvironmentVariable("SOURCE_DATE_EPOCH").toLongLong(&ok);
    const QDate date = ok ? QDateTime::fromSecsSinceEpoch(epoch, QTimeZone::utc()).date() : QDate::currentDate();
    return date.toString(QStringLiteral("yyyy-MM-dd"));
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Writes a manual page from a program's --help text."));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("summary"), QStringLiteral("The NAME line's text."), QStringLiteral("TEXT")});
    parser.addOption({QStringLiteral("version"), QStringLiteral("The version in the footer."), QStringLiteral("V")});
    parser.addOption({QStringLiteral("commands"), QStringLiteral("Also document each command's own --help.")});
    parser.addOption({QStringLiteral("extra"), QStringLiteral("roff text appended as is."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("description"), QStringLiteral("roff text that goes on with the DESCRIPTION."),
        QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("docdir"),
        QStringLiteral("Where the documentation is installed: the help's docs/NAME.md become DIR/NAME.md."),
        QStringLiteral("DIR")});
    parser.addPositionalArgument(QStringLiteral("PROGRAM"), QStringLiteral("the built program"));
    parser.addPositionalArgument(QStringLiteral("OUTPUT"), QStringLiteral("the manual page to write"));
    parser.process(app);
    const QStringList args = parser.positionalArguments();
    if (args.size() != 2)
        parser.showHelp(2);
    const QString &program = args.at(0);
    const QString name = QFileInfo(program).fileName();

    QString error;
    const QString mainText = runHelp(program, {QStringLiteral("--help")}, &error);
    if (!error.isEmpty()) {
        std::fprintf(stderr, "gpuf-make-man: %s\n", qPrintable(error));
        return 1;
    }
    HelpText main = parseHelp(mainText);
    const QString docDir = parser.value(QStringLiteral("docdir"));
    pointAtInstalledDocs(main, docDir);
    QString more;
    if (parser.isSet(QStringLiteral("description")) && !readRoff(parser.value(QStringLiteral("description")), &more))
        return 1;

    QString page;
    QTextStream out(&page);
    out << ".\\\" Generated by gpuf-make-man from '" << name << " --help'; edit the program's help text instead.\n"
        << ".TH " << name.toUpper() << " 1 \"" << pageDate() << "\" \""
        << "gpuf " << parser.value(QStringLiteral("version")) << "\" \"GPU Forecaster Explorer\"\n"
        << ".SH NAME\n"
        << roff(name) << " \\- " << roff(parser.value(QStringLiteral("summary"))) << '\n'
        << ".SH SYNOPSIS\n"
        << roff(main.usage) << '\n'
        << ".SH DESCRIPTION\n";
    for (const QString &line : main.description)
        out << roff(line) << '\n';
    if (!more.isEmpty())
        out << ".PP\n" << more;
    writeLists(out, main, QStringLiteral(".SH"));

    if (parser.isSet(QStringLiteral("commands"))) {
        out << ".SH \"COMMAND DETAILS\"\n";
        for (const auto &[title, items] : main.lists) {
            if (title != QLatin1String("Commands"))
                continue;
            for (const Item &command : items) {
                HelpText sub = parseHelp(runHelp(program, {command.term, QStringLiteral("--help")}, &error));
                pointAtInstalledDocs(sub, docDir);
                if (!error.isEmpty()) {
                    std::fprintf(stderr, "gpuf-make-man: %s\n", qPrintable(error));
                    return 1;
                }
                out << ".SS \"" << roff(name + QLatin1Char(' ') + command.term) << "\"\n"
                    << roff(sub.usage) << '\n'
                    << ".PP\n";
                for (const QString &line : sub.description)
                    out << roff(line) << '\n';
                for (const auto &[subTitle, subItems] : sub.lists) {
                    out << ".PP\n" << roff(subTitle) << ":\n";
                    for (const Item &i : subItems)
                        out << ".TP\n"
                            << "\\fB" << roff(i.term) << "\\fR\n"
                            << roff(i.text) << '\n';
                }
            }
        }
    }
    if (parser.isSet(QStringLiteral("extra"))) {
        QString extra;
        if (!readRoff(parser.value(QStringLiteral("extra")), &extra))
            return 1;
        out << extra;
    }
    out.flush();

    QFile file(args.at(1));
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(page.toUtf8()) != page.toUtf8().size()) {
        std::fprintf(stderr, "gpuf-make-man: cannot write %s\n", qPrintable(args.at(1)));
        return 1;
    }
    return 0;
}
