// Showing kernel-spec problems next to the fields they belong to: a spec path in words ("Launch 1, grid y"), a
// warning mark on a line edit (an icon with the message as tooltip), and the list of messages under a section.
#pragma once

#include "core/interop/kernel_spec_form.h"

class QLabel;
class QLineEdit;

namespace gpuf {

// "launches[0].grid[1]" → "Launch 1, grid y"; "buffers[2].init" → "Buffer 3, initialiser"; unknown paths as they are.
QString specFieldLabel(const QString &path);

// One line per issue: "Launch 1, grid y: 'rows/0' is not finite (case small)".
QString specIssuesText(const QList<interop::FieldIssue> &issues);

// The issues whose field starts with `prefix` (a path or a path prefix such as "launches[0].").
QList<interop::FieldIssue> issuesUnder(const QList<interop::FieldIssue> &issues, const QString &prefix);

// Marks `edit` with a warning icon whose tooltip lists `messages`, or removes the mark when there are none.
void markField(QLineEdit *edit, const QStringList &messages);

// Shows the issues' text in `label` in the palette's warning colour (hidden when there are none).
void showIssues(QLabel *label, const QList<interop::FieldIssue> &issues);

} // namespace gpuf
