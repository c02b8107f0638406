// LessonPicker; see lesson_picker.h.
#include "widgets/lessons/lesson_picker.h"

#include "widgets/common/flow_layout.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>

namespace gpuf {
namespace {

QVariant idData(RowId id) { return QVariant::fromValue<qint64>(id); }

void setCurrentId(QComboBox *box, RowId id)
{
    if (const int at = box->findData(idData(id)); at >= 0)
        box->setCurrentIndex(at);
}

} // namespace

LessonPicker::LessonPicker(QWidget *parent)
    : QWidget(parent)
    , m_lessonBox(new QComboBox(this))
    , m_studentBox(new QComboBox(this))
    , m_editLesson(new QToolButton(this))
    , m_generate(new QToolButton(this))
    , m_addStudent(new QToolButton(this))
    , m_report(new QPushButton(tr("Class Report…"), this))
{
    m_lessonBox->setObjectName(QStringLiteral("lessonBox"));
    m_lessonBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_lessonBox->setMinimumContentsLength(24);
    m_studentBox->setObjectName(QStringLiteral("studentBox"));
    m_studentBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_addStudent->setText(tr("New Student…"));
    m_editLesson->setText(tr("Edit Lesson…"));
    m_generate->setText(tr("Generate Lessons"));
    m_generate->setToolTip(tr("One lesson per corpus operation and per kernel family; lessons already in the store "
                              "are kept as they are"));
    // The lesson's group and the student's group share a line where the dock is wide enough, else take one each.
    auto *lesson = new QWidget(this);
    auto *lessonRow = new QHBoxLayout(lesson);
    lessonRow->setContentsMargins(0, 0, 0, 0);
    lessonRow->addWidget(new QLabel(tr("Lesson:"), lesson));
    lessonRow->addWidget(m_lessonBox, 1);
    lessonRow->addWidget(m_editLesson);
    lessonRow->addWidget(m_generate);
    auto *student = new QWidget(this);
    auto *studentRow = new QHBoxLayout(student);
    studentRow->setContentsMargins(0, 0, 0, 0);
    studentRow->addWidget(new QLabel(tr("Student:"), student));
    studentRow->addWidget(m_studentBox);
    studentRow->addWidget(m_addStudent);
    studentRow->addWidget(m_report);
    auto *top = new FlowLayout(this);
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(lesson);
    top->addWidget(student);
    connect(m_lessonBox, &QComboBox::currentIndexChanged, this,
        [this]() { Q_EMIT lessonPicked(m_lessonBox->currentData().toLongLong()); });
    connect(m_studentBox, &QComboBox::currentIndexChanged, this,
        [this]() { Q_EMIT studentPicked(m_studentBox->currentData().toLongLong()); });
}

void LessonPicker::showCatalog(const lessons::LessonCatalog &catalog, RowId lessonId, RowId studentId)
{
    const QSignalBlocker blockLessons(m_lessonBox);
    const QSignalBlocker blockStudents(m_studentBox);
    m_lessonBox->clear();
    for (const Lesson &l : catalog.lessons)
        m_lessonBox->addItem(l.label(), idData(l.id));
    m_studentBox->clear();
    for (const Forecaster &s : catalog.students)
        m_studentBox->addItem(s.displayName.isEmpty() ? s.name : s.displayName, idData(s.id));
    setCurrentId(m_lessonBox, lessonId);
    setCurrentId(m_studentBox, studentId);
}

void LessonPicker::showChoice(RowId lessonId, RowId studentId)
{
    const QSignalBlocker blockLessons(m_lessonBox);
    const QSignalBlocker blockStudents(m_studentBox);
    setCurrentId(m_lessonBox, lessonId);
    setCurrentId(m_studentBox, studentId);
}

void LessonPicker::setAvailable(bool storeOpen, bool anyLesson, bool generating)
{
    m_editLesson->setEnabled(anyLesson);
    m_report->setEnabled(anyLesson);
    m_addStudent->setEnabled(storeOpen);
    m_generate->setEnabled(storeOpen && !generating);
}

void LessonPicker::pickLesson(RowId lessonId) { setCurrentId(m_lessonBox, lessonId); }

void LessonPicker::pickStudent(const QString &displayName)
{
    if (const int at = m_studentBox->findText(displayName); at >= 0)
        m_studentBox->setCurrentIndex(at);
}

} // namespace gpuf
