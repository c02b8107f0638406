// KernelPairLoader: follows the Selection's pair and loads both kernels' sources off the GUI thread, handing the
// diff view finished DiffSide values (latest request wins), together with the line annotations of the pair's newest
// forecast by the forecaster chosen in Settings.
#pragma once

#include "core/domain/problem.h"
#include "widgets/diff/diff_document.h"
#include "widgets/diff/forecast_annotations.h"

#include <QObject>

namespace gpuf {

class Selection;
class Settings;
class StoreSession;

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
    StoreSession *m_session;
    QString m_forecasterName;
    RowId m_candidateId = 0;
    RowId m_baselineId = 0;
    quint64 m_generation = 0;
    quint64 m_annotationGeneration = 0;
};

} // namespace gpuf
