// LessonEditorDialog: a teacher renames a lesson and reorders or removes its steps (core/lessons moveStep,
// removeStep), then saves it through the LessonsController, which writes and announces the edited lesson; a refusal
// is shown in the dialog, which stays open.
#pragma once

#include "core/domain/lesson.h"

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace gpuf {

class LessonsController;

class LessonEditorDialog : public QDialog
{
    Q_OBJECT

public:
    LessonEditorDialog(LessonsController *controller, const Lesson &lesson, QWidget *parent = nullptr);

    QLineEdit *titleEdit() const { return m_title; }
    QListWidget *stepList() const { return m_steps; }
    void moveCurrent(int by);
    void removeCurrent();
    void save();

Q_SIGNALS:
    void saved(const gpuf::Lesson &lesson);

private:
    void fill(int current);

    LessonsController *m_controller;
    Lesson m_lesson;
    QLineEdit *m_title;
    QListWidget *m_steps;
    QLabel *m_error;
    QDialogButtonBox *m_buttons;
};

} // namespace gpuf
