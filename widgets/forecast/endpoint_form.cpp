// EndpointForm; see endpoint_form.h.
#include "widgets/forecast/endpoint_form.h"

#include "core/forecasters/forecaster_config.h"
#include "core/llm/api_key.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSpinBox>

#include <algorithm>

namespace gpuf {

namespace {

QSpinBox *spinBox(int minimum, int maximum, const QString &suffix, QWidget *parent)
{
    auto *box = new QSpinBox(parent);
    box->setRange(minimum, maximum);
    box->setSuffix(suffix);
    return box;
}

// Header names that carry credentials: they would be written into the store with the profile.
bool looksLikeCredential(const QByteArray &name)
{
    const QByteArray lower = name.toLower();
    for (const char *word : {"auth", "key", "token", "secret", "cookie", "password"}) {
        if (lower.contains(word))
            return true;
    }
    return false;
}

} // namespace

EndpointForm::EndpointForm(QWidget *parent)
    : QWidget(parent)
    , m_name(new QLineEdit(this))
    , m_url(new QLineEdit(this))
    , m_model(new QLineEdit(this))
    , m_temperature(new QDoubleSpinBox(this))
    , m_maxTokens(spinBox(1, 1'000'000, QString(), this))
    , m_reasoningEffort(new QComboBox(this))
    , m_headers(new QPlainTextEdit(this))
    , m_concurrency(spinBox(1, 256, QString(), this))
    , m_totalTimeout(spinBox(1, 24 * 3600, tr(" s"), this))
    , m_idleTimeout(spinBox(1, 3600, tr(" s"), this))
    , m_connectTimeout(spinBox(1, 600, tr(" s"), this))
    , m_retries(spinBox(0, 20, QString(), this))
    , m_stream(new QCheckBox(tr("Stream the answer (server-sent events)"), this))
    , m_toolCalling(new QCheckBox(tr("Tool calling (forced tool choice)"), this))
    , m_promptProfile(new QComboBox(this))
    , m_keySource(new QComboBox(this))
    , m_keyEnv(new QLineEdit(this))
    , m_keyEntry(new QLineEdit(this))
    , m_key(new QLineEdit(this))
{
    m_name->setObjectName(QStringLiteral("endpointName"));
    m_url->setPlaceholderText(QStringLiteral("http://127.0.0.1:8000/v1"));
    m_model->setPlaceholderText(QStringLiteral("openai/gpt-oss-20b"));
    m_temperature->setRange(0.0, 2.0);
    m_temperature->setSingleStep(0.1);
    m_temperature->setDecimals(2);
    m_reasoningEffort->addItem(tr("not sent"), QString());
    for (const char *effort : {"low", "medium", "high"})
        m_reasoningEffort->addItem(QString::fromLatin1(effort), QString::fromLatin1(effort));
    m_headers->setPlaceholderText(tr("One per line, e.g.\nX-Title: gpuf"));
    m_headers->setTabChangesFocus(true);
    m_headers->setMaximumHeight(m_headers->fontMetrics().lineSpacing() * 4 + 12);
    m_promptProfile->addItem(tr("default (the true bin geometry)"), QStringLiteral("default"));
    m_promptProfile->addItem(tr("paper (the authors' bins table)"), QStringLiteral("paper"));
    m_keySource->addItem(tr("No API key"), int(KeySource::None));
    m_keySource->addItem(tr("Environment variable"), int(KeySource::Environment));
    m_keySource->addItem(tr("OS keychain"), int(KeySource::Keychain));
    m_keyEnv->setPlaceholderText(QStringLiteral("OPENAI_API_KEY"));
    m_keyEntry->setToolTip(tr("The keychain entry (service \"%1\") that holds the key").arg(llm::kKeychainService));
    m_key->setObjectName(QStringLiteral("endpointApiKey"));
    m_key->setEchoMode(QLineEdit::Password);
    m_key->setPlaceholderText(tr("saved in the keychain only"));
    m_key->setToolTip(tr("Type the key to store it in the OS keychain under the entry above; leave it empty to keep "
                         "the key already stored there. It is never written to the store or the settings."));

    buildLayout();
    connect(m_keySource, &QComboBox::currentIndexChanged, this, &EndpointForm::updateKeyFields);
    connect(m_name, &QLineEdit::textEdited, this, [this](const QString &name) {
        if (m_id == 0)
            m_keyEntry->setText(name.trimmed()); // the entry follows a new profile's name
    });
    for (QLineEdit *edit : {m_name, m_url, m_model, m_keyEnv, m_keyEntry, m_key})
        connect(edit, &QLineEdit::textEdited, this, &EndpointForm::edited);
    // A hint cut off mid-word helps no one: each field is at least as wide as its placeholder.
    for (QLineEdit *edit : {m_url, m_model, m_keyEnv, m_key}) {
        const int hint = edit->fontMetrics().horizontalAdvance(edit->placeholderText());
        edit->setMinimumWidth(std::max(edit->minimumWidth(), hint + 4 * edit->fontMetrics().averageCharWidth()));
    }
    setForecaster({});
}

void EndpointForm::buildLayout()
{
    // Two columns: what is asked (endpoint, model, sampling, prompt) and how (limits, key), so the whole profile fits
    // on screen without scrolling.
    auto *endpoint = new QFormLayout;
    endpoint->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    endpoint->addRow(tr("&Name:"), m_name);
    endpoint->addRow(tr("Base &URL:"), m_url);
    endpoint->addRow(tr("&Model:"), m_model);
    endpoint->addRow(tr("&Temperature:"), m_temperature);
    endpoint->addRow(tr("Max &tokens:"), m_maxTokens);
    endpoint->addRow(tr("&Reasoning effort:"), m_reasoningEffort);
    endpoint->addRow(tr("&Prompt profile:"), m_promptProfile);
    endpoint->addRow(QString(), m_stream);
    endpoint->addRow(QString(), m_toolCalling);
    endpoint->addRow(tr("Extra &headers:"), m_headers);
    auto *limits = new QFormLayout;
    limits->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    limits->addRow(tr("&Concurrency:"), m_concurrency);
    limits->addRow(tr("Total timeout:"), m_totalTimeout);
    limits->addRow(tr("Idle timeout:"), m_idleTimeout);
    limits->addRow(tr("Connect timeout:"), m_connectTimeout);
    limits->addRow(tr("Retries:"), m_retries);
    limits->addRow(tr("API &key:"), m_keySource);
    limits->addRow(tr("Variable:"), m_keyEnv);
    limits->addRow(tr("Keychain entry:"), m_keyEntry);
    limits->addRow(tr("Key:"), m_key);
    auto *columns = new QHBoxLayout(this);
    columns->setContentsMargins(0, 0, 0, 0);
    columns->addLayout(endpoint, 3);
    columns->addSpacing(12);
    columns->addLayout(limits, 2);
}

void EndpointForm::setForecaster(const Forecaster &forecaster)
{
    m_id = forecaster.id;
    forecasters::LlmForecasterSettings settings;
    if (forecaster.id != 0) {
        if (auto read = forecasters::llmSettings(forecaster.config, forecaster.name))
            settings = *read;
    }
    const llm::EndpointProfile &e = settings.endpoint;
    m_name->setText(forecaster.name);
    m_name->setReadOnly(forecaster.id != 0); // forecasts refer to it by id, people and the CLI by name
    m_url->setText(e.baseUrl);
    m_model->setText(e.model);
    m_temperature->setValue(e.temperature);
    m_maxTokens->setValue(e.maxTokens);
    m_reasoningEffort->setCurrentIndex(std::max(0, m_reasoningEffort->findData(e.reasoningEffort)));
    QStringList headers;
    for (const auto &[name, value] : e.extraHeaders)
        headers.append(QString::fromLatin1(name) + QStringLiteral(": ") + QString::fromLatin1(value));
    m_headers->setPlainText(headers.join(QLatin1Char('\n')));
    m_concurrency->setValue(e.concurrency);
    m_totalTimeout->setValue(std::max(1, e.totalTimeoutMs / 1000));
    m_idleTimeout->setValue(std::max(1, e.idleTimeoutMs / 1000));
    m_connectTimeout->setValue(std::max(1, e.connectTimeoutMs / 1000));
    m_retries->setValue(e.maxRetries);
    m_stream->setChecked(e.stream);
    m_toolCalling->setChecked(e.toolCalling);
    m_promptProfile->setCurrentIndex(
        std::max(0, m_promptProfile->findData(forecasters::promptProfileName(settings.prompt.profile))));
    const KeySource source = !e.apiKeyEnv.isEmpty() ? KeySource::Environment
        : !e.keychainEntry.isEmpty()                ? KeySource::Keychain
                                                    : KeySource::None;
    m_keySource->setCurrentIndex(m_keySource->findData(int(source)));
    m_keyEnv->setText(e.apiKeyEnv);
    m_keyEntry->setText(e.keychainEntry.isEmpty() ? forecaster.name : e.keychainEntry);
    m_key->clear();
    updateKeyFields();
}

EndpointForm::KeySource EndpointForm::keySource() const { return KeySource(m_keySource->currentData().toInt()); }

QString EndpointForm::typedKey() const { return m_key->text().trimmed(); }

QString EndpointForm::keychainEntry() const { return m_keyEntry->text().trimmed(); }

void EndpointForm::clearTypedKey() { m_key->clear(); }

void EndpointForm::updateKeyFields()
{
    const KeySource source = keySource();
    m_keyEnv->setEnabled(source == KeySource::Environment);
    m_keyEntry->setEnabled(source == KeySource::Keychain);
    m_key->setEnabled(source == KeySource::Keychain);
    Q_EMIT edited();
}

Result<QList<QPair<QByteArray, QByteArray>>> EndpointForm::parseHeaders(const QString &text)
{
    QList<QPair<QByteArray, QByteArray>> headers;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].trimmed();
        if (line.isEmpty())
            continue;
        const qsizetype colon = line.indexOf(QLatin1Char(':'));
        const QByteArray name = line.left(colon).trimmed().toLatin1();
        static const QRegularExpression token(QStringLiteral("^[A-Za-z0-9!#$%&'*+.^_`|~-]+$"));
        if (colon <= 0 || !token.match(QString::fromLatin1(name)).hasMatch())
            return Error {tr("extra headers, line %1: write \"Name: value\"").arg(i + 1)};
        if (looksLikeCredential(name))
            return Error {tr("extra headers, line %1: \"%2\" looks like a credential, and headers are stored with "
                             "the profile; give the API key below instead")
                              .arg(i + 1)
                              .arg(QString::fromLatin1(name))};
        headers.append({name, line.mid(colon + 1).trimmed().toLatin1()});
    }
    return headers;
}

