// Forecast annotations in the diff view: the pure mapping from a cost-model explanation to line marks (direction,
// strongest item, sentences), the choice of the pair's newest forecast, and, offscreen on a real store with the
// corpus imported and a forecast made by the real cost-model backend, marks on exactly the lines the explanation
// names (side, colour, tooltip, overview), the toggle, swapped sides, folds, pairs without a forecast, another
// forecaster chosen in Settings, and the light and dark palettes (screenshots saved when GPUF_SCREENSHOT_DIR is set).
#include "core/forecasters/costmodel/costmodel_backend.h"
#include "core/interop/corpus.h"
#include "core/session/forecast_annotations.h"
#include "core/session/kernel_pair_loader.h"
#include "core/session/selection.h"
#include "core/session/settings.h"
#include "core/session/store_session.h"
#include "core/store/forecast_repo.h"
#include "core/store/hardware_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"
#include "widgets/common/color_scheme.h"
#include "widgets/diff/diff_overview_bar.h"
#include "widgets/diff/diff_pane.h"
#include "widgets/diff/diff_view.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QHelpEvent>
#include <QJsonDocument>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStyle>
#include <QStyleFactory>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <map>

using namespace gpuf;
using namespace Qt::StringLiterals;

namespace {

QString numberedLines(int count, const QHash<int, QString> &replaced = {})
{
    QStringList lines;
    for (int i = 1; i <= count; ++i)
        lines.append(replaced.value(i, u"line %1"_s.arg(i)));
    return lines.join(u'\n') + u'\n';
}

ExplanationItem item(const QString &text, double contribution, const QList<features::LineSpan> &reference,
    const QList<features::LineSpan> &candidate, ExplanationItem::Kind kind = ExplanationItem::Kind::Kernel)
{
    ExplanationItem i;
    i.kind = kind;
    i.feature = u"access_bytes"_s;
    i.text = text;
    i.contribution = contribution;
    i.referenceLines = reference;
    i.candidateLines = candidate;
    return i;
}

// "line:push:sentences" per annotation, push F or S: a compact form for tables.
QString describe(const QList<LineAnnotation> &annotations)
{
    QStringList parts;
    for (const LineAnnotation &a : annotations)
        parts.append(u"%1:%2:%3"_s.arg(a.line).arg(a.push == Push::Faster ? u"F"_s : u"S"_s).arg(a.texts.size()));
    return parts.join(u' ');
}

LineAnnotation annotation(int line, Push push, const QString &text) { return LineAnnotation {line, push, 1.0, {text}}; }

// What the explanation names, recomputed here: per line of one side, the items that name it.
std::map<int, QList<ExplanationItem>> namedLines(const Explanation &e, bool reference)
{
    std::map<int, QList<ExplanationItem>> lines;
    for (const ExplanationItem &i : e.items) {
        if (i.kind != ExplanationItem::Kind::Kernel)
            continue;
        for (const features::LineSpan &s : reference ? i.referenceLines : i.candidateLines)
            for (int line = s.first; line <= s.last; ++line)
                lines[line].append(i);
    }
    return lines;
}

QTextBlock blockOfLine(const DiffPane *pane, int line)
{
    for (QTextBlock b = pane->document()->begin(); b.isValid(); b = b.next()) {
        if (pane->lineOfBlock(b.blockNumber()) == line)
            return b;
    }
    return {};
}

QColor viewportPixel(DiffPane *pane, const QTextBlock &block, int x)
{
    const QRectF rect = pane->blockViewportRect(block);
    return pane->viewport()->grab().toImage().pixelColor(x, qRound(rect.center().y()));
}

// The gutter sits left of the viewport, inside the pane's frame, and scrolls with it.
QColor gutterPixel(DiffPane *pane, const QTextBlock &block, int x)
{
    const QRectF rect = pane->blockViewportRect(block);
    const QPoint at = pane->contentsRect().topLeft() + QPoint(x, qRound(rect.center().y()));
    return pane->grab().toImage().pixelColor(at);
}

// Saves a widget as GPUF_SCREENSHOT_DIR/<name>.png when that variable is set (true when not set).
bool saveShot(QWidget *widget, const QString &name)
{
    const QString folder = qEnvironmentVariable("GPUF_SCREENSHOT_DIR");
    if (folder.isEmpty())
        return true;
    // A label whose text just changed (the hunk counter) gets its room in the toolbar with the next layout pass.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    return QDir().mkpath(folder) && widget->grab().save(folder + u'/' + name + u".png"_s);
}

// The diff view wired to a store as the explorer wires it.
struct Rig
{
    Settings settings;
    StoreSession session;
    Selection selection;
    KernelPairLoader loader {&session, &selection, &settings};
    DiffView view {nullptr};

