// NewSearchDialog; see new_search_dialog.h.
#include "widgets/search/new_search_dialog.h"

#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>

#include <algorithm>
#include <limits>

namespace gpuf {

using search::Mode;
using search::SearchConfig;

namespace {

const QString kPool = QStringLiteral("pool");
const QString kFamily = QStringLiteral("family");
const QString kLlm = QStringLiteral("llm");
const QString kLog = QStringLiteral("log"); // the pool mutator over a recorded search's log

QSpinBox *spin(int low, int high, int value, QWidget *parent)
{
    auto *box = new QSpinBox(parent);
    box->setRange(low, high);
    box->setValue(value);
    return box;
}

// The recorded sweep (or imported space) a family search of `config` would replay: on the chosen GPU, or with none
// chosen the largest one of any GPU; nullptr when the store has none of that family there.
const search::CompareSpace *recordedSweep(const NewSearchChoices &choices, const SearchConfig &config)
{
    const QString family = config.mutatorConfig.value(QStringLiteral("family")).toString();
    const search::CompareSpace *found = nullptr;
    for (const search::CompareSpace &space : choices.recorded) {
        if (space.space != family || (!config.hardware.isEmpty() && space.hardware != config.hardware))
            continue;
        if (!found || space.configurations > found->configurations)
            found = &space;
    }
    return found;
}

// The recorded pool a pool search of `config` proposes from (the problem's stored kernels with a runtime on the chosen
// GPU, or with none chosen the largest); nullptr for other sources or when the store knows none.
const search::CompareSpace *recordedPool(const NewSearchChoices &choices, const SearchConfig &config)
{
    if (config.mutator != search::MutatorKind::Pool || config.mutatorConfig.contains(QStringLiteral("source")))
        return nullptr;
    const search::CompareSpace *found = nullptr;
    for (const search::CompareSpace &pool : choices.pools) {
        if (pool.problem != config.problem || (!config.hardware.isEmpty() && pool.hardware != config.hardware))
            continue;
        if (!found || pool.configurations > found->configurations)
            found = &pool;
    }
    return found;
}

// Steps after which a pool of `kernels` is surely all proposed: every step expands at least one parent.
int stepsToExhaust(int kernels, int proposalsPerParent)
{
    return std::max(1, (kernels + proposalsPerParent - 1) / std::max(1, proposalsPerParent));
}

} // namespace

// Every field starts at SearchConfig's defaults, which are gpuf search's (the one source of both).
NewSearchDialog::NewSearchDialog(const NewSearchChoices &choices, QWidget *parent)
    : QDialog(parent)
    , m_choices(choices)
    , m_name(new QLineEdit(this))
    , m_target(new QComboBox(this))
    , m_mode(new QComboBox(this))
    , m_forecaster(new QComboBox(this))
    , m_mutator(new QComboBox(this))
    , m_source(new QComboBox(this))
    , m_steps(spin(1, kMaxSteps, SearchConfig {}.steps, this))
    , m_parents(spin(1, 64, SearchConfig {}.parentsPerStep, this))
    , m_proposals(spin(1, 1024, SearchConfig {}.proposalsPerParent, this))
    , m_measure(spin(1, 256, SearchConfig {}.measurementsPerParent, this))
    , m_tau(new QDoubleSpinBox(this))
    , m_gpu(new QComboBox(this))
    , m_hardware(new QComboBox(this))
    , m_seed(spin(0, std::numeric_limits<int>::max(), int(SearchConfig {}.seed), this))
    , m_cost(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setObjectName(QStringLiteral("newSearchDialog"));
    setWindowTitle(tr("New Search"));
    m_name->setText(
        QStringLiteral("search-%1").arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss"))));
    for (const NewSearchChoices::Target &t : std::as_const(m_choices.targets)) {
        if (t.family.isEmpty())
            m_target->addItem(tr("Problem %1").arg(t.problem), QVariant::fromValue(t.problem));
        else
            m_target->addItem(tr("Family %1 — %2").arg(t.family, t.title), QVariant::fromValue(t.family));
    }
    m_mode->addItem(tr("standard — measure every proposal"), QStringLiteral("standard"));
    m_mode->addItem(tr("surrogate-filtered — measure the best forecasts"), QStringLiteral("surrogate"));
    m_mode->addItem(tr("selective — measure what the forecaster is unsure of"), QStringLiteral("selective"));
    m_forecaster->addItems(m_choices.forecasters);
    m_tau->setRange(0.0, 1.0);
    m_tau->setSingleStep(0.05);
    m_tau->setDecimals(2);
    m_tau->setValue(SearchConfig {}.tau);
    m_gpu->addItem(tr("replay — recorded runtimes, no GPU needed"), QStringLiteral("replay"));
    m_gpu->addItem(tr("local — measure on this machine's GPU"), QStringLiteral("local"));
    m_hardware->addItem(tr("the GPU with most runs of the problem"), QString());
    for (const QString &h : std::as_const(m_choices.hardware))
        m_hardware->addItem(h, h);
    m_cost->setWordWrap(true);
    // Room for the cost and a warning below it: a wrapped label's growth does not grow a dialog already shown.
    m_cost->setMinimumHeight(5 * m_cost->fontMetrics().lineSpacing());
    m_cost->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_cost->setObjectName(QStringLiteral("searchCost"));
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Start"));

    auto *form = new QFormLayout(this);
    form->addRow(tr("Name:"), m_name);
    form->addRow(tr("Search:"), m_target);
    form->addRow(tr("Mode:"), m_mode);
    form->addRow(tr("Forecaster:"), m_forecaster);
    form->addRow(tr("Proposals from:"), m_mutator);
    form->addRow(tr("Generator / log:"), m_source);
    form->addRow(tr("Steps:"), m_steps);
    form->addRow(tr("Parents per step:"), m_parents);
    form->addRow(tr("Proposals per parent:"), m_proposals);
    form->addRow(tr("Measurements per parent:"), m_measure);
    addTrustRows(form);
    form->addRow(tr("GPU:"), m_gpu);
    form->addRow(tr("Recorded runtimes of:"), m_hardware);
    form->addRow(tr("Seed:"), m_seed);
    addPaceRows(form);
    form->addRow(m_cost);
    form->addRow(m_buttons);

    connectFields();
    setToolTips();
    updateForm();
}

// Start and Cancel; any field changed updates the form (what applies, the cost, the warnings).
void NewSearchDialog::connectFields()
{
    connect(m_buttons, &QDialogButtonBox::accepted, this, &NewSearchDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    for (QComboBox *box : {m_target, m_mode, m_forecaster, m_mutator, m_source, m_gpu, m_hardware, m_policy})
        connect(box, &QComboBox::currentIndexChanged, this, &NewSearchDialog::updateForm);
    // Before updateForm, which caps the steps at the pool's.
    connect(m_steps, &QSpinBox::valueChanged, this, [this](int steps) {
        if (!m_updating) // the user's (or a prefill's) figure, not a cap's
            m_wantedSteps = steps;
    });
    for (QSpinBox *box : {m_steps, m_parents, m_proposals, m_measure, m_seed})
        connect(box, &QSpinBox::valueChanged, this, &NewSearchDialog::updateForm);
    for (QDoubleSpinBox *box : {m_tau, m_alpha})
        connect(box, &QDoubleSpinBox::valueChanged, this, &NewSearchDialog::updateForm);
    connect(m_name, &QLineEdit::textChanged, this, &NewSearchDialog::updateForm);
}

// The rule that chooses what to measure (--policy), τ and the certified setting's α (--alpha; 0: off).
void NewSearchDialog::addTrustRows(QFormLayout *form)
{
    m_policy = new QComboBox(this);
    m_policy->addItem(tr("probability — measure what is likely to beat the best"), QStringLiteral("probability"));
    m_policy->addItem(tr("paper — rank by expected bin, trust by confidence"), QStringLiteral("paper"));
    m_alpha = new QDoubleSpinBox(this);
    m_alpha->setRange(0.0, 0.5);
    m_alpha->setSingleStep(0.05);
    m_alpha->setDecimals(2);
    m_alpha->setSpecialValueText(tr("off — τ as given"));
    form->addRow(tr("Policy:"), m_policy);
    form->addRow(tr("Trust threshold τ:"), m_tau);
    m_trust = new QLabel(this);
    m_trust->setObjectName(QStringLiteral("trustPreview"));
    m_trust->setWordWrap(true);
    m_trust->setMinimumHeight(3 * m_trust->fontMetrics().lineSpacing());
    m_trust->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    form->addRow(m_trust);
    form->addRow(tr("Acceptable error α:"), m_alpha);
    m_policy->setToolTip(tr("How the surrogate-filtered and selective modes choose (--policy): probability uses a "
                            "forecaster that learns during the search and measures what is likely to beat the best so "
                            "far; paper keeps the paper's rules (docs/search.md)."));
    m_alpha->setToolTip(tr("The certified setting (--alpha): the acceptable error among trusted forecasts; before each "
                           "step τ is set from the pairs measured so far, and a drift alarm fires when the error "
                           "leaves its bound. Off: τ as given."));
}

void NewSearchDialog::setToolTips()
{
    m_name->setToolTip(tr("The search's name in the Searches list and for gpuf search (status, resume, export)."));
    m_target->setToolTip(tr("What to optimise: a problem of the store (its reference kernel is the seed), or a "
                            "shipped kernel family (its tunables are the space)."));
    m_mode->setToolTip(tr("standard measures every proposal; surrogate-filtered forecasts k× more and measures the "
                          "best forecasts; selective measures what the forecaster is unsure of (below τ)."));
    m_forecaster->setToolTip(tr("Who forecasts the proposals in the surrogate-filtered and selective modes."));
    m_mutator->setToolTip(tr("Where proposals come from: the family's neighbouring configurations, the store's "
                             "recorded kernels (a pool, each proposed once), a recorded search's proposals, or a "
                             "language model."));
    m_source->setToolTip(tr("The LLM profile that writes kernels, or the recorded search whose proposals replay."));
    m_steps->setToolTip(tr("How many steps the search runs (gpuf search --steps; %1 unless changed). A recorded "
                           "pool allows only the steps it can feed.")
                            .arg(SearchConfig {}.steps));
    m_parents->setToolTip(tr("Archive nodes expanded per step, chosen by PUCT (--parents)."));
    m_proposals->setToolTip(tr("Proposals made per parent and step (--proposals); the surrogate and selective modes "
                               "look at more than they measure."));
    m_measure->setToolTip(tr("GPU evaluations per parent and step (--measure): the budget of every mode."));
    m_tau->setToolTip(tr("Selective mode: a forecast whose confidence is below τ is not trusted, so that proposal "
                         "is measured instead (--tau)."));
    m_gpu->setToolTip(tr("replay answers from recorded runtimes (no GPU, new code cannot run); local measures on "
                         "this machine's GPU."));
    m_hardware->setToolTip(tr("Replay: the GPU whose recorded runtimes answer (--hardware)."));
    m_seed->setToolTip(tr("The seed of every random choice (--seed; %1 unless changed): the same seed and settings "
                          "give the same search.")
                           .arg(SearchConfig {}.seed));
}

void NewSearchDialog::setSearchName(const QString &name) { m_name->setText(name); }

QString NewSearchDialog::searchName() const { return m_name->text().trimmed(); }

void NewSearchDialog::updateForm()
{
    if (m_updating)
        return;
    m_updating = true;
    const int target = m_target->currentIndex();
    const bool family = target >= 0 && !m_choices.targets[target].family.isEmpty();
    // The mutators this target can use; keep the user's choice when it still applies.
    const QString mutator = m_mutator->currentData().toString();
    m_mutator->clear();
    if (family)
        m_mutator->addItem(tr("the kernel family (neighbouring tunables)"), kFamily);
    m_mutator->addItem(tr("recorded pool (stored kernels, in a seeded order)"), kPool);
    if (!m_choices.searches.isEmpty())
        m_mutator->addItem(tr("a recorded search's proposals (replay)"), kLog);
    if (!m_choices.llmForecasters.isEmpty())
        m_mutator->addItem(tr("an LLM generator"), kLlm);
    // A new target starts from its natural source (a family's own mutator); otherwise the choice stays.
    const int keep = target == m_lastTarget ? m_mutator->findData(mutator) : -1;
    m_lastTarget = target;
    m_mutator->setCurrentIndex(keep >= 0 ? keep : 0);
    const QString chosen = m_mutator->currentData().toString();
    const QString source = m_source->currentText();
    m_source->clear();
    if (chosen == kLlm)
        m_source->addItems(m_choices.llmForecasters);
    else if (chosen == kLog)
        m_source->addItems(m_choices.searches);
    m_source->setEnabled(m_source->count() > 0);
    if (const int at = m_source->findText(source); at >= 0)
        m_source->setCurrentIndex(at);

    const bool standard = m_mode->currentData().toString() == QLatin1StringView("standard");
    m_forecaster->setEnabled(!standard);
    m_policy->setEnabled(!standard);
    m_alpha->setEnabled(!standard);
    // τ is the paper's selective rule's; the probability policy trusts no forecast by it (α, when set, chooses τ).
    m_tau->setEnabled(m_mode->currentData().toString() == QLatin1StringView("selective")
        && m_policy->currentData().toString() == QLatin1StringView("paper") && m_alpha->value() <= 0.0);
    // Standard proposes exactly what it measures; the others look at k× more (4× unless the user says otherwise).
    // Only a change of mode moves the figure (never the user's typing, which passes through smaller values).
    m_proposals->setEnabled(!standard);
    const QString mode = m_mode->currentData().toString();
    if (standard)
        m_proposals->setValue(m_measure->value());
    else if (mode != m_lastMode && !m_lastMode.isEmpty())
        m_proposals->setValue(4 * m_measure->value());
    m_lastMode = mode;
    m_hardware->setEnabled(m_gpu->currentData().toString() == QLatin1StringView("replay"));
    m_pace->setEnabled(m_hardware->isEnabled()); // a GPU's measurements set their own pace
    capStepsAtPool();
    m_updating = false;

    auto made = config();
    // A family replay with no recorded sweep on that GPU is refused by the engine: not offered here either.
    const bool unanswerable = made && made->gpu.isReplay() && made->mutator == search::MutatorKind::Family
        && !recordedSweep(m_choices, *made);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(bool(made) && !unanswerable);
    m_cost->setText(made ? costText() : made.error());
    updateTrustPreview();
}

// The chosen forecaster's stored confidences on the target's problem and what τ would trust of them.
void NewSearchDialog::updateTrustPreview()
{
    const int target = m_target->currentIndex();
    if (m_mode->currentData().toString() == QLatin1StringView("standard") || target < 0) {
        m_trust->setText(tr("The standard mode forecasts nothing: every proposal is measured."));
        return;
    }
    const QString problem = m_choices.targets[target].problem;
    const QString forecaster = m_forecaster->currentText();
    const search::StoredConfidences *stored = m_choices.confidencesOf(forecaster, problem);
    if (m_tau->isEnabled()) {
        m_trust->setText(search::trustPreviewText(stored, forecaster, problem, m_tau->value()));
        return;
    }
    m_trust->setText(search::trustPreviewText(stored, forecaster, problem, std::nullopt) + u' '
        + tr("τ is not used here: only the selective mode under the paper's policy trusts a forecast by its "
             "confidence (with α set, the search chooses τ itself)."));
}

void NewSearchDialog::capStepsAtPool()
{
    // The steps a pool can feed: more would only run empty steps after its last kernel. The steps the user chose
    // come back when another choice lifts the cap.
    int most = kMaxSteps;
    if (auto made = config()) {
        if (const search::CompareSpace *pool = recordedPool(m_choices, *made))
            most = stepsToExhaust(pool->configurations, made->proposalsPerParent);
    }
    m_steps->setMaximum(most);
    m_steps->setValue(std::min(m_wantedSteps, most));
}

Result<SearchConfig> NewSearchDialog::config() const
{
    if (searchName().isEmpty())
        return Error {tr("Give the search a name.")};
    const int target = m_target->currentIndex();
    if (target < 0)
        return Error {tr("The store has no problem with a reference kernel, and no family is available.")};
    const NewSearchChoices::Target &t = m_choices.targets[target];
    SearchConfig c;
    c.mode = search::modeFromName(m_mode->currentData().toString()).value_or(Mode::Standard);
    c.problem = t.problem;
    c.steps = m_steps->value();
    c.parentsPerStep = m_parents->value();
    c.measurementsPerParent = m_measure->value();
    c.proposalsPerParent = c.mode == Mode::Standard ? c.measurementsPerParent : m_proposals->value();
    c.tau = m_tau->value();
    if (c.mode != Mode::Standard) {
        c.policy = search::policyFromName(m_policy->currentData().toString()).value_or(search::Policy::Probability);
        c.alpha = m_alpha->value();
    }
    c.seed = quint64(m_seed->value());
    if (c.needsForecasts())
        c.forecaster = m_forecaster->currentText();
    const QString mutator = m_mutator->currentData().toString();
    if (mutator == kFamily) {
        c.mutator = search::MutatorKind::Family;
        c.mutatorConfig = {{QStringLiteral("family"), t.family}};
    } else if (mutator == kLlm) {
        c.mutator = search::MutatorKind::Llm;
        c.mutatorConfig = {{QStringLiteral("generator"), m_source->currentText()}};
    } else if (mutator == kLog) {
        c.mutator = search::MutatorKind::Pool;
        c.mutatorConfig = {
            {QStringLiteral("source"), QStringLiteral("search")}, {QStringLiteral("search"), m_source->currentText()}};
    } else {
        c.mutator = search::MutatorKind::Pool;
    }
    // The box holds only names fromName reads (replay, local).
    c.gpu = search::GpuSource::fromName(m_gpu->currentData().toString()).value_or(search::GpuSource::replay());
    if (c.gpu.isReplay())
        c.hardware = m_hardware->currentData().toString();
    if (Status s = c.validate(); !s)
        return Error {s.error()};
    return c;
}

search::SearchCost NewSearchDialog::cost() const
{
    auto c = config();
    if (!c)
        return {};
    search::SearchCost cost
        = search::searchCost(*c, c->needsForecasts() && m_choices.llmForecasters.contains(c->forecaster));
    // A pool proposes each of its kernels once: no more proposals, forecasts or measurements than it holds.
    if (const search::CompareSpace *pool = recordedPool(m_choices, *c)) {
        cost.proposals = std::min(cost.proposals, pool->configurations);
        cost.gpuEvaluations = std::min(cost.gpuEvaluations, pool->configurations);
        cost.forecasts = std::min(cost.forecasts, pool->configurations + 1);
        cost.llmCalls = std::min(cost.llmCalls, cost.forecasts);
    }
    return cost;
}

QString NewSearchDialog::costText() const
{
    auto c = config();
    if (!c)
        return c.error();
    const search::SearchCost cost = this->cost();
    const QLocale locale;
    const search::CompareSpace *pool = recordedPool(m_choices, *c);
    QString gpu = c->gpu.isReplay()
        ? tr("at most %1 GPU evaluations, answered from recorded runtimes (no GPU time)")
              .arg(locale.toString(cost.gpuEvaluations))
        : tr("at most %1 GPU evaluations on this machine's GPU").arg(locale.toString(cost.gpuEvaluations));
    QString text = tr("This search costs %1; %2 forecasts; %3 LLM calls (%4 proposals over %5 parent expansions).")
                       .arg(gpu, locale.toString(cost.forecasts), locale.toString(cost.llmCalls),
                           locale.toString(cost.proposals), locale.toString(cost.parentExpansions));
    if (pool)
        text += QLatin1Char('\n')
            + tr("The recorded pool of %1 on %2 holds %n kernels: each is proposed once, and the search ends when "
                 "all are (after %3 steps at most).",
                nullptr, pool->configurations)
                  .arg(c->problem, pool->hardware)
                  .arg(stepsToExhaust(pool->configurations, c->proposalsPerParent));
    // Replay knows only what was measured before: a family replays from its recorded sweep, new code gets no answer.
    const QString mutator = m_mutator->currentData().toString();
    if (c->gpu.isReplay() && mutator == kFamily) {
        const QString family = c->mutatorConfig.value(QStringLiteral("family")).toString();
        if (const search::CompareSpace *sweep = recordedSweep(m_choices, *c))
            text += QLatin1Char('\n')
                + tr("Replay answers from the store's recorded sweep of %1 on %2 (%n configurations); a proposal "
                     "outside it cannot run.",
                    nullptr, sweep->configurations)
                      .arg(family, sweep->hardware);
        else
            text += QLatin1Char('\n')
                + (c->hardware.isEmpty()
                        ? tr("The store has no recorded sweep of %1, so a replay has nothing to answer with.")
                              .arg(family)
                        : tr("The store has no recorded sweep of %1 on %2, so a replay has nothing to answer with.")
                              .arg(family, c->hardware))
                + QLatin1Char(' ')
                + tr(
                    "Import one (File → Import…; gpuf ships them in its sweeps folder), or choose this machine's GPU.");
    } else if (c->gpu.isReplay() && mutator == kLlm) {
        text += QLatin1Char('\n')
            + tr("Replay answers only for kernels the store has runtimes of. The language model proposes new code, "
                 "which has none: those proposals cannot run and nothing new is measured. Choose this machine's GPU "
                 "to measure them.");
    }
    return text;
}

void NewSearchDialog::prefill(const SearchConfig &config, const QString &replayOf)
{
    for (int i = 0; i < m_choices.targets.size(); ++i) {
        const NewSearchChoices::Target &t = m_choices.targets[i];
        const QString family = config.mutatorConfig.value(QStringLiteral("family")).toString();
        if (t.problem == config.problem
            && t.family == (config.mutator == search::MutatorKind::Family ? family : QString())) {
            m_target->setCurrentIndex(i);
            break;
        }
    }
    m_mode->setCurrentIndex(m_mode->findData(search::modeName(config.mode)));
    m_steps->setMaximum(kMaxSteps); // the figure wanted, whatever the pool shown now allows (capped below)
    m_steps->setValue(config.steps);
    m_parents->setValue(config.parentsPerStep);
    m_measure->setValue(config.measurementsPerParent);
    m_proposals->setValue(config.proposalsPerParent);
    m_tau->setValue(config.tau);
    m_seed->setValue(int(std::min<quint64>(config.seed, quint64(std::numeric_limits<int>::max()))));
    if (const int at = m_forecaster->findText(config.forecaster); at >= 0)
        m_forecaster->setCurrentIndex(at);
    m_policy->setCurrentIndex(std::max(0, m_policy->findData(search::policyName(config.policy))));
    m_alpha->setValue(config.alpha);
    const bool fromLog = config.mutatorConfig.contains(QStringLiteral("source"));
    const QString mutator = config.mutator == search::MutatorKind::Family ? kFamily
        : config.mutator == search::MutatorKind::Llm                      ? kLlm
        : fromLog                                                         ? kLog
                                                                          : kPool;
    if (const int at = m_mutator->findData(mutator); at >= 0)
        m_mutator->setCurrentIndex(at);
    const QString source = config.mutatorConfig
                               .value(config.mutator == search::MutatorKind::Llm ? QStringLiteral("generator")
                                                                                 : QStringLiteral("search"))
                               .toString();
    if (const int at = m_source->findText(source); at >= 0)
        m_source->setCurrentIndex(at);
    m_gpu->setCurrentIndex(std::max(0, m_gpu->findData(config.gpu.name())));
    m_hardware->setCurrentIndex(std::max(0, m_hardware->findData(config.hardware)));
    if (!replayOf.isEmpty()) {
        m_mutator->setCurrentIndex(m_mutator->findData(kLog));
        m_source->setCurrentIndex(m_source->findText(replayOf));
        m_gpu->setCurrentIndex(m_gpu->findData(QStringLiteral("replay")));
        m_name->setText(tr("%1-replay").arg(replayOf));
    }
    updateForm();
}

void NewSearchDialog::accept()
{
    auto c = config();
    if (!c) {
        m_cost->setText(c.error());
        return;
    }
    Q_EMIT startRequested(searchName(), *c);
    QDialog::accept();
}

} // namespace gpuf
