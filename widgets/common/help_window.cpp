// Help content and windows; see help_window.h.
#include "widgets/common/help_window.h"

#include "core/bins/bins.h"
#include "gpuf_config.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QTableWidget>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace gpuf {
namespace {

QString plainText(const QAction *action)
{
    QString text = action->text();
    text.remove(QRegularExpression(QStringLiteral("&(?!&)")));
    return text.replace(QStringLiteral("&&"), QStringLiteral("&"));
}

void collectShortcuts(const QMenu *menu, const QString &path, QList<ShortcutEntry> &out)
{
    const QList<QAction *> actions = menu->actions();
    for (const QAction *action : actions) {
        if (action->isSeparator())
            continue;
        if (const QMenu *sub = action->menu()) {
            collectShortcuts(sub, path + QStringLiteral(" › ") + plainText(action), out);
            continue;
        }
        QStringList keys;
        const QList<QKeySequence> shortcuts = action->shortcuts();
        for (const QKeySequence &shortcut : shortcuts)
            keys.append(shortcut.toString(QKeySequence::NativeText));
        if (!keys.isEmpty())
            out.append({path, plainText(action), keys.join(QStringLiteral(", "))});
    }
}

QString binsTable()
{
    QString rows;
    for (int b = 1; b <= bins::kBinCount; ++b)
        rows += QStringLiteral("<tr><td align=center>%1</td><td>%2</td><td>%3</td><td align=right>%4</td></tr>")
                    .arg(b)
                    .arg(bins::label(b).toHtmlEscaped(), bins::rangeText(b).toHtmlEscaped(),
                        QString::number(bins::midpoint(b), 'f', 3) + QStringLiteral("×"));
    return HelpWindow::tr("<table border=1 cellspacing=0 cellpadding=3><tr><th>bin</th><th>name</th><th>speedup</th>"
                          "<th>midpoint</th></tr>%1</table>")
        .arg(rows);
}

} // namespace

