// Progress of a running search on stderr: a bar redrawn in place on a terminal, one line per completed step otherwise
// (logs and pipes stay readable).
#pragma once

#include "core/search/search_engine.h"

#include <QTextStream>

namespace gpuf::cli {

class SearchProgress
{
public:
    SearchProgress(QTextStream &err, bool quiet);
    void snapshot(const search::SearchSnapshot &s); // terminal: redraws the bar
    void step(const search::SearchSnapshot &s); // no terminal: one line
    void finish(const search::SearchSnapshot &s); // ends the bar's line

private:
    QString figures(const search::SearchSnapshot &s) const;

    QTextStream &m_err;
    bool m_quiet = false;
    bool m_terminal = false;
    bool m_drawn = false;
};

} // namespace gpuf::cli
