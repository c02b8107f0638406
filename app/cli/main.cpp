// gpuf: the command-line tool.
#include "app/cli/cli.h"
#include "core/common/english_plurals.h"

#include <QCoreApplication>

#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("gpuf"));
    QCoreApplication::setOrganizationName(QStringLiteral("gpuf"));
    gpuf::installEnglishPlurals(); // "added 152 kernels", not "152 kernel(s)"
    QTextStream out(stdout);
    QTextStream err(stderr);
    return gpuf::cli::run(QCoreApplication::arguments(), out, err);
}
