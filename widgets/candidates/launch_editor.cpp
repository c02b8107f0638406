// LaunchEditor; see launch_editor.h.
#include "widgets/candidates/launch_editor.h"

#include "widgets/candidates/spec_fields.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QStyle>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace gpuf {

struct LaunchEditor::Page
{
    QWidget *widget = nullptr;
    QLineEdit *entry = nullptr;
    std::array<QLineEdit *, 3> grid {};
    std::array<QLineEdit *, 3> block {};
    QLineEdit *shared = nullptr;
    QLineEdit *args = nullptr;
    QLabel *issues = nullptr;
};

LaunchEditor::LaunchEditor(QWidget *parent)
    : QWidget(parent)
    , m_tabs(new QTabWidget(this))
    , m_add(new QToolButton(this))
    , m_remove(new QToolButton(this))
{
    setObjectName(QStringLiteral("launchEditor"));
    m_add->setText(tr("Add Launch"));
    m_add->setToolTip(tr("Another launch, run after the ones before it inside the same timed region"));
    m_remove->setText(tr("Remove Launch"));
    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_add);
    buttons->addWidget(m_remove);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);
    layout->addLayout(buttons);
    connect(m_add, &QToolButton::clicked, this, [this] {
        interop::LaunchFields fields;
        if (!m_pages.isEmpty()) // a second launch usually shares the first one's arguments
            fields.args = m_pages.last()->args->text();
        addPage(fields);
        m_tabs->setCurrentIndex(int(m_pages.size()) - 1);
        renumber();
        Q_EMIT changed();
    });
    connect(m_remove, &QToolButton::clicked, this, [this] {
        const int index = m_tabs->currentIndex();
        if (m_pages.size() <= 1 || index < 0)
            return;
        Page *page = m_pages.takeAt(index);
        m_tabs->removeTab(index);
        page->widget->deleteLater();
        delete page;
        renumber();
        Q_EMIT changed();
    });
    setLaunches({});
}

LaunchEditor::~LaunchEditor() { qDeleteAll(m_pages); }

LaunchEditor::Page *LaunchEditor::addPage(const interop::LaunchFields &fields)
{
    auto *page = new Page;
    page->widget = new QWidget(m_tabs);
    const auto edit = [&](const QString &text, const QString &placeholder) {
        auto *e = new QLineEdit(text, page->widget);
        e->setPlaceholderText(placeholder);
        connect(e, &QLineEdit::textChanged, this, &LaunchEditor::changed);
        return e;
    };
    page->entry = edit(fields.entry, tr("sgemm_naive, kernels::sgemm or sgemm2D<128, 128, 8, 8, 8>"));
    page->entry->setToolTip(tr("The __global__ function to launch: an extern \"C\" name, a C++ name or a template "
                               "instantiation"));
    auto *dims = new QFormLayout;
    for (int d = 0; d < 3; ++d) {
        page->grid[d] = edit(fields.grid[d], QStringLiteral("1"));
        page->block[d] = edit(fields.block[d], QStringLiteral("1"));
    }
    const auto row = [&](const std::array<QLineEdit *, 3> &three) {
        auto *box = new QHBoxLayout;
        for (QLineEdit *e : three)
            box->addWidget(e, 1);
        return box;
    };
    page->shared = edit(fields.sharedBytes, QStringLiteral("0"));
    page->args = edit(fields.args, tr("x, y, n:i32, alpha:f32"));
    page->args->setToolTip(tr("In the kernel's parameter order: a buffer's name passes its device pointer; EXPR:TYPE "
                              "passes a scalar (i32, i64, f32 or f64) computed from the case variables"));
    page->issues = new QLabel(page->widget);
    page->issues->setWordWrap(true);
    page->issues->setTextInteractionFlags(Qt::TextSelectableByMouse);
    page->issues->hide();
    dims->addRow(tr("&Entry point:"), page->entry);
    // A row of three edits has no single buddy: the label leads to its x field.
    auto *gridLabel = new QLabel(tr("&Grid (x, y, z):"), page->widget);
    gridLabel->setBuddy(page->grid[0]);
    auto *blockLabel = new QLabel(tr("&Block (x, y, z):"), page->widget);
    blockLabel->setBuddy(page->block[0]);
    dims->addRow(gridLabel, row(page->grid));
    dims->addRow(blockLabel, row(page->block));
    dims->addRow(tr("&Dynamic shared bytes:"), page->shared);
    dims->addRow(tr("A&rguments:"), page->args);
    auto *layout = new QVBoxLayout(page->widget);
    layout->addLayout(dims);
    layout->addWidget(page->issues);
    layout->addStretch(1);
    m_pages.append(page);
    m_tabs->addTab(page->widget, QString());
    return page;
}

