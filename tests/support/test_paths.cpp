#include "test_paths.h"
#include "embark_build_paths.h"
#include "embark_test_paths.h"

#include <QDir>
#include <QFileInfo>

namespace embark::test {

QString sharedModelsDir() {
    const QString env = qEnvironmentVariable("EMBARK_SHARED_MODELS");
    const QString dir = env.isEmpty() ? QStringLiteral(EMBARK_SHARED_DIR "/models") : env;
    return QFileInfo(dir).isDir() ? QDir(dir).absolutePath() : QString();
}

QString sharedModel(const QString& name) {
    const QString dir = sharedModelsDir();
    if (dir.isEmpty()) return {};
    for (const QString& candidate : {dir + "/" + name + ".onnx", dir + "/" + name + "/" + name + ".onnx"})
        if (QFileInfo::exists(candidate)) return candidate;
    if (name == "digits") return dir + "/digits/digits_cnn.onnx";
    return {};
}

QStringList sharedModelNames() {
    const QString dir = sharedModelsDir();
    if (dir.isEmpty()) return {};
    QStringList names;
    for (const QFileInfo& f : QDir(dir).entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        const QString name = f.isDir() ? f.fileName() : f.completeBaseName();
        if ((f.isDir() || f.suffix() == "onnx") && !names.contains(name) && !sharedModel(name).isEmpty()) names << name;
    }
    return names;
}

QString cliPath() { return QStringLiteral(EMBARK_CLI_PATH); }
QString sourceDir() { return QStringLiteral(EMBARK_SOURCE_DIR); }
QString binaryDir() { return QStringLiteral(EMBARK_BINARY_DIR); }
QString sharedDir() { return QStringLiteral(EMBARK_SHARED_DIR); }
QString testDataDir() { return QStringLiteral(EMBARK_TEST_DATA_DIR); }

QString onnxTestDataDir() {
    const QString dir = QStringLiteral("/usr/share/libonnx-testdata/data");
    return QFileInfo(dir).isDir() ? dir : QString();
}

namespace {
QString sharedXnnpackDir() {
    const QString env = qEnvironmentVariable("EMBARK_SHARED_XNNPACK");
    return env.isEmpty() ? QStringLiteral(EMBARK_SHARED_DIR "/xnnpack") : env;
}
} // namespace

QString sharedXnnpackTree(const QString& arch) {
    const QString dir = sharedXnnpackDir() + "/prebuilt/" + arch;
    return QFileInfo::exists(dir + "/include/xnnpack.h") ? QDir(dir).absolutePath() : QString();
}

QString sharedXnnpackSources() {
    const QString dir = sharedXnnpackDir() + "/src";
    return QDir(dir).entryList({"XNNPACK-*.tar.gz"}, QDir::Files).isEmpty() ? QString() : QDir(dir).absolutePath();
}

} // namespace embark::test
