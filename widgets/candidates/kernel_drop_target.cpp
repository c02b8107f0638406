// KernelDropTarget; see kernel_drop_target.h.
#include "widgets/candidates/kernel_drop_target.h"

#include "core/interop/kernel_input.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QMimeData>
#include <QUrl>
#include <QWidget>

namespace gpuf {

KernelDropTarget::KernelDropTarget(QWidget *widget)
    : QObject(widget)
{
    widget->setAcceptDrops(true);
    widget->installEventFilter(this);
}

KernelDropTarget::Payload KernelDropTarget::payloadOf(const QMimeData *mime)
{
    Payload payload;
    if (!mime)
        return payload;
    if (mime->hasUrls()) {
        const QList<QUrl> urls = mime->urls();
        for (const QUrl &url : urls) {
            if (!url.isLocalFile())
                continue;
            const QString path = url.toLocalFile();
            if (interop::isKernelFile(path))
                payload.files.append(path);
            else
                payload.refused.append(QFileInfo(path).fileName());
        }
        return payload; // a file drop never falls back to its URL text
    }
    if (mime->hasText() && !mime->text().trimmed().isEmpty())
        payload.text = mime->text();
    return payload;
}

bool KernelDropTarget::eventFilter(QObject *watched, QEvent *event)
{
    switch (event->type()) {
    case QEvent::DragEnter:
    case QEvent::DragMove: {
        auto *drag = static_cast<QDropEvent *>(event);
        const Payload payload = payloadOf(drag->mimeData());
        if (payload.isEmpty() && payload.refused.isEmpty())
            return QObject::eventFilter(watched, event);
        // Refused files are still accepted here so the drop can say why instead of silently bouncing.
        drag->acceptProposedAction();
        return true;
    }
    case QEvent::Drop: {
        auto *drop = static_cast<QDropEvent *>(event);
        const Payload payload = payloadOf(drop->mimeData());
        if (payload.isEmpty() && payload.refused.isEmpty())
            return QObject::eventFilter(watched, event);
        drop->acceptProposedAction();
        if (!payload.refused.isEmpty()) {
            Q_EMIT dropRefused(tr("Not added: %1 — only .cu, .cuh and .py files can be added as kernels.")
                                   .arg(payload.refused.join(QStringLiteral(", "))));
        }
        if (!payload.files.isEmpty())
            Q_EMIT filesDropped(payload.files);
        else if (!payload.text.isEmpty())
            Q_EMIT textDropped(payload.text);
        return true;
    }
    default:
        return QObject::eventFilter(watched, event);
    }
}

} // namespace gpuf
