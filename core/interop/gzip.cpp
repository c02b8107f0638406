// gzip decompression for tuning results (the T4 hub ships .json.gz); see tuning_results.h.
#include "core/interop/tuning_results.h"

#include <zlib.h>

#include <algorithm>

namespace gpuf::interop {

namespace {

// zlib counts in 32-bit units: feed and drain at most this much per call.
constexpr qsizetype kChunk = qsizetype(1) << 30;
constexpr qint64 kFirstBuffer = qint64(64) << 10; // for tiny inputs; larger ones start at 8× their size

class InflateStream
{
public:
    InflateStream() { m_ok = inflateInit2(&m_stream, 16 + MAX_WBITS) == Z_OK; } // 16+: gzip header and trailer
    ~InflateStream()
    {
        if (m_ok)
            inflateEnd(&m_stream);
    }
    InflateStream(const InflateStream &) = delete;
    InflateStream &operator=(const InflateStream &) = delete;

    bool ok() const { return m_ok; }
    z_stream *operator->() { return &m_stream; }
    z_stream *get() { return &m_stream; }

private:
    z_stream m_stream {};
    bool m_ok = false;
};

QString sizeText(qint64 bytes)
{
    if (bytes % (qint64(1) << 30) == 0)
        return QStringLiteral("%1 GiB").arg(bytes >> 30);
    if (bytes % (qint64(1) << 20) == 0)
        return QStringLiteral("%1 MiB").arg(bytes >> 20);
    return QStringLiteral("%1 bytes").arg(bytes);
}

} // namespace

bool isGzip(const QByteArray &data)
{
    return data.size() >= 2 && static_cast<unsigned char>(data.at(0)) == 0x1f
        && static_cast<unsigned char>(data.at(1)) == 0x8b;
}

Result<QByteArray> gunzip(const QByteArray &data, qint64 limit)
{
    if (!isGzip(data))
        return Error {QStringLiteral("the data is not gzip-compressed (no gzip magic bytes)")};
    InflateStream stream;
    if (!stream.ok())
        return Error {QStringLiteral("zlib could not start decompressing")};

    // One byte more than the limit may be produced: that byte is how an oversized stream shows itself.
    const qint64 capacity = limit + 1;
    QByteArray out;
    out.resize(qsizetype(std::min<qint64>(capacity, std::max<qint64>(qint64(data.size()) * 8, kFirstBuffer))));
    qsizetype produced = 0;
    qsizetype fed = 0;
    for (;;) {
        if (stream->avail_in == 0 && fed < data.size()) {
            const qsizetype n = std::min(kChunk, data.size() - fed);
            stream->next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.constData() + fed));
            stream->avail_in = uInt(n);
            fed += n;
        }
        if (produced == out.size()) {
            if (out.size() >= capacity)
                break;
            out.resize(qsizetype(std::min<qint64>(capacity, qint64(out.size()) * 2)));
        }
        const qsizetype room = std::min(kChunk, out.size() - produced);
        stream->next_out = reinterpret_cast<Bytef *>(out.data() + produced);
        stream->avail_out = uInt(room);
        const int status = inflate(stream.get(), Z_NO_FLUSH);
        produced += room - qsizetype(stream->avail_out);
        if (status == Z_STREAM_END) {
            // gzip allows several members one after another (cat a.gz b.gz); anything else after the end is padding.
            const qsizetype next = fed - qsizetype(stream->avail_in);
            if (next + 1 < data.size() && static_cast<unsigned char>(data.at(next)) == 0x1f
                && static_cast<unsigned char>(data.at(next + 1)) == 0x8b) {
                if (inflateReset(stream.get()) != Z_OK)
                    return Error {QStringLiteral("zlib could not restart at the next gzip member")};
                continue;
            }
            break;
        }
        if (status == Z_BUF_ERROR && stream->avail_in == 0 && fed == data.size())
            return Error {QStringLiteral("the gzip data is cut short")};
        if (status != Z_OK && status != Z_BUF_ERROR) {
            return Error {
                QStringLiteral("the gzip data is corrupt (%1)")
                    .arg(stream->msg ? QString::fromLatin1(stream->msg) : QStringLiteral("zlib error %1").arg(status))};
        }
    }
    if (produced > limit) {
        return Error {
            QStringLiteral("the gzip data decompresses to more than %1, which is refused").arg(sizeText(limit))};
    }
    out.truncate(produced);
    return out;
}

} // namespace gpuf::interop
