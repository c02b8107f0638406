// KernelDropTarget: lets a widget (the main window) accept dropped `.cu`/`.cuh`/`.py` files and dropped code text,
// and reports them; what to do with them (the "Add Kernel" dialog) is the composer's business.
#pragma once

#include <QObject>
#include <QStringList>

class QMimeData;
class QWidget;

namespace gpuf {

class KernelDropTarget : public QObject
{
    Q_OBJECT

public:
    // Installs itself as an event filter on `widget` and turns on its drops.
    explicit KernelDropTarget(QWidget *widget);

    // What a drop of `mime` would add: kernel files (local paths), else plain text; empty when neither.
    struct Payload
    {
        QStringList files;
        QString text;
        QStringList refused; // local files with another suffix, named in the status message
        bool isEmpty() const { return files.isEmpty() && text.isEmpty(); }
    };
    static Payload payloadOf(const QMimeData *mime);

Q_SIGNALS:
    void filesDropped(const QStringList &files);
    void textDropped(const QString &text);
    void dropRefused(const QString &message);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
};

} // namespace gpuf
