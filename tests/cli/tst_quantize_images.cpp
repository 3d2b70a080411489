// embark-cli quantize calibrated on images (PNG, JPEG made here with QImage): the digits
// model from PNGs of its test sets gives the same bytes as from the same pixels in .npy files
// and keeps its top-1; --resize (stretch, short side + centre crop), --mean/--std, --layout,
// RGB and grayscale inputs; errors (empty set, image of the wrong size, corrupt image, NaN,
// bad options) with their exit status and nothing written; the same images give the same
// bytes; progress and cancel through the core API (a callback returning false) and Ctrl+C on
// the CLI (status 5, nothing written).
#include "jobs/calibration_data.h"
#include "onnx/importer.h"
#include "onnx/onnx_models.h"
#include "onnx/tensor_io.h"
#include "passes/quantize_static.h"
#include "support/cli_process.h"
#include "support/test_paths.h"

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <csignal>
#include <sys/stat.h>

using namespace embark;
using namespace embark::test;

namespace {

QString digitsModel() { return sourceDir() + "/resources/models/digits_cnn.onnx"; }
QString digitsSets() { return sourceDir() + "/resources/models/digits_cnn"; }

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The digits test set k's image ([1,1,16,16] in [0,1]) as 8-bit gray levels.
std::vector<uint8_t> digitPixels(int k) {
    auto t = embark::onnx::readTensorProto(
        (digitsSets() + QStringLiteral("/test_data_set_%1/input_0.pb").arg(k)).toStdString());
    std::vector<uint8_t> px;
    if (!t) return px;
    const float* v = t->tensor.as<float>();
    for (int64_t i = 0; i < t->tensor.numel(); ++i)
        px.push_back(static_cast<uint8_t>(std::lround(std::clamp(v[i], 0.f, 1.f) * 255.f)));
    return px;
}

// The digits test set k's input tensor itself.
ir::Tensor digitTensor(int k) {
    auto t = embark::onnx::readTensorProto(
        (digitsSets() + QStringLiteral("/test_data_set_%1/input_0.pb").arg(k)).toStdString());
    return t ? t->tensor : ir::Tensor();
}

QImage grayImage(const std::vector<uint8_t>& px, int w, int h) {
    QImage img(w, h, QImage::Format_Grayscale8);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) img.scanLine(y)[x] = px[static_cast<size_t>(y * w + x)];
    return img;
}

// A deterministic colourful RGB image.
QImage rgbImage(int w, int h, int seed) {
    QImage img(w, h, QImage::Format_RGB888);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            img.setPixelColor(
                x, y, QColor((x * 37 + seed * 11) % 256, (y * 53 + seed * 7) % 256, ((x + y) * 29 + seed) % 256));
    return img;
}

// x[1,8,8,3] (NHWC) -> Transpose -> the 3-channel Conv of convModel.
ProtoModel nhwcConvModel() {
    ProtoModel p(13);
    p.input("x", {1, 8, 8, 3});
    attrInts(p.node("Transpose", {"x"}, {"xt"}, "to_nchw"), "perm", {0, 3, 1, 2});
    p.initializer("w", ramp(ir::Shape{4, 3, 3, 3}));
    p.initializer("b", ir::Tensor::fromFloats(ir::Shape{4}, {0.1f, -0.2f, 0.3f, 0.f}));
    auto* conv = p.node("Conv", {"xt", "w", "b"}, {"c"}, "conv1");
    attrInts(conv, "pads", {1, 1, 1, 1});
    p.node("Relu", {"c"}, {"r"}, "relu1");
    p.node("GlobalAveragePool", {"r"}, {"y"}, "gap");
    p.output("y", 4);
    return p;
}

} // namespace

