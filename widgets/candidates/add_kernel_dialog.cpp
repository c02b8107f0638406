// AddKernelDialog; see add_kernel_dialog.h.
#include "widgets/candidates/add_kernel_dialog.h"

#include "core/interop/kernel_adding.h"
#include "core/session/selection.h"
#include "core/session/store_session.h"
#include "widgets/candidates/launch_editor.h"
#include "widgets/candidates/spec_fields.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

namespace gpuf {
namespace {

// The launch fields' notation problems and the validator's verdict on the spec they make with `base`.
QList<interop::FieldIssue> checkLaunchSpec(
    const QJsonObject &base, const QList<interop::LaunchFields> &launches, const QString &source)
{
    QList<interop::FieldIssue> issues;
    QStringList buffers;
    for (const QJsonValue b : base.value(QStringLiteral("buffers")).toArray())
        buffers.append(b.toObject().value(QStringLiteral("name")).toString());
    QJsonArray json;
    for (qsizetype i = 0; i < launches.size(); ++i)
        json.append(interop::launchJson(launches[i], int(i), buffers, issues));
    QJsonObject spec = interop::specWithLaunches(base, json);
    spec.insert(QStringLiteral("format"), QStringLiteral("gpuf-kernel/1"));
    spec.insert(QStringLiteral("name"), QStringLiteral("added"));
    spec.insert(QStringLiteral("source"), source);
    QSet<QString> notation;
    for (const interop::FieldIssue &issue : std::as_const(issues))
        notation.insert(issue.field);
    for (const interop::FieldIssue &issue : interop::validateSpecFields(spec)) {
        if (!notation.contains(issue.field))
            issues.append(issue);
    }
    return issues;
}

} // namespace

AddKernelDialog::AddKernelDialog(
    StoreSession *session, Selection *selection, const QStringList &files, const QString &pastedText, QWidget *parent)
    : QDialog(parent)
    , m_session(session)
    , m_selection(selection)
    , m_inputs(new QListWidget(this))
    , m_preview(new QPlainTextEdit(this))
    , m_problem(new QComboBox(this))
    , m_parent(new QComboBox(this))
    , m_name(new QLineEdit(this))
    , m_notes(new QPlainTextEdit(this))
    , m_status(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
    , m_launchGroup(new QGroupBox(tr("&Launch fields"), this))
    , m_launches(new LaunchEditor(this))
    , m_launchNote(new QLabel(this))
{
    setObjectName(QStringLiteral("AddKernelDialog"));
    setWindowTitle(tr("Add Kernel"));
    m_preview->setReadOnly(true);
    m_preview->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_preview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_notes->setPlaceholderText(tr("Optional: what this kernel changes and why"));
    m_notes->setMaximumHeight(m_notes->fontMetrics().lineSpacing() * 4);
    m_name->setPlaceholderText(tr("Optional name"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Add"));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    m_problem->setEnabled(false);
    m_parent->setEnabled(false);
    buildLayout(files.size() > 1);
    connectSignals();
    readInputs(files, pastedText);
}

// The inputs beside the preview, the form, the launch fields, the status line and the buttons.
void AddKernelDialog::buildLayout(bool manyInputs)
{
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_inputs);
    split->addWidget(m_preview);
    split->setStretchFactor(1, 3);
    m_inputs->setVisible(manyInputs);

    auto *form = new QFormLayout;
    form->addRow(tr("&Problem:"), m_problem);
    form->addRow(tr("P&arent:"), m_parent);
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("N&otes:"), m_notes);
    m_launchGroup->setCheckable(true);
    m_launchGroup->setToolTip(tr("Store the kernel with these launches (and the buffers and cases it shares with its "
                                 "parent), so that it can be measured and forecast from what it launches"));
    m_launchNote->setWordWrap(true);
    m_launchNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *launchLayout = new QVBoxLayout(m_launchGroup);
    launchLayout->addWidget(m_launchNote);
    launchLayout->addWidget(m_launches);
    m_launchGroup->setEnabled(false);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(split, 1);
    layout->addLayout(form);
    layout->addWidget(m_launchGroup);
    layout->addWidget(m_status);
    layout->addWidget(m_buttons);
    resize(900, 760);
}

void AddKernelDialog::connectSignals()
{
    auto *launchTimer = new QTimer(this);
    launchTimer->setSingleShot(true);
    launchTimer->setInterval(150);
    connect(m_launches, &LaunchEditor::changed, this, [this, launchTimer] {
        m_launchJob.cancel(); // a check still running is stale now
        m_launchChecking = true;
        updateAddButton();
        launchTimer->start();
    });
    connect(launchTimer, &QTimer::timeout, this, &AddKernelDialog::checkLaunches);
    connect(m_launchGroup, &QGroupBox::toggled, this, [this] {
        m_launchNote->setText(launchNote());
        updateAddButton();
    });
    connect(m_parent, &QComboBox::currentIndexChanged, this, &AddKernelDialog::loadBaseSpec);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &AddKernelDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_problem, &QComboBox::currentIndexChanged, this, &AddKernelDialog::fillParents);
    connect(m_inputs, &QListWidget::currentRowChanged, this, &AddKernelDialog::showInput);
}

// Reads the inputs and the store's problems in the background; applyLoaded fills the dialog.
void AddKernelDialog::readInputs(const QStringList &files, const QString &pastedText)
{
    m_status->setText(tr("Reading %n input(s) and the store's problems…", nullptr, int(qMax(1, files.size()))));
    m_session->read<Loaded>(
        QStringLiteral("inputs"),
        [files, pastedText](Store &store, const CancelToken &cancel) {
            Loaded loaded;
            loaded.inputs = interop::readKernelInputs(files, pastedText);
            auto problems = interop::listProblemChoices(store, cancel);
            if (problems)
                loaded.problems = std::move(*problems);
            else
                loaded.error = problems.error();
            return Result<Loaded>(std::move(loaded));
        },
        this,
        [this](Result<Loaded> loaded) {
            if (!loaded.isCancelled())
                applyLoaded(loaded ? *loaded : Loaded {{}, {}, loaded.error()});
        });
}

AddKernelDialog::~AddKernelDialog() = default;

bool AddKernelDialog::isReady() const { return m_buttons->button(QDialogButtonBox::Ok)->isEnabled(); }

void AddKernelDialog::updateAddButton()
{
    // Not before the parent's spec is read: until then it is unknown whether the kernel gets launch fields.
    bool ready = m_loaded && m_usable > 0 && !m_storing && !m_done && m_problem->currentIndex() >= 0 && !m_baseLoading;
    if (m_launchGroup->isEnabled() && m_launchGroup->isChecked())
        ready = ready && !m_launchChecking && m_launchIssues.isEmpty();
    if (!m_done)
        m_buttons->button(QDialogButtonBox::Ok)->setEnabled(ready);
}

QString AddKernelDialog::launchNote() const
{
    bool cuda = false;
    for (const Input &input : m_loadedInputs)
        cuda = cuda || (input.error.isEmpty() && input.kernel.language == QLatin1StringView("cuda"));
    if (!cuda)
        return tr("Python and Triton kernels launch from their own code: they need no launch fields.");
    if (m_baseLoading)
        return tr("Reading the parent's launches…");
    if (!m_base.error.isEmpty())
        return tr("Cannot read the parent's spec: %1").arg(m_base.error);
    if (m_base.spec.isEmpty())
        return tr("Neither the parent nor the problem's reference has a kernel spec (buffers and cases), so there is "
                  "nothing to launch with: the kernel is stored without launch fields, and cost-model forecasts of it "
                  "rest on unknown launch features. File → New Problem… creates a problem with a spec.");
    if (!m_launchGroup->isChecked())
        return tr("Stored without launch fields: cost-model forecasts of this kernel will rest on unknown launch "
                  "features, and it cannot be measured.");
    if (!m_launchIssues.isEmpty())
        return tr("Starting from the launches of %1; fix the fields marked below, or clear \"Launch fields\" to store "
                  "the kernel without them.")
            .arg(m_base.from);
    return tr("Starting from the launches of %1, whose buffers and cases the kernel shares. Change the entry point "
              "or the geometry where this kernel differs.")
        .arg(m_base.from);
}

void AddKernelDialog::loadBaseSpec()
{
    const int index = m_problem->currentIndex();
    if (index < 0 || index >= m_problems.size())
        return;
    m_baseLoading = true;
    m_launchNote->setText(launchNote());
    updateAddButton();
    m_session->read<interop::KernelBaseSpec>(
        QStringLiteral("base spec"),
        [parentId = RowId(m_parent->currentData().toLongLong()), referenceId = m_problems[index].referenceId](
            Store &store, const CancelToken &cancel) {
            return interop::loadBaseSpec(store, parentId, referenceId, cancel);
        },
        this,
        [this](Result<interop::KernelBaseSpec> base) {
            if (!base.isCancelled())
                applyBaseSpec(base ? BaseSpec {*base, {}} : BaseSpec {{}, base.error()});
        });
}

void AddKernelDialog::applyBaseSpec(const BaseSpec &base)
{
    m_baseLoading = false;
    m_base = base;
    m_launchIssues.clear();
    bool cuda = false;
    for (const Input &input : std::as_const(m_loadedInputs))
        cuda = cuda || (input.error.isEmpty() && input.kernel.language == QLatin1StringView("cuda"));
    const bool usable = cuda && !base.spec.isEmpty();
    m_launchGroup->setEnabled(usable);
    m_launchGroup->setChecked(usable);
    m_launches->setLaunches(base.launches);
    m_launches->setIssues({});
    m_launchNote->setText(launchNote());
    if (usable)
        checkLaunches();
    updateAddButton();
}

void AddKernelDialog::checkLaunches()
{
    if (m_base.spec.isEmpty())
        return;
    m_launchChecking = true;
    QString source;
    for (const Input &input : std::as_const(m_loadedInputs)) {
        if (input.error.isEmpty() && source.isEmpty())
            source = input.kernel.source;
    }
    m_launchJob.start([base = m_base.spec, launches = m_launches->launches(), source](
                          const CancelToken &) { return checkLaunchSpec(base, launches, source); },
        [this](Result<QList<interop::FieldIssue>> issues) {
            m_launchChecking = false;
            m_launchIssues = *issues;
            m_launches->setIssues(m_launchIssues);
            m_launchNote->setText(launchNote());
            updateAddButton();
        });
}

QJsonObject AddKernelDialog::launchSpec() const
{
    QList<interop::FieldIssue> ignored;
    QStringList buffers;
    for (const QJsonValue b : m_base.spec.value(QStringLiteral("buffers")).toArray())
        buffers.append(b.toObject().value(QStringLiteral("name")).toString());
    QJsonArray launches;
    const QList<interop::LaunchFields> fields = m_launches->launches();
    for (qsizetype i = 0; i < fields.size(); ++i)
        launches.append(interop::launchJson(fields[i], int(i), buffers, ignored));
    return interop::specWithLaunches(m_base.spec, launches);
}

void AddKernelDialog::applyLoaded(const Loaded &loaded)
{
    m_loaded = true;
    m_loadedInputs = loaded.inputs;
    m_problems = loaded.problems;
    int usable = 0;
    for (const Input &input : std::as_const(m_loadedInputs)) {
        auto *item = new QListWidgetItem(input.label, m_inputs);
        if (!input.error.isEmpty()) {
            item->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
            item->setToolTip(input.error);
        } else {
            ++usable;
        }
    }
    m_name->setEnabled(m_loadedInputs.size() == 1);
    if (m_loadedInputs.size() == 1)
        m_name->setText(m_loadedInputs.first().kernel.name);
    m_inputs->setCurrentRow(0);

    if (!loaded.error.isEmpty()) {
        m_status->setText(tr("Cannot read the store: %1").arg(loaded.error));
        return;
    }
    if (m_problems.isEmpty()) {
        m_status->setText(tr("This store has no problems yet: import a bundle or a corpus first; a kernel always "
                             "belongs to a problem."));
        return;
    }
    // The problem in focus: the selected candidate's, else the scope's, else the first.
    const RowId wanted = m_selection->problemId();
    int current = 0;
    for (int i = 0; i < m_problems.size(); ++i) {
        m_problem->addItem(m_problems[i].name, m_problems[i].id);
        if (m_problems[i].id == wanted)
            current = i;
        for (const auto &[id, label] : std::as_const(m_problems[i].kernels)) {
            if (id == m_selection->candidateId() && wanted == 0)
                current = i;
        }
    }
    m_problem->setCurrentIndex(current);
    m_problem->setEnabled(true);
    m_parent->setEnabled(true);
    fillParents();

    QStringList errors;
    for (const Input &input : std::as_const(m_loadedInputs)) {
        if (!input.error.isEmpty())
            errors.append(input.error);
    }
    if (usable == 0) {
        m_status->setText(errors.join(QLatin1Char('\n')));
        return;
    }
    m_status->setText(errors.isEmpty() ? QString()
                                       : tr("%n input(s) will be skipped:", nullptr, int(errors.size()))
                + QLatin1Char('\n') + errors.join(QLatin1Char('\n')));
    m_usable = usable;
    updateAddButton();
}

void AddKernelDialog::fillParents()
{
    m_parent->clear();
    const int index = m_problem->currentIndex();
    if (index < 0 || index >= m_problems.size())
        return;
    const ProblemEntry &problem = m_problems[index];
    m_parent->addItem(tr("(no parent)"), RowId(0));
    int current = 0;
    for (const auto &[id, label] : problem.kernels) {
        QString text = label;
        if (id == problem.referenceId)
            text += tr(" — reference");
        m_parent->addItem(text, id);
        // Default: the candidate in focus when it belongs here, else the problem's reference.
        if (id == m_selection->candidateId() || (id == problem.referenceId && current == 0))
            current = m_parent->count() - 1;
    }
    m_parent->setCurrentIndex(current);
}

void AddKernelDialog::showInput(int row)
{
    if (row < 0 || row >= m_loadedInputs.size()) {
        m_preview->clear();
        return;
    }
    const Input &input = m_loadedInputs[row];
    m_preview->setPlainText(input.error.isEmpty() ? input.kernel.source : input.error);
}

void AddKernelDialog::accept()
{
    if (m_done) {
        QDialog::accept();
        return;
    }
    if (m_storing || !m_loaded || m_problem->currentIndex() < 0)
        return;
    m_storing = true;
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    const ProblemEntry &problem = m_problems[m_problem->currentIndex()];
    const RowId parentId = m_parent->currentData().toLongLong();
    QList<Input> inputs = m_loadedInputs;
    if (inputs.size() == 1 && inputs.first().error.isEmpty())
        inputs.first().kernel.name = m_name->text().trimmed();
    const QString notes = m_notes->toPlainText().trimmed();
    const bool withLaunches = m_launchGroup->isEnabled() && m_launchGroup->isChecked() && !m_base.spec.isEmpty();
    const QJsonObject spec = withLaunches ? launchSpec() : QJsonObject {};
    for (Input &input : inputs) {
        input.kernel.notes = notes;
        if (withLaunches && input.kernel.language == QLatin1StringView("cuda"))
            input.kernel.parameters.insert(QStringLiteral("spec"), spec);
    }
    const RowId baselineId = parentId != 0 ? parentId : problem.referenceId;
    const RowId problemId = problem.id;

    m_status->setText(tr("Storing…"));
    m_session->beginWork(tr("Adding kernels"));
    m_session->write<QList<Outcome>>(
        [inputs, problemId, parentId](Store &store) {
            return Result<QList<Outcome>>(interop::addKernelInputs(store, inputs, problemId, parentId));
        },
        this,
        [this, problemId, baselineId, count = inputs.size()](Result<QList<Outcome>> outcomes) {
            m_session->endWork();
            if (outcomes) {
                applyOutcomes(*outcomes, problemId, baselineId);
                return;
            }
            // The store could not be opened: every input fails with that reason.
            QList<Outcome> failed;
            for (qsizetype i = 0; i < count; ++i)
                failed.append({m_loadedInputs.value(i).label, 0, false, false, outcomes.error()});
            applyOutcomes(failed, problemId, baselineId);
        });
}

void AddKernelDialog::applyOutcomes(const QList<Outcome> &outcomes, RowId problemId, RowId baselineId)
{
    m_storing = false;
    QStringList lines;
    QList<RowId> ids;
    bool failed = false;
    for (const Outcome &outcome : outcomes) {
        if (!outcome.error.isEmpty()) {
            failed = true;
            lines.append(tr("%1: not added — %2").arg(outcome.label, outcome.error));
        } else if (outcome.specAdded) {
            ids.append(outcome.id);
            lines.append(tr("%1: already in the store as kernel #%2 (same source); its launch fields were added")
                             .arg(outcome.label)
                             .arg(outcome.id));
        } else if (outcome.inserted) {
            ids.append(outcome.id);
            lines.append(tr("%1: added as kernel #%2").arg(outcome.label).arg(outcome.id));
        } else {
            ids.append(outcome.id);
            lines.append(tr("%1: already in the store as kernel #%2 (same source); nothing changed")
                             .arg(outcome.label)
                             .arg(outcome.id));
        }
    }
    m_status->setText(lines.join(QLatin1Char('\n')));
    if (!ids.isEmpty()) {
        Q_EMIT kernelsAdded(problemId, ids, baselineId, lines.join(QStringLiteral("; ")));
        m_session->announce(StoreChange::of(StoreChange::Kind::Kernels, ids));
    }
    if (!failed && !ids.isEmpty()) {
        QDialog::accept();
        return;
    }
    // Something was refused: keep the dialog open so the reasons stay readable; the button now closes it.
    m_done = true;
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Close"));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(true);
    m_buttons->button(QDialogButtonBox::Cancel)->setVisible(false);
}

} // namespace gpuf
