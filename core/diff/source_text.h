// Turning source bytes into comparable text: encoding fallback, line endings and line splitting for the diff.
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringView>

#include <vector>

namespace gpuf::diff {

enum class SourceEncoding : quint8 { Utf8, Latin1 };

// The line terminator a text uses; Mixed when more than one kind occurs, None when there is no terminator.
enum class LineEnding : quint8 { None, Lf, CrLf, Cr, Mixed };

struct DecodedSource
{
    QString text; // line endings normalised to '\n'
    SourceEncoding encoding = SourceEncoding::Utf8;
    LineEnding lineEnding = LineEnding::None; // as found in the bytes, before normalisation
    bool hadByteOrderMark = false;
};

// Decodes as UTF-8, or as Latin-1 when the bytes are not valid UTF-8 (Latin-1 never fails, so nothing is lost).
DecodedSource decodeSource(const QByteArray &bytes);

// Lines of a text as views into it (the text must outlive them), accepting "\r\n", "\r" and "\n" as terminators.
struct SplitText
{
    std::vector<QStringView> lines;
    LineEnding lineEnding = LineEnding::None;
    // False when the last line has no terminator; an empty text counts as ending with one (nothing is missing).
    bool endsWithNewline = true;
};

SplitText splitLines(QStringView text);

// "LF", "CRLF", "CR", "mixed" or "none": for labels such as "line endings differ (CRLF → LF)".
QString lineEndingName(LineEnding ending);

} // namespace gpuf::diff
