// LessonPicker: the Lessons dock's top row — the lesson and the student who answers, and the buttons that edit the
// lesson, generate lessons, add a student and open the class report. It shows a catalog and says what the user picked;
// the LessonsController acts on it.
#pragma once

#include "core/lessons/lesson_reads.h"

#include <QWidget>

class QComboBox;
class QPushButton;
class QToolButton;

namespace gpuf {

class LessonPicker : public QWidget
{
    Q_OBJECT

public:
    explicit LessonPicker(QWidget *parent = nullptr);

    QComboBox *lessonBox() const { return m_lessonBox; }
    QComboBox *studentBox() const { return m_studentBox; }
    QToolButton *editLessonButton() const { return m_editLesson; }
    QToolButton *generateButton() const { return m_generate; }
    QToolButton *addStudentButton() const { return m_addStudent; }
    QPushButton *reportButton() const { return m_report; }

    // Fills both boxes with `catalog` and shows `lessonId` and `studentId`, without emitting the choices.
    void showCatalog(const lessons::LessonCatalog &catalog, RowId lessonId, RowId studentId);
    // Shows `lessonId` and `studentId` among the lessons and students shown, without emitting the choices.
    void showChoice(RowId lessonId, RowId studentId);
    // What can be done: a lesson to edit or report on, a store to add students and generate lessons in.
    void setAvailable(bool storeOpen, bool anyLesson, bool generating);
    // As if the user picked them (the choice is emitted when it changes).
    void pickLesson(RowId lessonId);
    void pickStudent(const QString &displayName);

Q_SIGNALS:
    void lessonPicked(gpuf::RowId lessonId);
    void studentPicked(gpuf::RowId studentId);

private:
    QComboBox *m_lessonBox;
    QComboBox *m_studentBox;
    QToolButton *m_editLesson;
    QToolButton *m_generate;
    QToolButton *m_addStudent;
    QPushButton *m_report;
};

} // namespace gpuf
