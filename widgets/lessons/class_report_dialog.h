// ClassReportDialog: the class report of one lesson (or all of them) — per student accuracy, within-one, Brier, ECE
// and where they were most wrong — with the reliability diagram of the class against the cost model, exported as CSV
// or as a one-page PDF. Read through the session (the latest request wins), and read again when a write changes the
// answers.
#pragma once

#include "core/domain/lesson.h"
#include "core/lessons/class_report.h"

#include <QDialog>

#include <optional>

class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace gpuf {

class ReliabilityPlot;
class StoreSession;

class ClassReportDialog : public QDialog
{
    Q_OBJECT

public:
    ClassReportDialog(
        StoreSession *session, const QList<Lesson> &lessonList, const QString &lesson, QWidget *parent = nullptr);

    QComboBox *lessonBox() const { return m_lessonBox; }
    QTableWidget *table() const { return m_table; }
    ReliabilityPlot *plot() const { return m_plot; }
    QLabel *summary() const { return m_summary; }
    bool isLoaded() const { return m_report.has_value(); }
    const std::optional<lessons::ClassReport> &report() const { return m_report; }

    Status exportCsv(const QString &path) const;
    Status exportPdf(const QString &path) const;

Q_SIGNALS:
    void loaded();

private:
    void createLayout();
    void load();
    void apply(const lessons::ClassReport &report);
    QString title() const;

    StoreSession *m_session;
    QComboBox *m_lessonBox;
    QLabel *m_summary;
    QTableWidget *m_table;
    ReliabilityPlot *m_plot;
    QPushButton *m_csv;
    QPushButton *m_pdf;
    std::optional<lessons::ClassReport> m_report;
};

} // namespace gpuf
