// Chunk fields from a QJsonObject, and the forward scanner: a strict JSON reader that decodes only the strings it
// keeps and skips everything else.
#include "core/llm/chunk_fields.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace gpuf::llm {

namespace {

QString contentText(const QJsonValue &content)
{
    if (content.isString())
        return content.toString();
    QString text; // content parts: [{"type":"text","text":…}, …]
    const QJsonArray parts = content.toArray();
    for (const QJsonValue part : parts)
        text += part.toObject().value(QLatin1StringView("text")).toString();
    return text;
}

QString errorText(const QJsonValue &error)
{
    if (error.isString())
        return error.toString();
    const QJsonObject object = error.toObject();
    const QString message = object.value(QLatin1StringView("message")).toString();
    return message.isEmpty() ? QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact)) : message;
}

// Reads JSON text front to back. Every read returns false on anything it does not accept; callers then give up.
class Scanner
{
public:
    explicit Scanner(QByteArrayView text)
        : m_p(text.data())
        , m_end(text.data() + text.size())
    { }

    bool atEnd()
    {
        skipSpace();
        return m_p == m_end;
    }
    bool peek(char c)
    {
        skipSpace();
        return m_p != m_end && *m_p == c;
    }
    bool take(char c)
    {
        if (!peek(c))
            return false;
        ++m_p;
        return true;
    }
    bool takeNull()
    {
        skipSpace();
        if (m_end - m_p >= 4 && QByteArrayView(m_p, 4) == "null") {
            m_p += 4;
            return true;
        }
        return false;
    }

    // A key and its colon; the key stays a view into the text (keys we look for have no escapes).
    bool key(QByteArrayView &name)
    {
        skipSpace();
        if (m_p == m_end || *m_p != '"')
            return false;
        const char *start = ++m_p;
        while (m_p != m_end && *m_p != '"') {
            if (*m_p == '\\' || static_cast<unsigned char>(*m_p) < 0x20)
                return false;
            ++m_p;
        }
        if (m_p == m_end)
            return false;
        name = QByteArrayView(start, m_p - start);
        ++m_p;
        return take(':');
    }

    bool string(QString &out)
    {
        skipSpace();
        if (m_p == m_end || *m_p != '"')
            return false;
        const char *start = ++m_p;
        bool escaped = false;
        while (m_p != m_end && *m_p != '"') {
            const auto c = static_cast<unsigned char>(*m_p);
            if (c == '\\') {
                escaped = true;
                if (++m_p == m_end)
                    return false;
                ++m_p;
            } else if (c < 0x80) {
                if (c < 0x20)
                    return false; // a control character must be escaped
                ++m_p;
            } else if (!utf8Sequence()) {
                return false;
            }
        }
        if (m_p == m_end)
            return false;
        const QByteArrayView raw(start, m_p - start);
        ++m_p;
        if (!escaped) {
            out = QString::fromUtf8(raw);
            return true;
        }
        return unescape(raw, out);
    }

    bool stringOrNull(QString &out)
    {
        if (takeNull()) {
            out.clear();
            return true;
        }
        return string(out);
    }

    bool integer(qint64 &out)
    {
        skipSpace();
        const char *start = m_p;
        if (m_p != m_end && *m_p == '-')
            ++m_p;
        qint64 value = 0;
        int digits = 0;
        while (m_p != m_end && *m_p >= '0' && *m_p <= '9' && digits < 18) {
            value = value * 10 + (*m_p++ - '0');
            ++digits;
        }
        if (digits == 0
            || (m_p != m_end && (*m_p == '.' || *m_p == 'e' || *m_p == 'E' || (*m_p >= '0' && *m_p <= '9'))))
            return false;
        out = *start == '-' ? -value : value;
        return true;
    }

