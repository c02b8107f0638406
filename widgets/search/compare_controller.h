// CompareController: what the Compare view runs — the spaces it offers (read through the session) and one strategy
// comparison at a time (search::compareStrategies) on the product's background pool, one search at a time so a core
// stays free for the GUI, with progress (runs done of all) and cancel. The report comes back as an immutable value.
#pragma once

#include "core/search/compare.h"
#include "core/search/search_reads.h"
#include "core/session/latest_job.h"

#include <QObject>

#include <memory>

namespace gpuf {

class StoreSession;
struct StoreChange;

class CompareController : public QObject
{
    Q_OBJECT

public:
    explicit CompareController(StoreSession *session, QObject *parent = nullptr);
    ~CompareController() override;

    // Reads the spaces and forecasters of the open store again; choicesChanged() or choicesFailed() follows.
    void loadChoices();
    const search::CompareChoices &choices() const { return m_choices; }
    bool hasChoices() const { return m_hasChoices; }
    // Whether the store changed in a way that may change the choices since they were read.
    bool choicesStale() const { return m_choicesStale; }

    // Runs the comparison in the background against the open store (its path, jobs and cancel token are filled in
    // here), with the cost model of `costModelPath` (empty: the built-in one); a run still going is cancelled first.
    // progressed() follows, then finished(), failed() or cancelled().
    void run(search::CompareOptions options, const QString &costModelPath = {});
    // Asks the run to stop; cancelled() follows once its searches noticed.
    void cancel();
    bool isRunning() const { return m_running; }
    // The last finished comparison (null before the first, and after the store changed).
    std::shared_ptr<const search::CompareReport> report() const { return m_report; }

Q_SIGNALS:
    void choicesChanged();
    void choicesFailed(const QString &message);
    void choicesStaleChanged();
    void runningChanged(bool running);
    void progressed(int done, int total);
    void reportChanged(); // a run finished, or the store it ran on went
    void finished();
    void failed(const QString &message);
    void cancelled();

private:
    void storeChanged(const gpuf::StoreChange &change);
    void forget();
    void setRunning(bool running);

    StoreSession *m_session;
    search::CompareChoices m_choices;
    bool m_hasChoices = false;
    bool m_choicesStale = true;
    bool m_running = false;
    std::shared_ptr<const search::CompareReport> m_report;
    LatestJob<search::CompareReport> m_job {this};
};

} // namespace gpuf
