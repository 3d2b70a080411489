// embark-cli: the command-line entry point. All commands live in app/cli (embark_cli); images (quantize
// --calib) are decoded here, outside core, through QImage (app/imageio).
#include "cli/cli.h"
#include "image_decoder.h"

#include <QCoreApplication>

namespace {

QtMessageHandler g_defaultHandler = nullptr;

// Qt's image plugins print their libraries' complaints ("libpng error: Read Error") on
// stderr while decoding; the decoder's own error names the file and why, so those lines only
// break the one-line `embark-cli: error:` form.
void messageHandler(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (type == QtWarningMsg &&
        (message.startsWith(QLatin1String("libpng ")) || message.startsWith(QLatin1String("libjpeg"))))
        return;
    g_defaultHandler(type, context, message);
}

} // namespace

int main(int argc, char** argv) {
    g_defaultHandler = qInstallMessageHandler(messageHandler);
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName("embark");
    QCoreApplication::setOrganizationName("Embark");
    QCoreApplication::setApplicationVersion(EMBARK_VERSION);
    embark::jobs::installImageDecoder(&embark::imageio::decodeImage);
    return embark::cli::run(QCoreApplication::arguments().mid(1));
}
