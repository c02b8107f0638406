// NewProblemDialog; see new_problem_dialog.h.
#include "widgets/candidates/new_problem_dialog.h"

#include "core/interop/kernel_adding.h"
#include "core/interop/kernel_input.h"
#include "core/session/store_session.h"
#include "widgets/candidates/launch_editor.h"
#include "widgets/candidates/spec_fields.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace gpuf {
namespace {

enum BufferColumn { BufferName, BufferType, BufferCount, BufferRole, BufferInit, BufferColumns };
enum CaseColumn { CaseName, CaseVars, CaseColumns };

const QStringList kDtypes {QStringLiteral("f32"), QStringLiteral("f16"), QStringLiteral("bf16"), QStringLiteral("i32"),
    QStringLiteral("i64"), QStringLiteral("u8")};
const QStringList kRoles {QStringLiteral("input"), QStringLiteral("output"), QStringLiteral("inout")};

QLabel *issueLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->hide();
    return label;
}

QComboBox *choiceBox(const QStringList &choices, const QString &current, QWidget *parent)
{
    auto *box = new QComboBox(parent);
    box->addItems(choices);
    box->setCurrentText(current);
    return box;
}

QString cellText(const QTableWidget *table, int row, int column)
{
    if (auto *box = qobject_cast<QComboBox *>(table->cellWidget(row, column)))
        return box->currentText();
    const QTableWidgetItem *item = table->item(row, column);
    return item ? item->text() : QString();
}

// A starting point that is valid once a source is given: y = 2·x over n floats, in two sizes.
interop::ProblemFields starterFields()
{
    interop::ProblemFields f;
    f.referenceName = QStringLiteral("v0_naive");
    interop::LaunchFields launch;
    launch.grid = {QStringLiteral("ceil_div(n, 256)"), QStringLiteral("1"), QStringLiteral("1")};
    launch.block = {QStringLiteral("256"), QStringLiteral("1"), QStringLiteral("1")};
    launch.args = QStringLiteral("x, y, n:i32");
    f.launches = {launch};
    f.buffers = {{QStringLiteral("x"), QStringLiteral("f32"), QStringLiteral("n"), QStringLiteral("input"),
                     QStringLiteral("uniform(-1, 1, seed=1)")},
        {QStringLiteral("y"), QStringLiteral("f32"), QStringLiteral("n"), QStringLiteral("output"), QString()}};
    f.cases = {
        {QStringLiteral("small"), QStringLiteral("n=65536")}, {QStringLiteral("large"), QStringLiteral("n=16777216")}};
    return f;
}

} // namespace