    // Any value, unread.
    bool skip(int depth = 0)
    {
        skipSpace();
        if (m_p == m_end || depth > 64)
            return false;
        switch (*m_p) {
        case '"': {
            QString ignored;
            return string(ignored);
        }
        case '{':
        case '[': {
            const char close = *m_p == '{' ? '}' : ']';
            const bool object = close == '}';
            ++m_p;
            if (take(close))
                return true;
            do {
                QByteArrayView name;
                if (object && !key(name))
                    return false;
                if (!skip(depth + 1))
                    return false;
            } while (take(','));
            return take(close);
        }
        default:
            return literal();
        }
    }

private:
    void skipSpace()
    {
        while (m_p != m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t'))
            ++m_p;
    }

    bool literal()
    {
        const char *start = m_p;
        while (m_p != m_end
            && ((*m_p >= '0' && *m_p <= '9') || *m_p == '-' || *m_p == '+' || *m_p == '.' || *m_p == 'e'
                || *m_p == 'E'))
            ++m_p;
        if (m_p != start)
            return true;
        for (const QByteArrayView word : {QByteArrayView("true"), QByteArrayView("false"), QByteArrayView("null")}) {
            if (m_end - m_p >= word.size() && QByteArrayView(m_p, word.size()) == word) {
                m_p += word.size();
                return true;
            }
        }
        return false;
    }

    // One well-formed multi-byte UTF-8 character at m_p (no overlongs, no surrogates, at most U+10FFFF).
    bool utf8Sequence()
    {
        const auto b0 = static_cast<unsigned char>(m_p[0]);
        int length = 0;
        unsigned char low = 0x80, high = 0xBF;
        if (b0 >= 0xC2 && b0 <= 0xDF) {
            length = 2;
        } else if (b0 >= 0xE0 && b0 <= 0xEF) {
            length = 3;
            low = b0 == 0xE0 ? 0xA0 : 0x80;
            high = b0 == 0xED ? 0x9F : 0xBF;
        } else if (b0 >= 0xF0 && b0 <= 0xF4) {
            length = 4;
            low = b0 == 0xF0 ? 0x90 : 0x80;
            high = b0 == 0xF4 ? 0x8F : 0xBF;
        } else {
            return false;
        }
        if (m_end - m_p < length)
            return false;
        for (int i = 1; i < length; ++i) {
            const auto b = static_cast<unsigned char>(m_p[i]);
            if (b < (i == 1 ? low : 0x80) || b > (i == 1 ? high : 0xBF))
                return false;
        }
        m_p += length;
        return true;
    }

    static int hex(char c)
    {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
            return c - 'A' + 10;
        return -1;
    }

    static bool unit(QByteArrayView raw, qsizetype at, char16_t &out)
    {
        if (at + 4 > raw.size())
            return false;
        int value = 0;
        for (qsizetype i = at; i < at + 4; ++i) {
            const int digit = hex(raw[i]);
            if (digit < 0)
                return false;
            value = value * 16 + digit;
        }
        out = char16_t(value);
        return true;
    }

    static bool unescape(QByteArrayView raw, QString &out)
    {
        out.clear();
        out.reserve(raw.size());
        qsizetype plain = 0;
        for (qsizetype i = 0; i < raw.size();) {
            if (raw[i] != '\\') {
                ++i;
                continue;
            }
            out += QString::fromUtf8(raw.sliced(plain, i - plain));
            const char e = raw[i + 1];
            i += 2;
            switch (e) {
            case '"':
            case '\\':
            case '/':
                out += QLatin1Char(e);
                break;
            case 'b':
                out += u'\b';
                break;
            case 'f':
                out += u'\f';
                break;
            case 'n':
                out += u'\n';
                break;
            case 'r':
                out += u'\r';
                break;
            case 't':
                out += u'\t';
                break;
            case 'u': {
                char16_t first = 0;
                if (!unit(raw, i, first))
                    return false;
                i += 4;
                if (QChar::isLowSurrogate(first))
                    return false;
                out += QChar(first);
                if (QChar::isHighSurrogate(first)) {
                    char16_t second = 0;
                    if (i + 1 >= raw.size() || raw[i] != '\\' || raw[i + 1] != 'u' || !unit(raw, i + 2, second)
                        || !QChar::isLowSurrogate(second))
                        return false;
                    out += QChar(second);
                    i += 6;
                }
                break;
            }
            default:
                return false;
            }
            plain = i;
        }
        out += QString::fromUtf8(raw.sliced(plain));
        return true;
    }

    const char *m_p;
    const char *m_end;
};

// Reads an object member by member: `member(name)` reads the value of each key or returns false.
template<typename Member>
bool object(Scanner &s, Member member)
{
    if (!s.take('{'))
        return false;
    if (s.take('}'))
        return true;
    do {
        QByteArrayView name;
        if (!s.key(name) || !member(name))
            return false;
    } while (s.take(','));
    return s.take('}');
}

bool toolCall(Scanner &s, ToolCallDelta &call)
{
    return object(s, [&](QByteArrayView name) {
        if (name == "index") {
            qint64 index = -1;
            if (!s.integer(index) || index < 0 || index > 1000000)
                return false;
            call.index = int(index);
            return true;
        }
        if (name == "id")
            return s.stringOrNull(call.id);
        if (name == "function") {
            return object(s, [&](QByteArrayView field) {
                if (field == "name")
                    return s.stringOrNull(call.name);
                if (field == "arguments")
                    return s.stringOrNull(call.arguments); // an object here goes to the Qt path
                return s.skip();
            });
        }
        return s.skip();
    });
}

bool delta(Scanner &s, MessageFields &fields)
{
    return object(s, [&](QByteArrayView name) {
        if (name == "content")
            return s.stringOrNull(fields.content); // content parts go to the Qt path
        if (name == "reasoning_content")
            return s.stringOrNull(fields.reasoningContent);
        if (name == "reasoning")
            return s.stringOrNull(fields.reasoning);
        if (name == "tool_calls") {
            if (s.takeNull())
                return true;
            if (!s.take('['))
                return false;
            if (s.take(']'))
                return true;
            do {
                ToolCallDelta call;
                if (!toolCall(s, call))
                    return false;
                fields.toolCalls.append(std::move(call));
            } while (s.take(','));
            return s.take(']');
        }
        return s.skip();
    });
}

bool choices(Scanner &s, ChunkFields &fields)
{
    if (!s.take('['))
        return false;
    if (s.take(']'))
        return true;
    bool first = true;
    do {
        if (!first) {
            if (!s.skip())
                return false;
            continue;
        }
        first = false;
        fields.hasChoice = true;
        const bool read = object(s, [&](QByteArrayView name) {
            if (name == "delta")
                return delta(s, fields.delta);
            if (name == "finish_reason")
                return s.stringOrNull(fields.finishReason);
            return s.skip();
        });
        if (!read)
            return false;
    } while (s.take(','));
    return s.take(']');
}

bool usage(Scanner &s, ChunkFields &fields)
{
    if (s.takeNull())
        return true;
    fields.hasUsage = true;
    return object(s, [&](QByteArrayView name) {
        if (name == "prompt_tokens")
            return s.integer(fields.promptTokens);
        if (name == "completion_tokens")
            return s.integer(fields.completionTokens);
        return s.skip();
    });
}

} // namespace

