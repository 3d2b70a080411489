// embark-cli: the command-line entry point. All commands live in core/cli.
#include "cli/cli.h"

#include <QCoreApplication>

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName("embark");
    QCoreApplication::setOrganizationName("Embark");
    QCoreApplication::setApplicationVersion(EMBARK_VERSION);
    return embark::cli::run(QCoreApplication::arguments().mid(1));
}
