// Decoding and line splitting for the diff engine; see source_text.h.
#include "core/diff/source_text.h"

#include <QStringDecoder>

namespace gpuf::diff {

namespace {

LineEnding combine(LineEnding seen, LineEnding next)
{
    if (seen == LineEnding::None || seen == next)
        return next;
    return LineEnding::Mixed;
}

} // namespace

DecodedSource decodeSource(const QByteArray &bytes)
{
    DecodedSource result;
    result.hadByteOrderMark = bytes.startsWith("\xEF\xBB\xBF");
    QStringDecoder utf8(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    QString text = utf8.decode(bytes);
    if (utf8.hasError()) {
        // Kernels written in old editors are often Latin-1; guessing further (CP1252, Shift-JIS) is not worth it.
        text = QString::fromLatin1(bytes);
        result.encoding = SourceEncoding::Latin1;
        result.hadByteOrderMark = false;
    }

    const SplitText split = splitLines(text);
    result.lineEnding = split.lineEnding;
    if (split.lineEnding == LineEnding::Lf || split.lineEnding == LineEnding::None) {
        result.text = std::move(text);
        return result;
    }
    result.text.reserve(text.size());
    for (const QStringView line : split.lines) {
        result.text.append(line);
        result.text.append(u'\n');
    }
    if (!split.endsWithNewline)
        result.text.chop(1);
    return result;
}

SplitText splitLines(QStringView text)
{
    SplitText result;
    result.lines.reserve(static_cast<size_t>(text.count(u'\n')) + 1);
    qsizetype start = 0;
    const qsizetype size = text.size();
    for (qsizetype i = 0; i < size; ++i) {
        const QChar c = text[i];
        if (c != u'\n' && c != u'\r')
            continue;
        result.lines.push_back(text.sliced(start, i - start));
        if (c == u'\r' && i + 1 < size && text[i + 1] == u'\n') {
            result.lineEnding = combine(result.lineEnding, LineEnding::CrLf);
            ++i;
        } else {
            result.lineEnding = combine(result.lineEnding, c == u'\r' ? LineEnding::Cr : LineEnding::Lf);
        }
        start = i + 1;
    }
    if (start < size) {
        result.lines.push_back(text.sliced(start));
        result.endsWithNewline = false;
    }
    return result;
}

QString lineEndingName(LineEnding ending)
{
    switch (ending) {
    case LineEnding::Lf:
        return QStringLiteral("LF");
    case LineEnding::CrLf:
        return QStringLiteral("CRLF");
    case LineEnding::Cr:
        return QStringLiteral("CR");
    case LineEnding::Mixed:
        return QStringLiteral("mixed");
    case LineEnding::None:
        break;
    }
    return QStringLiteral("none");
}

} // namespace gpuf::diff
