#include "app/explorer/main_window.h"

namespace gpuf {
MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setWindowTitle(tr("GPU Forecaster Explorer"));
}
} // namespace gpuf
