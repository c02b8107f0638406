// Offscreen tests of the side-by-side diff view: aligned panes, token highlights, folds, hunk navigation, whitespace,
// swapping, patch export, palette colours, copying, the overview bar and "latest request wins".
#include "core/common/background_pool.h"
#include "core/diff/unified_patch.h"
#include "widgets/common/color_scheme.h"
#include "widgets/diff/diff_overview_bar.h"
#include "widgets/diff/diff_pane.h"
#include "widgets/diff/diff_view.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStyle>
#include <QStyleFactory>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QThreadPool>

#include <numeric>

using namespace gpuf;
using namespace Qt::StringLiterals;

namespace {

QString joinLines(const QStringList &lines) { return lines.join(QLatin1Char('\n')) + QLatin1Char('\n'); }

// "line 1" … "line n", with some lines replaced.
QString numberedLines(int count, const QHash<int, QString> &replaced = {})
{
    QStringList lines;
    for (int i = 1; i <= count; ++i)
        lines.append(replaced.value(i, QStringLiteral("line %1").arg(i)));
    return joinLines(lines);
}

DiffSide side(const QString &title, const QString &source) { return DiffSide {title, QStringLiteral("cuda"), source}; }

QStringList blockTexts(const DiffPane *pane)
{
    QStringList texts;
    for (QTextBlock block = pane->document()->begin(); block.isValid(); block = block.next())
        texts.append(block.text());
    return texts;
}

QStringList gutterLabels(const DiffPane *pane)
{
    QStringList labels;
    for (QTextBlock block = pane->document()->begin(); block.isValid(); block = block.next())
        labels.append(pane->gutterLabel(block));
    return labels;
}

QString rangesWithBackground(const QTextBlock &block, const QColor &color)
{
    QStringList ranges;
    for (const QTextLayout::FormatRange &range : block.layout()->formats()) {
        if (range.format.background().color() == color)
            ranges.append(QStringLiteral("%1:%2").arg(range.start).arg(range.length));
    }
    return ranges.join(QLatin1Char(' '));
}

} // namespace

class TestDiffView : public QObject
{
    Q_OBJECT

    QPalette m_lightPalette;

    // Sets a pair and waits until its document is shown.
    static bool showPair(DiffView &view, const DiffSide &left, const DiffSide &right)
    {
        QSignalSpy ready(&view, &DiffView::documentReady);
        view.setPair(left, right);
        return ready.wait(5000) || ready.count() > 0;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        m_lightPalette = QApplication::style()->standardPalette();
        QApplication::setPalette(m_lightPalette);
    }

    void cleanup() { QApplication::setPalette(m_lightPalette); }

    void panesAlignRows_data()
    {
        QTest::addColumn<QString>("left");
        QTest::addColumn<QString>("right");
        QTest::addColumn<QStringList>("leftBlocks");
        QTest::addColumn<QStringList>("rightBlocks");
        QTest::addColumn<QStringList>("leftLines");
        QTest::addColumn<QStringList>("rightLines");
        const QString empty;
        QTest::newRow("insertion") << joinLines({u"a"_s, u"b"_s, u"c"_s}) << joinLines({u"a"_s, u"b"_s, u"x"_s, u"c"_s})
                                   << QStringList {u"a"_s, u"b"_s, empty, u"c"_s}
                                   << QStringList {u"a"_s, u"b"_s, u"x"_s, u"c"_s}
                                   << QStringList {u"1"_s, u"2"_s, empty, u"3"_s}
                                   << QStringList {u"1"_s, u"2"_s, u"3"_s, u"4"_s};
        QTest::newRow("deletion") << joinLines({u"a"_s, u"b"_s, u"c"_s}) << joinLines({u"a"_s, u"c"_s})
                                  << QStringList {u"a"_s, u"b"_s, u"c"_s} << QStringList {u"a"_s, empty, u"c"_s}
                                  << QStringList {u"1"_s, u"2"_s, u"3"_s} << QStringList {u"1"_s, empty, u"2"_s};
        QTest::newRow("change") << joinLines({u"a"_s, u"int n = 1;"_s, u"c"_s})
                                << joinLines({u"a"_s, u"int n = 2;"_s, u"c"_s})
                                << QStringList {u"a"_s, u"int n = 1;"_s, u"c"_s}
                                << QStringList {u"a"_s, u"int n = 2;"_s, u"c"_s} << QStringList {u"1"_s, u"2"_s, u"3"_s}
                                << QStringList {u"1"_s, u"2"_s, u"3"_s};
        QTest::newRow("change and insertion")
            << joinLines({u"a"_s, u"b"_s, u"z"_s}) << joinLines({u"a"_s, u"B"_s, u"C"_s, u"z"_s})
            << QStringList {u"a"_s, u"b"_s, empty, u"z"_s} << QStringList {u"a"_s, u"B"_s, u"C"_s, u"z"_s}
            << QStringList {u"1"_s, u"2"_s, empty, u"3"_s} << QStringList {u"1"_s, u"2"_s, u"3"_s, u"4"_s};
    }

