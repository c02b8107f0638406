// Unified patch export (---/+++/@@) of a line diff, in the form patch -p0 and git apply accept.
#pragma once

#include "core/diff/line_diff.h"

#include <QString>
#include <QStringView>

namespace gpuf::diff {

// The patch turning the left text into the right one, with '\n' line endings and "\ No newline at end of file"
// where a side's last line has no terminator. Rows that are Equal only because whitespace was ignored are written
// as changes, so applying the patch always reproduces the right text. Empty when the texts are identical or the
// diff was cancelled.
QString unifiedPatch(const DiffResult &diff, QStringView leftLabel, QStringView rightLabel, int contextLines = 3);

} // namespace gpuf::diff