MessageFields messageFields(const QJsonObject &message)
{
    MessageFields fields;
    fields.content = contentText(message.value(QLatin1StringView("content")));
    fields.reasoningContent = message.value(QLatin1StringView("reasoning_content")).toString();
    fields.reasoning = message.value(QLatin1StringView("reasoning")).toString();
    const QJsonArray calls = message.value(QLatin1StringView("tool_calls")).toArray();
    for (const QJsonValue value : calls) {
        const QJsonObject call = value.toObject();
        const QJsonObject function = call.value(QLatin1StringView("function")).toObject();
        const QJsonValue arguments = function.value(QLatin1StringView("arguments"));
        fields.toolCalls.append(ToolCallDelta {
            call.value(QLatin1StringView("index")).toInt(-1),
            call.value(QLatin1StringView("id")).toString(),
            function.value(QLatin1StringView("name")).toString(),
            arguments.isObject() ? QString::fromUtf8(QJsonDocument(arguments.toObject()).toJson(QJsonDocument::Compact))
                                 : arguments.toString(),
        });
    }
    return fields;
}

ChunkFields chunkFields(const QJsonObject &chunk)
{
    ChunkFields fields;
    if (chunk.contains(QLatin1StringView("error"))) {
        fields.hasError = true;
        fields.errorMessage = errorText(chunk.value(QLatin1StringView("error")));
    }
    const QJsonArray choices = chunk.value(QLatin1StringView("choices")).toArray();
    if (!choices.isEmpty()) {
        fields.hasChoice = true;
        const QJsonObject choice = choices.first().toObject();
        fields.delta = messageFields(choice.value(QLatin1StringView("delta")).toObject());
        fields.finishReason = choice.value(QLatin1StringView("finish_reason")).toString();
    }
    const QJsonValue usage = chunk.value(QLatin1StringView("usage"));
    if (usage.isObject()) {
        fields.hasUsage = true;
        fields.promptTokens = usage.toObject().value(QLatin1StringView("prompt_tokens")).toInteger(-1);
        fields.completionTokens = usage.toObject().value(QLatin1StringView("completion_tokens")).toInteger(-1);
    }
    return fields;
}

std::optional<ChunkFields> scanChunk(QByteArrayView json)
{
    Scanner s(json);
    ChunkFields fields;
    const bool read = object(s, [&](QByteArrayView name) {
        if (name == "choices")
            return choices(s, fields);
        if (name == "usage")
            return usage(s, fields);
        if (name == "error")
            return false; // rare: the Qt path words it
        return s.skip();
    });
    if (!read || !s.atEnd())
        return std::nullopt;
    return fields;
}

} // namespace gpuf::llm
