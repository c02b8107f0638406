// WelcomePage; see welcome_page.h.
#include "widgets/overview/welcome_page.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace gpuf {
namespace {

QLabel *wrapped(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setWordWrap(true);
    return label;
}

} // namespace

WelcomePage::WelcomePage(QWidget *parent)
    : QWidget(parent)
    , m_sample(new QPushButton(tr("Open the &Sample Store"), this))
    , m_open(new QPushButton(tr("&Open a Store…"), this))
    , m_new(new QPushButton(tr("&New Store…"), this))
    , m_recent(new QListWidget(this))
    , m_recentTitle(new QLabel(tr("Recent stores"), this))
    , m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("welcomePage"));
    m_recent->setObjectName(QStringLiteral("welcomeRecent"));
    m_recent->setMaximumHeight(m_recent->fontMetrics().lineSpacing() * 8);
    m_status->setWordWrap(true);
    m_status->setObjectName(QStringLiteral("welcomeStatus"));
    m_status->hide();

    auto *column = new QVBoxLayout;
    column->addWidget(titleLabel());
    column->addSpacing(8);
    column->addWidget(
        wrapped(tr("A forecaster looks at a reference GPU kernel and a candidate and predicts how much faster "
                   "the candidate runs, as probabilities over eight speedup bins. Here you compare the two "
                   "kernels line by line, read why the forecaster decided as it did, check how well its "
                   "confidence holds up against measured runtimes, and measure on the GPU where it is "
                   "unsure. Searches let a forecaster choose which of many proposed kernels are worth "
                   "measuring, live or replayed from recorded runs; lessons turn measured pairs into "
                   "exercises where students predict before the answer is revealed."),
            this));
    column->addSpacing(16);
    column->addLayout(waysIn());
    column->addSpacing(8);
    column->addWidget(m_status);
    column->addSpacing(16);
    column->addWidget(m_recentTitle);
    column->addWidget(m_recent);
    column->addWidget(wrapped(tr("Help → Manual explains the views; Help → Glossary defines bins, τ, ECE and the other "
                                 "terms."),
        this));
    column->addStretch(1);
    placeCentred(column);

    connect(m_sample, &QPushButton::clicked, this, &WelcomePage::sampleRequested);
    connect(m_open, &QPushButton::clicked, this, &WelcomePage::openRequested);
    connect(m_new, &QPushButton::clicked, this, &WelcomePage::newRequested);
    connect(m_recent, &QListWidget::itemActivated, this, [this](QListWidgetItem *item) {
        if (item->flags().testFlag(Qt::ItemIsEnabled))
            Q_EMIT recentRequested(item->data(Qt::UserRole).toString());
    });
    setRecentStores({});
}

QLabel *WelcomePage::titleLabel()
{
    auto *title = new QLabel(tr("GPU Forecaster Explorer"), this);
    QFont big = title->font();
    big.setPointSizeF(big.pointSizeF() * 1.6);
    big.setBold(true);
    title->setFont(big);
    return title;
}

// Each way in: its button, and below it what it gives (labels beside buttons would be cut in a narrow window).
QVBoxLayout *WelcomePage::waysIn()
{
    auto *buttons = new QVBoxLayout;
    const auto addRow = [this, buttons](QPushButton *button, const QString &what) {
        buttons->addWidget(button, 0, Qt::AlignLeft);
        QLabel *label = wrapped(what, this);
        label->setContentsMargins(12, 0, 0, 8);
        buttons->addWidget(label);
    };
    addRow(m_sample,
        tr("Real CUDA kernels with measured runtimes and the cost model's forecasts, recorded sweeps of six kernel "
           "families to search, and twenty lessons: the quickest way to see every view with content."));
    addRow(m_open, tr("A store file (.gpuf) made by gpuf-explorer or the gpuf command line."));
    addRow(m_new,
        tr("An empty store: then import a bundle, a recorded sweep or the paper's published rows (File → Import…) "
           "or add kernels (File → Add Kernel from File…)."));
    return buttons;
}

// A readable column in the middle of a wide window, scrolling in a short one.
void WelcomePage::placeCentred(QVBoxLayout *column)
{
    auto *page = new QWidget(this);
    auto *outer = new QHBoxLayout(page);
    outer->addStretch(1);
    outer->addLayout(column, 6);
    outer->addStretch(1);
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(page);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);
}

void WelcomePage::setRecentStores(const QStringList &paths)
{
    m_recent->clear();
    for (const QString &path : paths) {
        auto *item = new QListWidgetItem(QFileInfo(path).fileName() + QStringLiteral(" — ") + path, m_recent);
        item->setData(Qt::UserRole, path);
        if (!QFileInfo::exists(path)) {
            item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
            item->setToolTip(tr("This file no longer exists"));
        } else {
            item->setToolTip(tr("Open %1 (double-click or Enter)").arg(path));
        }
    }
    m_recent->setVisible(!paths.isEmpty());
    m_recentTitle->setText(paths.isEmpty() ? tr("Stores you open will be listed here.") : tr("Recent stores"));
}

void WelcomePage::setStatus(const QString &text)
{
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
}

QString WelcomePage::statusText() const { return m_status->isHidden() ? QString() : m_status->text(); }

} // namespace gpuf