class TestQuantizeImages : public QObject {
    Q_OBJECT
private slots:
    // Pixels to tensor: [0,1] scaling, per-channel mean/std, NCHW and NHWC, grayscale luma.
    void imageTensorArithmetic() {
        jobs::DecodedImage img;
        img.width = img.sourceWidth = 2;
        img.height = img.sourceHeight = 1;
        img.rgb = {255, 0, 51, 10, 20, 30};
        ir::Graph g;
        ir::Value* rgb = g.addValue("x", ir::DType::Float32, ir::Shape{1, 3, 1, 2});
        jobs::ImageOptions o;
        o.mean = {0.5, 0.0, 0.2};
        o.std = {0.5, 1.0, 2.0};
        auto geo = jobs::imageGeometry(*rgb, o.layout);
        QVERIFY(geo);
        auto t = jobs::imageTensor(img, "a.png", o, *rgb, *geo);
        QVERIFY(t);
        const float* v = t->as<float>();
        // NCHW: R of both pixels, then G, then B.
        QCOMPARE(v[0], float((1.0 - 0.5) / 0.5));
        QCOMPARE(v[1], float((10 / 255.0 - 0.5) / 0.5));
        QCOMPARE(v[2], 0.f);
        QCOMPARE(v[3], float(20 / 255.0));
        QCOMPARE(v[4], float((0.2 - 0.2) / 2.0));
        QCOMPARE(v[5], float((30 / 255.0 - 0.2) / 2.0));

        ir::Value* nhwc = g.addValue("y", ir::DType::Float32, ir::Shape{1, 1, 2, 3});
        o.layout = jobs::ImageLayout::NHWC;
        geo = jobs::imageGeometry(*nhwc, o.layout);
        QVERIFY(geo);
        t = jobs::imageTensor(img, "a.png", o, *nhwc, *geo);
        QVERIFY(t);
        QCOMPARE(t->as<float>()[1], 0.f);                             // pixel 0, G
        QCOMPARE(t->as<float>()[3], float((10 / 255.0 - 0.5) / 0.5)); // pixel 1, R

        ir::Value* gray = g.addValue("z", ir::DType::Float32, ir::Shape{1, 1, 1, 2});
        jobs::ImageOptions plain;
        geo = jobs::imageGeometry(*gray, plain.layout);
        QVERIFY(geo);
        t = jobs::imageTensor(img, "a.png", plain, *gray, *geo);
        QVERIFY(t);
        QCOMPARE(t->as<float>()[0], float(((299 * 255 + 114 * 51 + 500) / 1000) / 255.0)); // 82
        QCOMPARE(t->as<float>()[1], float(((299 * 10 + 587 * 20 + 114 * 30 + 500) / 1000) / 255.0));

        // A size that does not fit names the file, both sizes and the input's shape.
        ir::Value* big = g.addValue("big", ir::DType::Float32, ir::Shape{1, 3, 4, 4});
        geo = jobs::imageGeometry(*big, jobs::ImageLayout::NCHW);
        QVERIFY(geo);
        t = jobs::imageTensor(img, "a.png", jobs::ImageOptions{}, *big, *geo);
        QVERIFY(!t);
        const QString m = QString::fromStdString(t.error().message);
        QVERIFY2(m.contains("'a.png'") && m.contains("2x1") && m.contains("1x3x4x4") && m.contains("--resize"),
                 qPrintable(m));
        // Inputs that take no image.
        QVERIFY(
            !jobs::imageGeometry(*g.addValue("v", ir::DType::Float32, ir::Shape{1, 5, 4, 4}), jobs::ImageLayout::NCHW));
        QVERIFY(!jobs::imageGeometry(*g.addValue("w", ir::DType::Float32, ir::Shape{4, 4}), jobs::ImageLayout::NCHW));
        QVERIFY(
            !jobs::imageGeometry(*g.addValue("u", ir::DType::UInt8, ir::Shape{1, 3, 4, 4}), jobs::ImageLayout::NCHW));
    }