namespace {

// What a forecast is: speedup, bins, the distribution's figures and confidence.
void addForecastTerms(QList<GlossaryEntry> &entries)
{
    entries.append({
        {HelpWindow::tr("Speedup"),
            HelpWindow::tr("Reference runtime ÷ candidate runtime: above 1× the candidate is faster. Over several "
                           "cases, the geometric mean of the per-case speedups; a candidate that fails or is incorrect "
                           "on any case has no speedup (a failure, not a bin).")},
        {HelpWindow::tr("Bins"),
            HelpWindow::tr("Eight half-octave speedup bins, bin = clamp(⌊2·log₂ S⌋ + 4, 1, 8); each lower edge belongs "
                           "to its bin. The midpoint is the bin's geometric centre (bins 1 and 8: √(0.25·0.5) and "
                           "√(4·8)).<br>%1")
                .arg(binsTable())},
        {HelpWindow::tr("Predicted bin"),
            HelpWindow::tr("The bin the forecaster names as its answer (a language model's own choice, not always its "
                           "most probable bin). A combined row of several samples predicts the most probable bin of "
                           "their mean distribution.")},
        {HelpWindow::tr("Expected bin, expected speedup"),
            HelpWindow::tr("Expected bin = Σ b·p<sub>b</sub>; expected speedup = Σ p<sub>b</sub>·m<sub>b</sub> over "
                           "the bin midpoints. A wide or two-peaked distribution has an expected speedup that may lie "
                           "in a bin it hardly believes in; the forecast panel says so.")},
        {HelpWindow::tr("max_prob"), HelpWindow::tr("Confidence as the probability of the predicted bin.")},
        {HelpWindow::tr("neg_entropy"),
            HelpWindow::tr(
                "Confidence as 1 − H(p)/ln 8, with the entropy H in nats: 1 for all mass on one bin, 0 for a "
                "uniform distribution.")},
        {HelpWindow::tr("top2_margin"),
            HelpWindow::tr("Confidence as the largest probability minus the second largest.")},
    });
}

// How forecasts are trusted and scored.
void addScoreTerms(QList<GlossaryEntry> &entries)
{
    entries.append({
        {HelpWindow::tr("τ (confidence threshold)"),
            HelpWindow::tr("A forecast whose confidence is below τ is not trusted: it defers to the GPU, where the "
                           "candidate is measured instead. A forecast that could not be parsed always defers.")},
        {HelpWindow::tr("Coverage"),
            HelpWindow::tr("The share of all forecasts that are trusted at a threshold (parse failures count in the "
                           "denominator).")},
        {HelpWindow::tr("Accuracy, within one"),
            HelpWindow::tr("The share of parsed forecasts whose predicted bin equals the measured bin, or lies at most "
                           "one bin from it.")},
        {HelpWindow::tr("ECE"),
            HelpWindow::tr("Expected calibration error: forecasts are put in 10 equal-width buckets of max_prob; ECE = "
                           "Σ (n<sub>i</sub>/N)·|mean confidence<sub>i</sub> − accuracy<sub>i</sub>|. 0 means the "
                           "confidence is as often right as it claims.")},
        {HelpWindow::tr("Reliability diagram"),
            HelpWindow::tr("Accuracy per confidence bucket against the diagonal y = x, with the bucket counts.")},
        {HelpWindow::tr("Brier score"),
            HelpWindow::tr("½·Σ<sub>b</sub> (p<sub>b</sub> − y<sub>b</sub>)², from 0 (certain and right) to 1. The "
                           "paper's figures sum without the ½; the Metrics dock says which form it shows.")},
        {HelpWindow::tr("CRPS"),
            HelpWindow::tr("Ranked probability score over the ordered bins: (1/7)·Σ<sub>k=1..7</sub> "
                           "(F<sub>k</sub> − [k ≥ t])² with the cumulative F; a near miss costs less than a far one.")},
        {HelpWindow::tr("NLL"),
            HelpWindow::tr("Negative log-likelihood of the measured bin, −ln max(p<sub>t</sub>, 10⁻¹²).")},
        {HelpWindow::tr("Risk–coverage, AURC"),
            HelpWindow::tr("Lowering τ trusts more forecasts (coverage rises) and lets more wrong bins through (risk "
                           "= the share of trusted forecasts whose predicted bin is wrong). AURC is the area under "
                           "that curve: lower is better.")},
        {HelpWindow::tr("utility@X"),
            HelpWindow::tr("Rank a problem's correct candidates by the forecast (expected bin), measure only the top "
                           "X of them, and divide the best speedup found by the best of the whole pool: 1 means the "
                           "best kernel was among those measured. Ties are averaged over their orderings. This is the "
                           "application's reconstruction; the authors' code does not define it.")},
    });
}

// Searches: the loop, its modes and budget, where proposals come from, steering.
void addSearchTerms(QList<GlossaryEntry> &entries)
{
    entries.append({
        {HelpWindow::tr("Search"),
            HelpWindow::tr("A loop of steps over an archive of kernels: each step picks parents by PUCT, asks a "
                           "mutator for proposals (children) of each, decides which of them the GPU measures, and "
                           "admits the best measured children to the archive. Every decision is an event in the "
                           "search's log, so a search can be replayed, resumed and exported.")},
        {HelpWindow::tr("GPU evaluation"),
            HelpWindow::tr("One proposal measured (or, in a replay, its recorded runtime looked up): the cost a search "
                           "spends. The budget per parent and step is --measure (b).")},
        {HelpWindow::tr("Standard, surrogate, selective"),
            HelpWindow::tr("The search modes. Standard measures every proposal (b per parent). Surrogate (the "
                           "paper's) proposes k·b per parent, forecasts each and measures the b with the highest "
                           "expected bin. Selective (ours) measures the best trusted forecast, then the untrusted "
                           "ones, queueing those that do not fit instead of discarding them.")},
        {HelpWindow::tr("τ in a search"),
            HelpWindow::tr("In the selective mode a forecast is trusted when its confidence (max_prob) is at least τ; "
                           "τ = 0 trusts every forecast and measures what the surrogate mode measures. Replaying a "
                           "search under another τ shows what it would have measured.")},
        {HelpWindow::tr("PUCT"),
            HelpWindow::tr("The parent score Q(s) + c·scale·P(s)·√(1 + T)/(1 + n(s)): the best reward under s, plus "
                           "a bonus for nodes ranked high in the archive and visited little.")},
        {HelpWindow::tr("Archive"),
            HelpWindow::tr("The kernels a search may extend: its seeds and, per parent and step, the best --keep "
                           "valid children that are not duplicates; at most 1000, seeds always kept.")},
        {HelpWindow::tr("Pool, family"),
            HelpWindow::tr("Where proposals come from. A recorded pool is a problem's stored kernels (or a recorded "
                           "search's proposals) in order; when it runs out the search ends. A kernel family is a "
                           "template with tunables whose configurations the search moves between, one or two "
                           "tunables at a time; replay looks their runtimes up in a recorded sweep.")},
        {HelpWindow::tr("Pin, veto, force, inject"),
            HelpWindow::tr("Steering a running search. A pinned node is taken as a parent first at every step; a "
                           "vetoed node (or branch) is never a parent and its proposals are deferred; forcing "
                           "measures a deferred proposal at the next selection, outside the budget; injecting adds "
                           "your own kernel as a child of a node, measured at the next selection.")},
    });
}

// What the views mark: hits and misses, replayed and held-out figures.
void addViewTerms(QList<GlossaryEntry> &entries)
{
    entries.append({
        {HelpWindow::tr("Hit, miss"),
            HelpWindow::tr("A hit predicted the measured bin; a miss says by how many bins and in which direction.")},
        {HelpWindow::tr("Replay ↺"),
            HelpWindow::tr("A speedup computed from runtimes recorded earlier (a recorded sweep or search), not "
                           "measured on this machine.")},
        {HelpWindow::tr("Held-out forecast"),
            HelpWindow::tr("A validation forecast made by a cost model trained without the forecast kernel's "
                           "operation (leave one operation out): it shows how the model does on operations it never "
                           "saw.")},
    });
}

} // namespace

