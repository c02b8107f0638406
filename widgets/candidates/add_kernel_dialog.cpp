// AddKernelDialog; see add_kernel_dialog.h.
#include "widgets/candidates/add_kernel_dialog.h"

#include "core/interop/kernel_input.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"
#include "widgets/session/selection.h"
#include "widgets/session/store_session.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace gpuf {
namespace {

AddKernelDialog::Loaded loadInputs(const QString &storePath, const QStringList &files, const QString &pastedText)
{
    AddKernelDialog::Loaded loaded;
    for (const QString &file : files) {
        AddKernelDialog::Input input;
        input.label = QFileInfo(file).fileName();
        auto kernel = interop::kernelFromFile(file);
        if (kernel)
            input.kernel = std::move(*kernel);
        else
            input.error = kernel.error();
        loaded.inputs.append(std::move(input));
    }
    if (files.isEmpty()) {
        AddKernelDialog::Input input;
        input.label = AddKernelDialog::tr("Pasted code");
        auto kernel = interop::kernelFromText(pastedText);
        if (kernel)
            input.kernel = std::move(*kernel);
        else
            input.error = kernel.error();
        loaded.inputs.append(std::move(input));
    }

    auto store = Store::open(storePath, Store::Mode::ExistingOnly, Store::Check::Header);
    if (!store) {
        loaded.error = store.error();
        return loaded;
    }
    auto problems = ProblemRepo(**store).list();
    auto kernels = KernelRepo(**store).summaries();
    if (!problems || !kernels) {
        loaded.error = problems ? kernels.error() : problems.error();
        return loaded;
    }
    QHash<RowId, int> index;
    for (const Problem &problem : *problems) {
        index.insert(problem.id, int(loaded.problems.size()));
        loaded.problems.append({problem.id, problem.name, problem.referenceKernelId, {}});
    }
    for (const KernelSummary &kernel : *kernels) {
        const auto it = index.constFind(kernel.problemId);
        if (it == index.cend())
            continue;
        const QString name = kernel.name.isEmpty() ? kernel.contentHash.left(10) : kernel.name;
        loaded.problems[*it].kernels.append(
            {kernel.id, QStringLiteral("#%1 %2 (%3)").arg(kernel.id).arg(name, kernel.origin)});
    }
    return loaded;
}

QList<AddKernelDialog::Outcome> storeInputs(
    const QString &storePath, const QList<AddKernelDialog::Input> &inputs, RowId problemId, RowId parentId)
{
    QList<AddKernelDialog::Outcome> outcomes;
    auto store = Store::open(storePath, Store::Mode::ExistingOnly, Store::Check::Header);
    for (const AddKernelDialog::Input &input : inputs) {
        AddKernelDialog::Outcome outcome;
        outcome.label = input.label;
        if (!input.error.isEmpty()) {
            outcome.error = input.error;
        } else if (!store) {
            outcome.error = store.error();
        } else {
            Kernel kernel = input.kernel;
            kernel.problemId = problemId;
            kernel.parentId = parentId;
            auto added = interop::addKernel(**store, kernel);
            if (added) {
                outcome.id = added->id;
                outcome.inserted = added->inserted;
            } else {
                outcome.error = added.error();
            }
        }
        outcomes.append(outcome);
    }
    return outcomes;
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

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_inputs);
    split->addWidget(m_preview);
    split->setStretchFactor(1, 3);
    m_inputs->setVisible(files.size() > 1);

    auto *form = new QFormLayout;
    form->addRow(tr("&Problem:"), m_problem);
    form->addRow(tr("P&arent:"), m_parent);
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("N&otes:"), m_notes);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(split, 1);
    layout->addLayout(form);
    layout->addWidget(m_status);
    layout->addWidget(m_buttons);
    resize(820, 560);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &AddKernelDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_problem, &QComboBox::currentIndexChanged, this, &AddKernelDialog::fillParents);
    connect(m_inputs, &QListWidget::currentRowChanged, this, &AddKernelDialog::showInput);

    m_status->setText(tr("Reading %n input(s) and the store's problems…", nullptr, int(qMax(1, files.size()))));
    auto *watcher = new QFutureWatcher<Loaded>(this);
    connect(watcher, &QFutureWatcher<Loaded>::finished, this, [this, watcher]() {
        watcher->deleteLater();
        applyLoaded(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(loadInputs, session->path(), files, pastedText));
}

AddKernelDialog::~AddKernelDialog() = default;

bool AddKernelDialog::isReady() const { return m_buttons->button(QDialogButtonBox::Ok)->isEnabled(); }

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
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(true);
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
        if (id == m_selection->candidateId())
            current = m_parent->count() - 1;
        else if (id == problem.referenceId && current == 0)
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
    for (Input &input : inputs)
        input.kernel.notes = notes;
    const RowId baselineId = parentId != 0 ? parentId : problem.referenceId;
    const RowId problemId = problem.id;

    m_status->setText(tr("Storing…"));
    m_session->beginWork(tr("Adding kernels"));
    auto *watcher = new QFutureWatcher<QList<Outcome>>(this);
    connect(watcher, &QFutureWatcher<QList<Outcome>>::finished, this, [=, this]() {
        watcher->deleteLater();
        m_session->endWork();
        applyOutcomes(watcher->result(), problemId, baselineId);
    });
    watcher->setFuture(QtConcurrent::run(storeInputs, m_session->path(), inputs, problemId, parentId));
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
        m_session->refresh();
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
