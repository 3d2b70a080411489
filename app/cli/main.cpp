// embark-cli: the command-line entry point. All commands live in app/cli (embark_cli); images (quantize
// --calib) are decoded here, outside core, through QImage (app/imageio); charts are drawn by
// app/chartio under a QGuiApplication.
#include "cli/cli.h"
#include "image_decoder.h"

#include <QCoreApplication>
#include <QGuiApplication>

#include <cstring>
#include <memory>

namespace {

QtMessageHandler g_defaultHandler = nullptr;

// Qt's image plugins print their libraries' complaints ("libpng error: Read Error") on
// stderr while decoding; the decoder's own error names the file and why, so those lines only
// break the one-line `embark-cli: error:` form.
void messageHandler(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (type == QtWarningMsg &&
        (message.startsWith(QLatin1String("libpng ")) || message.startsWith(QLatin1String("libjpeg"))))
        return;
    // The offscreen QGuiApplication of --chart notes that no session runtime folder is set.
    if (type == QtWarningMsg && message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR not set"))) return;
    g_defaultHandler(type, context, message);
}

} // namespace

int main(int argc, char** argv) {
    g_defaultHandler = qInstallMessageHandler(messageHandler);
    // --chart (sweep, runs compare --sweep) draws text, which needs a QGuiApplication: the
    // offscreen platform, so it needs no display.
    bool chart = false;
    for (int i = 1; i < argc; ++i)
        chart = chart || std::strcmp(argv[i], "--chart") == 0 || std::strncmp(argv[i], "--chart=", 8) == 0;
    if (chart) qputenv("QT_QPA_PLATFORM", "offscreen");
    const std::unique_ptr<QCoreApplication> app =
        chart ? std::make_unique<QGuiApplication>(argc, argv) : std::make_unique<QCoreApplication>(argc, argv);
    QCoreApplication::setApplicationName("embark");
    QCoreApplication::setOrganizationName("Embark");
    QCoreApplication::setApplicationVersion(EMBARK_VERSION);
    embark::jobs::installImageDecoder(&embark::imageio::decodeImage);
    return embark::cli::run(QCoreApplication::arguments().mid(1));
}
