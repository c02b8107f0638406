// Tests of the diff view's colours and highlighting: palette-derived colours, the shipped PTX definition, syntax
// formats per language (KSyntaxHighlighting builds), the plain-text path, and the read-only source viewer.
#include "gpuf_config.h"
#include "widgets/common/color_scheme.h"
#include "widgets/diff/code_text_edit.h"
#include "widgets/diff/diff_colors.h"
#include "widgets/diff/diff_pane.h"
#include "widgets/diff/diff_view.h"
#include "widgets/diff/source_viewer.h"
#include "widgets/diff/syntax_highlighting.h"

#include <QApplication>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStyle>
#include <QStyleFactory>
#include <QTest>
#include <QTextBlock>

using namespace gpuf;
using namespace Qt::StringLiterals;

namespace {

// The format ranges of a line that cover a column and set a colour or a weight.
bool styledAt(const LineFormats &formats, int column)
{
    for (const QTextLayout::FormatRange &range : formats) {
        if (column >= range.start && column < range.start + range.length
            && (range.format.hasProperty(QTextFormat::ForegroundBrush)
                || range.format.hasProperty(QTextFormat::FontWeight)))
            return true;
    }
    return false;
}

std::vector<QStringView> viewsOf(const QStringList &lines)
{
    std::vector<QStringView> views;
    for (const QString &line : lines)
        views.emplace_back(line);
    return views;
}

} // namespace

class TestDiffSyntax : public QObject
{
    Q_OBJECT

