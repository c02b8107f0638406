// KernelPairLoader: follows the Selection's pair and loads both kernels' sources off the GUI thread, handing the
// diff view finished DiffSide values (latest request wins), together with the line annotations of the pair's newest
// forecast by the forecaster chosen in Settings.
#pragma once

#include "core/domain/problem.h"
#include "core/session/diff_side.h"
#include "core/session/forecast_annotations.h"

#include <QObject>

namespace gpuf {

class Selection;
class Settings;
class StoreSession;
struct StoreChange;

class KernelPairLoader : public QObject
{
    Q_OBJECT

public:
    KernelPairLoader(StoreSession *session, Selection *selection, QObject *parent = nullptr);
    // With settings, the annotations follow its forecasterName(); without, they come from "costmodel".
    KernelPairLoader(StoreSession *session, Selection *selection, Settings *settings, QObject *parent = nullptr);

    // Loads a pair now (the Selection calls this through pairChanged).
    void load(RowId candidateId, RowId baselineId);
    // Reads the current pair's annotations again (after new forecasts, or another forecaster chosen).
    void reloadAnnotations();
    QString forecasterName() const { return m_forecasterName; }
    void setForecasterName(const QString &name);

Q_SIGNALS:
    void pairLoaded(const gpuf::DiffSide &baseline, const gpuf::DiffSide &candidate);
    // Right after pairLoaded, and again whenever reloadAnnotations() finishes; empty when the pair has no
    // cost-model forecast (or its response is no explanation).
    void annotationsLoaded(const gpuf::ForecastAnnotations &annotations);
    void cleared();
    void failed(const QString &message);

private:
    struct Loaded
    {
        DiffSide baseline;
        DiffSide candidate;
        ForecastAnnotations annotations;
    };
    void followChange(const StoreChange &change);

    StoreSession *m_session;
    QString m_forecasterName;
    RowId m_candidateId = 0;
    RowId m_baselineId = 0;
    bool m_annotationsReread = false; // annotations were read again after the pair's load started (theirs win)
};

} // namespace gpuf
