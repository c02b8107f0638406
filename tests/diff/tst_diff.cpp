// Tests for core/diff: decoding, line alignment, token highlights, hunks and folds, patch export, cancellation.
#include "core/diff/line_diff.h"
#include "core/diff/source_text.h"
#include "core/diff/token_diff.h"
#include "core/diff/unified_patch.h"

#include "patch_applier.h"

#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QtConcurrent/QtConcurrentRun>

using namespace gpuf::diff;
using namespace Qt::StringLiterals;

namespace {

QString kindName(RowKind kind)
{
    switch (kind) {
    case RowKind::Equal:
        return QStringLiteral("=");
    case RowKind::Changed:
        return QStringLiteral("~");
    case RowKind::Inserted:
        return QStringLiteral("+");
    case RowKind::Deleted:
        return QStringLiteral("-");
    }
    return QStringLiteral("?");
}

QString lineName(int line) { return line == DiffRow::NoLine ? QStringLiteral("_") : QString::number(line); }

// "= 1 1|~ 2 2|+ _ 3": each row's kind and left/right line numbers, so a table row can state a whole alignment.
QString signature(const DiffResult &diff)
{
    QStringList rows;
    for (const DiffRow &row : diff.rows)
        rows.append(kindName(row.kind) + u' ' + lineName(row.leftLine) + u' ' + lineName(row.rightLine));
    return rows.join(u'|');
}

QString rangesText(const QList<CharRange> &ranges)
{
    QStringList parts;
    for (const CharRange &range : ranges)
        parts.append(QString::number(range.start) + u'+' + QString::number(range.length));
    return parts.join(u',');
}

QString hunksText(const QList<Hunk> &hunks)
{
    QStringList parts;
    for (const Hunk &h : hunks)
        parts.append(QStringLiteral("r%1+%2 -%3,%4 +%5,%6")
                         .arg(h.firstRow)
                         .arg(h.rowCount)
                         .arg(h.leftFirstLine)
                         .arg(h.leftLineCount)
                         .arg(h.rightFirstLine)
                         .arg(h.rightLineCount));
    return parts.join(u'|');
}

QString foldsText(const QList<Fold> &folds)
{
    QStringList parts;
    for (const Fold &f : folds)
        parts.append(QString::number(f.firstRow) + u'+' + QString::number(f.rowCount));
    return parts.join(u',');
}

// n numbered lines "line 1\n" ... with the 1-based lines in `changed` rewritten.
QString numberedLines(int n, const QList<int> &changed = {})
{
    QString text;
    for (int i = 1; i <= n; ++i)
        text += (changed.contains(i) ? QStringLiteral("changed %1\n") : QStringLiteral("line %1\n")).arg(i);
    return text;
}

QString longLine(int numbers, int changeEvery)
{
    QString line = QStringLiteral("float w[] = {");
    for (int i = 0; i < numbers; ++i)
        line += QString::number(changeEvery > 0 && i % changeEvery == 0 ? i + 7 : i) + u"f, ";
    return line + u"};";
}

// Seeded random edits of a CUDA-like text, for the patch round trips.
QString mutated(const QString &text, quint32 seed)
{
    QRandomGenerator random(seed);
    QStringList lines = text.split(u'\n');
    for (int edit = 0; edit < 6; ++edit) {
        const int at = random.bounded(static_cast<int>(lines.size()));
        switch (random.bounded(3)) {
        case 0:
            lines.insert(at, QStringLiteral("    float extra%1 = %2;").arg(edit).arg(random.bounded(100)));
            break;
        case 1:
            lines.removeAt(at);
            break;
        default:
            lines[at] += QStringLiteral(" // tuned");
        }
    }
    return lines.join(u'\n');
}

const QString kKernel = QStringLiteral("__global__ void scale(float *out, const float *in, int n)\n"
                                       "{\n"
                                       "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                       "    if (i >= n)\n"
                                       "        return;\n"
                                       "    float v = in[i];\n"
                                       "    v = v * 2.0f;\n"
                                       "    out[i] = v;\n"
                                       "}\n"
                                       "\n"
                                       "void launch(float *out, const float *in, int n)\n"
                                       "{\n"
                                       "    scale<<<(n + 255) / 256, 256>>>(out, in, n);\n"
                                       "}\n");

} // namespace

