// embark: the studio's entry point. Opens the model given on the command line, else the
// bundled sample model.
#include "mainwindow/mainwindow.h"

#include <QApplication>
#include <QFileInfo>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName("embark");
    QApplication::setOrganizationName("Embark");
    QApplication::setApplicationVersion(EMBARK_VERSION);
    embark::ui::MainWindow window;
    window.show();
    const QStringList args = QApplication::arguments();
    QString model = args.size() > 1 ? args.at(1) : QStringLiteral(EMBARK_SOURCE_DIR "/resources/models/digits_cnn.onnx");
    if (QFileInfo::exists(model)) window.openModel(model);
    return app.exec();
}
