// KernelPairLoader: follows the Selection's pair and loads both kernels' sources off the GUI thread, handing the
// diff view finished DiffSide values (latest request wins).
#pragma once

#include "core/domain/problem.h"
#include "widgets/diff/diff_document.h"

#include <QObject>

namespace gpuf {

class Selection;
class StoreSession;

class KernelPairLoader : public QObject
{
    Q_OBJECT

public:
    KernelPairLoader(StoreSession *session, Selection *selection, QObject *parent = nullptr);

    // Loads a pair now (the Selection calls this through pairChanged).
    void load(RowId candidateId, RowId baselineId);

Q_SIGNALS:
    void pairLoaded(const gpuf::DiffSide &baseline, const gpuf::DiffSide &candidate);
    void cleared();
    void failed(const QString &message);

private:
    StoreSession *m_session;
    quint64 m_generation = 0;
};

} // namespace gpuf
