// StreamedJsonField: the decoded text of one top-level string field of a JSON object that arrives in pieces (the
// `reasoning` argument of a streamed tool call), handed out as soon as its characters arrive. Pure.
#pragma once

#include <QString>

namespace gpuf::forecasters {

class StreamedJsonField
{
public:
    explicit StreamedJsonField(QString field);

    // Appends a piece of the object's text; returns the field's characters that became known with it.
    QString feed(const QString &piece);
    bool complete() const { return m_mode == Mode::Done; }

private:
    enum class Mode { Scan, AfterKey, AfterColon, Value, Done };
    bool scanToken(QString &out); // one step; false when more text is needed
    bool valueStep(QString &out);

    QString m_field;
    QString m_text;
    qsizetype m_pos = 0;
    int m_depth = 0;
    Mode m_mode = Mode::Scan;
};

} // namespace gpuf::forecasters