QList<GlossaryEntry> glossaryEntries()
{
    QList<GlossaryEntry> entries;
    addForecastTerms(entries);
    addScoreTerms(entries);
    addSearchTerms(entries);
    addViewTerms(entries);
    return entries;
}

QString glossaryHtml()
{
    QString html = HelpWindow::tr("<h2>Glossary</h2>");
    const QList<GlossaryEntry> entries = glossaryEntries();
    for (const GlossaryEntry &e : entries)
        html += QStringLiteral("<h3>%1</h3><p>%2</p>").arg(e.term.toHtmlEscaped(), e.definition);
    return html;
}

QString manualMarkdown()
{
    QFile file(QStringLiteral(":/gpuf/help/manual.md"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

QList<ShortcutEntry> shortcutEntries(const QMenuBar *menuBar)
{
    QList<ShortcutEntry> out;
    const QList<QAction *> menus = menuBar->actions();
    for (const QAction *action : menus) {
        if (const QMenu *menu = action->menu())
            collectShortcuts(menu, plainText(action), out);
    }
    return out;
}

QString aboutText()
{
    const auto onOff = [](bool on, const QString &off) { return on ? HelpWindow::tr("on") : off; };
    return HelpWindow::tr(
        "<h3>GPU Forecaster Explorer %1</h3>"
        "<p>Forecast, explain and measure how much faster a candidate GPU kernel runs than its reference.</p>"
        "<p>It implements the method of <i>GPU Forecasters: Language Models as Selective Surrogates for Kernel "
        "Runtime Optimization</i> (Khan, Chen, Cho, Stengel-Eskin, Bansal; arXiv 2605.31464, 2026): forecasts as "
        "probabilities over eight speedup bins, confidence scores with a threshold τ that defers unsure forecasts to "
        "the GPU, calibration and risk–coverage metrics, and a search guided by the forecasts. Ranking utility is "
        "this application's reconstruction.</p>"
        "<p>The shipped tuning spaces of convolution and dedispersion on an A100 come from the FAIR Benchmark Hub for "
        "Auto-Tuning (Willemsen, van Nieuwpoort, van Werkhoven; DOI 10.5281/zenodo.15364124), MIT licence; see "
        "resources/tuning/README.md.</p>"
        "<p><b>Build</b><br>Syntax highlighting: %2<br>GPU measurement (CUDA worker gpuf-measure): %3<br>"
        "Qt: built with %4, running on %5</p>")
        .arg(QStringLiteral(GPUF_VERSION_STRING),
            onOff(GPUF_HAVE_SYNTAX_HIGHLIGHTING, HelpWindow::tr("off (built without KSyntaxHighlighting)")),
            onOff(GPUF_HAVE_CUDA, HelpWindow::tr("off (built without the CUDA toolkit)")),
            QStringLiteral(QT_VERSION_STR), QString::fromLatin1(qVersion()));
}

void setActionAvailability(QAction *action, bool enabled, const QString &whatItDoes, const QString &whyDisabled)
{
    action->setEnabled(enabled);
    const QString tip = enabled ? whatItDoes : whyDisabled;
    action->setToolTip(tip);
    action->setStatusTip(tip);
}

void mirrorToolTipToStatusTip(QAction *action)
{
    const auto sync = [action]() {
        // QAction::toolTip() falls back to the text: only a tool tip set on purpose is worth the status bar.
        const QString tip = action->toolTip();
        const QString mirrored = tip == plainText(action) ? QString() : tip;
        if (action->statusTip() != mirrored)
            action->setStatusTip(mirrored);
    };
    QObject::connect(action, &QAction::changed, action, sync);
    sync();
}

HelpWindow::HelpWindow(Topic topic, QWidget *parent)
    : QDialog(parent)
    , m_browser(new QTextBrowser(this))
{
    setObjectName(topic == Topic::Manual ? QStringLiteral("helpManual") : QStringLiteral("helpGlossary"));
    setWindowTitle(
        topic == Topic::Manual ? tr("Manual — GPU Forecaster Explorer") : tr("Glossary — GPU Forecaster Explorer"));
    // Links between the guides open in this window (Back returns); links to the web open in the browser.
    m_browser->setOpenExternalLinks(true);
    if (topic == Topic::Manual) {
        if (QFile::exists(QStringLiteral(":/gpuf/help/manual.md")))
            m_browser->setSource(QUrl(QStringLiteral("qrc:/gpuf/help/manual.md")), QTextDocument::MarkdownResource);
        else
            m_browser->setPlainText(tr("The manual is missing from this build."));
    } else {
        m_browser->setHtml(glossaryHtml());
    }
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_back = buttons->addButton(tr("&Back"), QDialogButtonBox::ActionRole);
    m_back->setObjectName(QStringLiteral("helpBack"));
    m_back->setEnabled(false);
    m_back->setVisible(topic == Topic::Manual);
    connect(m_back, &QPushButton::clicked, m_browser, &QTextBrowser::backward);
    connect(m_browser, &QTextBrowser::backwardAvailable, m_back, &QPushButton::setEnabled);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_browser, 1);
    layout->addWidget(buttons);
    resize(760, 640);
}

ShortcutsWindow::ShortcutsWindow(const QMenuBar *menuBar, QWidget *parent)
    : QDialog(parent)
    , m_table(new QTableWidget(this))
{
    setObjectName(QStringLiteral("helpShortcuts"));
    setWindowTitle(tr("Keyboard Shortcuts — GPU Forecaster Explorer"));
    const QList<ShortcutEntry> entries = shortcutEntries(menuBar);
    m_table->setColumnCount(3);
    m_table->setHorizontalHeaderLabels({tr("Shortcut"), tr("Command"), tr("Menu")});
    m_table->setRowCount(int(entries.size()));
    for (int row = 0; row < entries.size(); ++row) {
        const ShortcutEntry &e = entries.at(row);
        m_table->setItem(row, 0, new QTableWidgetItem(e.keys));
        m_table->setItem(row, 1, new QTableWidgetItem(e.command));
        m_table->setItem(row, 2, new QTableWidgetItem(e.menu));
    }
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->resizeColumnsToContents();
    auto *note = new QLabel(tr("Diff commands act on the diff wherever the focus is in the main window."), this);
    note->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_table, 1);
    layout->addWidget(note);
    layout->addWidget(buttons);
    resize(620, 520);
}

} // namespace gpuf