NewProblemDialog::NewProblemDialog(StoreSession *session, QWidget *parent)
    : QDialog(parent)
    , m_session(session)
    , m_name(new QLineEdit(this))
    , m_family(new QLineEdit(this))
    , m_description(new QLineEdit(this))
    , m_referenceName(new QLineEdit(this))
    , m_source(new QPlainTextEdit(this))
    , m_problemIssues(issueLabel(this))
    , m_sourceIssues(issueLabel(this))
    , m_launches(new LaunchEditor(this))
    , m_buffers(new QTableWidget(0, BufferColumns, this))
    , m_bufferIssues(issueLabel(this))
    , m_cases(new QTableWidget(0, CaseColumns, this))
    , m_caseIssues(issueLabel(this))
    , m_rtol(new QLineEdit(this))
    , m_atol(new QLineEdit(this))
    , m_bytesMoved(new QLineEdit(this))
    , m_flops(new QLineEdit(this))
    , m_toleranceIssues(issueLabel(this))
    , m_summary(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
    , m_timer(new QTimer(this))
{
    setObjectName(QStringLiteral("NewProblemDialog"));
    setWindowTitle(tr("New Problem"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    createButton()->setText(tr("&Create Problem"));
    createButton()->setEnabled(false);
    m_timer->setSingleShot(true);
    m_timer->setInterval(150); // a check per pause in typing, not per keystroke

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(buildProblemSide());
    split->addWidget(buildSpecSide());
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(split, 1);
    layout->addWidget(m_summary);
    layout->addWidget(m_buttons);
    resize(1180, 820);

    setFields(starterFields());
    connect(m_buttons, &QDialogButtonBox::accepted, this, &NewProblemDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_timer, &QTimer::timeout, this, &NewProblemDialog::check);
    for (QLineEdit *edit : {m_name, m_family, m_description, m_referenceName, m_rtol, m_atol, m_bytesMoved, m_flops})
        connect(edit, &QLineEdit::textChanged, this, &NewProblemDialog::scheduleCheck);
    connect(m_source, &QPlainTextEdit::textChanged, this, &NewProblemDialog::scheduleCheck);
    connect(m_launches, &LaunchEditor::changed, this, &NewProblemDialog::scheduleCheck);
    connect(m_buffers, &QTableWidget::itemChanged, this, &NewProblemDialog::scheduleCheck);
    connect(m_cases, &QTableWidget::itemChanged, this, &NewProblemDialog::scheduleCheck);

    // The store's problem names, so a taken name is caught as it is typed.
    m_summary->setText(tr("Reading the store's problems…"));
    m_session->read<QStringList>(
        QStringLiteral("problem names"), interop::listProblemNames, this, [this](Result<QStringList> names) {
            m_namesLoaded = true;
            if (names)
                m_existingNames = *names;
            else
                m_summary->setText(tr("Cannot read the store: %1").arg(names.error()));
            if (names)
                check();
        });
}

NewProblemDialog::~NewProblemDialog() = default;

QPushButton *NewProblemDialog::createButton() const { return m_buttons->button(QDialogButtonBox::Ok); }

QWidget *NewProblemDialog::buildProblemSide()
{
    auto *side = new QWidget(this);
    auto *problem = new QGroupBox(tr("Problem"), side);
    auto *form = new QFormLayout(problem);
    m_name->setPlaceholderText(tr("e.g. sgemm_4096"));
    m_family->setPlaceholderText(tr("Optional operation family, e.g. gemm"));
    m_description->setPlaceholderText(tr("Optional: what the operation computes"));
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Family:"), m_family);
    form->addRow(tr("&Description:"), m_description);
    form->addRow(m_problemIssues);

    auto *reference = new QGroupBox(tr("Reference kernel"), side);
    auto *refLayout = new QVBoxLayout(reference);
    auto *nameRow = new QHBoxLayout;
    auto *open = new QPushButton(tr("&Load from File…"), reference);
    nameRow->addWidget(new QLabel(tr("Kernel name:"), reference));
    nameRow->addWidget(m_referenceName, 1);
    nameRow->addWidget(open);
    m_source->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_source->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_source->setPlaceholderText(tr("Paste the reference kernel's CUDA source here, or load it from a file. Its "
                                    "entry points may be extern \"C\" names, C++ names or template instantiations."));
    refLayout->addLayout(nameRow);
    refLayout->addWidget(m_source, 1);
    refLayout->addWidget(m_sourceIssues);
    connect(open, &QPushButton::clicked, this, &NewProblemDialog::loadSourceFile);

    auto *layout = new QVBoxLayout(side);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(problem);
    layout->addWidget(reference, 1);
    return side;
}

// Tolerances and the work expressions (bytes moved, FLOPs) the roofline and the plausibility check read.
QGroupBox *NewProblemDialog::buildToleranceGroup(QWidget *inner)
{
    auto *tolerance = new QGroupBox(tr("Correctness and work"), inner);
    auto *tolForm = new QFormLayout(tolerance);
    auto *tolRow = new QHBoxLayout;
    tolRow->addWidget(new QLabel(tr("rtol"), tolerance));
    tolRow->addWidget(m_rtol);
    tolRow->addWidget(new QLabel(tr("atol"), tolerance));
    tolRow->addWidget(m_atol);
    m_bytesMoved->setPlaceholderText(tr("Optional, e.g. 2*n*4"));
    m_flops->setPlaceholderText(tr("Optional, e.g. n"));
    tolForm->addRow(tr("&Tolerance:"), tolRow);
    tolForm->addRow(tr("&Bytes moved:"), m_bytesMoved);
    tolForm->addRow(tr("F&LOPs:"), m_flops);
    tolForm->addRow(m_toleranceIssues);
    return tolerance;
}

// A table of the spec (buffers, cases) in a group with its Add and Remove buttons, a hint and its issues' label.
QGroupBox *NewProblemDialog::buildTableGroup(QWidget *inner, const QString &title, QTableWidget *table,
    const QStringList &headers, QLabel *issues, const QString &hint, const std::function<void()> &addRow)
{
    auto *group = new QGroupBox(title, inner);
    table->setHorizontalHeaderLabels(headers);
    table->horizontalHeader()->setStretchLastSection(true);
    table->verticalHeader()->hide();
    table->setMinimumHeight(table->verticalHeader()->defaultSectionSize() * 4);
    auto *add = new QToolButton(group);
    add->setText(tr("Add"));
    auto *remove = new QToolButton(group);
    remove->setText(tr("Remove"));
    connect(add, &QToolButton::clicked, this, [this, addRow] {
        addRow();
        scheduleCheck();
    });
    connect(remove, &QToolButton::clicked, this, [this, table] {
        const int row = table->currentRow();
        if (row >= 0) {
            table->removeRow(row);
            scheduleCheck();
        }
    });
    auto *hintLabel = new QLabel(hint, group);
    hintLabel->setWordWrap(true);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(hintLabel, 1);
    buttons->addWidget(add);
    buttons->addWidget(remove);
    auto *layout = new QVBoxLayout(group);
    layout->addWidget(table, 1);
    layout->addLayout(buttons);
    layout->addWidget(issues);
    return group;
}

QWidget *NewProblemDialog::buildSpecSide()
{
    auto *inner = new QWidget(this);
    auto *launches = new QGroupBox(tr("Launches"), inner);
    auto *launchLayout = new QVBoxLayout(launches);
    launchLayout->addWidget(m_launches);

    QGroupBox *buffers = buildTableGroup(inner, tr("Buffers"), m_buffers,
        {tr("Name"), tr("Type"), tr("Count"), tr("Role"), tr("Initialiser")}, m_bufferIssues,
        tr("Count: an element-count expression over the case variables. Initialiser (inputs): uniform(low, high, "
           "seed=S), normal(mean, std, seed=S), constant(v) or iota(start, step)."),
        [this] { addBufferRow({}); });
    QGroupBox *cases = buildTableGroup(inner, tr("Cases"), m_cases, {tr("Name"), tr("Variables")}, m_caseIssues,
        tr("Variables: NAME=NUMBER, separated by commas (n=4096, k=64)."), [this] { addCaseRow({}); });

    QGroupBox *tolerance = buildToleranceGroup(inner);

    auto *layout = new QVBoxLayout(inner);
    layout->addWidget(launches);
    layout->addWidget(buffers, 1);
    layout->addWidget(cases, 1);
    layout->addWidget(tolerance);
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(inner);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    return scroll;
}

void NewProblemDialog::addBufferRow(const interop::BufferFields &buffer)
{
    const QSignalBlocker blocker(m_buffers);
    const int row = m_buffers->rowCount();
    m_buffers->insertRow(row);
    m_buffers->setItem(row, BufferName, new QTableWidgetItem(buffer.name));
    m_buffers->setItem(row, BufferCount, new QTableWidgetItem(buffer.count));
    m_buffers->setItem(row, BufferInit, new QTableWidgetItem(buffer.init));
    auto *type = choiceBox(kDtypes, buffer.dtype, m_buffers);
    auto *role = choiceBox(kRoles, buffer.role, m_buffers);
    m_buffers->setCellWidget(row, BufferType, type);
    m_buffers->setCellWidget(row, BufferRole, role);
    connect(type, &QComboBox::currentTextChanged, this, &NewProblemDialog::scheduleCheck);
    connect(role, &QComboBox::currentTextChanged, this, &NewProblemDialog::scheduleCheck);
}

void NewProblemDialog::addCaseRow(const interop::CaseFields &c)
{
    const QSignalBlocker blocker(m_cases);
    const int row = m_cases->rowCount();
    m_cases->insertRow(row);
    m_cases->setItem(row, CaseName, new QTableWidgetItem(c.name));
    m_cases->setItem(row, CaseVars, new QTableWidgetItem(c.vars));
}

interop::ProblemFields NewProblemDialog::fields() const
{
    interop::ProblemFields f;
    f.name = m_name->text();
    f.family = m_family->text();
    f.description = m_description->text();
    f.referenceName = m_referenceName->text();
    f.source = m_source->toPlainText();
    f.launches = m_launches->launches();
    for (int row = 0; row < m_buffers->rowCount(); ++row) {
        f.buffers.append({cellText(m_buffers, row, BufferName), cellText(m_buffers, row, BufferType),
            cellText(m_buffers, row, BufferCount), cellText(m_buffers, row, BufferRole),
            cellText(m_buffers, row, BufferInit)});
    }
    for (int row = 0; row < m_cases->rowCount(); ++row)
        f.cases.append({cellText(m_cases, row, CaseName), cellText(m_cases, row, CaseVars)});
    f.rtol = m_rtol->text();
    f.atol = m_atol->text();
    f.bytesMoved = m_bytesMoved->text();
    f.flops = m_flops->text();
    return f;
}

void NewProblemDialog::setFields(const interop::ProblemFields &f)
{
    m_name->setText(f.name);
    m_family->setText(f.family);
    m_description->setText(f.description);
    m_referenceName->setText(f.referenceName);
    m_source->setPlainText(f.source);
    m_launches->setLaunches(f.launches);
    m_buffers->setRowCount(0);
    for (const interop::BufferFields &b : f.buffers)
        addBufferRow(b);
    m_cases->setRowCount(0);
    for (const interop::CaseFields &c : f.cases)
        addCaseRow(c);
    m_rtol->setText(f.rtol);
    m_atol->setText(f.atol);
    m_bytesMoved->setText(f.bytesMoved);
    m_flops->setText(f.flops);
    // Room for a name, an expression and an initialiser as people write them.
    const int em = fontMetrics().horizontalAdvance(QLatin1Char('m'));
    m_buffers->setColumnWidth(BufferName, em * 7);
    m_buffers->setColumnWidth(BufferType, em * 6);
    m_buffers->setColumnWidth(BufferCount, em * 10);
    m_buffers->setColumnWidth(BufferRole, em * 7);
    m_cases->setColumnWidth(CaseName, em * 9);
    scheduleCheck();
}

void NewProblemDialog::scheduleCheck()
{
    m_checkJob.cancel(); // a check still running is stale now
    m_checking = true;
    createButton()->setEnabled(false);
    m_timer->start();
}

void NewProblemDialog::check()
{
    if (!m_namesLoaded)
        return; // checked once the names arrive
    m_checking = true;
    m_checkJob.start([fields = fields(), names = m_existingNames](
                         const CancelToken &) { return interop::checkProblemFields(fields, names); },
        [this](Result<QList<interop::FieldIssue>> issues) { applyIssues(*issues); });
}

void NewProblemDialog::markTable(
    QTableWidget *table, const QString &prefix, const QStringList &columns, const QList<interop::FieldIssue> &issues)
{
    const QSignalBlocker blocker(table);
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    const QColor tint = dark ? QColor(0x80, 0x20, 0x20) : QColor(0xff, 0xd6, 0xd6);
    for (int row = 0; row < table->rowCount(); ++row) {
        for (int column = 0; column < columns.size(); ++column) {
            QTableWidgetItem *item = table->item(row, column);
            if (!item)
                continue; // a combo box: its choices are all valid
            const QString field = QStringLiteral("%1[%2].%3").arg(prefix).arg(row).arg(columns[column]);
            QStringList messages;
            for (const interop::FieldIssue &issue : issuesUnder(issues, field))
                messages.append(
                    issue.caseName.isEmpty() ? issue.message : tr("%1 (case %2)").arg(issue.message, issue.caseName));
            item->setBackground(messages.isEmpty() ? QBrush() : QBrush(tint));
            item->setToolTip(messages.join(u'\n'));
        }
    }
}

void NewProblemDialog::applyIssues(const QList<interop::FieldIssue> &issues)
{
    m_issues = issues;
    m_checking = false;
    QStringList nameMessages;
    for (const interop::FieldIssue &issue : issuesUnder(issues, QStringLiteral("problem.name")))
        nameMessages.append(issue.message);
    markField(m_name, nameMessages);
    showIssues(m_problemIssues, issuesUnder(issues, QStringLiteral("problem.")));
    showIssues(m_sourceIssues, issuesUnder(issues, QStringLiteral("source")));
    m_launches->setIssues(issues);
    const QList<interop::FieldIssue> bufferIssues = issuesUnder(issues, QStringLiteral("buffers"));
    showIssues(m_bufferIssues, bufferIssues);
    markTable(m_buffers, QStringLiteral("buffers"),
        {QStringLiteral("name"), QStringLiteral("dtype"), QStringLiteral("count"), QStringLiteral("role"),
            QStringLiteral("init")},
        bufferIssues);
    // An expression failing in one case is shown at the launch or buffer it belongs to (with the case's name), so
    // these are the cases' own fields only.
    const QList<interop::FieldIssue> caseIssues = issuesUnder(issues, QStringLiteral("cases"));
    showIssues(m_caseIssues, caseIssues);
    markTable(m_cases, QStringLiteral("cases"), {QStringLiteral("name"), QStringLiteral("vars")}, caseIssues);
    QList<interop::FieldIssue> other;
    for (const interop::FieldIssue &issue : issues) {
        if (issue.field.startsWith(QLatin1StringView("tolerance")) || issue.field == QLatin1StringView("bytes_moved")
            || issue.field == QLatin1StringView("flops") || issue.field.isEmpty()
            || issue.field == QLatin1StringView("launches"))
            other.append(issue);
    }
    showIssues(m_toleranceIssues, other);
    markField(m_rtol,
        issuesUnder(issues, QStringLiteral("tolerance.rtol")).isEmpty() ? QStringList()
                                                                        : QStringList {tr("not valid")});
    markField(m_atol,
        issuesUnder(issues, QStringLiteral("tolerance.atol")).isEmpty() ? QStringList()
                                                                        : QStringList {tr("not valid")});

    if (issues.isEmpty()) {
        m_summary->setText(tr("The spec is valid: creating the problem stores it and its reference kernel, ready to "
                              "measure and forecast."));
    } else {
        m_summary->setText(tr("%n problem(s) to fix before the problem can be created (each is shown next to its "
                              "field).",
            nullptr, int(issues.size())));
    }
    createButton()->setEnabled(issues.isEmpty() && !m_storing);
}

QString NewProblemDialog::summaryText() const { return m_summary->text(); }

QString NewProblemDialog::sectionIssues(const QString &section) const
{
    const QLabel *label = section == QLatin1StringView("problem") ? m_problemIssues
        : section == QLatin1StringView("source")                  ? m_sourceIssues
        : section == QLatin1StringView("buffers")                 ? m_bufferIssues
        : section == QLatin1StringView("cases")                   ? m_caseIssues
                                                                  : m_toleranceIssues;
    return label->isHidden() ? QString() : label->text();
}

void NewProblemDialog::loadSourceFile()
{
    const QString file = QFileDialog::getOpenFileName(
        this, tr("Reference Kernel"), QString(), tr("CUDA sources (*.cu *.cuh);;All files (*)"));
    if (file.isEmpty())
        return;
    m_fileJob.start([file](const CancelToken &) { return interop::kernelFromFile(file); },
        [this](Result<Kernel> kernel) {
            if (!kernel) {
                showIssues(m_sourceIssues, {{QStringLiteral("source"), kernel.error(), {}}});
                return;
            }
            m_source->setPlainText(kernel->source);
            if (m_referenceName->text().trimmed().isEmpty() || m_referenceName->text() == starterFields().referenceName)
                m_referenceName->setText(QFileInfo(kernel->name).completeBaseName());
        });
}

void NewProblemDialog::accept()
{
    if (m_storing || m_checking || !m_issues.isEmpty())
        return;
    m_storing = true;
    createButton()->setEnabled(false);
    m_summary->setText(tr("Creating the problem…"));
    m_session->beginWork(tr("Creating a problem"));
    const interop::ProblemFields f = fields();
    const auto create = [f](Store &store) { return interop::createProblem(store, f); };
    m_session->write<interop::CreatedProblem>(create, this, [this, f](Result<interop::CreatedProblem> created) {
        m_session->endWork();
        m_storing = false;
        if (!created) {
            m_summary->setText(tr("Not created: %1").arg(created.error()));
            createButton()->setEnabled(true);
            return;
        }
        Q_EMIT problemCreated(created->problemId, created->referenceId,
            tr("Problem '%1' created with its reference kernel #%2").arg(f.name.trimmed()).arg(created->referenceId));
        m_session->announce(StoreChange::of(StoreChange::Kind::Kernels, {created->referenceId}));
        QDialog::accept();
    });
}

} // namespace gpuf
