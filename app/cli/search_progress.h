// Progress of a running search, said through the command's Progress: a bar redrawn in place on a terminal, one line
// per completed step otherwise (logs and pipes stay readable), and how the run ended.
#pragma once

#include "app/cli/progress.h"
#include "core/search/search_engine.h"

namespace gpuf::cli {

class SearchProgress
{
public:
    explicit SearchProgress(Progress &progress);
    void snapshot(const search::SearchSnapshot &s); // terminal: redraws the bar
    void step(const search::SearchSnapshot &s); // no terminal: one line
    void finish(const search::SearchSnapshot &s); // ends the bar's line, and says a pause, a stop or an early end

private:
    static QString figures(const search::SearchSnapshot &s);

    Progress &m_progress;
    bool m_drawn = false;
};

} // namespace gpuf::cli