    void panesAlignRows()
    {
        QFETCH(QString, left);
        QFETCH(QString, right);
        QFETCH(QStringList, leftBlocks);
        QFETCH(QStringList, rightBlocks);
        QFETCH(QStringList, leftLines);
        QFETCH(QStringList, rightLines);
        DiffView view(nullptr);
        QVERIFY(showPair(view, side(u"left"_s, left), side(u"right"_s, right)));
        QCOMPARE(blockTexts(view.leftPane()), leftBlocks);
        QCOMPARE(blockTexts(view.rightPane()), rightBlocks);
        QCOMPARE(gutterLabels(view.leftPane()), leftLines);
        QCOMPARE(gutterLabels(view.rightPane()), rightLines);
    }

    void tokenHighlightsOnChangedLine_data()
    {
        QTest::addColumn<QString>("leftLine");
        QTest::addColumn<QString>("rightLine");
        QTest::addColumn<QString>("leftRanges");
        QTest::addColumn<QString>("rightRanges");
        QTest::newRow("constant") << u"int n = 1024;"_s << u"int n = 2048;"_s << u"8:4"_s << u"8:4"_s;
        QTest::newRow("operator") << u"x = a * b;"_s << u"x = a + b;"_s << u"6:1"_s << u"6:1"_s;
        QTest::newRow("callee") << u"y = foo(a);"_s << u"y = barbaz(a);"_s << u"4:3"_s << u"4:6"_s;
        QTest::newRow("rewritten line gets no speckles")
            << u"// load the tile"_s << u"int k = tid % 8;"_s << QString() << QString();
    }

    void tokenHighlightsOnChangedLine()
    {
        QFETCH(QString, leftLine);
        QFETCH(QString, rightLine);
        QFETCH(QString, leftRanges);
        QFETCH(QString, rightRanges);
        DiffView view(nullptr);
        QVERIFY(showPair(view, side(u"l"_s, joinLines({u"{"_s, leftLine, u"}"_s})),
            side(u"r"_s, joinLines({u"{"_s, rightLine, u"}"_s}))));
        const QTextBlock leftBlock = view.leftPane()->document()->findBlockByNumber(1);
        const QTextBlock rightBlock = view.rightPane()->document()->findBlockByNumber(1);
        QCOMPARE(leftBlock.text(), leftLine);
        QCOMPARE(rangesWithBackground(leftBlock, view.colors().removedToken), leftRanges);
        QCOMPARE(rangesWithBackground(rightBlock, view.colors().addedToken), rightRanges);
        // Unchanged lines get no token highlight.
        QVERIFY(view.rightPane()->document()->findBlockByNumber(0).layout()->formats().isEmpty());
    }

