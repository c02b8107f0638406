// EndpointsDialog: the LLM forecasters of the open store as endpoint profiles — listed (read off the GUI thread),
// added, edited and saved (without their keys: a key typed here goes to the OS keychain only), and checked with
// "Test connection", which reports live whether the endpoint is reachable, lists the model, calls tools and streams.
#pragma once

#include "core/domain/forecast.h"
#include "core/llm/endpoint_probe.h"

#include <QDialog>

#include <array>

class QLabel;
class QListWidget;
class QPushButton;

namespace gpuf {

class EndpointForm;
class StoreSession;

class EndpointsDialog : public QDialog
{
    Q_OBJECT

public:
    explicit EndpointsDialog(StoreSession *session, QWidget *parent = nullptr);
    ~EndpointsDialog() override;

    EndpointForm *form() const { return m_form; }
    QListWidget *list() const { return m_list; }
    QPushButton *newButton() const { return m_new; }
    QPushButton *saveButton() const { return m_save; }
    QPushButton *testButton() const { return m_test; }
    QString statusText() const;
    // The state word and the detail shown for one check ("ok — HTTP 200 from …").
    QString checkText(llm::EndpointProbe::Step step) const;
    bool isTesting() const;
    bool isBusy() const { return m_busy > 0 || m_reading; } // reading or writing the store, or the keychain

    void reload();
    void save();
    void testConnection();

Q_SIGNALS:
    void forecastersChanged();

private:
    void showForecaster(int row);
    void setStatus(const QString &text, bool error = false);
    void showCheck(llm::EndpointProbe::Step step, const llm::ProbeCheck &check);
    void writeProfile(const Forecaster &forecaster, const QString &keyNote);
    void startProbe();
    void endWork();

    StoreSession *m_session;
    EndpointForm *m_form;
    QListWidget *m_list;
    QPushButton *m_new;
    QPushButton *m_save;
    QPushButton *m_test;
    QLabel *m_status;
    std::array<QLabel *, 4> m_checks {};
    llm::EndpointProbe *m_probe = nullptr;
    QList<Forecaster> m_forecasters;
    bool m_reading = false; // the list is being read
    int m_busy = 0;
    RowId m_selectAfterReload = 0;
};

} // namespace gpuf
