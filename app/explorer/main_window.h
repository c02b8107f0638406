// MainWindow: composes docks, actions and menus; holds no domain logic.
#pragma once

#include <QMainWindow>

namespace gpuf {

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
};

} // namespace gpuf