void LaunchEditor::renumber()
{
    for (int i = 0; i < m_pages.size(); ++i)
        m_tabs->setTabText(i, tr("Launch %1").arg(i + 1));
    m_remove->setEnabled(m_pages.size() > 1);
}

void LaunchEditor::setLaunches(const QList<interop::LaunchFields> &launches)
{
    const QSignalBlocker blocker(this);
    m_tabs->clear();
    for (Page *page : std::as_const(m_pages))
        page->widget->deleteLater();
    qDeleteAll(m_pages);
    m_pages.clear();
    for (const interop::LaunchFields &fields : launches)
        addPage(fields);
    if (launches.isEmpty())
        addPage(interop::LaunchFields {});
    renumber();
}

QList<interop::LaunchFields> LaunchEditor::launches() const
{
    QList<interop::LaunchFields> out;
    for (const Page *page : m_pages) {
        interop::LaunchFields f;
        f.entry = page->entry->text();
        for (int d = 0; d < 3; ++d) {
            f.grid[d] = page->grid[d]->text();
            f.block[d] = page->block[d]->text();
        }
        f.sharedBytes = page->shared->text();
        f.args = page->args->text();
        out.append(f);
    }
    return out;
}

void LaunchEditor::setIssues(const QList<interop::FieldIssue> &issues)
{
    for (int i = 0; i < m_pages.size(); ++i) {
        Page *page = m_pages[i];
        const QString prefix = QStringLiteral("launches[%1]").arg(i);
        const QList<interop::FieldIssue> mine = issuesUnder(issues, prefix);
        const auto messagesFor = [&](const QString &field) {
            QStringList out;
            for (const interop::FieldIssue &issue : issuesUnder(mine, prefix + field))
                out.append(
                    issue.caseName.isEmpty() ? issue.message : tr("%1 (case %2)").arg(issue.message, issue.caseName));
            return out;
        };
        markField(page->entry, messagesFor(QStringLiteral(".entry")));
        for (int d = 0; d < 3; ++d) {
            markField(page->grid[d], messagesFor(QStringLiteral(".grid[%1]").arg(d)));
            markField(page->block[d], messagesFor(QStringLiteral(".block[%1]").arg(d)));
        }
        markField(page->shared, messagesFor(QStringLiteral(".shared_bytes")));
        markField(page->args, messagesFor(QStringLiteral(".args")));
        showIssues(page->issues, mine);
        m_tabs->setTabIcon(i, mine.isEmpty() ? QIcon() : style()->standardIcon(QStyle::SP_MessageBoxWarning));
    }
}

int LaunchEditor::launchCount() const { return int(m_pages.size()); }

QLineEdit *LaunchEditor::field(int index, const QString &name) const
{
    if (index < 0 || index >= m_pages.size())
        return nullptr;
    const Page *page = m_pages[index];
    if (name == QLatin1StringView("entry"))
        return page->entry;
    if (name == QLatin1StringView("shared"))
        return page->shared;
    if (name == QLatin1StringView("args"))
        return page->args;
    for (int d = 0; d < 3; ++d) {
        if (name == QStringLiteral("grid%1").arg(d))
            return page->grid[d];
        if (name == QStringLiteral("block%1").arg(d))
            return page->block[d];
    }
    return nullptr;
}

QString LaunchEditor::issuesText(int index) const
{
    return index >= 0 && index < m_pages.size() && !m_pages[index]->issues->isHidden() ? m_pages[index]->issues->text()
                                                                                       : QString();
}

} // namespace gpuf
