// WelcomePage: what the window shows while no store is open — what the product is for, and the ways in: the sample
// store, an existing store, a new one, and the stores opened before. It only asks; the window opens.
#pragma once

#include <QWidget>

class QLabel;
class QVBoxLayout;
class QListWidget;
class QPushButton;

namespace gpuf {

class WelcomePage : public QWidget
{
    Q_OBJECT

public:
    explicit WelcomePage(QWidget *parent = nullptr);

    // Newest first; paths that no longer exist are listed greyed out, so the user sees why they cannot be opened.
    void setRecentStores(const QStringList &paths);
    // A line under the buttons: a store being opened, or why the last one could not be.
    void setStatus(const QString &text);

    QPushButton *sampleButton() const { return m_sample; }
    QPushButton *openButton() const { return m_open; }
    QPushButton *newButton() const { return m_new; }
    QListWidget *recentList() const { return m_recent; }
    QString statusText() const;

Q_SIGNALS:
    void sampleRequested();
    void openRequested();
    void newRequested();
    void recentRequested(const QString &path);

private:
    QLabel *titleLabel();
    QVBoxLayout *waysIn();
    void placeCentred(QVBoxLayout *column);

    QPushButton *m_sample;
    QPushButton *m_open;
    QPushButton *m_new;
    QListWidget *m_recent;
    QLabel *m_recentTitle;
    QLabel *m_status;
};

} // namespace gpuf