    std::shared_ptr<const SyntaxHighlighting> m_syntax;
    QPalette m_lightPalette;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setStyle(QStyleFactory::create(u"Fusion"_s));
        m_lightPalette = QApplication::style()->standardPalette();
        QApplication::setPalette(m_lightPalette);
        m_syntax = std::make_shared<const SyntaxHighlighting>();
    }

    void cleanup() { QApplication::setPalette(m_lightPalette); }

    void colorsFollowPalette_data()
    {
        QTest::addColumn<QPalette>("palette");
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << QApplication::style()->standardPalette() << false;
        QTest::newRow("dark") << darkPalette() << true;
    }

    void colorsFollowPalette()
    {
        QFETCH(QPalette, palette);
        QFETCH(bool, dark);
        const DiffColors colors = diffColorsFor(palette);
        QCOMPARE(colors.dark, dark);
        QCOMPARE(syntaxThemeFor(palette) == SyntaxTheme::Dark, dark);
        QCOMPARE(colors.base, palette.color(QPalette::Base));
        // Tints stay close to the base lightness (readable text on them) and lean towards their hue.
        QVERIFY(qAbs(colors.addedLine.lightness() - colors.base.lightness()) < 60);
        QVERIFY(colors.addedLine.green() > colors.addedLine.red());
        QVERIFY(colors.removedLine.red() > colors.removedLine.green());
        // Token highlights are stronger than line tints.
        const auto distance = [&colors](const QColor &c) {
            return qAbs(c.red() - colors.base.red()) + qAbs(c.green() - colors.base.green())
                + qAbs(c.blue() - colors.base.blue());
        };
        QVERIFY(distance(colors.addedToken) > distance(colors.addedLine));
        QVERIFY(distance(colors.removedToken) > distance(colors.removedLine));
    }

    void ptxDefinitionIsShipped()
    {
        QFile file(u":/gpuf/syntax-addons/syntax/ptx.xml"_s);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("<language name=\"PTX\""));
        if (!SyntaxHighlighting::isAvailable())
            QSKIP("built without KSyntaxHighlighting: the definition is shipped but nothing loads it");
        QCOMPARE(m_syntax->definitionName(u"ptx"), u"PTX"_s);
    }

    void highlightsLanguages_data()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<QStringList>("lines");
        QTest::addColumn<QString>("definition");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("token"); // its first column must be styled
        QTest::newRow("cuda keyword") << u"cuda"_s
                                      << QStringList {u"__global__ void k(float *a)"_s, u"{"_s,
                                             u"    for (int i = 0; i < 4; ++i) a[i] = 0.0f;"_s, u"}"_s}
                                      << u"C++"_s << 2 << u"for"_s;
        QTest::newRow("cuda comment spanning lines")
            << u"cuda"_s << QStringList {u"/* tile"_s, u"   size */ int t = 1;"_s} << u"C++"_s << 1 << u"size"_s;
        QTest::newRow("python") << u"python"_s << QStringList {u"def f(x):"_s, u"    return x * 2"_s} << u"Python"_s
                                << 1 << u"return"_s;
        QTest::newRow("triton") << u"Triton"_s << QStringList {u"@triton.jit"_s, u"def add(x_ptr, n):"_s} << u"Python"_s
                                << 1 << u"def"_s;
        QTest::newRow("ptx opcode") << u"ptx"_s
                                    << QStringList {u".visible .entry k("_s, u")"_s, u"{"_s,
                                           u"    ld.global.f32 %f1, [%rd4];"_s, u"}"_s}
                                    << u"PTX"_s << 3 << u"ld"_s;
        QTest::newRow("ptx register") << u"ptx"_s << QStringList {u"    add.s32 %r3, %r1, %r2;"_s} << u"PTX"_s << 0
                                      << u"%r1"_s;
        QTest::newRow("ptx directive") << u"ptx"_s << QStringList {u".version 8.4"_s} << u"PTX"_s << 0 << u".version"_s;
    }

    void highlightsLanguages()
    {
        QFETCH(QString, language);
        QFETCH(QStringList, lines);
        QFETCH(QString, definition);
        QFETCH(int, line);
        QFETCH(QString, token);
        if (!SyntaxHighlighting::isAvailable())
            QSKIP("built without KSyntaxHighlighting (GPUF_HAVE_SYNTAX_HIGHLIGHTING=0)");
        QCOMPARE(m_syntax->definitionName(language), definition);
        const auto formats = m_syntax->highlightLines(language, viewsOf(lines), SyntaxTheme::Light);
        QVERIFY(formats.has_value());
        QCOMPARE(formats->size(), lines.size());
        const int column = static_cast<int>(lines.at(line).indexOf(token));
        QVERIFY(column >= 0);
        QVERIFY2(styledAt(formats->at(line), column), qPrintable(token));
    }

    void unknownLanguageIsPlain()
    {
        const QStringList lines {u"some text"_s};
        const auto formats = m_syntax->highlightLines(u"brainfuck", viewsOf(lines), SyntaxTheme::Light);
        QVERIFY(formats.has_value());
        QVERIFY(formats->isEmpty());
        QVERIFY(m_syntax->definitionName(u"brainfuck").isEmpty());
    }

    void cancelledHighlightingReturnsNothing()
    {
        if (!SyntaxHighlighting::isAvailable())
            QSKIP("built without KSyntaxHighlighting: nothing is highlighted, so nothing can be cancelled");
        const QStringList lines {u"int a;"_s, u"int b;"_s};
        const CancelToken cancel = CancelToken::create();
        cancel.cancel();
        QVERIFY(!m_syntax->highlightLines(u"cuda", viewsOf(lines), SyntaxTheme::Light, cancel).has_value());
    }

    void diffViewAppliesSyntaxFormats()
    {
        if (!SyntaxHighlighting::isAvailable())
            QSKIP("built without KSyntaxHighlighting (GPUF_HAVE_SYNTAX_HIGHLIGHTING=0)");
        DiffView view(m_syntax);
        QSignalSpy ready(&view, &DiffView::documentReady);
        const QString left = u"__global__ void k(float *a)\n{\n    a[0] = 1.0f;\n}\n"_s;
        const QString right = u"__global__ void k(float *a)\n{\n    a[0] = 2.0f;\n}\n"_s;
        view.setPair({u"l"_s, u"cuda"_s, left}, {u"r"_s, u"cuda"_s, right});
        QTRY_COMPARE(ready.count(), 1);
        QCOMPARE(view.document()->leftDefinition, u"C++"_s);
        const QTextBlock first = view.rightPane()->document()->findBlockByNumber(0);
        QVERIFY(styledAt(first.layout()->formats(), static_cast<int>(first.text().indexOf(u"void"))));
        // The changed line carries both the syntax colour of the number and the token highlight.
        const QTextBlock changed = view.rightPane()->document()->findBlockByNumber(2);
        const int number = static_cast<int>(changed.text().indexOf(u"2.0f"));
        QVERIFY(styledAt(changed.layout()->formats(), number));
        bool highlighted = false;
        for (const QTextLayout::FormatRange &range : changed.layout()->formats())
            highlighted = highlighted || range.format.background().color() == view.colors().addedToken;
        QVERIFY(highlighted);

        // A dark palette re-highlights with the dark theme.
        QApplication::setPalette(darkPalette());
        QTRY_COMPARE(ready.count(), 2);
        QVERIFY(view.document()->request.theme == SyntaxTheme::Dark);
    }

    void plainPathWithoutRepository()
    {
        DiffView view(nullptr);
        QSignalSpy ready(&view, &DiffView::documentReady);
        view.setPair({u"l"_s, u"cuda"_s, u"int a = 1;\n"_s}, {u"r"_s, u"cuda"_s, u"int a = 2;\n"_s});
        QTRY_COMPARE(ready.count(), 1);
        QVERIFY(view.document()->leftDefinition.isEmpty());
        QVERIFY(view.document()->leftSyntax.value(0).isEmpty());
        // Only the token highlight is applied.
        const QList<QTextLayout::FormatRange> formats
            = view.rightPane()->document()->findBlockByNumber(0).layout()->formats();
        QCOMPARE(formats.size(), 1);
        QCOMPARE(formats.at(0).start, 8);
    }

    void sourceViewerShowsSource_data()
    {
        QTest::addColumn<bool>("withRepository");
        QTest::newRow("repository") << true;
        QTest::newRow("plain") << false;
    }

    void sourceViewerShowsSource()
    {
        QFETCH(bool, withRepository);
        QFile file(QStringLiteral(GPUF_SOURCE_DIR "/resources/corpus/sgemm/v4_reg_block_2d.cu"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString source = QString::fromUtf8(file.readAll());
        SourceViewer viewer(withRepository ? m_syntax : nullptr);
        QSignalSpy highlighted(&viewer, &SourceViewer::highlighted);
        viewer.setSource({u"v4_reg_block_2d.cu"_s, u"cuda"_s, source});
        QVERIFY(viewer.editor()->isReadOnly());
        QCOMPARE(viewer.editor()->blockCount(), source.count(QLatin1Char('\n')));
        QCOMPARE(viewer.editor()->document()->findBlockByNumber(1).text(), u"#define BM 128"_s);
        QCOMPARE(viewer.editor()->gutterLabel(viewer.editor()->document()->findBlockByNumber(1)), u"2"_s);
        QTRY_VERIFY(viewer.isHighlighted());
        const QTextBlock define = viewer.editor()->document()->findBlockByNumber(1);
        if (!withRepository || !SyntaxHighlighting::isAvailable()) {
            QVERIFY(define.layout()->formats().isEmpty());
            if (withRepository)
                QSKIP("built without KSyntaxHighlighting: the viewer shows plain text");
            return;
        }
        QVERIFY(styledAt(define.layout()->formats(), 0));
    }
};

QTEST_MAIN(TestDiffSyntax)
#include "tst_diff_syntax.moc"
