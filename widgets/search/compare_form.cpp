// CompareForm; see compare_form.h.
#include "widgets/search/compare_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSpinBox>
#include <QToolButton>

#include <limits>

namespace gpuf {

namespace {

// Every strategy `gpuf search compare` knows, in its order; the first four are its default.
const char *const kStrategyNames[] = {"standard", "surrogate", "selective", "random", "greedy", "genetic"};
constexpr int kDefaultStrategies = 4;

const char *const kStrategyTips[] = {
    QT_TRANSLATE_NOOP("gpuf::CompareForm", "The standard mode: a PUCT search that measures every proposal"),
    QT_TRANSLATE_NOOP(
        "gpuf::CompareForm", "The surrogate-filtered mode: proposes k× more, the forecaster picks what is measured"),
    QT_TRANSLATE_NOOP(
        "gpuf::CompareForm", "The selective mode: forecasts below the confidence τ are not trusted and go to the GPU"),
    QT_TRANSLATE_NOOP("gpuf::CompareForm", "Uniform random search without replacement"),
    QT_TRANSLATE_NOOP("gpuf::CompareForm", "Greedy neighbour hill climbing with restarts"),
    QT_TRANSLATE_NOOP("gpuf::CompareForm", "A genetic algorithm over the tunables (population 20)"),
};

// The space box's key: a family and a problem's pool may share a name (reduce_sum).
QString spaceKey(const search::CompareSpace &s)
{
    return (s.pool ? QStringLiteral("pool:") : QStringLiteral("space:")) + s.space;
}

QString spaceTitle(const search::CompareSpace &s)
{
    if (s.pool)
        return CompareForm::tr("%1 — the problem's recorded kernels").arg(s.problem);
    return s.problem == s.space ? s.space : CompareForm::tr("%1 (problem %2)").arg(s.space, s.problem);
}

// One labelled row of fields.
QHBoxLayout *fieldRow(QWidget *parent, const QList<std::pair<QString, QWidget *>> &fields)
{
    auto *row = new QHBoxLayout;
    for (const auto &[label, field] : fields) {
        auto *name = new QLabel(label, parent);
        name->setBuddy(field);
        row->addWidget(name);
        row->addWidget(field);
        row->addSpacing(6);
    }
    row->addStretch(1);
    return row;
}

} // namespace

CompareForm::CompareForm(QWidget *parent)
    : QWidget(parent)
    , m_space(new QComboBox(this))
    , m_hardware(new QComboBox(this))
    , m_forecaster(new QComboBox(this))
{
    const search::SearchConfig defaults;
    m_seeds = addSpin(1, 1000, 10, tr("Searches per strategy, one per seed (the same seeds for every strategy)"));
    m_steps = addSpin(1, 10000, defaults.steps, tr("Steps of each mode's search; the budget of every strategy"));
    m_parents = addSpin(1, 64, defaults.parentsPerStep, tr("Parents expanded per step"));
    m_measure = addSpin(
        1, 64, defaults.measurementsPerParent, tr("GPU evaluations per parent and step (the budget per step)"));
    m_space->setToolTip(tr("A kernel family or an imported tuning space with recorded runtimes"));
    m_space->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_hardware->setToolTip(tr("The GPU whose recorded runtimes the searches replay"));
    m_hardware->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_forecaster->setToolTip(tr("The forecaster of the surrogate and selective modes"));
    m_forecaster->setSizeAdjustPolicy(QComboBox::AdjustToContents);

    m_firstSeed = addSpin(0, std::numeric_limits<int>::max(), 0,
        tr("The first seed (`--seed`): the searches use this seed and the next ones, the same for every strategy"));
    m_factor = addSpin(1, 64, 4,
        tr("k (`--k`): the surrogate and selective modes propose k× the GPU budget per parent, and the forecaster "
           "chooses among them"));
    m_tau = new QDoubleSpinBox(this);
    m_tau->setRange(0.0, 1.0);
    m_tau->setSingleStep(0.05);
    m_tau->setDecimals(2);
    m_tau->setValue(defaults.tau);
    m_tau->setToolTip(tr("τ (`--tau`): in the selective mode a forecast whose confidence is below τ is not trusted "
                         "and goes to the GPU"));
    connect(m_tau, &QDoubleSpinBox::valueChanged, this, &CompareForm::changed);
    QWidget *model = buildModelField();

    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addLayout(fieldRow(this,
                        {{tr("Space"), m_space}, {tr("GPU"), m_hardware}, {tr("Forecaster"), m_forecaster},
                            {tr("Cost model"), model}}),
        0, 0);
    grid->addLayout(
        fieldRow(this,
            {{tr("Seeds"), m_seeds}, {tr("First seed"), m_firstSeed}, {tr("Steps"), m_steps},
                {tr("Parents"), m_parents}, {tr("Measure"), m_measure}, {tr("k"), m_factor}, {tr("τ"), m_tau}}),
        1, 0);
    grid->addLayout(buildStrategyRow(), 2, 0);
    enableModeFields();

    connect(m_space, &QComboBox::currentIndexChanged, this, [this] {
        fillHardware();
        Q_EMIT changed();
    });
    connect(m_hardware, &QComboBox::currentIndexChanged, this, &CompareForm::changed);
    connect(m_forecaster, &QComboBox::currentIndexChanged, this, &CompareForm::changed);
}

QHBoxLayout *CompareForm::buildStrategyRow()
{
    auto *strategies = new QHBoxLayout;
    strategies->addWidget(new QLabel(tr("Strategies"), this));
    for (int i = 0; i < int(std::size(kStrategyNames)); ++i) {
        auto *box = new QCheckBox(QString::fromLatin1(kStrategyNames[i]), this);
        box->setObjectName(QString::fromLatin1(kStrategyNames[i]));
        box->setChecked(i < kDefaultStrategies);
        box->setToolTip(tr(kStrategyTips[i]));
        connect(box, &QCheckBox::toggled, this, [this] {
            enableModeFields();
            Q_EMIT changed();
        });
        strategies->addWidget(box);
        m_strategies.append(box);
    }
    strategies->addStretch(1);
    return strategies;
}

QWidget *CompareForm::buildModelField()
{
    m_model = new QLineEdit(this);
    m_model->setPlaceholderText(tr("built-in"));
    m_model->setClearButtonEnabled(true);
    m_model->setMinimumWidth(160);
    m_model->setToolTip(tr("The cost model's model file (`--model`, as `gpuf costmodel train` writes it); empty: the "
                           "built-in model"));
    connect(m_model, &QLineEdit::textChanged, this, &CompareForm::changed);
    auto *browse = new QToolButton(this);
    browse->setText(tr("…"));
    browse->setToolTip(tr("Choose a cost model file"));
    connect(browse, &QToolButton::clicked, this, &CompareForm::browseModel);
    auto *field = new QWidget(this);
    auto *row = new QHBoxLayout(field);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(2);
    row->addWidget(m_model);
    row->addWidget(browse);
    return field;
}

QSpinBox *CompareForm::addSpin(int minimum, int maximum, int value, const QString &toolTip)
{
    auto *spin = new QSpinBox(this);
    spin->setRange(minimum, maximum);
    spin->setValue(value);
    spin->setToolTip(toolTip);
    connect(spin, &QSpinBox::valueChanged, this, &CompareForm::changed);
    return spin;
}

void CompareForm::setChoices(const search::CompareChoices &choices)
{
    const QString space = m_space->currentData().toString();
    const QString hardware = m_hardware->currentData().toString();
    const QString forecaster = m_forecaster->currentText();
    m_choices = choices;
    {
        const QSignalBlocker blockSpace(m_space);
        const QSignalBlocker blockForecaster(m_forecaster);
        m_space->clear();
        for (const search::CompareSpace &s : std::as_const(m_choices.spaces)) {
            if (m_space->findData(spaceKey(s)) < 0)
                m_space->addItem(spaceTitle(s), spaceKey(s));
        }
        m_space->setCurrentIndex(std::max(0, m_space->findData(space)));
        m_forecaster->clear();
        m_forecaster->addItems(m_choices.forecasters);
        m_forecaster->setCurrentIndex(std::max(0, m_forecaster->findText(forecaster)));
    }
    fillHardware();
    if (const int i = m_hardware->findData(hardware); i >= 0)
        m_hardware->setCurrentIndex(i);
    Q_EMIT changed();
}

void CompareForm::fillHardware()
{
    const QSignalBlocker block(m_hardware);
    m_hardware->clear();
    const QString key = m_space->currentData().toString();
    for (const search::CompareSpace &s : std::as_const(m_choices.spaces)) {
        if (spaceKey(s) != key)
            continue;
        const int n = s.configurations;
        const QString count = s.pool ? (n == 1 ? tr("1 kernel") : tr("%L1 kernels").arg(n))
                                     : (n == 1 ? tr("1 configuration") : tr("%L1 configurations").arg(n));
        m_hardware->addItem(tr("%1 — %2").arg(s.hardware, count), s.hardware);
    }
}

// k matters to the surrogate and selective modes, τ to the selective mode only.
void CompareForm::enableModeFields()
{
    const auto checked = [this](const char *name) { return strategyBox(QString::fromLatin1(name))->isChecked(); };
    m_factor->setEnabled(checked("surrogate") || checked("selective"));
    m_tau->setEnabled(checked("selective"));
}

void CompareForm::browseModel()
{
    const QString file = QFileDialog::getOpenFileName(
        this, tr("Cost model file"), m_model->text(), tr("Cost models (*.json);;All files (*)"));
    if (!file.isEmpty())
        m_model->setText(file);
}

bool CompareForm::hasSpaces() const { return !m_choices.spaces.isEmpty(); }

const search::CompareSpace *CompareForm::chosenSpace() const
{
    const QString key = m_space->currentData().toString();
    const QString hardware = m_hardware->currentData().toString();
    for (const search::CompareSpace &s : m_choices.spaces) {
        if (spaceKey(s) == key && s.hardware == hardware)
            return &s;
    }
    return nullptr;
}

bool CompareForm::poolChosen() const
{
    const search::CompareSpace *chosen = chosenSpace();
    return chosen && chosen->pool;
}

bool CompareForm::choose(const QString &space, const QString &hardware, bool pool)
{
    const int s = m_space->findData(QString((pool ? QStringLiteral("pool:") : QStringLiteral("space:")) + space));
    if (s < 0)
        return false;
    m_space->setCurrentIndex(s);
    const int h = m_hardware->findData(hardware);
    if (h < 0)
        return false;
    m_hardware->setCurrentIndex(h);
    return true;
}

QCheckBox *CompareForm::strategyBox(const QString &name) const
{
    for (QCheckBox *box : m_strategies) {
        if (box->objectName() == name)
            return box;
    }
    return nullptr;
}

void CompareForm::setStrategies(const QStringList &names)
{
    for (QCheckBox *box : std::as_const(m_strategies))
        box->setChecked(names.contains(box->objectName()));
}

QString CompareForm::costModelPath() const { return m_model->text().trimmed(); }

int CompareForm::budget() const
{
    return m_steps->value() * m_parents->value() * m_measure->value() + (poolChosen() ? 0 : 1);
}

Result<search::CompareOptions> CompareForm::options() const
{
    const search::CompareSpace *chosen = chosenSpace();
    if (!chosen)
        return Error {tr("Choose a space and its GPU first.")};
    QStringList names;
    for (const QCheckBox *box : m_strategies) {
        if (box->isChecked())
            names << box->objectName();
    }
    if (names.isEmpty())
        return Error {tr("Choose at least one strategy to run.")};
    search::CompareOptions o;
    o.base.problem = chosen->problem;
    if (chosen->pool) {
        o.base.mutator = search::MutatorKind::Pool;
    } else {
        o.base.mutator = search::MutatorKind::Family;
        o.base.mutatorConfig = {{QStringLiteral("family"), chosen->space}};
    }
    o.base.gpu = search::GpuSource::replay();
    o.base.hardware = chosen->hardware;
    o.base.forecaster
        = m_forecaster->currentText().isEmpty() ? QStringLiteral("costmodel") : m_forecaster->currentText();
    o.base.steps = m_steps->value();
    o.base.parentsPerStep = m_parents->value();
    o.base.measurementsPerParent = m_measure->value();
    o.base.proposalsPerParent = m_measure->value();
    o.base.seed = quint64(m_firstSeed->value());
    o.base.tau = m_tau->value();
    if (Status s = o.base.validate(); !s)
        return Error {s.error()};
    auto strategies = search::strategiesFromNames(names.join(QLatin1Char(',')));
    if (!strategies)
        return Error {strategies.error()};
    o.strategies = *strategies;
    o.seeds = m_seeds->value();
    o.proposalFactor = m_factor->value();
    if (const QString model = costModelPath(); !model.isEmpty() && !QFileInfo(model).isFile())
        return Error {tr("There is no cost model file at %1.").arg(model)};
    return o;
}

} // namespace gpuf
