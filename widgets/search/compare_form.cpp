// CompareForm; see compare_form.h.
#include "widgets/search/compare_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QSpinBox>

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

    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    const QList<std::pair<QString, QWidget *>> fields {{tr("Space"), m_space}, {tr("GPU"), m_hardware},
        {tr("Forecaster"), m_forecaster}, {tr("Seeds"), m_seeds}, {tr("Steps"), m_steps}, {tr("Parents"), m_parents},
        {tr("Measure"), m_measure}};
    auto *row = new QHBoxLayout;
    for (const auto &[label, field] : fields) {
        auto *name = new QLabel(label, this);
        name->setBuddy(field);
        row->addWidget(name);
        row->addWidget(field);
        row->addSpacing(6);
    }
    row->addStretch(1);
    grid->addLayout(row, 0, 0);
    auto *strategies = new QHBoxLayout;
    strategies->addWidget(new QLabel(tr("Strategies"), this));
    for (int i = 0; i < int(std::size(kStrategyNames)); ++i) {
        auto *box = new QCheckBox(QString::fromLatin1(kStrategyNames[i]), this);
        box->setObjectName(QString::fromLatin1(kStrategyNames[i]));
        box->setChecked(i < kDefaultStrategies);
        box->setToolTip(tr(kStrategyTips[i]));
        connect(box, &QCheckBox::toggled, this, &CompareForm::changed);
        strategies->addWidget(box);
        m_strategies.append(box);
    }
    strategies->addStretch(1);
    grid->addLayout(strategies, 1, 0);

    connect(m_space, &QComboBox::currentIndexChanged, this, [this] {
        fillHardware();
        Q_EMIT changed();
    });
    connect(m_hardware, &QComboBox::currentIndexChanged, this, &CompareForm::changed);
    connect(m_forecaster, &QComboBox::currentIndexChanged, this, &CompareForm::changed);
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
            if (m_space->findData(s.space) >= 0)
                continue;
            const QString title = s.problem == s.space ? s.space : tr("%1 (problem %2)").arg(s.space, s.problem);
            m_space->addItem(title, s.space);
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
    const QString space = m_space->currentData().toString();
    for (const search::CompareSpace &s : std::as_const(m_choices.spaces)) {
        if (s.space == space)
            m_hardware->addItem(tr("%1 — %Ln configuration(s)", nullptr, s.configurations).arg(s.hardware), s.hardware);
    }
}

bool CompareForm::hasSpaces() const { return !m_choices.spaces.isEmpty(); }

bool CompareForm::choose(const QString &space, const QString &hardware)
{
    const int s = m_space->findData(space);
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

int CompareForm::budget() const { return m_steps->value() * m_parents->value() * m_measure->value() + 1; }

Result<search::CompareOptions> CompareForm::options() const
{
    const QString space = m_space->currentData().toString();
    const QString hardware = m_hardware->currentData().toString();
    const search::CompareSpace *chosen = nullptr;
    for (const search::CompareSpace &s : m_choices.spaces) {
        if (s.space == space && s.hardware == hardware)
            chosen = &s;
    }
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
    o.base.mutator = search::MutatorKind::Family;
    o.base.mutatorConfig = {{QStringLiteral("family"), chosen->space}};
    o.base.gpu = search::GpuSource::replay();
    o.base.hardware = chosen->hardware;
    o.base.forecaster
        = m_forecaster->currentText().isEmpty() ? QStringLiteral("costmodel") : m_forecaster->currentText();
    o.base.steps = m_steps->value();
    o.base.parentsPerStep = m_parents->value();
    o.base.measurementsPerParent = m_measure->value();
    o.base.proposalsPerParent = m_measure->value();
    if (Status s = o.base.validate(); !s)
        return Error {s.error()};
    auto strategies = search::strategiesFromNames(names.join(QLatin1Char(',')));
    if (!strategies)
        return Error {strategies.error()};
    o.strategies = *strategies;
    o.seeds = m_seeds->value();
    return o;
}

} // namespace gpuf
