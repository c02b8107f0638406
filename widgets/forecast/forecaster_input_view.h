// ForecasterInputView: "What the forecaster saw" — the exact messages a forecast was made from (Forecast.messages,
// shown per role or as the stored JSON) and the raw response as received, read-only, selectable, with Copy buttons.
#pragma once

#include <QWidget>

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QToolButton;

namespace gpuf {

struct Forecast;

class ForecasterInputView : public QWidget
{
    Q_OBJECT

public:
    explicit ForecasterInputView(QWidget *parent = nullptr);

    void setForecast(const Forecast &forecast);
    void showNothing(const QString &why);

    QPlainTextEdit *messagesView() const { return m_messages; }
    QPlainTextEdit *responseView() const { return m_response; }
    QCheckBox *exactJsonBox() const { return m_exactJson; }
    QToolButton *copyMessagesButton() const { return m_copyMessages; }
    QToolButton *copyResponseButton() const { return m_copyResponse; }

    // The messages JSON ([{role, content}, …]) as text for people: each role as a heading, then its content exactly
    // as sent. Anything that is not such an array comes back unchanged.
    static QString readableMessages(const QString &json);

private:
    void renderMessages();

    QPlainTextEdit *m_messages;
    QPlainTextEdit *m_response;
    QCheckBox *m_exactJson;
    QToolButton *m_copyMessages;
    QToolButton *m_copyResponse;
    QLabel *m_note;
    QString m_messagesJson;
};

} // namespace gpuf
