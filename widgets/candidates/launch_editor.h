// LaunchEditor: a kernel's launches as fields — per launch its entry point (an extern "C" name, a C++ name or a
// template instantiation), grid and block expressions, dynamic shared memory and arguments — one tab per launch,
// with launches added and removed. Used by New Problem… and by Add Kernel (prefilled with the parent's launches).
#pragma once

#include "core/interop/kernel_spec_form.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QTabWidget;
class QToolButton;

namespace gpuf {

class LaunchEditor : public QWidget
{
    Q_OBJECT

public:
    explicit LaunchEditor(QWidget *parent = nullptr);
    ~LaunchEditor() override;

    void setLaunches(const QList<interop::LaunchFields> &launches);
    QList<interop::LaunchFields> launches() const;
    // Marks the fields named by issues under "launches[…]" and lists them under each launch.
    void setIssues(const QList<interop::FieldIssue> &issues);

    int launchCount() const;
    // The edits of launch `index` (for tests and focus): "entry", "grid0".."grid2", "block0".."block2", "shared",
    // "args".
    QLineEdit *field(int index, const QString &name) const;
    QString issuesText(int index) const;
    QToolButton *addButton() const { return m_add; }
    QToolButton *removeButton() const { return m_remove; }

Q_SIGNALS:
    void changed();

private:
    struct Page;
    Page *addPage(const interop::LaunchFields &fields);
    void renumber();

    QTabWidget *m_tabs;
    QToolButton *m_add;
    QToolButton *m_remove;
    QList<Page *> m_pages;
};

} // namespace gpuf
