// ForecasterInputView; see forecaster_input_view.h.
#include "widgets/forecast/forecaster_input_view.h"

#include "core/domain/forecast.h"

#include <QCheckBox>
#include <QClipboard>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

namespace gpuf {

namespace {

QPlainTextEdit *textView(const QString &objectName, QWidget *parent)
{
    auto *view = new QPlainTextEdit(parent);
    view->setObjectName(objectName);
    view->setReadOnly(true);
    view->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    view->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    return view;
}

QToolButton *copyButton(QPlainTextEdit *source, QWidget *parent)
{
    auto *button = new QToolButton(parent);
    button->setText(ForecasterInputView::tr("Copy"));
    button->setToolTip(ForecasterInputView::tr("Copy the whole text to the clipboard"));
    QObject::connect(button, &QToolButton::clicked, source,
        [source] { QGuiApplication::clipboard()->setText(source->toPlainText()); });
    return button;
}

QWidget *section(const QString &title, QPlainTextEdit *view, const QList<QWidget *> &extras, QWidget *parent)
{
    auto *box = new QWidget(parent);
    auto *header = new QHBoxLayout;
    header->addWidget(new QLabel(title, box));
    header->addStretch();
    for (QWidget *w : extras)
        header->addWidget(w);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(header);
    layout->addWidget(view, 1);
    return box;
}

} // namespace

ForecasterInputView::ForecasterInputView(QWidget *parent)
    : QWidget(parent)
    , m_messages(textView(QStringLiteral("forecastMessages"), this))
    , m_response(textView(QStringLiteral("forecastResponse"), this))
    , m_exactJson(new QCheckBox(tr("Exact JSON"), this))
    , m_copyMessages(copyButton(m_messages, this))
    , m_copyResponse(copyButton(m_response, this))
    , m_note(new QLabel(this))
{
    m_exactJson->setToolTip(tr("Show the messages exactly as stored (the JSON array that was sent)"));
    m_note->setWordWrap(true);
    m_note->hide();
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(section(tr("Messages sent"), m_messages, {m_exactJson, m_copyMessages}, this));
    splitter->addWidget(section(tr("Raw response"), m_response, {m_copyResponse}, this));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_note);
    layout->addWidget(splitter, 1);
    connect(m_exactJson, &QCheckBox::toggled, this, &ForecasterInputView::renderMessages);
    showNothing(tr("Choose a forecast to see what it was given."));
}

void ForecasterInputView::setForecast(const Forecast &forecast)
{
    m_messagesJson = forecast.messages;
    m_note->setVisible(forecast.messages.isEmpty());
    m_note->setText(tr("This forecaster was given no chat messages: the cost model reads features of both kernels "
                       "(see Explanation). Its response is the explanation it stored."));
    renderMessages();
    m_response->setPlainText(forecast.response);
    m_copyMessages->setEnabled(!forecast.messages.isEmpty());
    m_copyResponse->setEnabled(!forecast.response.isEmpty());
}

void ForecasterInputView::showNothing(const QString &why)
{
    m_messagesJson.clear();
    m_note->setText(why);
    m_note->show();
    m_messages->clear();
    m_response->clear();
    m_copyMessages->setEnabled(false);
    m_copyResponse->setEnabled(false);
}

void ForecasterInputView::renderMessages()
{
    m_messages->setPlainText(m_exactJson->isChecked() ? m_messagesJson : readableMessages(m_messagesJson));
}

QString ForecasterInputView::readableMessages(const QString &json)
{
    const QJsonDocument document = QJsonDocument::fromJson(json.toUtf8());
    if (!document.isArray())
        return json;
    QString text;
    for (const QJsonValue value : document.array()) {
        const QJsonObject message = value.toObject();
        if (!text.isEmpty())
            text += QLatin1Char('\n');
        text += QStringLiteral("━━━ %1 ━━━\n").arg(message.value(QLatin1StringView("role")).toString());
        const QJsonValue content = message.value(QLatin1StringView("content"));
        text += content.isString()
            ? content.toString()
            : QString::fromUtf8(QJsonDocument(content.toArray()).toJson(QJsonDocument::Indented));
        if (!text.endsWith(QLatin1Char('\n')))
            text += QLatin1Char('\n');
    }
    return text;
}

} // namespace gpuf