    void foldExpandsOnClick()
    {
        DiffView view(nullptr);
        view.resize(900, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(showPair(
            view, side(u"l"_s, numberedLines(30)), side(u"r"_s, numberedLines(30, {{15, u"line fifteen"_s}}))));
        const auto document = view.document();
        QCOMPARE(document->diff.folds.size(), 2);
        const int band = document->foldBlocks.at(0);
        const diff::Fold fold = document->diff.folds.at(0);
        QCOMPARE(fold.firstRow, 0);
        QCOMPARE(fold.rowCount, 11); // lines 1-11; 12-14 stay as context above the change at 15
        for (DiffPane *pane : {view.leftPane(), view.rightPane()}) {
            QVERIFY(pane->document()->findBlockByNumber(band).isVisible());
            QVERIFY(!pane->document()->findBlockByNumber(document->rowBlocks.at(0)).isVisible());
            QVERIFY(!pane->isFoldExpanded(0));
        }
        const QRectF rect = view.rightPane()->blockViewportRect(view.rightPane()->document()->findBlockByNumber(band));
        QVERIFY(!rect.isEmpty());
        QTest::mouseClick(view.rightPane()->viewport(), Qt::LeftButton, {}, rect.center().toPoint());
        for (DiffPane *pane : {view.leftPane(), view.rightPane()}) {
            QVERIFY(pane->isFoldExpanded(0));
            QVERIFY(!pane->document()->findBlockByNumber(band).isVisible());
            for (int row = 0; row < fold.rowCount; ++row)
                QVERIFY(pane->document()->findBlockByNumber(document->rowBlocks.at(row)).isVisible());
            QVERIFY(!pane->isFoldExpanded(1));
        }
        QCOMPARE(view.leftPane()->verticalScrollBar()->maximum(), view.rightPane()->verticalScrollBar()->maximum());
    }

    void foldsHideAtLeastTwoLines_data()
    {
        QTest::addColumn<QList<int>>("changedLines"); // of a 20-line file, with 3 lines of context
        QTest::addColumn<QList<int>>("foldSizes");
        QTest::newRow("one gap of one line") << QList<int> {5, 13} << QList<int> {4};
        QTest::newRow("gaps of two lines") << QList<int> {6, 15} << QList<int> {2, 2, 2};
        QTest::newRow("one change in the middle") << QList<int> {10} << QList<int> {6, 7};
    }

    void foldsHideAtLeastTwoLines()
    {
        QFETCH(QList<int>, changedLines);
        QFETCH(QList<int>, foldSizes);
        QHash<int, QString> replaced;
        for (int line : changedLines)
            replaced.insert(line, u"changed"_s);
        DiffView view(nullptr);
        QVERIFY(showPair(view, side(u"l"_s, numberedLines(20)), side(u"r"_s, numberedLines(20, replaced))));
        QList<int> sizes;
        for (const diff::Fold &fold : view.document()->diff.folds)
            sizes.append(fold.rowCount);
        QCOMPARE(sizes, foldSizes);
        // Every row that no fold hides is a visible block of its own.
        int hidden = 0;
        for (QTextBlock block = view.rightPane()->document()->begin(); block.isValid(); block = block.next())
            hidden += block.isVisible() ? 0 : 1;
        QCOMPARE(hidden, std::accumulate(foldSizes.cbegin(), foldSizes.cend(), 0));
    }

    void panesScrollTogether()
    {
        DiffView view(nullptr);
        view.resize(900, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setContextLines(1000); // nothing folded: a long document to scroll
        QVERIFY(showPair(view, side(u"l"_s, numberedLines(200)),
            side(u"r"_s, numberedLines(200, {{50, u"changed"_s}, {120, u"changed too"_s}}))));
        QVERIFY(view.rightPane()->verticalScrollBar()->maximum() > 40);
        view.rightPane()->verticalScrollBar()->setValue(40);
        QCOMPARE(view.leftPane()->verticalScrollBar()->value(), 40);
        QCOMPARE(view.leftPane()->firstShownBlock().blockNumber(), view.rightPane()->firstShownBlock().blockNumber());
        view.leftPane()->verticalScrollBar()->setValue(7);
        QCOMPARE(view.rightPane()->verticalScrollBar()->value(), 7);
    }

    void hunkNavigation_data()
    {
        QTest::addColumn<QStringList>("keys"); // one QKeySequence string per press
        QTest::addColumn<QList<int>>("rightLines"); // the right pane's line at the cursor after each press
        QTest::addColumn<QList<int>>("hunks");
        QTest::newRow("F7 forward") << QStringList {u"F7"_s, u"F7"_s, u"F7"_s, u"F7"_s} << QList<int> {5, 20, 35, 35}
                                    << QList<int> {0, 1, 2, 2};
        QTest::newRow("Alt+Down then Alt+Up")
            << QStringList {u"Alt+Down"_s, u"Alt+Down"_s, u"Alt+Up"_s} << QList<int> {5, 20, 5} << QList<int> {0, 1, 0};
        QTest::newRow("Shift+F7 from the start goes to the last change")
            << QStringList {u"Shift+F7"_s, u"Shift+F7"_s} << QList<int> {35, 20} << QList<int> {2, 1};
    }

    void hunkNavigation()
    {
        QFETCH(QStringList, keys);
        QFETCH(QList<int>, rightLines);
        QFETCH(QList<int>, hunks);
        DiffView view(nullptr);
        view.resize(900, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(showPair(view, side(u"l"_s, numberedLines(40)),
            side(u"r"_s, numberedLines(40, {{5, u"five"_s}, {20, u"twenty"_s}, {35, u"thirty-five"_s}}))));
        QCOMPARE(view.hunkCount(), 3);
        view.activateWindow();
        view.rightPane()->setFocus();
        QVERIFY(QTest::qWaitForWindowActive(&view));
        for (int i = 0; i < keys.size(); ++i) {
            const QKeyCombination key = QKeySequence::fromString(keys.at(i))[0];
            QTest::keyClick(view.rightPane(), key.key(), key.keyboardModifiers());
            const int block = view.rightPane()->textCursor().blockNumber();
            QCOMPARE(view.rightPane()->lineOfBlock(block), rightLines.at(i));
            QCOMPARE(view.leftPane()->textCursor().blockNumber(), block);
            QCOMPARE(view.currentHunk(), hunks.at(i));
            // The row is shown, not hidden in a fold.
            QVERIFY(view.rightPane()->textCursor().block().isVisible());
        }
    }

    void ignoreWhitespaceChangesHunkCount_data()
    {
        QTest::addColumn<QString>("left");
        QTest::addColumn<QString>("right");
        QTest::addColumn<int>("hunks");
        QTest::addColumn<int>("hunksIgnoringWhitespace");
        QTest::newRow("indentation only") << numberedLines(20) << numberedLines(20, {{10, u"    line 10"_s}}) << 1 << 0;
        QTest::newRow("indentation and a real change")
            << numberedLines(20) << numberedLines(20, {{3, u"line  3 "_s}, {15, u"line fifteen"_s}}) << 2 << 1;
    }

    void ignoreWhitespaceChangesHunkCount()
    {
        QFETCH(QString, left);
        QFETCH(QString, right);
        QFETCH(int, hunks);
        QFETCH(int, hunksIgnoringWhitespace);
        DiffView view(nullptr);
        QVERIFY(showPair(view, side(u"l"_s, left), side(u"r"_s, right)));
        QCOMPARE(view.hunkCount(), hunks);
        QSignalSpy ready(&view, &DiffView::documentReady);
        view.ignoreWhitespaceAction()->trigger();
        QVERIFY(view.ignoreWhitespace());
        QTRY_COMPARE(ready.count(), 1);
        QCOMPARE(view.hunkCount(), hunksIgnoringWhitespace);
        view.ignoreWhitespaceAction()->trigger();
        QTRY_COMPARE(ready.count(), 2);
        QCOMPARE(view.hunkCount(), hunks);
    }

    void swapSides()
    {
        DiffView view(nullptr);
        const DiffSide base = side(u"base.cu"_s, joinLines({u"a"_s, u"b"_s, u"c"_s}));
        const DiffSide cand = side(u"cand.cu"_s, joinLines({u"a"_s, u"c"_s, u"d"_s, u"e"_s}));
        QVERIFY(showPair(view, base, cand));
        const diff::DiffSummary before = view.document()->diff.summary;
        QCOMPARE(before.removed, 1);
        QCOMPARE(before.added, 2);
        QSignalSpy ready(&view, &DiffView::documentReady);
        QSignalSpy swapped(&view, &DiffView::sidesSwapped);
        view.swapSidesAction()->trigger();
        QTRY_COMPARE(ready.count(), 1);
        QCOMPARE(swapped.count(), 1);
        QCOMPARE(view.baseline(), cand);
        QCOMPARE(view.candidate(), base);
        QCOMPARE(view.document()->diff.summary.added, before.removed);
        QCOMPARE(view.document()->diff.summary.removed, before.added);
        QCOMPARE(blockTexts(view.leftPane()), (QStringList {u"a"_s, u""_s, u"c"_s, u"d"_s, u"e"_s}));
        QCOMPARE(blockTexts(view.rightPane()), (QStringList {u"a"_s, u"b"_s, u"c"_s, u""_s, u""_s}));
    }

    void unifiedPatchWrittenToFile_data()
    {
        QTest::addColumn<bool>("ignoreWhitespace");
        QTest::newRow("exact") << false;
        QTest::newRow("ignoring whitespace") << true;
    }

    void unifiedPatchWrittenToFile()
    {
        QFETCH(bool, ignoreWhitespace);
        const QString left = numberedLines(40, {{2, u"  line 2"_s}});
        const QString right = numberedLines(40, {{8, u"line eight"_s}, {30, u"line thirty"_s}});
        DiffView view(nullptr);
        view.setIgnoreWhitespace(ignoreWhitespace);
        QVERIFY(showPair(view, side(u"base.cu"_s, left), side(u"cand.cu"_s, right)));
        QTemporaryDir dir;
        const QString path = dir.filePath(u"out.patch"_s);
        const Status written = view.writeUnifiedPatch(path);
        QVERIFY2(written.ok(), qPrintable(written.error()));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        diff::DiffOptions options;
        options.ignoreWhitespace = ignoreWhitespace;
        const QString expected
            = diff::unifiedPatch(diff::diffTexts(left, right, options), u"base.cu"_s, u"cand.cu"_s, 3);
        QVERIFY(expected.startsWith(u"--- base.cu"_s));
        QCOMPARE(QString::fromUtf8(file.readAll()), expected);
        QCOMPARE(view.unifiedPatch(), expected);

        const Status refused = view.writeUnifiedPatch(dir.filePath(u"missing/dir/out.patch"_s));
        QVERIFY(!refused.ok());
        QVERIFY(refused.error().contains(u"missing/dir"_s));
    }

    void paletteSwitchChangesColors()
    {
        DiffView view(nullptr);
        view.resize(800, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(showPair(
            view, side(u"l"_s, joinLines({u"a"_s, u"c"_s})), side(u"r"_s, joinLines({u"a"_s, u"b"_s, u"c"_s}))));
        const DiffColors light = view.colors();
        QVERIFY(!light.dark);
        const auto pixelBesideInsertedLine = [&view]() {
            DiffPane *pane = view.rightPane();
            const QRectF rect = pane->blockViewportRect(pane->document()->findBlockByNumber(1));
            return pane->viewport()->grab().toImage().pixelColor(
                pane->viewport()->width() - 4, qRound(rect.center().y()));
        };
        QCOMPARE(pixelBesideInsertedLine().rgb(), light.addedLine.rgb());

        QApplication::setPalette(darkPalette());
        QTRY_VERIFY(view.colors().dark);
        QVERIFY(view.colors().addedLine != light.addedLine);
        QCOMPARE(view.rightPane()->colors(), view.colors());
        QCOMPARE(pixelBesideInsertedLine().rgb(), view.colors().addedLine.rgb());
        QVERIFY(view.colors().addedLine.lightness() < 100);

        QApplication::setPalette(m_lightPalette);
        QTRY_VERIFY(!view.colors().dark);
        QCOMPARE(view.colors().addedLine, light.addedLine);
    }

    void copyLeavesOutFillerRows()
    {
        DiffView view(nullptr);
        QVERIFY(showPair(
            view, side(u"l"_s, joinLines({u"a"_s, u"b"_s, u"c"_s})), side(u"r"_s, joinLines({u"a"_s, u"c"_s}))));
        view.rightPane()->selectAll();
        view.rightPane()->setFocus();
        QApplication::clipboard()->clear();
        Q_EMIT view.rightPane()->focusReceived();
        view.copyAction()->trigger();
        QCOMPARE(QApplication::clipboard()->text(), u"a\nc"_s);
        view.leftPane()->selectAll();
        view.leftPane()->copy();
        QCOMPARE(QApplication::clipboard()->text(), u"a\nb\nc"_s);
        view.copyPatchAction()->trigger();
        QCOMPARE(QApplication::clipboard()->text(), view.unifiedPatch());
    }

    void overviewClickJumpsToRow()
    {
        DiffView view(nullptr);
        view.resize(900, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(
            showPair(view, side(u"l"_s, numberedLines(200)), side(u"r"_s, numberedLines(200, {{150, u"changed"_s}}))));
        DiffOverviewBar *bar = view.overviewBar();
        const int changedRow = view.document()->diff.hunks.at(0).firstRow;
        const int target = changedRow - 40; // an unchanged row inside the fold above the change
        const int fold = view.document()->foldOfRow(target);
        QVERIFY(fold >= 0);
        const int y = bar->yOfRow(target) + 1;
        const int expected = bar->rowAt(y);
        QVERIFY(qAbs(expected - target) <= 1);
        QTest::mouseClick(bar, Qt::LeftButton, {}, QPoint(bar->width() / 2, y));
        QCOMPARE(view.currentRow(), expected);
        QVERIFY(view.rightPane()->isFoldExpanded(fold));
        const QTextBlock block = view.rightPane()->textCursor().block();
        QCOMPARE(view.rightPane()->lineOfBlock(block.blockNumber()), expected + 1);
        // Scrolled into view.
        const QRectF rect = view.rightPane()->blockViewportRect(block);
        QVERIFY(rect.top() >= 0 && rect.bottom() <= view.rightPane()->viewport()->height());
    }

    void latestRequestWins()
    {
        DiffView view(nullptr);
        QSignalSpy ready(&view, &DiffView::documentReady);
        const DiffSide first = side(u"first"_s, numberedLines(3000));
        const DiffSide second = side(u"second"_s, numberedLines(3000, {{7, u"seven"_s}}));
        view.setPair(first, second);
        view.setPair(second, first);
        QVERIFY(view.isBusy());
        QTRY_COMPARE(ready.count(), 1);
        // Let the replaced job finish and deliver its result too: it must be dropped.
        gpuf::backgroundPool()->waitForDone();
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
        QCOMPARE(ready.count(), 1);
        QCOMPARE(view.document()->request.left, second);
        QCOMPARE(view.document()->request.right, first);
        QVERIFY(!view.isBusy());
    }

    void identicalAndEmptyPairs()
    {
        DiffView view(nullptr);
        QVERIFY(showPair(view, side(u"l"_s, numberedLines(10)), side(u"r"_s, numberedLines(10))));
        QVERIFY(view.document()->diff.identical());
        QCOMPARE(view.hunkCount(), 0);
        QVERIFY(view.document()->diff.folds.isEmpty());
        QVERIFY(!view.exportPatchAction()->isEnabled());
        view.goToNextHunk();
        QCOMPARE(view.currentRow(), -1);
        QVERIFY(showPair(view, side(u"l"_s, QString()), side(u"r"_s, u"x\n"_s)));
        QCOMPARE(view.hunkCount(), 1);
        QCOMPARE(blockTexts(view.rightPane()), QStringList {u"x"_s});
        view.clear();
        QVERIFY(!view.document());
        QCOMPARE(view.leftPane()->document()->toPlainText(), QString());
    }
};

QTEST_MAIN(TestDiffView)
#include "tst_diff_view.moc"
