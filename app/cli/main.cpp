// embark-cli: the command-line entry point. All commands live in app/cli (embark_cli); images (quantize
// --calib) are decoded here, outside core, through QImage (app/imageio).
#include "cli/cli.h"
#include "image_decoder.h"

#include <QCoreApplication>

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName("embark");
    QCoreApplication::setOrganizationName("Embark");
    QCoreApplication::setApplicationVersion(EMBARK_VERSION);
    embark::jobs::installImageDecoder(&embark::imageio::decodeImage);
    return embark::cli::run(QCoreApplication::arguments().mid(1));
}
