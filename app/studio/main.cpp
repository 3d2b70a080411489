// embark: the studio's entry point. Opens the model given on the command line, else the last
// session's model, else shows the welcome page (with the bundled sample model as a link).
#include "mainwindow/mainwindow.h"
#include "targets/source_tree.h"
#include "image_decoder.h"
#include "mainwindow/screenshot_tour.h"
#include "settings/language.h"
#include "settings/settings_file.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("embark"));
    QApplication::setOrganizationName(QStringLiteral("Embark"));
    QApplication::setApplicationVersion(QStringLiteral(EMBARK_VERSION));
    embark::ui::installSettingsFormat(); // before the first setting is read
    embark::ui::installTranslators(app);
    // Images as calibration data (Model > Quantize...) are decoded through QImage.
    embark::jobs::installImageDecoder(&embark::imageio::decodeImage);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QApplication::translate("main", "Embark studio: from an ONNX model to an embedded board."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("model"), QApplication::translate("main", "ONNX model to open."));
    QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QApplication::translate("main", "Save screenshots of the main views into DIR, then quit."),
        QStringLiteral("DIR"));
    parser.addOption(screenshot);
    parser.process(app);

    embark::ui::MainWindow window;
    window.show();
    const QStringList args = parser.positionalArguments();
    // No argument: the model of the last session, else the welcome page (the sample model is
    // a link there); the screenshot tour starts from the sample model.
    const QString sample = embark::targets::sourceTree() + "/resources/models/digits_cnn.onnx";
    const QStringList recent = window.recentFiles();
    const QString last = !recent.isEmpty() && QFileInfo::exists(recent.first()) ? recent.first() : QString();
    const QString model = !args.isEmpty() ? args.first() : parser.isSet(screenshot) ? sample : last;
    if (parser.isSet(screenshot)) {
        window.openModel(model, true); // waits, so the tour starts from the open model
        embark::ui::runScreenshotTour(&window, parser.value(screenshot));
    } else if (!model.isEmpty()) {
        window.loadModel(model); // in the background: the window shows at once
    }
    return app.exec();
}
