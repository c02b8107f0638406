// gpuf-explorer: the desktop application.
#include "app/explorer/main_window.h"

#include <QApplication>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("gpuf-explorer"));
    QApplication::setOrganizationName(QStringLiteral("gpuf"));
    gpuf::MainWindow window;
    window.show();
    return QApplication::exec();
}
