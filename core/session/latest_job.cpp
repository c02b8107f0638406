// JobProgress's throttle; see latest_job.h.
#include "core/session/latest_job.h"

namespace gpuf {

void JobProgress::Channel::post()
{
    pending = true;
    undelivered = false;
    sincePost.start();
    QMetaObject::invokeMethod(
        context.data(),
        [self = shared_from_this()]() {
            qint64 doneNow = 0;
            qint64 totalNow = 0;
            {
                QMutexLocker lock(&self->mutex);
                self->pending = false;
                doneNow = self->done;
                totalNow = self->total;
            }
            if (self->state->alive && self->state->generation == self->generation)
                self->handler(doneNow, totalNow);
        },
        Qt::QueuedConnection);
}

void JobProgress::operator()(qint64 done, qint64 total) const
{
    if (!m_channel)
        return;
    Channel &c = *m_channel;
    QMutexLocker lock(&c.mutex);
    c.done = done;
    c.total = total;
    if (c.pending)
        return; // the queued report will carry this value
    if (c.sincePost.isValid() && c.sincePost.elapsed() < c.intervalMs) {
        c.undelivered = true;
        return;
    }
    c.post();
}

void JobProgress::flush() const
{
    if (!m_channel)
        return;
    QMutexLocker lock(&m_channel->mutex);
    if (m_channel->undelivered && !m_channel->pending)
        m_channel->post();
}

} // namespace gpuf
