// Spec problems next to their fields; see spec_fields.h.
#include "widgets/candidates/spec_fields.h"

#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QStyle>

namespace gpuf {
namespace {

QString axis(const QString &index)
{
    return index == QLatin1StringView("0") ? QStringLiteral("x")
        : index == QLatin1StringView("1")  ? QStringLiteral("y")
                                           : QStringLiteral("z");
}

} // namespace

QString specFieldLabel(const QString &path)
{
    static const QRegularExpression launchRe(QStringLiteral("^launches\\[(\\d+)\\](?:\\.(\\w+)(?:\\[(\\d+)\\])?)?"));
    static const QRegularExpression bufferRe(QStringLiteral("^buffers\\[(\\d+)\\](?:\\.(\\w+))?"));
    static const QRegularExpression caseRe(QStringLiteral("^cases\\[(\\d+)\\](?:\\.(\\w+))?"));
    const auto one = [](const QString &n) { return QString::number(n.toInt() + 1); };
    if (const auto m = launchRe.match(path); m.hasMatch()) {
        const QString field = m.captured(2);
        const QString launch = QCoreApplication::translate("gpuf::SpecFields", "Launch %1").arg(one(m.captured(1)));
        if (field == QLatin1StringView("grid") || field == QLatin1StringView("block"))
            return m.captured(3).isEmpty()
                ? QString(launch + QStringLiteral(", ") + field)
                : QString(launch + QStringLiteral(", %1 %2").arg(field, axis(m.captured(3))));
        if (field == QLatin1StringView("args"))
            return m.captured(3).isEmpty()
                ? QString(launch + QCoreApplication::translate("gpuf::SpecFields", ", arguments"))
                : QString(
                    launch + QCoreApplication::translate("gpuf::SpecFields", ", argument %1").arg(one(m.captured(3))));
        if (field == QLatin1StringView("shared_bytes"))
            return launch + QCoreApplication::translate("gpuf::SpecFields", ", dynamic shared bytes");
        if (field == QLatin1StringView("entry"))
            return launch + QCoreApplication::translate("gpuf::SpecFields", ", entry point");
        return field.isEmpty() ? launch : QString(launch + QStringLiteral(", ") + field);
    }
    if (const auto m = bufferRe.match(path); m.hasMatch()) {
        const QString field = m.captured(2);
        const QString buffer = QCoreApplication::translate("gpuf::SpecFields", "Buffer %1").arg(one(m.captured(1)));
        if (field == QLatin1StringView("init"))
            return buffer + QCoreApplication::translate("gpuf::SpecFields", ", initialiser");
        if (field == QLatin1StringView("dtype"))
            return buffer + QCoreApplication::translate("gpuf::SpecFields", ", type");
        return field.isEmpty() ? buffer : QString(buffer + QStringLiteral(", ") + field);
    }
    if (const auto m = caseRe.match(path); m.hasMatch()) {
        const QString field = m.captured(2);
        const QString c = QCoreApplication::translate("gpuf::SpecFields", "Case %1").arg(one(m.captured(1)));
        if (field == QLatin1StringView("vars"))
            return c + QCoreApplication::translate("gpuf::SpecFields", ", variables");
        return field.isEmpty() ? c : QString(c + QStringLiteral(", ") + field);
    }
    if (path == QLatin1StringView("problem.name"))
        return QCoreApplication::translate("gpuf::SpecFields", "Name");
    if (path == QLatin1StringView("source"))
        return QCoreApplication::translate("gpuf::SpecFields", "Source");
    if (path == QLatin1StringView("launches"))
        return QCoreApplication::translate("gpuf::SpecFields", "Launches");
    if (path == QLatin1StringView("buffers"))
        return QCoreApplication::translate("gpuf::SpecFields", "Buffers");
    if (path == QLatin1StringView("cases"))
        return QCoreApplication::translate("gpuf::SpecFields", "Cases");
    if (path == QLatin1StringView("bytes_moved"))
        return QCoreApplication::translate("gpuf::SpecFields", "Bytes moved");
    if (path == QLatin1StringView("flops"))
        return QCoreApplication::translate("gpuf::SpecFields", "FLOPs");
    if (path.startsWith(QLatin1StringView("tolerance.")))
        return path.mid(10);
    return path;
}

QString specIssuesText(const QList<interop::FieldIssue> &issues)
{
    QStringList lines;
    for (const interop::FieldIssue &issue : issues) {
        QString line = issue.field.isEmpty()
            ? issue.message
            : QString(specFieldLabel(issue.field) + QStringLiteral(": ") + issue.message);
        if (!issue.caseName.isEmpty())
            line += QCoreApplication::translate("gpuf::SpecFields", " (case %1)").arg(issue.caseName);
        lines.append(line);
    }
    return lines.join(u'\n');
}

QList<interop::FieldIssue> issuesUnder(const QList<interop::FieldIssue> &issues, const QString &prefix)
{
    QList<interop::FieldIssue> out;
    for (const interop::FieldIssue &issue : issues) {
        if (issue.field.startsWith(prefix))
            out.append(issue);
    }
    return out;
}

void markField(QLineEdit *edit, const QStringList &messages)
{
    const QString name = QStringLiteral("gpufFieldIssue");
    QAction *mark = nullptr;
    for (QAction *action : edit->actions()) {
        if (action->objectName() == name)
            mark = action;
    }
    if (messages.isEmpty()) {
        if (mark) {
            edit->removeAction(mark);
            delete mark;
        }
        edit->setToolTip({});
        return;
    }
    if (!mark) {
        mark = edit->addAction(edit->style()->standardIcon(QStyle::SP_MessageBoxWarning), QLineEdit::TrailingPosition);
        mark->setObjectName(name);
    }
    mark->setToolTip(messages.join(u'\n'));
    edit->setToolTip(messages.join(u'\n'));
}

void showIssues(QLabel *label, const QList<interop::FieldIssue> &issues)
{
    label->setVisible(!issues.isEmpty());
    label->setText(specIssuesText(issues));
    QPalette palette = label->palette();
    // A red picked by the window's lightness, so that it reads on light and dark schemes alike.
    const bool dark = label->palette().color(QPalette::Window).lightness() < 128;
    palette.setColor(QPalette::WindowText, dark ? QColor(0xff, 0x8a, 0x80) : QColor(0xb0, 0x20, 0x20));
    label->setPalette(palette);
}

} // namespace gpuf
