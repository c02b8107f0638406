// EndpointForm: the fields of one LLM forecaster's endpoint profile — name, base URL, model, sampling, reasoning
// effort, extra headers, concurrency, timeouts, retries, streaming, tool calling, prompt profile — and where its API
// key comes from: nowhere, an environment variable, or the OS keychain (the key typed in a password field, held only
// in memory until it is written to the keychain). It builds the stored Forecaster, which never holds the key.
#pragma once

#include "core/common/result.h"
#include "core/domain/forecast.h"
#include "core/llm/chat_types.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace gpuf {

class EndpointForm : public QWidget
{
    Q_OBJECT

public:
    enum class KeySource { None, Environment, Keychain };
    Q_ENUM(KeySource)

    explicit EndpointForm(QWidget *parent = nullptr);

    // Fills the fields from a stored forecaster (id kept; its name can no longer change) or, for id 0, defaults.
    void setForecaster(const Forecaster &forecaster);
    RowId forecasterId() const { return m_id; }

    // The Forecaster to store (kind llm, configuration from forecaster_config.h) or why the fields are not valid.
    Result<Forecaster> forecaster() const;
    // The profile the fields describe (for "Test connection"); valid or not.
    llm::EndpointProfile profile() const;

    KeySource keySource() const;
    QString typedKey() const; // the password field; empty when none typed
    QString keychainEntry() const;
    void clearTypedKey();

    // "Name: value" per line; an error names the line. Credentials are refused: they would reach the store.
    static Result<QList<QPair<QByteArray, QByteArray>>> parseHeaders(const QString &text);

    QLineEdit *nameEdit() const { return m_name; }
    QLineEdit *urlEdit() const { return m_url; }
    QLineEdit *modelEdit() const { return m_model; }
    QComboBox *keySourceBox() const { return m_keySource; }
    QLineEdit *keyEnvEdit() const { return m_keyEnv; }
    QLineEdit *keyEdit() const { return m_key; }
    QPlainTextEdit *headersEdit() const { return m_headers; }
    QCheckBox *streamBox() const { return m_stream; }
    QCheckBox *toolCallingBox() const { return m_toolCalling; }
    QComboBox *promptProfileBox() const { return m_promptProfile; }

Q_SIGNALS:
    void edited();

private:
    void buildLayout();
    void updateKeyFields();

    RowId m_id = 0;
    QLineEdit *m_name;
    QLineEdit *m_url;
    QLineEdit *m_model;
    QDoubleSpinBox *m_temperature;
    QSpinBox *m_maxTokens;
    QComboBox *m_reasoningEffort;
    QPlainTextEdit *m_headers;
    QSpinBox *m_concurrency;
    QSpinBox *m_totalTimeout;
    QSpinBox *m_idleTimeout;
    QSpinBox *m_connectTimeout;
    QSpinBox *m_retries;
    QCheckBox *m_stream;
    QCheckBox *m_toolCalling;
    QComboBox *m_promptProfile;
    QComboBox *m_keySource;
    QLineEdit *m_keyEnv;
    QLineEdit *m_keyEntry;
    QLineEdit *m_key;
};

} // namespace gpuf
