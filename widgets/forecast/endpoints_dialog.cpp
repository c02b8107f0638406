// EndpointsDialog; see endpoints_dialog.h.
#include "widgets/forecast/endpoints_dialog.h"

#include "core/llm/api_key.h"
#include "core/session/store_session.h"
#include "core/store/forecast_repo.h"
#include "core/store/store.h"
#include "widgets/forecast/endpoint_form.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace gpuf {

namespace {

using Step = llm::EndpointProbe::Step;

struct Listed
{
    quint64 generation = 0;
    QList<Forecaster> forecasters;
    QString error;
};

Listed listLlmForecasters(const QString &path, quint64 generation)
{
    Listed result {generation, {}, {}};
    auto store = Store::open(path, Store::Mode::ExistingOnly, Store::Check::Header);
    if (!store) {
        result.error = store.error();
        return result;
    }
    auto all = ForecasterRepo(**store).list();
    if (!all) {
        result.error = all.error();
        return result;
    }
    for (const Forecaster &f : std::as_const(*all)) {
        if (f.kind == ForecasterKind::Llm)
            result.forecasters.append(f);
    }
    return result;
}

// A new profile is inserted (its name must be free: ensure() would answer an existing row's id); an edited one is
// updated in place, so its forecasts keep pointing at it.
Result<RowId> writeForecaster(const QString &path, Forecaster forecaster)
{
    auto store = Store::open(path, Store::Mode::ExistingOnly, Store::Check::Header);
    if (!store)
        return Error {store.error()};
    ForecasterRepo repo(**store);
    if (forecaster.id != 0) {
        if (Status s = repo.update(forecaster); !s)
            return Error {s.error()};
        return forecaster.id;
    }
    auto existing = repo.findByName(forecaster.name);
    if (!existing)
        return Error {existing.error()};
    if (existing->has_value())
        return Error {EndpointsDialog::tr("a forecaster named \"%1\" already exists").arg(forecaster.name)};
    return repo.ensure(forecaster);
}

QString stateWord(llm::ProbeCheck::State state)
{
    switch (state) {
    case llm::ProbeCheck::State::Pending:
        return EndpointsDialog::tr("checking…");
    case llm::ProbeCheck::State::Ok:
        return EndpointsDialog::tr("✓ yes");
    case llm::ProbeCheck::State::Failed:
        return EndpointsDialog::tr("✗ no");
    case llm::ProbeCheck::State::Skipped:
        break;
    }
    return EndpointsDialog::tr("– skipped");
}

} // namespace

