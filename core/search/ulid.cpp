// ULID text; see ulid.h.
#include "core/search/ulid.h"

namespace gpuf::search {

namespace {
const char kAlphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
}

QString makeUlid(const QDateTime &time, quint64 high16, quint64 low64)
{
    // 128 bits: 48-bit time, 16 + 64 random bits; written as 26 groups of 5 bits (the first group holds 3).
    const quint64 ms = quint64(std::max<qint64>(0, time.toMSecsSinceEpoch())) & 0xFFFFFFFFFFFFULL;
    const quint64 hi = (ms << 16) | (high16 & 0xFFFFULL); // bits 127..64
    const quint64 lo = low64; // bits 63..0
    QString out(26, QLatin1Char('0'));
    for (int i = 0; i < 26; ++i) {
        const int bit = 125 - 5 * i; // lowest bit of group i within the 130-bit field (2 leading zero bits)
        quint64 v = 0;
        for (int b = 4; b >= 0; --b) {
            const int pos = bit + b;
            quint64 bitValue = 0;
            if (pos < 64)
                bitValue = (lo >> pos) & 1ULL;
            else if (pos < 128)
                bitValue = (hi >> (pos - 64)) & 1ULL;
            v = (v << 1) | bitValue;
        }
        out[i] = QLatin1Char(kAlphabet[v]);
    }
    return out;
}

bool isUlid(const QString &text)
{
    if (text.size() != 26)
        return false;
    for (QChar c : text) {
        if (!QByteArrayView(kAlphabet).contains(char(c.toLatin1())) || c.unicode() > 127)
            return false;
    }
    return text.at(0) <= QLatin1Char('7');
}

} // namespace gpuf::search