class TestDiff : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void decodeSource_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("text");
        QTest::addColumn<SourceEncoding>("encoding");
        QTest::addColumn<LineEnding>("ending");
        QTest::addColumn<bool>("bom");
        QTest::newRow("ascii") << QByteArray("a\nb\n") << QStringLiteral("a\nb\n") << SourceEncoding::Utf8
                               << LineEnding::Lf << false;
        QTest::newRow("utf-8") << QByteArray("\xce\xbc = 1;\n") << QStringLiteral(u"\u03bc = 1;\n")
                               << SourceEncoding::Utf8 << LineEnding::Lf << false;
        QTest::newRow("latin-1") << QByteArray("// caf\xe9\n") << QStringLiteral(u"// caf\u00e9\n")
                                 << SourceEncoding::Latin1 << LineEnding::Lf << false;
        QTest::newRow("bad continuation") << QByteArray("\xc3\x28") << QStringLiteral(u"\u00c3(")
                                          << SourceEncoding::Latin1 << LineEnding::None << false;
        QTest::newRow("overlong") << QByteArray("\xc0\xaf") << QStringLiteral(u"\u00c0\u00af") << SourceEncoding::Latin1
                                  << LineEnding::None << false;
        QTest::newRow("crlf") << QByteArray("a\r\nb\r\n") << QStringLiteral("a\nb\n") << SourceEncoding::Utf8
                              << LineEnding::CrLf << false;
        QTest::newRow("cr") << QByteArray("a\rb") << QStringLiteral("a\nb") << SourceEncoding::Utf8 << LineEnding::Cr
                            << false;
        QTest::newRow("mixed") << QByteArray("a\r\nb\nc") << QStringLiteral("a\nb\nc") << SourceEncoding::Utf8
                               << LineEnding::Mixed << false;
        QTest::newRow("bom") << QByteArray("\xef\xbb\xbfx\n") << QStringLiteral("x\n") << SourceEncoding::Utf8
                             << LineEnding::Lf << true;
        QTest::newRow("empty") << QByteArray() << QString() << SourceEncoding::Utf8 << LineEnding::None << false;
    }
    void decodeSource()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, text);
        QFETCH(SourceEncoding, encoding);
        QFETCH(LineEnding, ending);
        QFETCH(bool, bom);
        const DecodedSource decoded = gpuf::diff::decodeSource(bytes);
        QCOMPARE(decoded.text, text);
        QCOMPARE(decoded.encoding, encoding);
        QCOMPARE(decoded.lineEnding, ending);
        QCOMPARE(decoded.hadByteOrderMark, bom);
    }

    void latin1AndUtf8OfTheSameTextAreIdentical()
    {
        const DecodedSource latin1 = gpuf::diff::decodeSource(QByteArray("// r\xe9sum\xe9\nint x;\n"));
        const DecodedSource utf8 = gpuf::diff::decodeSource(QByteArray("// r\xc3\xa9sum\xc3\xa9\nint x;\n"));
        QCOMPARE(latin1.encoding, SourceEncoding::Latin1);
        QCOMPARE(utf8.encoding, SourceEncoding::Utf8);
        QVERIFY(diffTexts(latin1.text, utf8.text).identical());
    }

    void splitLines_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("lines");
        QTest::addColumn<bool>("endsWithNewline");
        QTest::newRow("empty") << QString() << QStringList() << true;
        QTest::newRow("one newline") << QStringLiteral("\n") << QStringList {QString()} << true;
        QTest::newRow("no terminator") << QStringLiteral("a\nb")
                                       << QStringList {QStringLiteral("a"), QStringLiteral("b")} << false;
        QTest::newRow("crlf and cr") << QStringLiteral("a\r\n\rb\r")
                                     << QStringList {QStringLiteral("a"), QString(), QStringLiteral("b")} << true;
        QTest::newRow("blank lines") << QStringLiteral("\n\nx\n")
                                     << QStringList {QString(), QString(), QStringLiteral("x")} << true;
    }
    void splitLines()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, lines);
        QFETCH(bool, endsWithNewline);
        const SplitText split = gpuf::diff::splitLines(text);
        QStringList actual;
        for (const QStringView line : split.lines)
            actual.append(line.toString());
        QCOMPARE(actual, lines);
        QCOMPARE(split.endsWithNewline, endsWithNewline);
    }

    void lineDiff_data()
    {
        QTest::addColumn<QString>("left");
        QTest::addColumn<QString>("right");
        QTest::addColumn<bool>("ignoreWhitespace");
        QTest::addColumn<QString>("rows");
        QTest::addColumn<int>("added");
        QTest::addColumn<int>("removed");
        QTest::addColumn<int>("changed");
        const QString abc = QStringLiteral("a\nb\nc\n");
        QTest::newRow("identical") << abc << abc << false << u"= 1 1|= 2 2|= 3 3"_s << 0 << 0 << 0;
        QTest::newRow("both empty") << QString() << QString() << false << QString() << 0 << 0 << 0;
        QTest::newRow("left empty") << QString() << QStringLiteral("a\nb\n") << false << u"+ _ 1|+ _ 2"_s << 2 << 0
                                    << 0;
        QTest::newRow("right empty") << QStringLiteral("a\nb\n") << QString() << false << u"- 1 _|- 2 _"_s << 0 << 2
                                     << 0;
        QTest::newRow("insertion") << abc << QStringLiteral("a\nb\nx\nc\n") << false << u"= 1 1|= 2 2|+ _ 3|= 3 4"_s
                                   << 1 << 0 << 0;
        QTest::newRow("insertion at start")
            << abc << QStringLiteral("x\na\nb\nc\n") << false << u"+ _ 1|= 1 2|= 2 3|= 3 4"_s << 1 << 0 << 0;
        QTest::newRow("deletion") << abc << QStringLiteral("a\nc\n") << false << u"= 1 1|- 2 _|= 3 2"_s << 0 << 1 << 0;
        QTest::newRow("deletion at end") << abc << QStringLiteral("a\nb\n") << false << u"= 1 1|= 2 2|- 3 _"_s << 0 << 1
                                         << 0;
        QTest::newRow("change") << abc << QStringLiteral("a\nB\nc\n") << false << u"= 1 1|~ 2 2|= 3 3"_s << 0 << 0 << 1;
        QTest::newRow("change plus insert")
            << abc << QStringLiteral("a\nB1\nB2\nc\n") << false << u"= 1 1|~ 2 2|+ _ 3|= 3 4"_s << 1 << 0 << 1;
        QTest::newRow("change plus delete") << QStringLiteral("a\nb1\nb2\nb3\nc\n") << QStringLiteral("a\nB\nc\n")
                                            << false << u"= 1 1|~ 2 2|- 3 _|- 4 _|= 5 3"_s << 0 << 2 << 1;
        QTest::newRow("block moved") << QStringLiteral("m1\nm2\nx1\nx2\nx3\nx4\n")
                                     << QStringLiteral("x1\nx2\nx3\nx4\nm1\nm2\n") << false
                                     << u"- 1 _|- 2 _|= 3 1|= 4 2|= 5 3|= 6 4|+ _ 5|+ _ 6"_s << 2 << 2 << 0;
        QTest::newRow("whitespace kept") << QStringLiteral("int a = 1;\n") << QStringLiteral("int  a = 1;\n") << false
                                         << u"~ 1 1"_s << 0 << 0 << 1;
        QTest::newRow("whitespace ignored")
            << QStringLiteral("int a = 1;\n") << QStringLiteral("int  a = 1;\n") << true << u"= 1 1"_s << 0 << 0 << 0;
        QTest::newRow("reindent ignored") << QStringLiteral("{\n\tf();\n}\n") << QStringLiteral("{\n    f();\n}\n")
                                          << true << u"= 1 1|= 2 2|= 3 3"_s << 0 << 0 << 0;
        QTest::newRow("ignore still sees edits")
            << QStringLiteral("int a = 1;\n") << QStringLiteral("int b = 1;\n") << true << u"~ 1 1"_s << 0 << 0 << 1;
        QTest::newRow("crlf vs lf") << QStringLiteral("a\r\nb\r\n") << QStringLiteral("a\nb\n") << false
                                    << u"= 1 1|= 2 2"_s << 0 << 0 << 0;
        QTest::newRow("no final newline")
            << QStringLiteral("a\nb") << QStringLiteral("a\nb\n") << false << u"= 1 1|= 2 2"_s << 0 << 0 << 0;
        QTest::newRow("two hunks") << numberedLines(6) << numberedLines(6, {2, 5}) << false
                                   << u"= 1 1|~ 2 2|= 3 3|= 4 4|~ 5 5|= 6 6"_s << 0 << 0 << 2;
    }
    void lineDiff()
    {
        QFETCH(QString, left);
        QFETCH(QString, right);
        QFETCH(bool, ignoreWhitespace);
        QFETCH(QString, rows);
        QFETCH(int, added);
        QFETCH(int, removed);
        QFETCH(int, changed);
        DiffOptions options;
        options.ignoreWhitespace = ignoreWhitespace;
        const DiffResult diff = diffTexts(left, right, options);
        QVERIFY(!diff.cancelled);
        QCOMPARE(signature(diff), rows);
        QCOMPARE(diff.summary.added, added);
        QCOMPARE(diff.summary.removed, removed);
        QCOMPARE(diff.summary.changed, changed);
        QCOMPARE(diff.identical(), added + removed + changed == 0);
        QCOMPARE(changedLineCount(left, right, ignoreWhitespace), std::optional<int>(added + removed + changed));
        // Every line of each side appears exactly once, in order, with its own text.
        const SplitText leftLines = gpuf::diff::splitLines(left);
        const SplitText rightLines = gpuf::diff::splitLines(right);
        int nextLeft = 1;
        int nextRight = 1;
        for (const DiffRow &row : diff.rows) {
            if (row.hasLeft()) {
                QCOMPARE(row.leftLine, nextLeft++);
                QCOMPARE(row.leftText, leftLines.lines[static_cast<size_t>(row.leftLine - 1)].toString());
            }
            if (row.hasRight()) {
                QCOMPARE(row.rightLine, nextRight++);
                QCOMPARE(row.rightText, rightLines.lines[static_cast<size_t>(row.rightLine - 1)].toString());
            }
        }
        QCOMPARE(nextLeft - 1, diff.left.lineCount);
        QCOMPARE(nextRight - 1, diff.right.lineCount);
    }

    void sideInfoReportsLineEndings()
    {
        const DiffResult diff = diffTexts(QStringLiteral("a\r\nb\r\n"), QStringLiteral("a\nb"));
        QCOMPARE(diff.left.lineEnding, LineEnding::CrLf);
        QCOMPARE(diff.right.lineEnding, LineEnding::Lf);
        QVERIFY(diff.left.endsWithNewline);
        QVERIFY(!diff.right.endsWithNewline);
        QCOMPARE(lineEndingName(diff.left.lineEnding), QStringLiteral("CRLF"));
    }

    void tokenize_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("tokens");
        QTest::addColumn<QString>("kinds");
        QTest::newRow("assignment") << QStringLiteral("x+=y1;") << QStringLiteral("x|+=|y1|;")
                                    << QStringLiteral("IOIO");
        QTest::newRow("numbers") << QStringLiteral("1.5e-3f*0x1Fu+1'000") << QStringLiteral("1.5e-3f|*|0x1Fu|+|1'000")
                                 << QStringLiteral("NONON");
        QTest::newRow("cuda launch") << QStringLiteral("k<<<g, b>>>(p)") << QStringLiteral("k|<<<|g|,| |b|>>>|(|p|)")
                                     << QStringLiteral("IOIOWIOOIO");
        QTest::newRow("members") << QStringLiteral("a->b::c") << QStringLiteral("a|->|b|::|c")
                                 << QStringLiteral("IOIOI");
        QTest::newRow("python") << QStringLiteral("  y **= .5  # ok") << QStringLiteral("  |y| |**=| |.5|  |#| |ok")
                                << QStringLiteral("WIWOWNWOWI");
        QTest::newRow("string") << QStringLiteral("s = \"a b\"") << QStringLiteral("s| |=| |\"|a| |b|\"")
                                << QStringLiteral("IWOW?IWI?");
    }
    void tokenize()
    {
        QFETCH(QString, line);
        QFETCH(QString, tokens);
        QFETCH(QString, kinds);
        QStringList texts;
        QString kindLetters;
        for (const Token &token : gpuf::diff::tokenize(line)) {
            texts.append(line.mid(token.start, token.length));
            const char letters[] = {'I', 'N', 'O', 'W', '?'};
            kindLetters += QLatin1Char(letters[static_cast<int>(token.kind)]);
        }
        QCOMPARE(texts.join(u'|'), tokens);
        QCOMPARE(kindLetters, kinds);
    }

    void tokenDiff_data()
    {
        QTest::addColumn<QString>("left");
        QTest::addColumn<QString>("right");
        QTest::addColumn<bool>("ignoreWhitespace");
        QTest::addColumn<QString>("leftRanges");
        QTest::addColumn<QString>("rightRanges");
        QTest::newRow("renamed identifier") << QStringLiteral("int count = 0;") << QStringLiteral("int counter = 0;")
                                            << false << QStringLiteral("4+5") << QStringLiteral("4+7");
        QTest::newRow("operator") << QStringLiteral("a = b + c;") << QStringLiteral("a = b - c;") << false
                                  << QStringLiteral("6+1") << QStringLiteral("6+1");
        QTest::newRow("inserted argument") << QStringLiteral("foo(x, y);") << QStringLiteral("foo(x, z, y);") << false
                                           << QString() << QStringLiteral("7+3");
        QTest::newRow("number literal") << QStringLiteral("x = 1.5f;") << QStringLiteral("x = 1.25f;") << false
                                        << QStringLiteral("6+2") << QStringLiteral("6+3");
        QTest::newRow("two edits") << QStringLiteral("y = a * b + c;") << QStringLiteral("y = a / b + d;") << false
                                   << QStringLiteral("6+1,12+1") << QStringLiteral("6+1,12+1");
        QTest::newRow("joined over whitespace") << QStringLiteral("return a + b;") << QStringLiteral("return x - y;")
                                                << false << QStringLiteral("7+5") << QStringLiteral("7+5");
        QTest::newRow("whitespace shown")
            << QStringLiteral("a  b") << QStringLiteral("a b") << false << QStringLiteral("2+1") << QString();
        QTest::newRow("whitespace ignored")
            << QStringLiteral("f(a,b)") << QStringLiteral("f(a, b)") << true << QString() << QString();
        QTest::newRow("edit beside ignored whitespace") << QStringLiteral("f(a,b)") << QStringLiteral("f(a, c)") << true
                                                        << QStringLiteral("4+1") << QStringLiteral("5+1");
        QTest::newRow("all different") << QStringLiteral("abc") << QStringLiteral("xyz") << false
                                       << QStringLiteral("0+3") << QStringLiteral("0+3");
        QTest::newRow("identical") << QStringLiteral("same") << QStringLiteral("same") << false << QString()
                                   << QString();
        QTest::newRow("launch config") << QStringLiteral("k<<<g, 256>>>(p);") << QStringLiteral("k<<<g, 128, s>>>(p);")
                                       << false << QStringLiteral("7+3") << QStringLiteral("7+6");
    }
    void tokenDiff()
    {
        QFETCH(QString, left);
        QFETCH(QString, right);
        QFETCH(bool, ignoreWhitespace);
        QFETCH(QString, leftRanges);
        QFETCH(QString, rightRanges);
        TokenDiffOptions options;
        options.ignoreWhitespace = ignoreWhitespace;
        const TokenDiff diff = gpuf::diff::tokenDiff(left, right, options);
        QVERIFY(!diff.capped);
        QCOMPARE(rangesText(diff.left), leftRanges);
        QCOMPARE(rangesText(diff.right), rightRanges);
    }

    void changedRowsCarryTokenHighlights()
    {
        const DiffResult diff = diffTexts(QStringLiteral("int count = 0;\n"), QStringLiteral("int counter = 0;\n"));
        QCOMPARE(diff.rows.size(), 1);
        QCOMPARE(rangesText(diff.rows[0].leftChanges), QStringLiteral("4+5"));
        QCOMPARE(rangesText(diff.rows[0].rightChanges), QStringLiteral("4+7"));
        DiffOptions options;
        options.tokenHighlights = false;
        QVERIFY(diffTexts(QStringLiteral("a\n"), QStringLiteral("b\n"), options).rows[0].leftChanges.isEmpty());
    }

    void ignoredWhitespaceRowsKeepRealText()
    {
        DiffOptions options;
        options.ignoreWhitespace = true;
        const DiffResult diff = diffTexts(QStringLiteral("\tf(a,b);\n"), QStringLiteral("    f(a, b);\n"), options);
        QCOMPARE(diff.rows.size(), 1);
        QCOMPARE(diff.rows[0].kind, RowKind::Equal);
        QCOMPARE(diff.rows[0].leftText, QStringLiteral("\tf(a,b);"));
        QCOMPARE(diff.rows[0].rightText, QStringLiteral("    f(a, b);"));
    }

    void veryLongLines_data()
    {
        QTest::addColumn<int>("changeEvery");
        QTest::addColumn<bool>("capped");
        QTest::newRow("one edit") << 0 << false;
        QTest::newRow("scattered edits") << 20 << true;
    }
    void veryLongLines()
    {
        QFETCH(int, changeEvery);
        QFETCH(bool, capped);
        const QString left = longLine(3100, 0);
        QString right = changeEvery > 0 ? longLine(3100, changeEvery) : left;
        if (changeEvery == 0)
            right.replace(QStringLiteral(" 1500f,"), QStringLiteral(" 1501f,"));
        QVERIFY(left.size() > 20000);
        const DiffResult diff = diffTexts(left, right);
        QCOMPARE(signature(diff), QStringLiteral("~ 1 1"));
        const DiffRow &row = diff.rows[0];
        QCOMPARE(row.highlightsCapped, capped);
        QVERIFY(!row.leftChanges.isEmpty());
        QVERIFY(!row.rightChanges.isEmpty());
        if (capped) {
            // The whole differing middle: from the first difference to the last.
            QCOMPARE(row.leftChanges.size(), 1);
            QCOMPARE(row.leftChanges[0].start, left.indexOf(QStringLiteral("0f,")));
        } else {
            const QList<CharRange> expected {CharRange {static_cast<int>(left.indexOf(u"1500f")), 5}};
            QCOMPARE(row.leftChanges, expected);
        }
    }

    void hunksAndFolds_data()
    {
        QTest::addColumn<QString>("left");
        QTest::addColumn<QString>("right");
        QTest::addColumn<int>("context");
        QTest::addColumn<QString>("hunks");
        QTest::addColumn<QString>("folds");
        QTest::newRow("two changes") << numberedLines(30) << numberedLines(30, {5, 20}) << 3
                                     << u"r4+1 -5,1 +5,1|r19+1 -20,1 +20,1"_s << u"0+1,8+8,23+7"_s;
        QTest::newRow("context 0") << numberedLines(10) << numberedLines(10, {5}) << 0 << u"r4+1 -5,1 +5,1"_s
                                   << u"0+4,5+5"_s;
        QTest::newRow("gap within two contexts")
            << numberedLines(12) << numberedLines(12, {3, 9}) << 3 << u"r2+1 -3,1 +3,1|r8+1 -9,1 +9,1"_s << QString();
        QTest::newRow("identical") << numberedLines(30) << numberedLines(30) << 3 << QString() << QString();
        QTest::newRow("pure insertion") << numberedLines(3) << QStringLiteral("line 1\nnew\nline 2\nline 3\n") << 3
                                        << u"r1+1 -1,0 +2,1"_s << QString();
        QTest::newRow("deletion at start")
            << numberedLines(10) << numberedLines(10).section(u'\n', 1) << 2 << u"r0+1 -1,1 +0,0"_s << u"3+7"_s;
    }
    void hunksAndFolds()
    {
        QFETCH(QString, left);
        QFETCH(QString, right);
        QFETCH(int, context);
        QFETCH(QString, hunks);
        QFETCH(QString, folds);
        DiffOptions options;
        options.contextLines = context;
        const DiffResult diff = diffTexts(left, right, options);
        QCOMPARE(hunksText(diff.hunks), hunks);
        QCOMPARE(foldsText(diff.folds), folds);
        for (const Fold &fold : diff.folds) {
            for (int r = fold.firstRow; r < fold.firstRow + fold.rowCount; ++r)
                QCOMPARE(diff.rows[r].kind, RowKind::Equal);
        }
    }

    void hunkNavigation()
    {
        const DiffResult diff = diffTexts(numberedLines(30), numberedLines(30, {5, 20, 21}));
        QCOMPARE(diff.hunks.size(), 2);
        QCOMPARE(nextHunk(diff.hunks, -1), 0);
        QCOMPARE(nextHunk(diff.hunks, 4), 1);
        QCOMPARE(nextHunk(diff.hunks, 19), -1);
        QCOMPARE(previousHunk(diff.hunks, 29), 1);
        QCOMPARE(previousHunk(diff.hunks, 19), 0);
        QCOMPARE(previousHunk(diff.hunks, 4), -1);
        QCOMPARE(diff.hunks[1].rowCount, 2);
    }

    void unifiedPatchText()
    {
        const DiffResult diff = diffTexts(QStringLiteral("a\nb\nc\n"), QStringLiteral("a\nB\nc\nd"));
        const QString expected = QStringLiteral("--- k.cu\n+++ k.cu\n@@ -1,3 +1,4 @@\n a\n-b\n+B\n c\n+d\n"
                                                "\\ No newline at end of file\n");
        QCOMPARE(unifiedPatch(diff, u"k.cu", u"k.cu"), expected);
        QVERIFY(unifiedPatch(diffTexts(kKernel, kKernel), u"a", u"b").isEmpty());
    }

    void patchRoundTrip_data()
    {
        QTest::addColumn<QString>("left");
        QTest::addColumn<QString>("right");
        QTest::addColumn<bool>("ignoreWhitespace");
        QTest::newRow("edit") << kKernel << QString(kKernel).replace(u"2.0f"_s, u"3.0f"_s) << false;
        QTest::newRow("insert at start") << kKernel << QString(u"#include <cuda.h>\n"_s + kKernel) << false;
        QTest::newRow("delete at end") << kKernel << QString(kKernel.section(u'\n', 0, 10) + u'\n') << false;
        QTest::newRow("far apart") << numberedLines(60) << numberedLines(60, {2, 30, 59}) << false;
        QTest::newRow("left without newline") << QStringLiteral("a\nb") << QStringLiteral("a\nb\n") << false;
        QTest::newRow("right without newline") << QStringLiteral("a\nb\n") << QStringLiteral("a\nb") << false;
        QTest::newRow("both without newline") << QStringLiteral("a\nb\nc") << QStringLiteral("a\nB\nc") << false;
        QTest::newRow("append after unterminated") << QStringLiteral("a") << QStringLiteral("a\nb\n") << false;
        QTest::newRow("from empty") << QString() << kKernel << false;
        QTest::newRow("to empty") << kKernel << QString() << false;
        QTest::newRow("whitespace ignored") << kKernel << QString(kKernel).replace(u"    "_s, u"\t"_s) << true;
        for (quint32 seed = 1; seed <= 6; ++seed)
            QTest::addRow("random %u", seed) << QString(kKernel + kKernel) << mutated(kKernel + kKernel, seed) << false;
    }
    void patchRoundTrip()
    {
        QFETCH(QString, left);
        QFETCH(QString, right);
        QFETCH(bool, ignoreWhitespace);
        DiffOptions options;
        options.ignoreWhitespace = ignoreWhitespace;
        const QString patch = unifiedPatch(diffTexts(left, right, options), u"k.cu", u"k.cu");
        QVERIFY(!patch.isEmpty());
        QCOMPARE(gpuf::test::applyUnifiedPatch(left, patch), std::optional<QString>(right));
    }

    void patchAcceptedByTools_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::newRow("patch") << QStringLiteral("patch");
        QTest::newRow("git apply") << QStringLiteral("git");
    }
    void patchAcceptedByTools()
    {
        QFETCH(QString, tool);
        const QString program = QStandardPaths::findExecutable(tool);
        if (program.isEmpty())
            QSKIP("the tool is not installed; the in-test applier covers the round trip");
        const QList<std::pair<QString, QString>> pairs = {
            {kKernel, mutated(kKernel, 11)},
            {kKernel + kKernel, mutated(kKernel + kKernel, 12)},
            {QStringLiteral("a\nb"), QStringLiteral("a\nc\n")},
        };
        for (const auto &[left, right] : pairs) {
            QTemporaryDir dir;
            QVERIFY(dir.isValid());
            QFile file(dir.filePath(QStringLiteral("k.cu")));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(left.toUtf8());
            file.close();
            QFile patchFile(dir.filePath(QStringLiteral("change.patch")));
            QVERIFY(patchFile.open(QIODevice::WriteOnly));
            patchFile.write(unifiedPatch(diffTexts(left, right), u"k.cu", u"k.cu").toUtf8());
            patchFile.close();

            QProcess process;
            process.setWorkingDirectory(dir.path());
            const QStringList arguments = tool == u"git"
                ? QStringList {QStringLiteral("apply"), QStringLiteral("-p0"), patchFile.fileName()}
                : QStringList {QStringLiteral("-p0"), QStringLiteral("-s"), QStringLiteral("-i"), patchFile.fileName()};
            process.start(program, arguments);
            QVERIFY(process.waitForFinished(30000));
            QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
            QVERIFY(file.open(QIODevice::ReadOnly));
            QCOMPARE(QString::fromUtf8(file.readAll()), right);
        }
    }

    void cancelledBeforeStart()
    {
        const gpuf::CancelToken cancel = gpuf::CancelToken::create();
        cancel.cancel();
        const DiffResult diff = diffTexts(kKernel, mutated(kKernel, 3), {}, cancel);
        QVERIFY(diff.cancelled);
        QVERIFY(diff.rows.isEmpty());
        QVERIFY(!diff.identical());
        QCOMPARE(changedLineCount(kKernel, mutated(kKernel, 3), false, cancel), std::nullopt);
        QVERIFY(gpuf::diff::tokenDiff(u"a + b", u"a - b", {}, cancel).cancelled);
        QVERIFY(unifiedPatch(diff, u"a", u"b").isEmpty());
    }

    void cancelledWhileRunning()
    {
        // Lines from a tiny alphabet in random order: nothing is unique, so dtl has to do its full O(ND) work.
        QRandomGenerator random(42);
        QString left, right;
        for (int i = 0; i < 60000; ++i) {
            left += QString::number(random.bounded(6)) + u'\n';
            right += QString::number(random.bounded(6)) + u'\n';
        }
        const gpuf::CancelToken cancel = gpuf::CancelToken::create();
        QFuture<DiffResult> future = QtConcurrent::run([&] { return diffTexts(left, right, {}, cancel); });
        cancel.cancel();
        const DiffResult diff = future.result();
        QVERIFY(diff.cancelled);
        QVERIFY(diff.rows.isEmpty()); // nothing half-done is handed back
    }
};

QTEST_GUILESS_MAIN(TestDiff)
#include "tst_diff.moc"