EndpointsDialog::EndpointsDialog(StoreSession *session, QWidget *parent)
    : QDialog(parent)
    , m_session(session)
    , m_form(new EndpointForm(this))
    , m_list(new QListWidget(this))
    , m_new(new QPushButton(tr("&New Profile"), this))
    , m_save(new QPushButton(tr("&Save"), this))
    , m_test(new QPushButton(tr("&Test Connection"), this))
    , m_status(new QLabel(this))
{
    setWindowTitle(tr("Endpoints"));
    setObjectName(QStringLiteral("endpointsDialog"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_list->setMinimumWidth(140);
    m_list->setMaximumWidth(220);

    auto *left = new QVBoxLayout;
    left->addWidget(new QLabel(tr("LLM forecasters in this store:"), this));
    left->addWidget(m_list, 1);
    left->addWidget(m_new);

    auto *checks = new QFormLayout;
    const std::array<QString, 4> titles {tr("Reachable:"), tr("Model listed:"), tr("Tool calling:"), tr("Streaming:")};
    for (std::size_t i = 0; i < m_checks.size(); ++i) {
        m_checks[i] = new QLabel(tr("not tested"), this);
        m_checks[i]->setWordWrap(true);
        m_checks[i]->setTextInteractionFlags(Qt::TextSelectableByMouse);
        checks->addRow(titles[i], m_checks[i]);
    }
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(m_form);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *right = new QVBoxLayout;
    right->addWidget(scroll, 1);
    right->addLayout(checks);

    auto *columns = new QHBoxLayout;
    columns->addLayout(left);
    columns->addLayout(right, 1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_test, QDialogButtonBox::ActionRole);
    buttons->addButton(m_save, QDialogButtonBox::ApplyRole);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(columns, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(980, 600);

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_new, &QPushButton::clicked, this, [this] {
        m_list->clearSelection();
        m_list->setCurrentRow(-1);
        m_form->setForecaster({});
        m_form->nameEdit()->setFocus();
        setStatus(tr("A new profile: fill in at least a name, the base URL and the model."));
    });
    connect(m_save, &QPushButton::clicked, this, &EndpointsDialog::save);
    connect(m_test, &QPushButton::clicked, this, &EndpointsDialog::testConnection);
    connect(m_list, &QListWidget::currentRowChanged, this, &EndpointsDialog::showForecaster);
    const bool open = m_session->isOpen();
    m_save->setEnabled(open);
    if (open)
        reload();
    else
        setStatus(tr("Open a store first: profiles are kept in the store (never their keys)."), true);
}

EndpointsDialog::~EndpointsDialog() = default;

QString EndpointsDialog::statusText() const { return m_status->text(); }

QString EndpointsDialog::checkText(Step step) const { return m_checks[std::size_t(step)]->text(); }

bool EndpointsDialog::isTesting() const { return m_probe && m_probe->isRunning(); }

void EndpointsDialog::setStatus(const QString &text, bool error)
{
    m_status->setText(text);
    m_status->setForegroundRole(error ? QPalette::LinkVisited : QPalette::WindowText);
}

void EndpointsDialog::endWork()
{
    if (m_busy > 0)
        --m_busy;
}

void EndpointsDialog::reload()
{
    if (!m_session->isOpen())
        return;
    const quint64 generation = ++m_generation;
    ++m_busy;
    auto *watcher = new QFutureWatcher<Listed>(this);
    connect(watcher, &QFutureWatcher<Listed>::finished, this, [this, watcher]() {
        watcher->deleteLater();
        endWork();
        const Listed listed = watcher->result();
        if (listed.generation != m_generation)
            return;
        if (!listed.error.isEmpty()) {
            setStatus(tr("Cannot read the store's forecasters: %1").arg(listed.error), true);
            return;
        }
        const RowId keep = m_selectAfterReload != 0 ? m_selectAfterReload : m_form->forecasterId();
        m_selectAfterReload = 0;
        m_forecasters = listed.forecasters;
        const QSignalBlocker block(m_list);
        m_list->clear();
        int select = -1;
        for (const Forecaster &f : std::as_const(m_forecasters)) {
            auto *item = new QListWidgetItem(f.name, m_list);
            item->setToolTip(f.config.value(QLatin1StringView("endpoint")).toString());
            if (f.id == keep)
                select = m_list->count() - 1;
        }
        m_list->setCurrentRow(select);
        if (select >= 0)
            m_form->setForecaster(m_forecasters[select]);
    });
    watcher->setFuture(QtConcurrent::run(listLlmForecasters, m_session->path(), generation));
}

void EndpointsDialog::showForecaster(int row)
{
    if (row < 0 || row >= m_forecasters.size())
        return;
    m_form->setForecaster(m_forecasters[row]);
    for (QLabel *label : m_checks)
        label->setText(tr("not tested"));
    setStatus({});
}

void EndpointsDialog::save()
{
    if (!m_session->isOpen()) {
        setStatus(tr("Open a store first: profiles are kept in the store (never their keys)."), true);
        return;
    }
    const Result<Forecaster> forecaster = m_form->forecaster();
    if (!forecaster) {
        setStatus(tr("Not saved: %1").arg(forecaster.error()), true);
        return;
    }
    const QString key = m_form->typedKey();
    if (m_form->keySource() != EndpointForm::KeySource::Keychain || key.isEmpty()) {
        writeProfile(*forecaster, {});
        return;
    }
    // The key goes to the keychain only; the profile stores the entry's name.
    ++m_busy;
    llm::storeApiKey(m_form->keychainEntry(), key, this, [this, f = *forecaster](const Status &stored) {
        endWork();
        if (stored)
            m_form->clearTypedKey();
        writeProfile(f,
            stored ? tr("The API key is in the keychain.") : tr("The API key was not stored: %1.").arg(stored.error()));
    });
}

void EndpointsDialog::writeProfile(const Forecaster &forecaster, const QString &keyNote)
{
    ++m_busy;
    m_save->setEnabled(false);
    auto *watcher = new QFutureWatcher<Result<RowId>>(this);
    connect(
        watcher, &QFutureWatcher<Result<RowId>>::finished, this, [this, watcher, keyNote, name = forecaster.name]() {
            watcher->deleteLater();
            endWork();
            m_save->setEnabled(m_session->isOpen());
            const Result<RowId> id = watcher->result();
            if (!id) {
                setStatus(tr("Not saved: %1").arg(id.error()), true);
                return;
            }
            const bool keyFailed = keyNote.startsWith(tr("The API key was not stored"));
            setStatus(tr("Saved \"%1\".").arg(name) + (keyNote.isEmpty() ? QString() : QLatin1Char(' ') + keyNote),
                keyFailed);
            m_selectAfterReload = *id;
            reload();
            Q_EMIT forecastersChanged();
        });
    watcher->setFuture(QtConcurrent::run(writeForecaster, m_session->path(), forecaster));
}

void EndpointsDialog::testConnection()
{
    if (isTesting()) {
        m_probe->cancel();
        return;
    }
    if (auto headers = EndpointForm::parseHeaders(m_form->headersEdit()->toPlainText()); !headers) {
        setStatus(headers.error(), true);
        return;
    }
    for (QLabel *label : m_checks)
        label->setText(stateWord(llm::ProbeCheck::State::Pending));
    const QString key = m_form->typedKey();
    if (m_form->keySource() != EndpointForm::KeySource::Keychain || key.isEmpty()) {
        startProbe();
        return;
    }
    // A key just typed is tested from where it will be read: the keychain.
    ++m_busy;
    llm::storeApiKey(m_form->keychainEntry(), key, this, [this](const Status &stored) {
        endWork();
        if (stored) {
            m_form->clearTypedKey();
            setStatus(tr("The API key is in the keychain."));
        } else {
            setStatus(tr("The API key was not stored: %1.").arg(stored.error()), true);
        }
        startProbe();
    });
}

void EndpointsDialog::startProbe()
{
    delete m_probe;
    m_probe = new llm::EndpointProbe(m_form->profile(), this);
    connect(m_probe, &llm::EndpointProbe::checkFinished, this, &EndpointsDialog::showCheck);
    connect(m_probe, &llm::EndpointProbe::finished, this, [this] { m_test->setText(tr("&Test Connection")); });
    m_test->setText(tr("Cancel &Test"));
    m_probe->start();
}

void EndpointsDialog::showCheck(Step step, const llm::ProbeCheck &check)
{
    // A skipped check's detail already says "skipped: why": the state word would only repeat it.
    const bool skippedWithReason = check.state == llm::ProbeCheck::State::Skipped && !check.detail.isEmpty();
    QString text = stateWord(check.state);
    if (skippedWithReason)
        text = QStringLiteral("– ") + check.detail;
    else if (!check.detail.isEmpty())
        text += QStringLiteral(" — ") + check.detail;
    m_checks[std::size_t(step)]->setText(text);
}

} // namespace gpuf