    explicit Rig(const QString &path)
    {
        QObject::connect(&loader, &KernelPairLoader::pairLoaded, &view, &DiffView::setPair);
        QObject::connect(&loader, &KernelPairLoader::annotationsLoaded, &view, &DiffView::setForecastAnnotations);
        QObject::connect(&loader, &KernelPairLoader::cleared, &view, &DiffView::clear);
        view.resize(1280, 720);
        view.show();
        session.open(path);
    }

    // Selects a pair and waits until its diff is shown and its annotations (if any) are read.
    bool show(RowId candidate, RowId baseline, const QString &candidateSource, bool annotated)
    {
        if (!QTest::qWaitForWindowExposed(&view) || !QTest::qWaitFor([this] { return session.isOpen(); }, 10000))
            return false;
        QSignalSpy annotations(&loader, &KernelPairLoader::annotationsLoaded);
        selection.setPair(candidate, baseline);
        return QTest::qWaitFor(
            [&] {
                return !annotations.isEmpty() && view.document() && !view.isBusy()
                    && view.document()->request.right.source == candidateSource
                    && view.forecastAnnotationsShown() == annotated;
            },
            10000);
    }
};

} // namespace

class TestDiffAnnotations : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    QPalette m_lightPalette;
    RowId m_reference = 0;
    RowId m_explained = 0; // axpy v2_float4: its pair with the reference has a cost-model forecast
    RowId m_unexplained = 0; // axpy v1_grid_stride: no forecast
    RowId m_llmOnly = 0; // axpy v3_float4_unroll: only an LLM's forecast
    RowId m_broken = 0; // axpy v5_block32: a cost-model forecast whose response is no explanation
    RowId m_later = 0; // axpy v6_fp64_math: forecast while the diff shows it
    QHash<RowId, QString> m_sources;
    Explanation m_explanation;

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void pushFollowsBinDirection_data();
    void pushFollowsBinDirection();
    void linesFromExplanation_data();
    void linesFromExplanation();
    void newestForecastChosen();
    void loadFromStore();
    void annotationsOnExplainedLines();
    void toggleHidesAnnotations();
    void swappedSidesKeepLines();
    void foldCarriesHiddenMarks();
    void otherPairNotMarked();
    void pairWithoutForecast();
    void forecasterFromSettings();
    void newForecastAfterRefresh();
    void paletteAndScreenshots();
};

void TestDiffAnnotations::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(u"gpuf-tests"_s);
    QCoreApplication::setApplicationName(u"tst_diff_annotations"_s);
    QSettings().clear();
    QApplication::setStyle(QStyleFactory::create(u"Fusion"_s));
    m_lightPalette = QApplication::style()->standardPalette();
    QApplication::setPalette(m_lightPalette);
    QVERIFY(m_dir.isValid());
    m_path = m_dir.filePath(u"annotations.gpuf"_s);
    auto store = Store::open(m_path);
    QVERIFY2(store.ok(), qPrintable(store.error()));
    auto imported = interop::importCorpus(**store, QStringLiteral(GPUF_SOURCE_DIR "/resources/corpus"));
    QVERIFY2(imported.ok(), qPrintable(imported.error()));
    auto problem = ProblemRepo(**store).findByName(u"axpy"_s);
    QVERIFY(problem.ok() && problem->has_value());
    m_reference = (*problem)->referenceKernelId;
    auto kernels = KernelRepo(**store).list((*problem)->id);
    QVERIFY(kernels.ok());
    QHash<QString, Kernel> byName;
    for (const Kernel &k : *kernels) {
        byName.insert(k.name, k);
        m_sources.insert(k.id, k.source);
    }
    QCOMPARE(byName.value(u"v0_naive"_s).id, m_reference);
    m_explained = byName.value(u"v2_float4"_s).id;
    m_unexplained = byName.value(u"v1_grid_stride"_s).id;
    m_llmOnly = byName.value(u"v3_float4_unroll"_s).id;
    m_broken = byName.value(u"v5_block32"_s).id;
    m_later = byName.value(u"v6_fp64_math"_s).id;
    QVERIFY(m_explained && m_unexplained && m_llmOnly && m_broken && m_later);

    // The real backend answers inside start(); the engine would store what it emits, so the test does.
    auto backend = CostModelBackend::create(**store);
    QVERIFY2(backend.ok(), qPrintable(backend.error()));
    Hardware h100 = *hardwarePreset(u"H100"_s);
    QVERIFY(HardwareRepo(**store).ensure(h100).ok());
    QSignalSpy finished(backend->get(), &ForecastBackend::finished);
    quint64 requestId = 0;
    for (const RowId candidate : {m_explained, m_broken}) {
        ForecastRequest request;
        request.id = ++requestId;
        request.reference = byName.value(u"v0_naive"_s);
        request.candidate = **KernelRepo(**store).find(candidate);
        request.operation = u"axpy"_s;
        request.hardware = h100;
        (*backend)->start(request);
        QCOMPARE(finished.size(), int(requestId));
        Forecast f = finished.last().at(1).value<Forecast>();
        QCOMPARE(f.status, ForecastStatus::Ok);
        if (candidate == m_broken) {
            QVERIFY(ForecastRepo(**store).insert(f).ok()); // a good one first: only the newest counts
            f.id = 0;
            f.cacheKey += u":broken"_s;
            f.response = u"{\"format\": \"gpuf-costmodel-explanation/1\", \"predicted_bin\": 12}"_s;
        }
        auto id = ForecastRepo(**store).insert(f);
        QVERIFY2(id.ok(), qPrintable(id.error()));
        if (candidate == m_explained) {
            auto e = parseExplanation(f.response);
            QVERIFY2(e.ok(), qPrintable(e.error()));
            m_explanation = *e;
        }
    }
    // The explanation names lines on both sides, else the side tests below would test nothing.
    QVERIFY(!namedLines(m_explanation, true).empty());
    QVERIFY(!namedLines(m_explanation, false).empty());

    Forecaster llm;
    llm.name = u"some-llm"_s;
    llm.kind = ForecasterKind::Llm;
    QVERIFY(ForecasterRepo(**store).ensure(llm).ok());
    for (const RowId candidate : {m_llmOnly, m_explained}) {
        Forecast f;
        f.referenceKernelId = m_reference;
        f.candidateKernelId = candidate;
        f.forecasterId = llm.id;
        f.probabilities = {0, 0, 0, 0.2, 0.6, 0.2, 0, 0};
        f.predictedBin = 5;
        // An LLM could answer with anything, even text that reads as an explanation: it is still not the cost model.
        f.response = QString::fromUtf8(QJsonDocument(m_explanation.toJson()).toJson());
        f.cacheKey = u"llm:%1"_s.arg(candidate);
        QVERIFY(ForecastRepo(**store).insert(f).ok());
    }
}