llm::EndpointProfile EndpointForm::profile() const
{
    llm::EndpointProfile e;
    e.name = m_name->text().trimmed();
    e.baseUrl = m_url->text().trimmed();
    e.model = m_model->text().trimmed();
    e.temperature = m_temperature->value();
    e.maxTokens = m_maxTokens->value();
    e.reasoningEffort = m_reasoningEffort->currentData().toString();
    if (auto headers = parseHeaders(m_headers->toPlainText()))
        e.extraHeaders = *headers;
    e.concurrency = m_concurrency->value();
    e.totalTimeoutMs = m_totalTimeout->value() * 1000;
    e.idleTimeoutMs = m_idleTimeout->value() * 1000;
    e.connectTimeoutMs = m_connectTimeout->value() * 1000;
    e.maxRetries = m_retries->value();
    e.stream = m_stream->isChecked();
    e.toolCalling = m_toolCalling->isChecked();
    if (keySource() == KeySource::Environment)
        e.apiKeyEnv = m_keyEnv->text().trimmed();
    else if (keySource() == KeySource::Keychain)
        e.keychainEntry = keychainEntry();
    return e;
}

Result<Forecaster> EndpointForm::forecaster() const
{
    const QString name = m_name->text().trimmed();
    if (name.isEmpty())
        return Error {tr("the profile needs a name")};
    if (auto headers = parseHeaders(m_headers->toPlainText()); !headers)
        return Error {headers.error()};
    if (keySource() == KeySource::Environment && m_keyEnv->text().trimmed().isEmpty())
        return Error {tr("name the environment variable that holds the API key")};
    if (keySource() == KeySource::Environment) {
        if (const QString problem = llm::apiKeyEnvProblem(m_keyEnv->text().trimmed()); !problem.isEmpty())
            return Error {tr("Environment variable: %1").arg(problem)};
    }
    if (keySource() == KeySource::Keychain && keychainEntry().isEmpty())
        return Error {tr("name the keychain entry that holds the API key")};
    forecasters::LlmForecasterSettings settings;
    settings.endpoint = profile();
    settings.prompt.profile = forecasters::promptProfileFromName(m_promptProfile->currentData().toString())
                                  .value_or(forecasters::PromptProfile::Default);
    settings.prompt.toolCalling = settings.endpoint.toolCalling;
    Forecaster f;
    f.id = m_id;
    f.name = name;
    f.displayName = name;
    f.kind = ForecasterKind::Llm;
    f.config = forecasters::llmConfig(settings);
    // The same checks the engine makes when it runs the forecaster (endpoint and model present, types, no secret).
    if (auto valid = forecasters::llmSettings(f.config, name); !valid)
        return Error {valid.error()};
    return f;
}

} // namespace gpuf