    // The digits model from PNGs of its 10 test sets: the same bytes as from .npy files of the
    // same pixels (the decoding and scaling are exact), top-1 kept on every set, and loadable.
    void digitsFromPngs() {
        QTemporaryDir dir;
        // Half in a subfolder, as an ImageNet-style val/CLASS/ tree.
        QVERIFY(QDir().mkpath(dir.filePath("png/more")) && QDir().mkpath(dir.filePath("npy")));
        for (int k = 0; k < 10; ++k) {
            const std::vector<uint8_t> px = digitPixels(k);
            QCOMPARE(px.size(), size_t(256));
            QVERIFY(grayImage(px, 16, 16)
                        .save(dir.filePath(QString(k < 5 ? "png/digit_%1.png" : "png/more/digit_%1.png").arg(k))));
            std::vector<float> v;
            for (uint8_t p : px) v.push_back(static_cast<float>(p / 255.0));
            QVERIFY(embark::onnx::writeNpy(dir.filePath(QStringLiteral("npy/digit_%1.npy").arg(k)).toStdString(),
                                           ir::Tensor::fromFloats(ir::Shape{1, 1, 16, 16}, v)));
        }
        const QString fromPng = dir.filePath("png.onnx"), fromNpy = dir.filePath("npy.onnx");
        const CliResult r =
            runCli({"quantize", digitsModel(), "-o", fromPng, "--calib", dir.filePath("png"), "--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(QJsonDocument::fromJson(r.out).object()["samples"].toInt(), 10);
        QVERIFY2(r.err.contains("calibrating on 10 sample(s), minmax"), r.err.constData());
        QCOMPARE(runCli({"quantize", digitsModel(), "-o", fromNpy, "--calib", dir.filePath("npy")}).code, 0);
        QVERIFY(!readAll(fromPng).isEmpty());
        QVERIFY(readAll(fromPng) == readAll(fromNpy));

        const CliResult inspect = runCli({"inspect", fromPng, "--json"});
        QVERIFY2(inspect.code == 0, inspect.err.constData());
        QVERIFY(QJsonDocument::fromJson(inspect.out).object()["ops"].toObject()["QuantizeLinear"].toInt() > 0);
        for (int k = 0; k < 10; ++k) {
            const CliResult run = runCli(
                {"run", fromPng, "--expect", digitsSets() + QStringLiteral("/test_data_set_%1").arg(k), "--json"});
            QVERIFY2(run.code == 0 || run.code == 1, run.err.constData());
            const QJsonObject o = QJsonDocument::fromJson(run.out).object();
            QCOMPARE(o["outputs"].toArray().first().toObject()["top5"].toArray().first().toObject()["index"].toInt(),
                     k);
        }

        // Deterministic: the same images and options, the same bytes (entropy: two passes).
        const QString a = dir.filePath("a.onnx"), b = dir.filePath("b.onnx");
        for (const QString& out : {a, b})
            QCOMPARE(
                runCli({"quantize", digitsModel(), "-o", out, "--calib", dir.filePath("png"), "--method", "entropy"})
                    .code,
                0);
        QVERIFY(readAll(a) == readAll(b));
    }

    // --resize: images of another size stretched (WxH) or scaled by the short side and cropped
    // at the centre (N); JPEG and RGB files feed a grayscale model through luma.
    void resizeAndCrop() {
        QTemporaryDir dir;
        const QString big = dir.filePath("big.png"), wide = dir.filePath("wide.jpg");
        QVERIFY(grayImage(digitPixels(3), 16, 16).scaled(32, 32).save(big));
        QVERIFY(rgbImage(40, 24, 1).save(wide, "JPEG", 90));
        const QString out = dir.filePath("q.onnx");
        const CliResult noResize = runCli({"quantize", digitsModel(), "-o", out, "--calib", big});
        QCOMPARE(noResize.code, 4);
        QVERIFY2(noResize.err.contains("big.png") && noResize.err.contains("32x32") &&
                     noResize.err.contains("1x1x16x16"),
                 noResize.err.constData());
        QVERIFY(!QFileInfo::exists(out));
        for (const QString& resize : {QStringLiteral("16x16"), QStringLiteral("16"), QStringLiteral("20")}) {
            const CliResult r =
                runCli({"quantize", digitsModel(), "-o", out, "--calib", big, "--calib", wide, "--resize", resize});
            QVERIFY2(r.code == 0, qPrintable(resize + ": " + r.err));
            QVERIFY(QFile::remove(out));
        }
        const CliResult small = runCli({"quantize", digitsModel(), "-o", out, "--calib", big, "--resize", "8"});
        QCOMPARE(small.code, 2);
        QVERIFY2(small.err.contains("--resize 8"), small.err.constData());
        QVERIFY(!QFileInfo::exists(out));
    }

    // RGB models: NCHW with ImageNet-style --mean/--std, NHWC with --layout NHWC (the same
    // bytes as from .npy files holding the values the docs give), and a layout that does not
    // fit the model refused naming --layout.
    void rgbModelsAndLayouts() {
        QTemporaryDir dir;
        QVERIFY(QDir().mkpath(dir.filePath("img")) && QDir().mkpath(dir.filePath("npy")));
        const std::vector<double> mean{0.485, 0.456, 0.406}, stdv{0.229, 0.224, 0.225};
        for (int k = 0; k < 3; ++k) {
            const QImage img = rgbImage(8, 8, k);
            QVERIFY(img.save(dir.filePath(QStringLiteral("img/%1.png").arg(k))));
            std::vector<float> v;
            for (int y = 0; y < 8; ++y)
                for (int x = 0; x < 8; ++x) {
                    const QColor c = img.pixelColor(x, y);
                    const int rgb[3] = {c.red(), c.green(), c.blue()};
                    for (int ch = 0; ch < 3; ++ch)
                        v.push_back(static_cast<float>((rgb[ch] / 255.0 - mean[ch]) / stdv[ch]));
                }
            QVERIFY(embark::onnx::writeNpy(dir.filePath(QStringLiteral("npy/%1.npy").arg(k)).toStdString(),
                                           ir::Tensor::fromFloats(ir::Shape{1, 8, 8, 3}, v)));
        }
        QVERIFY(rgbImage(8, 8, 9).save(dir.filePath("img/photo.jpg"), "JPEG", 85));
        const QString nchw = dir.filePath("nchw.onnx"), nhwc = dir.filePath("nhwc.onnx");
        QVERIFY(convModel().save(nchw) && nhwcConvModel().save(nhwc));
        const QStringList norm{"--mean", "0.485,0.456,0.406", "--std", "0.229,0.224,0.225"};
        CliResult r = runCli(
            QStringList{"quantize", nchw, "-o", dir.filePath("a.onnx"), "--calib", dir.filePath("img"), "--json"} +
            norm);
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(QJsonDocument::fromJson(r.out).object()["samples"].toInt(), 4);
        QCOMPARE(runCli({"run", dir.filePath("a.onnx")}).code, 0);

        const QString fromPng = dir.filePath("nhwc_png.onnx"), fromNpy = dir.filePath("nhwc_npy.onnx");
        r = runCli(QStringList{"quantize", nhwc, "-o", fromPng, "--calib", dir.filePath("img/0.png"), "--calib",
                               dir.filePath("img/1.png"), "--calib", dir.filePath("img/2.png"), "--layout", "NHWC"} +
                   norm);
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(runCli({"quantize", nhwc, "-o", fromNpy, "--calib", dir.filePath("npy")}).code, 0);
        QVERIFY(readAll(fromPng) == readAll(fromNpy));

        r = runCli(QStringList{"quantize", nchw, "-o", dir.filePath("b.onnx"), "--calib", dir.filePath("img"),
                               "--layout", "NHWC"});
        QCOMPARE(r.code, 4);
        QVERIFY2(r.err.contains("'x'") && r.err.contains("--layout NCHW"), r.err.constData());
        r = runCli(
            {"quantize", nchw, "-o", dir.filePath("b.onnx"), "--calib", dir.filePath("img"), "--mean", "0.5,0.5"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--mean"), r.err.constData());
        QVERIFY(!QFileInfo::exists(dir.filePath("b.onnx")));
    }

    void badCalibration_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty folder") << "empty" << 4 << "empty";
        QTest::newRow("no image in folder") << "text" << 4 << "no images";
        QTest::newRow("corrupt PNG") << "corrupt" << 4 << "broken.png";
        QTest::newRow("truncated JPEG") << "truncated" << 4 << "cut.jpg";
        QTest::newRow("NaN in a tensor file") << "nan" << 4 << "NaN";
        QTest::newRow("image options without images") << "options" << 2 << "apply to images";
        QTest::newRow("bad --resize") << "resize" << 2 << "--resize";
        QTest::newRow("bad --std") << "std" << 2 << "--std";
        QTest::newRow("bad --layout") << "layout" << 2 << "--layout";
    }
    // Each: the exit status, a message naming the problem, and no output (not even over an
    // existing file, which is left as it was).
    void badCalibration() {
        QFETCH(QString, kind);
        QFETCH(int, code);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QString calib = dir.filePath("calib");
        QVERIFY(QDir().mkpath(calib));
        QStringList extra;
        const QImage good = grayImage(digitPixels(0), 16, 16);
        if (kind == "empty") {
            // nothing in it
        } else if (kind == "text") {
            QFile f(calib + "/notes.txt");
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write("not an image") > 0);
        } else if (kind == "corrupt") {
            QVERIFY(good.save(calib + "/a_good.png"));
            QFile f(calib + "/broken.png");
            QVERIFY(f.open(QIODevice::WriteOnly) &&
                    f.write(QByteArray("\x89PNG\r\n\x1a\n", 8) + QByteArray(64, 'x')) > 0);
        } else if (kind == "truncated") {
            QByteArray jpeg;
            QBuffer buffer(&jpeg);
            QVERIFY(buffer.open(QIODevice::WriteOnly) && rgbImage(64, 64, 2).save(&buffer, "JPEG"));
            QFile f(calib + "/cut.jpg");
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write(jpeg.left(200)) == 200);
        } else if (kind == "nan") {
            std::vector<float> v(256, 0.5f);
            v[17] = NAN;
            QVERIFY(embark::onnx::writeNpy((calib + "/x.npy").toStdString(),
                                           ir::Tensor::fromFloats(ir::Shape{1, 1, 16, 16}, v)));
        } else {
            QVERIFY(good.save(calib + "/a.png"));
            if (kind == "options") {
                calib = digitsSets() + "/test_data_set_0";
                extra << "--mean"
                      << "0.5";
            }
            if (kind == "resize")
                extra << "--resize"
                      << "16x";
            if (kind == "std")
                extra << "--std"
                      << "0";
            if (kind == "layout")
                extra << "--layout"
                      << "HWC";
        }
        const QString out = dir.filePath("out.onnx");
        QFile old(out);
        QVERIFY(old.open(QIODevice::WriteOnly) && old.write("previous") == 8);
        old.close();
        const CliResult r = runCli(QStringList{"quantize", digitsModel(), "-o", out, "--calib", calib} + extra);
        QCOMPARE(r.code, code);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        QCOMPARE(readAll(out), QByteArray("previous"));
    }

    // Progress and cancel through the core API: every sample run reported (two per sample for
    // entropy, then done == total), and a callback returning false stops the calibration
    // before the next sample with an External error.
    void progressAndCancel() {
        auto graph = embark::onnx::importModel(digitsModel().toStdString());
        QVERIFY(graph);
        auto sources = jobs::listCalibrationSources({digitsSets()});
        QVERIFY(sources);
        QCOMPARE(sources->size(), size_t(10));
        auto set = jobs::calibrationSet(*graph, *sources, jobs::ImageOptions{});
        QVERIFY(set);
        int loads = 0;
        passes::CalibrationSet counted{set->size, [&](size_t i) {
                                           ++loads;
                                           return set->load(i);
                                       }};
        std::vector<std::pair<int, int>> calls;
        passes::CalibrationOptions entropy;
        entropy.method = passes::CalibrationMethod::Entropy;
        ir::Graph g = graph->clone();
        auto report = passes::quantizeStatic(g, counted, {}, entropy, [&](int done, int total) {
            calls.emplace_back(done, total);
            return true;
        });
        QVERIFY(report);
        QCOMPARE(calls.size(), size_t(21));
        for (int i = 0; i <= 20; ++i) QCOMPARE(calls[size_t(i)], std::make_pair(i, 20));
        QCOMPARE(loads, 20);

        loads = 0;
        ir::Graph h = graph->clone();
        auto cancelled = passes::quantizeStatic(h, counted, {}, {}, [](int done, int) { return done < 3; });
        QVERIFY(!cancelled);
        QCOMPARE(cancelled.error().kind, ErrorKind::External);
        QVERIFY2(QString::fromStdString(cancelled.error().message).contains("cancelled"),
                 cancelled.error().message.c_str());
        QCOMPARE(loads, 3);
        for (const ir::Node* n : h.nodes()) QVERIFY(n->op != ir::OpKind::QuantizeLinear);
    }

    // Ctrl+C (SIGINT) during a long calibration: status 5, "cancelled", nothing written. The
    // signal goes once the CLI has announced the calibration; 4000 samples of two passes take
    // far longer than the signal does to arrive.
    // Deterministic on a loaded machine: the first calibration sample is a FIFO that the test
    // fills only after the signal was sent, so the calibration cannot end before SIGINT lands.
    void interruptCancelsTheCli() {
        QTemporaryDir dir;
        const QString png = dir.filePath("d.png");
        QVERIFY(grayImage(digitPixels(5), 16, 16).save(png));
        const QString npy = dir.filePath("d.npy");
        QVERIFY(embark::onnx::writeNpy(npy.toStdString(), digitTensor(5)));
        const QString fifo = dir.filePath("late.npy");
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        const QString out = dir.filePath("out.onnx");
        QStringList args{"quantize", digitsModel(), "-o", out, "--method", "entropy", "--calib", fifo};
        for (int i = 0; i < 100; ++i) args << "--calib" << png;
        QProcess p;
        p.start(cliPath(), args);
        QVERIFY(p.waitForStarted());
        QByteArray err;
        while (!err.contains("calibrating on") && p.state() == QProcess::Running) {
            p.waitForReadyRead(1000);
            err += p.readAllStandardError();
        }
        QVERIFY2(err.contains("calibrating on 101 sample(s)"), err.constData());
        QVERIFY(::kill(static_cast<pid_t>(p.processId()), SIGINT) == 0);
        { // the CLI is blocked reading the FIFO; the signal is delivered before it can read on
            QFile source(npy), sink(fifo);
            QVERIFY(source.open(QIODevice::ReadOnly) && sink.open(QIODevice::WriteOnly));
            sink.write(source.readAll());
        }
        QVERIFY(p.waitForFinished(5 * 60 * 1000));
        err += p.readAllStandardError();
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 5);
        QVERIFY2(err.contains("cancelled") && err.contains("nothing written"), err.constData());
        QVERIFY(!QFileInfo::exists(out));
    }
};

QTEST_GUILESS_MAIN(TestQuantizeImages)
#include "tst_quantize_images.moc"