void TestDiffAnnotations::cleanup()
{
    QApplication::setPalette(m_lightPalette);
    QSettings().clear();
}

void TestDiffAnnotations::pushFollowsBinDirection_data()
{
    QTest::addColumn<double>("contribution");
    QTest::addColumn<int>("predictedBin");
    QTest::addColumn<bool>("faster");
    QTest::newRow("toward a speedup") << 0.8 << 6 << true;
    QTest::newRow("against a speedup") << -0.3 << 6 << false;
    QTest::newRow("toward a slowdown") << 0.5 << 2 << false;
    QTest::newRow("against a slowdown") << -0.5 << 2 << true;
    QTest::newRow("toward a slight speedup (bin 4)") << 0.1 << 4 << true;
    QTest::newRow("against a slight slowdown (bin 3)") << -0.1 << 3 << true;
}

void TestDiffAnnotations::pushFollowsBinDirection()
{
    QFETCH(double, contribution);
    QFETCH(int, predictedBin);
    QFETCH(bool, faster);
    QCOMPARE(pushOf(contribution, predictedBin) == Push::Faster, faster);
}

void TestDiffAnnotations::linesFromExplanation_data()
{
    using K = ExplanationItem::Kind;
    QTest::addColumn<QList<ExplanationItem>>("items");
    QTest::addColumn<int>("predictedBin");
    QTest::addColumn<QString>("reference");
    QTest::addColumn<QString>("candidate");
    QTest::addColumn<QStringList>("candidateTexts"); // of the candidate's first annotated line
    QTest::newRow("one item, spans on both sides")
        << QList<ExplanationItem> {item(u"wide"_s, 0.8, {{3, 3}}, {{3, 4}})} << 6 << u"3:F:1"_s << u"3:F:1 4:F:1"_s
        << QStringList {u"wide (pushes toward faster)"_s};
    QTest::newRow("the strongest item on a line decides, whatever the order")
        << QList<ExplanationItem> {item(u"weak"_s, 0.3, {}, {{2, 2}}), item(u"strong"_s, -0.6, {}, {{2, 3}})} << 6
        << QString() << u"2:S:2 3:S:1"_s
        << QStringList {u"strong (pushes toward slower)"_s, u"weak (pushes toward faster)"_s};
    QTest::newRow("a slowdown bin turns the colour")
        << QList<ExplanationItem> {item(u"strided"_s, 0.9, {}, {{7, 7}})} << 2 << QString() << u"7:S:1"_s
        << QStringList {u"strided (pushes toward slower)"_s};
    QTest::newRow("hardware items name no lines")
        << QList<ExplanationItem> {item(u"gpu"_s, 0.5, {{1, 1}}, {{1, 1}}, K::Hardware)} << 6 << QString() << QString()
        << QStringList {};
    QTest::newRow("a huge foreign span is clipped")
        << QList<ExplanationItem> {item(u"all"_s, 0.5, {}, {{10, 2'000'000'000}})} << 6 << QString() << u"2000 lines"_s
        << QStringList {u"all (pushes toward faster)"_s};
}

void TestDiffAnnotations::linesFromExplanation()
{
    QFETCH(QList<ExplanationItem>, items);
    QFETCH(int, predictedBin);
    QFETCH(QString, reference);
    QFETCH(QString, candidate);
    QFETCH(QStringList, candidateTexts);
    Explanation e;
    e.predictedBin = predictedBin;
    e.items = items;
    const ForecastAnnotations a = annotationsFromExplanation(e);
    QCOMPARE(a.predictedBin, predictedBin);
    QCOMPARE(describe(a.reference), reference);
    if (candidate.endsWith(u" lines"_s))
        QCOMPARE(a.candidate.size(), candidate.section(u' ', 0, 0).toInt());
    else
        QCOMPARE(describe(a.candidate), candidate);
    QCOMPARE(a.candidate.isEmpty() ? QStringList {} : a.candidate.first().texts, candidateTexts);
}

void TestDiffAnnotations::newestForecastChosen()
{
    const auto forecast = [](RowId id, RowId forecaster, RowId reference, RowId candidate) {
        Forecast f;
        f.id = id;
        f.forecasterId = forecaster;
        f.referenceKernelId = reference;
        f.candidateKernelId = candidate;
        return f;
    };
    // Forecaster 1 for the pair (10 → 20): ids 3 and 7; others differ in forecaster, reference or candidate.
    const QList<Forecast> list {forecast(3, 1, 10, 20), forecast(9, 2, 10, 20), forecast(7, 1, 10, 20),
        forecast(8, 1, 11, 20), forecast(12, 1, 10, 21)};
    QCOMPARE(newestForecastOf(list, 1, 10, 20)->id, RowId(7));
    QCOMPARE(newestForecastOf(list, 2, 10, 20)->id, RowId(9));
    QVERIFY(!newestForecastOf(list, 3, 10, 20));
    QVERIFY(!newestForecastOf({}, 1, 10, 20));
}

void TestDiffAnnotations::loadFromStore()
{
    auto store = Store::open(m_path, Store::Mode::ExistingOnly);
    QVERIFY(store.ok());
    auto explained = loadForecastAnnotations(**store, m_explained, m_reference, u"costmodel"_s);
    QVERIFY2(explained.ok(), qPrintable(explained.error()));
    QCOMPARE(explained->referenceSource, m_sources.value(m_reference));
    QCOMPARE(explained->candidateSource, m_sources.value(m_explained));
    QCOMPARE(explained->reference.size(), qsizetype(namedLines(m_explanation, true).size()));
    QCOMPARE(explained->candidate.size(), qsizetype(namedLines(m_explanation, false).size()));
    QVERIFY(explained->forecastId > 0);
    // The other direction of the pair was never forecast.
    auto reversed = loadForecastAnnotations(**store, m_reference, m_explained, u"costmodel"_s);
    QVERIFY(reversed.ok() && reversed->isEmpty());
    // No forecast, an LLM's forecast, a broken newest response, an unknown forecaster: nothing, and no error.
    for (const auto &[candidate, forecaster] : {std::pair {m_unexplained, u"costmodel"_s},
             std::pair {m_llmOnly, u"costmodel"_s}, std::pair {m_explained, u"some-llm"_s},
             std::pair {m_broken, u"costmodel"_s}, std::pair {m_explained, u"nobody"_s}}) {
        auto none = loadForecastAnnotations(**store, candidate, m_reference, forecaster);
        QVERIFY2(none.ok(), qPrintable(none.error()));
        QVERIFY2(none->isEmpty(), qPrintable(u"%1 / %2"_s.arg(candidate).arg(forecaster)));
    }
}

void TestDiffAnnotations::annotationsOnExplainedLines()
{
    Rig rig(m_path);
    QVERIFY(rig.show(m_explained, m_reference, m_sources.value(m_explained), true));
    QCOMPARE(rig.view.annotatedReferenceSide(), PaneSide::Left);
    QVERIFY(rig.view.showAnnotationsAction()->isEnabled());
    QVERIFY(rig.view.showAnnotationsAction()->isChecked());
    for (DiffPane *pane : {rig.view.leftPane(), rig.view.rightPane()}) {
        const auto named = namedLines(m_explanation, pane == rig.view.leftPane());
        QList<int> expectedLines;
        for (const auto &[line, items] : named)
            expectedLines.append(line);
        QList<int> lines;
        for (const LineAnnotation &a : pane->lineAnnotations())
            lines.append(a.line);
        QCOMPARE(lines, expectedLines);
        for (const auto &[line, items] : named) {
            const ExplanationItem *strongest = &items.first();
            for (const ExplanationItem &i : items)
                strongest = std::abs(i.contribution) > std::abs(strongest->contribution) ? &i : strongest;
            const LineAnnotation *a = pane->annotationOfLine(line);
            QVERIFY(a);
            QCOMPARE(a->push, pushOf(strongest->contribution, m_explanation.predictedBin));
            const QTextBlock block = blockOfLine(pane, line);
            QVERIFY(block.isValid());
            const QString tip = pane->blockToolTip(block);
            for (const ExplanationItem &i : items) {
                QVERIFY2(tip.contains(i.text), qPrintable(tip));
                QVERIFY(!i.text.isEmpty());
            }
            QVERIFY2(tip.contains(a->push == Push::Faster ? u"(pushes toward faster)"_s : u"(pushes toward slower)"_s),
                qPrintable(tip));
        }
        // Lines the explanation does not name carry no tooltip.
        for (QTextBlock b = pane->document()->begin(); b.isValid(); b = b.next()) {
            const int line = pane->lineOfBlock(b.blockNumber());
            if (line > 0 && !named.count(line))
                QVERIFY(pane->blockToolTip(b).isEmpty());
        }
    }
    // The overview marks each annotated row on its pane's edge.
    int marks = 0;
    for (const OverviewAnnotation &mark : rig.view.overviewBar()->annotations()) {
        const diff::DiffRow &row = rig.view.document()->diff.rows.at(mark.row);
        DiffPane *pane = mark.side == PaneSide::Left ? rig.view.leftPane() : rig.view.rightPane();
        const LineAnnotation *a = pane->annotationOfLine(mark.side == PaneSide::Left ? row.leftLine : row.rightLine);
        QVERIFY(a);
        QCOMPARE(mark.push, a->push);
        ++marks;
    }
    QCOMPARE(marks, rig.view.leftPane()->lineAnnotations().size() + rig.view.rightPane()->lineAnnotations().size());

    // Painted: the candidate's first annotated line, scrolled into view, has the stripe and the gutter marker in the
    // direction's colour, and a real tooltip event shows its sentences.
    DiffPane *right = rig.view.rightPane();
    const LineAnnotation first = right->lineAnnotations().first();
    const QTextBlock block = blockOfLine(right, first.line);
    rig.view.goToRow(rig.view.document()->rowOfBlock(block.blockNumber()));
    QVERIFY(block.isVisible());
    const QColor marker
        = first.push == Push::Faster ? rig.view.colors().annotationFaster : rig.view.colors().annotationSlower;
    QCOMPARE(viewportPixel(right, block, 1).rgb(), marker.rgb());
    QCOMPARE(gutterPixel(right, block, 2).rgb(), marker.rgb());
    const QPoint at(right->viewport()->width() / 2, qRound(right->blockViewportRect(block).center().y()));
    QHelpEvent help(QEvent::ToolTip, at, right->viewport()->mapToGlobal(at));
    QApplication::sendEvent(right->viewport(), &help);
    QTRY_VERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().contains(first.texts.first().toHtmlEscaped()), qPrintable(QToolTip::text()));
    QToolTip::hideText();
}

void TestDiffAnnotations::toggleHidesAnnotations()
{
    Rig rig(m_path);
    QVERIFY(rig.show(m_explained, m_reference, m_sources.value(m_explained), true));
    DiffPane *right = rig.view.rightPane();
    const LineAnnotation first = right->lineAnnotations().first();
    const QTextBlock block = blockOfLine(right, first.line);
    rig.view.goToRow(rig.view.document()->rowOfBlock(block.blockNumber()));
    const QColor annotated = viewportPixel(right, block, right->viewport()->width() - 4);

    rig.view.showAnnotationsAction()->trigger();
    QVERIFY(!rig.view.forecastAnnotationsShown());
    QVERIFY(rig.view.leftPane()->lineAnnotations().isEmpty());
    QVERIFY(right->lineAnnotations().isEmpty());
    QVERIFY(rig.view.overviewBar()->annotations().isEmpty());
    QVERIFY(right->blockToolTip(block).isEmpty());
    const QColor plain = viewportPixel(right, block, right->viewport()->width() - 4);
    QVERIFY(plain != annotated); // the band's tint is gone
    QVERIFY(viewportPixel(right, block, 1).rgb() != rig.view.colors().annotationFaster.rgb());
    QVERIFY(viewportPixel(right, block, 1).rgb() != rig.view.colors().annotationSlower.rgb());
    // Still off for the next pair shown, and on again with one click.
    QVERIFY(rig.show(m_broken, m_reference, m_sources.value(m_broken), false));
    QVERIFY(rig.show(m_explained, m_reference, m_sources.value(m_explained), false));
    QVERIFY(right->lineAnnotations().isEmpty());
    rig.view.showAnnotationsAction()->trigger();
    QVERIFY(rig.view.forecastAnnotationsShown());
    QCOMPARE(right->lineAnnotations().first(), first);
    const QTextBlock again = blockOfLine(right, first.line); // the pair's document was built anew
    rig.view.goToRow(rig.view.document()->rowOfBlock(again.blockNumber()));
    QCOMPARE(viewportPixel(right, again, right->viewport()->width() - 4), annotated);
}

void TestDiffAnnotations::swappedSidesKeepLines()
{
    Rig rig(m_path);
    QVERIFY(rig.show(m_explained, m_reference, m_sources.value(m_explained), true));
    const QList<LineAnnotation> reference = rig.view.leftPane()->lineAnnotations();
    const QList<LineAnnotation> candidate = rig.view.rightPane()->lineAnnotations();
    QSignalSpy ready(&rig.view, &DiffView::documentReady);
    rig.view.swapSidesAction()->trigger();
    QTRY_COMPARE(ready.count(), 1);
    QCOMPARE(rig.view.annotatedReferenceSide(), PaneSide::Right);
    QCOMPARE(rig.view.leftPane()->lineAnnotations(), candidate);
    QCOMPARE(rig.view.rightPane()->lineAnnotations(), reference);
    // Each mark sits on the line of the source it names: the left pane now shows the candidate's text.
    for (const LineAnnotation &a : candidate) {
        const QTextBlock block = blockOfLine(rig.view.leftPane(), a.line);
        QCOMPARE(block.text(), m_sources.value(m_explained).split(u'\n').at(a.line - 1));
        QCOMPARE(rig.view.leftPane()->blockToolTip(block), a.texts.join(u'\n'));
    }
    for (const OverviewAnnotation &mark : rig.view.overviewBar()->annotations()) {
        const diff::DiffRow &row = rig.view.document()->diff.rows.at(mark.row);
        const QList<LineAnnotation> &side = mark.side == PaneSide::Left ? candidate : reference;
        const int line = mark.side == PaneSide::Left ? row.leftLine : row.rightLine;
        QVERIFY(std::any_of(side.cbegin(), side.cend(), [line](const LineAnnotation &a) { return a.line == line; }));
    }
    rig.view.swapSidesAction()->trigger();
    QTRY_COMPARE(ready.count(), 2);
    QCOMPARE(rig.view.annotatedReferenceSide(), PaneSide::Left);
    QCOMPARE(rig.view.leftPane()->lineAnnotations(), reference);
}

void TestDiffAnnotations::foldCarriesHiddenMarks()
{
    DiffView view(nullptr);
    view.resize(900, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const QString left = numberedLines(40);
    const QString right = numberedLines(40, {{20, u"line twenty"_s}});
    ForecastAnnotations annotations;
    annotations.referenceSource = left;
    annotations.candidateSource = right;
    annotations.reference = {annotation(5, Push::Slower, u"five"_s), annotation(20, Push::Faster, u"twenty"_s)};
    annotations.candidate = {annotation(20, Push::Faster, u"twenty"_s), annotation(35, Push::Faster, u"thirty"_s)};
    view.setForecastAnnotations(annotations); // before the document: kept until it is shown
    QSignalSpy ready(&view, &DiffView::documentReady);
    view.setPair(DiffSide {u"ref"_s, u"cuda"_s, left}, DiffSide {u"cand"_s, u"cuda"_s, right});
    QTRY_COMPARE(ready.count(), 1);
    QVERIFY(view.forecastAnnotationsShown());
    const auto document = view.document();
    QCOMPARE(document->diff.folds.size(), 2);
    DiffPane *pane = view.leftPane();
    // Line 5 is hidden in the first fold: the fold's band carries its mark and its sentence.
    QCOMPARE(describe(pane->annotationsInFold(0)), u"5:S:1"_s);
    QVERIFY(pane->annotationsInFold(1).isEmpty());
    QCOMPARE(describe(view.rightPane()->annotationsInFold(1)), u"35:F:1"_s);
    const QTextBlock band = pane->document()->findBlockByNumber(document->foldBlocks.at(0));
    QVERIFY(band.isVisible());
    QCOMPARE(pane->blockToolTip(band), u"Forecast annotations on hidden lines (click to show them):\nline 5: five"_s);
    QCOMPARE(gutterPixel(pane, band, 2).rgb(), view.colors().annotationSlower.rgb());
    QCOMPARE(viewportPixel(pane, band, 1).rgb(), view.colors().annotationSlower.rgb());
    // The other fold hides nothing annotated on this side: no mark on its band.
    const QTextBlock plainBand = pane->document()->findBlockByNumber(document->foldBlocks.at(1));
    QVERIFY(pane->blockToolTip(plainBand).isEmpty());
    QVERIFY(saveShot(&view, u"diff_annotations_folds_light"_s));
    QApplication::setPalette(darkPalette());
    QTRY_VERIFY(view.colors().dark);
    QCOMPARE(gutterPixel(pane, band, 2).rgb(), view.colors().annotationSlower.rgb());
    QVERIFY(saveShot(&view, u"diff_annotations_folds_dark"_s));
    QApplication::setPalette(m_lightPalette);
    QTRY_VERIFY(!view.colors().dark);
    // Opening the fold shows the line itself with its mark.
    QTest::mouseClick(pane->viewport(), Qt::LeftButton, {}, pane->blockViewportRect(band).center().toPoint());
    QVERIFY(pane->isFoldExpanded(0));
    const QTextBlock line5 = blockOfLine(pane, 5);
    QVERIFY(line5.isVisible());
    QCOMPARE(pane->blockToolTip(line5), u"five"_s);
    view.goToRow(document->rowOfBlock(line5.blockNumber()));
    QCOMPARE(viewportPixel(pane, line5, 1).rgb(), view.colors().annotationSlower.rgb());
    // Overview: one tick per annotated row, on its pane's edge (rows are lines here: nothing inserted).
    QList<OverviewAnnotation> expected {{4, PaneSide::Left, Push::Slower}, {19, PaneSide::Left, Push::Faster},
        {19, PaneSide::Right, Push::Faster}, {34, PaneSide::Right, Push::Faster}};
    QCOMPARE(view.overviewBar()->annotations(), expected);
}

void TestDiffAnnotations::otherPairNotMarked()
{
    DiffView view(nullptr);
    ForecastAnnotations annotations;
    annotations.referenceSource = numberedLines(10);
    annotations.candidateSource = numberedLines(10, {{3, u"three"_s}});
    annotations.candidate = {annotation(3, Push::Faster, u"three"_s)};
    view.setForecastAnnotations(annotations);
    QSignalSpy ready(&view, &DiffView::documentReady);
    view.setPair(DiffSide {u"a"_s, u"cuda"_s, numberedLines(10)}, DiffSide {u"b"_s, u"cuda"_s, numberedLines(12)});
    QTRY_COMPARE(ready.count(), 1);
    QVERIFY(!view.annotatedReferenceSide());
    QVERIFY(!view.forecastAnnotationsShown());
    QVERIFY(!view.showAnnotationsAction()->isEnabled());
    QVERIFY(view.rightPane()->lineAnnotations().isEmpty());
    // The pair they were made for, shown later, gets them.
    view.setPair(DiffSide {u"a"_s, u"cuda"_s, annotations.referenceSource},
        DiffSide {u"b"_s, u"cuda"_s, annotations.candidateSource});
    QTRY_COMPARE(ready.count(), 2);
    QVERIFY(view.forecastAnnotationsShown());
    QCOMPARE(describe(view.rightPane()->lineAnnotations()), u"3:F:1"_s);
    view.clear();
    QVERIFY(view.forecastAnnotations().isEmpty());
    QVERIFY(!view.showAnnotationsAction()->isEnabled());
}

void TestDiffAnnotations::pairWithoutForecast()
{
    Rig rig(m_path);
    QVERIFY(rig.show(m_explained, m_reference, m_sources.value(m_explained), true));
    for (const RowId candidate : {m_unexplained, m_llmOnly, m_broken}) {
        QVERIFY(rig.show(candidate, m_reference, m_sources.value(candidate), false));
        QVERIFY(rig.view.forecastAnnotations().isEmpty());
        QVERIFY(rig.view.leftPane()->lineAnnotations().isEmpty());
        QVERIFY(rig.view.rightPane()->lineAnnotations().isEmpty());
        QVERIFY(rig.view.overviewBar()->annotations().isEmpty());
        QVERIFY(!rig.view.showAnnotationsAction()->isEnabled());
    }
}

void TestDiffAnnotations::forecasterFromSettings()
{
    Rig rig(m_path);
    QCOMPARE(rig.loader.forecasterName(), u"costmodel"_s);
    QVERIFY(rig.show(m_explained, m_reference, m_sources.value(m_explained), true));
    // The pair has an LLM forecast too; choosing that forecaster takes the marks away, choosing back brings them.
    rig.settings.setForecasterName(u"some-llm"_s);
    QTRY_VERIFY(!rig.view.forecastAnnotationsShown());
    QVERIFY(rig.view.rightPane()->lineAnnotations().isEmpty());
    rig.settings.setForecasterName(u"costmodel"_s);
    QTRY_VERIFY(rig.view.forecastAnnotationsShown());
    QCOMPARE(rig.view.rightPane()->lineAnnotations().size(), qsizetype(namedLines(m_explanation, false).size()));
}

void TestDiffAnnotations::newForecastAfterRefresh()
{
    Rig rig(m_path);
    QVERIFY(rig.show(m_later, m_reference, m_sources.value(m_later), false));
    {
        // What the forecast engine does for "Forecast Selected", then the refresh that follows every batch.
        auto store = Store::open(m_path, Store::Mode::ExistingOnly);
        QVERIFY(store.ok());
        auto backend = CostModelBackend::create(**store);
        QVERIFY2(backend.ok(), qPrintable(backend.error()));
        QSignalSpy finished(backend->get(), &ForecastBackend::finished);
        ForecastRequest request;
        request.id = 1;
        request.reference = **KernelRepo(**store).find(m_reference);
        request.candidate = **KernelRepo(**store).find(m_later);
        request.operation = u"axpy"_s;
        (*backend)->start(request);
        QCOMPARE(finished.size(), 1);
        Forecast f = finished.first().at(1).value<Forecast>();
        QVERIFY(ForecastRepo(**store).insert(f).ok());
        auto e = parseExplanation(f.response);
        QVERIFY(e.ok());
        QVERIFY(!namedLines(*e, false).empty());
    }
    QVERIFY(!rig.view.forecastAnnotationsShown());
    rig.session.refresh();
    QTRY_VERIFY(rig.view.forecastAnnotationsShown());
    QVERIFY(!rig.view.rightPane()->lineAnnotations().isEmpty());
}

void TestDiffAnnotations::paletteAndScreenshots()
{
    Rig rig(m_path);
    QVERIFY(QTest::qWaitForWindowExposed(&rig.view));
    QVERIFY(rig.show(m_explained, m_reference, m_sources.value(m_explained), true));
    DiffPane *right = rig.view.rightPane();
    // The candidate's most decisive line: the one a reader would hover first.
    const QList<LineAnnotation> marked = right->lineAnnotations();
    const LineAnnotation first = *std::max_element(marked.cbegin(), marked.cend(),
        [](const LineAnnotation &a, const LineAnnotation &b) { return a.strength < b.strength; });
    const QTextBlock block = blockOfLine(right, first.line);
    rig.view.goToRow(rig.view.document()->rowOfBlock(block.blockNumber()));
    const DiffColors light = rig.view.colors();
    const auto marker = [&first](const DiffColors &c) {
        return first.push == Push::Faster ? c.annotationFaster : c.annotationSlower;
    };
    QCOMPARE(viewportPixel(right, block, 1).rgb(), marker(light).rgb());
    const auto save = [&](const QString &suffix) {
        if (qEnvironmentVariableIsEmpty("GPUF_SCREENSHOT_DIR"))
            return true;
        if (!saveShot(&rig.view, u"diff_annotations_"_s + suffix))
            return false;
        // The tooltip of the annotated line, as a user hovering it sees it.
        const QPoint at(right->viewport()->width() / 3, qRound(right->blockViewportRect(block).center().y()));
        QHelpEvent help(QEvent::ToolTip, at, right->viewport()->mapToGlobal(at));
        QApplication::sendEvent(right->viewport(), &help);
        if (!QTest::qWaitFor([] { return QToolTip::isVisible(); }, 2000))
            return false;
        bool saved = false;
        for (QWidget *w : QApplication::topLevelWidgets()) {
            if (w->isVisible() && w->inherits("QTipLabel"))
                saved = saveShot(w, u"diff_annotations_tooltip_"_s + suffix);
        }
        QToolTip::hideText();
        return saved;
    };
    QVERIFY(save(u"light"_s));

    QApplication::setPalette(darkPalette());
    QTRY_VERIFY(rig.view.colors().dark);
    QVERIFY(marker(rig.view.colors()) != marker(light));
    QCOMPARE(right->colors(), rig.view.colors());
    QCOMPARE(viewportPixel(right, block, 1).rgb(), marker(rig.view.colors()).rgb());
    QCOMPARE(gutterPixel(right, block, 2).rgb(), marker(rig.view.colors()).rgb());
    QVERIFY(save(u"dark"_s));

    QApplication::setPalette(m_lightPalette);
    QTRY_VERIFY(!rig.view.colors().dark);
    QCOMPARE(viewportPixel(right, block, 1).rgb(), marker(light).rgb());
}

QTEST_MAIN(TestDiffAnnotations)
#include "tst_diff_annotations.moc"
