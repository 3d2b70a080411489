// The user's flow with the real `embark-cli export|build|exec` on the bundled digits model
// (exit codes and the run protocol's JSON lines), and the bad inputs: an op no library
// runs, a read-only or non-empty output folder, a missing XNNPACK, a compile error.
#include "export/export_folder.h"
#include "onnx/tensor_io.h"
#include "onnx/writer.h"
#include "reference/interpreter.h"
#include "support/graph_builder.h"
#include "dynamic_quant_model.h"
#include "text_encoder.h"
#include "support/test_paths.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>
#include <unistd.h>

using namespace embark;

namespace {

struct CliRun {
    int code = -1;
    QString out, err;
    std::vector<QJsonObject> lines; // stdout lines that are JSON objects
    int count(const QString& type) const {
        int n = 0;
        for (const auto& j : lines) n += j["type"].toString() == type;
        return n;
    }
    QJsonObject first(const QString& type) const {
        for (const auto& j : lines)
            if (j["type"].toString() == type) return j;
        return {};
    }
    QByteArray describe() const {
        return ("exit " + QString::number(code) + "\nstdout: " + out.right(1500) + "\nstderr: " + err.right(1500))
            .toUtf8();
    }
};

CliRun cli(const QStringList& args, const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(test::cliPath(), args);
    CliRun r;
    if (!p.waitForStarted() || !p.waitForFinished(20 * 60 * 1000)) {
        p.kill();
        r.err = "embark-cli did not start or finish: " + p.errorString();
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    for (const QString& line : r.out.split('\n'))
        if (line.startsWith('{')) r.lines.push_back(QJsonDocument::fromJson(line.toUtf8()).object());
    return r;
}

} // namespace

class TestExportCli : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_model, m_export;

    // Writes the graph as NAME.onnx, exports it with the portable kernels into `out` and reads
    // the generated src/model.cpp into `text` (failures are recorded on the current test).
    void exportPortable(test::GraphBuilder& b, const QString& name, const QString& out, QString& text) {
        const QString model = m_tmp.path() + "/" + name + ".onnx";
        Status w = onnx::writeModel(b.build(), model.toStdString());
        QVERIFY2(w, w ? "" : w.error().message.c_str());
        CliRun e = cli({"export", model, "--lib", "portable", "-o", out});
        QVERIFY2(e.code == 0, e.describe());
        QFile code(out + "/src/model.cpp");
        QVERIFY(code.open(QIODevice::ReadOnly));
        text = QString::fromUtf8(code.readAll());
    }

    // Builds an export and checks its `outputs` outputs against the reference at 1 and 2 threads.
    void buildAndCheckOnOneAndTwoThreads(const QString& out, int outputs) {
        CliRun bld = cli({"build", out, "--jobs", "2"});
        QVERIFY2(bld.code == 0, bld.describe());
        for (const char* threads : {"1", "2"}) {
            CliRun run =
                cli({"exec", out, "--", "--check", "1e-5", "--warmup", "0", "--iterations", "1", "--threads", threads});
            QVERIFY2(run.code == 0 && run.count("check") == outputs, run.describe());
        }
    }

private slots:
    void initTestCase() {
        QVERIFY(m_tmp.isValid());
        m_model = test::sourceDir() + "/resources/models/digits_cnn.onnx";
        QVERIFY2(QFileInfo::exists(m_model), qPrintable(m_model));
        m_export = m_tmp.path() + "/digits_portable";
    }

    void exportBuildExec() {
        QStringList args{"export", m_model, "--lib", "portable", "-o", m_export};
        const QString sample = test::sharedModelsDir() + "/digits/test_data_set_0/input_0.pb";
        if (!test::sharedModelsDir().isEmpty() && QFileInfo::exists(sample)) args << "--input" << sample;
        CliRun e = cli(args);
        QVERIFY2(e.code == 0, e.describe());
        QVERIFY(QFileInfo::exists(m_export + "/export.json"));
        QVERIFY(QFileInfo::exists(m_export + "/src/weights.bin"));

        CliRun b = cli({"build", m_export, "--jobs", "2"});
        QVERIFY2(b.code == 0, b.describe());
        QVERIFY(QFileInfo::exists(m_export + "/build/run_export"));

        const QString dump = m_tmp.path() + "/dump";
        CliRun x = cli({"exec", m_export, "--", "--check", "1e-4", "--layers", "--dump", dump, "--warmup", "1",
                        "--iterations", "2"});
        QVERIFY2(x.code == 0, x.describe());
        const QJsonObject meta = x.first("meta");
        QCOMPARE(meta["model"].toString(), QString("digits_cnn"));
        QVERIFY(meta["libs"].toArray().contains(QJsonValue("portable")));
        QVERIFY(meta["arena_bytes"].toDouble() > 0);
        const int layers = meta["layers"].toInt();
        QVERIFY(layers > 0);
        QCOMPARE(x.count("latency"), 2);
        QVERIFY(x.first("latency")["ns"].toDouble() > 0);
        QCOMPARE(x.count("layer"), 2 * layers);
        QCOMPARE(x.count("dump"), layers);
        for (const auto& j : x.lines) {
            if (j["type"].toString() != "dump") continue;
            qint64 numel = 1;
            for (const auto& d : j["shape"].toArray()) numel *= d.toInteger();
            QCOMPARE(QFileInfo(j["file"].toString()).size(), numel * 4);
        }
        const QJsonObject output = x.first("output");
        QCOMPARE(output["shape"].toArray(), (QJsonArray{1, 10}));
        QCOMPARE(output["head"].toArray().size(), 10);
        const QJsonObject check = x.first("check");
        QVERIFY2(check["ok"].toBool(), x.describe());
        QVERIFY(check["max_rel"].toDouble() <= 1e-4);

        // Usage errors of run_export come back as exit 2.
        QCOMPARE(cli({"exec", m_export, "--", "--check", "-1"}).code, 2);
        QCOMPARE(cli({"exec", m_export, "--", "--iterations", "0"}).code, 2);
    }

    // A wrong expected output makes --check fail with exit status 1 (after a rebuild: the
    // expected outputs are linked into the binary).
    void failedCheckExitsOne() {
        QFile f(m_export + "/data/expected_0.bin");
        QVERIFY(f.open(QIODevice::ReadWrite));
        QByteArray bytes = f.readAll();
        QVERIFY(bytes.size() >= 4);
        float first;
        std::memcpy(&first, bytes.constData(), 4);
        first += 1000.f;
        std::memcpy(bytes.data(), &first, 4);
        QVERIFY(f.seek(0) && f.write(bytes) == bytes.size());
        f.close();
        CliRun b = cli({"build", m_export, "--jobs", "2"});
        QVERIFY2(b.code == 0, b.describe());
        CliRun x = cli({"exec", m_export, "--", "--check", "1e-4"});
        QVERIFY2(x.code == 1, x.describe());
        QCOMPARE(x.first("check")["ok"].toBool(), false);
    }

    void nonEmptyFolderNeedsForce() {
        CliRun e = cli({"export", m_model, "-o", m_export});
        QVERIFY2(e.code == 2, e.describe());
        QVERIFY2(e.err.contains("--force"), e.describe());
        QVERIFY(QFileInfo::exists(m_export + "/build/run_export")); // untouched
    }

    void unwritableFolderIsAnError() {
        // Root ignores permissions, so as root the read-only place is /proc.
        QString parent = "/proc";
        QTemporaryDir ro;
        if (geteuid() != 0) {
            parent = ro.path() + "/ro";
            QVERIFY(QDir().mkpath(parent));
            QVERIFY(QFile::setPermissions(parent, QFileDevice::ReadOwner | QFileDevice::ExeOwner |
                                                      QFileDevice::ReadGroup | QFileDevice::ExeGroup |
                                                      QFileDevice::ReadOther | QFileDevice::ExeOther));
        }
        const QString out = parent + "/embark_export";
        CliRun e = cli({"export", m_model, "-o", out});
        if (geteuid() != 0)
            QFile::setPermissions(parent, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        QVERIFY2(e.code == 5, e.describe());
        QVERIFY2(e.err.contains(parent), e.describe());
        QVERIFY(!QFileInfo::exists(out));
    }

    // A graph input read only by portable kernels is read where the caller put it (no copy into
    // the arena), and never written: a reshape of it, an element-wise op that the plan lets
    // work in place as its last reader, and a second reader all see the caller's data, run
    // after run (--check compares the three outputs after the last of three iterations).
    void graphInputIsReadWhereTheCallerPutIt() {
        test::GraphBuilder b("input_in_place");
        auto* x = b.input("x", {1, 4, 6, 6});
        b.output(b.op(ir::OpKind::Reshape, {x, b.ints("shape", {1, 144})}, {}, "flatten"));
        b.output(b.op(ir::OpKind::Add, {x, x}, {}, "twice"));
        b.output(b.op(ir::OpKind::Relu, {x}, {}, "relu"));
        const QString out = m_tmp.path() + "/input_in_place_export";
        QString text;
        exportPortable(b, "input_in_place", out, text);
        if (QTest::currentTestFailed()) return;
        QVERIFY2(text.contains("inputs[0]") && !text.contains(QRegularExpression("memcpy\\([^;]*inputs\\[0\\]")),
                 qPrintable(text));
        CliRun bld = cli({"build", out, "--jobs", "2"});
        QVERIFY2(bld.code == 0, bld.describe());
        CliRun x3 = cli({"exec", out, "--", "--check", "1e-6", "--warmup", "0", "--iterations", "3"});
        QVERIFY2(x3.code == 0, x3.describe());
        QCOMPARE(x3.count("check"), 3);
    }

    // Two inverted bottlenecks (one with its residual Add and a ReLU after it, one with stride 2),
    // a depthwise-separable pair and a stem convolution reading its NCHW image run fused in the
    // plain pass: the same results on 1-3 threads, and the profiled and dump passes still show
    // every layer.
    void bottlenecksRunFusedAndStillShowEveryLayer() {
        test::GraphBuilder b("bottlenecks");
        auto* x = b.input("x", {1, 8, 11, 10});
        auto clip6 = [&](ir::Value* v, const std::string& name) {
            return b.op(ir::OpKind::Clip, {v, b.floats(name + "_min", {0.f}), b.floats(name + "_max", {6.f})}, {},
                        name);
        };
        auto block = [&](ir::Value* in, int64_t cin, int64_t wide, int64_t cout, int64_t stride,
                         const std::string& name) {
            auto* e =
                wide == cin
                    ? in // no expansion
                    : clip6(b.op(ir::OpKind::Conv,
                                 {in, b.weights(name + "_we", {wide, cin, 1, 1}), b.weights(name + "_be", {wide})}, {},
                                 name + "_expand"),
                            name + "_clip1");
            auto* d = clip6(b.op(ir::OpKind::Conv,
                                 {e, b.weights(name + "_wd", {wide, 1, 3, 3}), b.weights(name + "_bd", {wide})},
                                 {{"group", wide},
                                  {"pads", std::vector<int64_t>{1, 1, 1, 1}},
                                  {"strides", std::vector<int64_t>{stride, stride}}},
                                 name + "_dw"),
                            name + "_clip2");
            return b.op(ir::OpKind::Conv, {d, b.weights(name + "_wp", {cout, wide, 1, 1})}, {}, name + "_project");
        };
        auto* y1 = b.op(ir::OpKind::Relu, {b.op(ir::OpKind::Add, {block(x, 8, 48, 8, 1, "b1"), x}, {}, "b1_add")}, {},
                        "b1_relu");
        b.output(block(block(y1, 8, 40, 12, 2, "b2"), 12, 12, 6, 1, "pair"));
        // A second input, an image read by a 3x3 convolution: it transposes the NCHW input itself.
        auto* image = b.input("image", {1, 3, 9, 12});
        b.output(b.op(ir::OpKind::Conv, {image, b.weights("stem_w", {16, 3, 3, 3}), b.weights("stem_b", {16})},
                      {{"pads", std::vector<int64_t>{1, 0, 1, 2}}, {"strides", std::vector<int64_t>{2, 2}}}, "stem"));
        const QString out = m_tmp.path() + "/bottlenecks_export";
        QString text;
        exportPortable(b, "bottlenecks", out, text);
        if (QTest::currentTestFailed()) return;
        QCOMPARE(text.count("embark::portable::inverted_bottleneck(&"), 2);
        QCOMPARE(text.count("embark::portable::inverted_bottleneck(nullptr"), 1);
        QCOMPARE(text.count("embark::portable::conv2d_nchw("), 1);
        CliRun bld = cli({"build", out, "--jobs", "2"});
        QVERIFY2(bld.code == 0, bld.describe());
        for (const char* threads : {"1", "2", "3"}) {
            CliRun run =
                cli({"exec", out, "--", "--check", "1e-5", "--threads", threads, "--warmup", "1", "--iterations", "3"});
            QVERIFY2(run.code == 0 && run.count("check") == 2, run.describe());
        }
        // 9 layers of blocks: b1's three convolutions and its Add (the ReLU fused into it), b2's
        // three, the pair's two.
        CliRun prof = cli({"exec", out, "--", "--layers", "--iterations", "1", "--warmup", "0"});
        QVERIFY2(prof.code == 0, prof.describe());
        // + the layout conversions of the inputs and the outputs, and the stem.
        QCOMPARE(prof.count("layer"), 9 + 2 + 3);
        const QString dumps = m_tmp.path() + "/bottleneck_dumps";
        CliRun dump = cli({"exec", out, "--", "--dump", dumps, "--check", "1e-5"});
        QVERIFY2(dump.code == 0, dump.describe());
        QCOMPARE(dump.count("dump"), 14);
    }

    // Outputs written where the caller wants them: a 3x3 convolution from one channel writes its
    // output planes (conv2d_planar, no layout conversion) straight into outputs[0], a Sigmoid its
    // own into outputs[1]; a reshape alias (sharing its buffer with the Relu before it) is still
    // copied at the end. Checked against the reference on 1 and 2 threads, and in the dump pass.
    void outputsWrittenInPlace() {
        test::GraphBuilder b("outputs_in_place");
        auto* x = b.input("x", {1, 1, 9, 37});
        b.output(b.op(ir::OpKind::Conv, {x, b.weights("w", {5, 1, 3, 3}), b.weights("b", {5})},
                      {{"pads", std::vector<int64_t>{1, 1, 1, 1}}}, "conv"));
        b.output(b.op(ir::OpKind::Sigmoid, {x}, {}, "sigmoid"));
        auto* r = b.op(ir::OpKind::Relu, {x}, {}, "relu");
        b.output(b.op(ir::OpKind::Reshape, {r, b.ints("shape", {1, 333})}, {}, "flatten"));
        const QString out = m_tmp.path() + "/outputs_in_place_export";
        QString text;
        exportPortable(b, "outputs_in_place", out, text);
        if (QTest::currentTestFailed()) return;
        QCOMPARE(text.count("embark::portable::conv2d_planar("), 1);
        QCOMPARE(text.count("transpose_matrices("), 0);
        QCOMPARE(text.count("embark::generic::transpose("), 0);
        QVERIFY(text.contains("static_cast<float*>(const_cast<void*>(inputs[0])), static_cast<float*>(outputs[0]), "
                              "g_pool.get());"));
        QVERIFY(text.contains("static_cast<float*>(outputs[1])"));
        QCOMPARE(text.count("copy_bytes(outputs["), 1);
        buildAndCheckOnOneAndTwoThreads(out, 3);
        CliRun dump = cli({"exec", out, "--", "--dump", m_tmp.path() + "/outputs_in_place_dumps", "--check", "1e-5"});
        QVERIFY2(dump.code == 0 && dump.count("check") == 3, dump.describe());
    }

    // A TensorFlow-style NHWC input going channels-first, and a ConvNeXt-style block going
    // channels-last around a LayerNorm and a GELU MLP (the GELU written out as five nodes):
    // each model Transpose is a layout change of what its input holds, so none moves a byte;
    // the only transpose left turns the NHWC result back into the model's NCHW output. The
    // GELU runs as one Gelu fused into its MatMul.
    void modelTransposesThatChangeLayoutAreFree() {
        test::GraphBuilder b("layout_transposes");
        auto* x = b.input("image_nhwc", {1, 7, 9, 3});
        auto* c = b.op(ir::OpKind::Transpose, {x}, {{"perm", std::vector<int64_t>{0, 3, 1, 2}}}, "to_nchw");
        c = b.op(ir::OpKind::Conv, {c, b.weights("stem_w", {8, 3, 3, 3}), b.weights("stem_b", {8})},
                 {{"pads", std::vector<int64_t>{1, 1, 1, 1}}}, "stem");
        auto* t = b.op(ir::OpKind::Transpose, {c}, {{"perm", std::vector<int64_t>{0, 2, 3, 1}}}, "to_nhwc");
        t = b.op(ir::OpKind::LayerNormalization, {t, b.weights("ln_g", {8}), b.weights("ln_b", {8})},
                 {{"axis", int64_t{-1}}}, "ln");
        auto* h = b.op(ir::OpKind::MatMul, {t, b.weights("fc1_w", {8, 32})}, {}, "fc1");
        auto* e = b.op(ir::OpKind::Erf, {b.op(ir::OpKind::Div, {h, b.floats("sqrt2", {1.41421354f})}, {}, "gelu_div")},
                       {}, "gelu_erf");
        auto* g = b.op(ir::OpKind::Mul, {h, b.op(ir::OpKind::Add, {e, b.floats("one", {1.f})}, {}, "gelu_add")}, {},
                       "gelu_mul");
        g = b.op(ir::OpKind::Mul, {g, b.floats("half", {0.5f})}, {}, "gelu_half");
        auto* m = b.op(ir::OpKind::MatMul, {g, b.weights("fc2_w", {32, 8})}, {}, "fc2");
        auto* back = b.op(ir::OpKind::Transpose, {m}, {{"perm", std::vector<int64_t>{0, 3, 1, 2}}}, "to_nchw_again");
        auto* r = b.op(ir::OpKind::Add, {back, c}, {}, "residual");
        b.output(b.op(ir::OpKind::Conv, {r, b.weights("head_w", {4, 8, 1, 1})}, {}, "head"));
        const QString out = m_tmp.path() + "/layout_transposes_export";
        QString text;
        exportPortable(b, "layout_transposes", out, text);
        if (QTest::currentTestFailed()) return;
        const int transposes = text.count("transpose_matrices(") + text.count("generic::transpose(");
        QVERIFY2(transposes == 1, qPrintable(text));
        QVERIFY2(!text.contains("Erf") && text.contains("Act::Gelu"), qPrintable(text));
        CliRun bld = cli({"build", out, "--jobs", "2"});
        QVERIFY2(bld.code == 0, bld.describe());
        for (const char* threads : {"1", "2"}) {
            CliRun run =
                cli({"exec", out, "--", "--check", "1e-4", "--threads", threads, "--warmup", "0", "--iterations", "2"});
            QVERIFY2(run.code == 0 && run.count("check") == 1, run.describe());
        }
    }

    // ShuffleNet's unit: a channel shuffle (Reshape, Transpose, Reshape), a Split and a Slice on
    // channels, a Concat: all run on the NHWC data of the convolutions around them, so the
    // export transposes the input once, shuffles once and transposes the output once.
    void channelShuffleSplitAndSliceStayNhwc() {
        test::GraphBuilder b("shuffle_unit");
        auto* x = b.input("x", {1, 8, 6, 5});
        auto* c = b.op(ir::OpKind::Conv, {x, b.weights("w1", {8, 8, 1, 1})}, {}, "conv1");
        auto* g = b.op(ir::OpKind::Reshape, {c, b.ints("split_shape", {1, 2, 4, 6, 5})}, {}, "shuffle_split");
        g = b.op(ir::OpKind::Transpose, {g}, {{"perm", std::vector<int64_t>{0, 2, 1, 3, 4}}}, "shuffle");
        g = b.op(ir::OpKind::Reshape, {g, b.ints("merge_shape", {1, 8, 6, 5})}, {}, "shuffle_merge");
        const auto halves = b.opN(ir::OpKind::Split, {g, b.ints("sizes", {4, 4})}, 2, {{"axis", int64_t{1}}}, "split");
        auto* right = b.op(ir::OpKind::Conv, {halves[1], b.weights("w2", {4, 4, 1, 1})}, {}, "conv2");
        auto* left =
            b.op(ir::OpKind::Slice, {g, b.ints("starts", {1}), b.ints("ends", {3}), b.ints("axes", {1})}, {}, "slice");
        b.output(b.op(ir::OpKind::Concat, {halves[0], right, left}, {{"axis", int64_t{1}}}, "concat"));
        const QString out = m_tmp.path() + "/shuffle_unit_export";
        QString text;
        exportPortable(b, "shuffle_unit", out, text);
        if (QTest::currentTestFailed()) return;
        QCOMPARE(text.count("transpose_matrices(") + text.count("generic::transpose("), 3);
        CliRun bld = cli({"build", out, "--jobs", "2"});
        QVERIFY2(bld.code == 0, bld.describe());
        CliRun run = cli({"exec", out, "--", "--check", "1e-5", "--warmup", "0", "--iterations", "1"});
        QVERIFY2(run.code == 0 && run.count("check") == 1, run.describe());
    }

    // Reductions of NHWC data read it in place when their result has the model's order: a mean
    // over H and W without kept dims ([N, C]: MnasNet's and ShuffleNet's global pool), a sum
    // over H and W with kept dims (axes given as an input) and a max over the channels. A max
    // over H alone keeps N, C, W, which NHWC storage holds in another order: it gets NCHW data.
    void reductionsFollowNhwcData() {
        test::GraphBuilder b("reductions");
        auto* x = b.input("x", {1, 8, 6, 5});
        auto* c = b.op(ir::OpKind::Conv, {x, b.weights("w", {8, 8, 1, 1})}, {}, "conv");
        b.output(b.op(ir::OpKind::ReduceMean, {c}, {{"axes", std::vector<int64_t>{2, 3}}, {"keepdims", int64_t{0}}},
                      "global_mean"));
        b.output(b.op(ir::OpKind::ReduceSum, {c, b.ints("sum_axes", {-2, -1})}, {}, "global_sum"));
        b.output(b.op(ir::OpKind::ReduceMax, {c}, {{"axes", std::vector<int64_t>{1}}, {"keepdims", int64_t{0}}},
                      "channel_max"));
        b.output(
            b.op(ir::OpKind::ReduceMax, {c}, {{"axes", std::vector<int64_t>{2}}, {"keepdims", int64_t{0}}}, "row_max"));
        const QString out = m_tmp.path() + "/reductions_export";
        QString text;
        exportPortable(b, "reductions", out, text);
        if (QTest::currentTestFailed()) return;
        QCOMPARE(text.count("generic::reduce("), 4);
        // Three of them on the stored NHWC shape, the last one on a converted copy.
        QCOMPARE(text.count("{4, {1, 6, 5, 8}}, "), 3);
        QCOMPARE(text.count("{4, {1, 8, 6, 5}}, "), 1);
        CliRun bld = cli({"build", out, "--jobs", "2"});
        QVERIFY2(bld.code == 0, bld.describe());
        CliRun run = cli({"exec", out, "--", "--check", "1e-5", "--warmup", "0", "--iterations", "1"});
        QVERIFY2(run.code == 0 && run.count("check") == 4, run.describe());
    }

    // Products of two run-time tensors with enough rows run per batch on packed panels; the
    // batch offsets (here b broadcast over a's first batch dim) are computed at export time.
    void runtimeMatmulBroadcastsBatches() {
        test::GraphBuilder b("runtime_matmul");
        auto* x = b.input("x", {2, 3, 9, 5});
        auto* y = b.input("y", {3, 5, 7});
        b.output(b.op(ir::OpKind::MatMul, {x, y}, {}, "product"));
        b.output(b.op(ir::OpKind::MatMul,
                      {b.op(ir::OpKind::Relu, {x}, {}, "relu"), b.op(ir::OpKind::Sigmoid, {y}, {}, "sigmoid")}, {},
                      "product2"));
        const QString out = m_tmp.path() + "/runtime_matmul_export";
        QString text;
        exportPortable(b, "runtime_matmul", out, text);
        if (QTest::currentTestFailed()) return;
        QCOMPARE(text.count("matmul_runtime("), 2);
        QVERIFY2(text.contains("bo[] = {0, 35, 70, 0, 35, 70}"), qPrintable(text));
        buildAndCheckOnOneAndTwoThreads(out, 2);
    }

    // A LayerNormalization over many rows splits them over the pool: the same output on 1 and 2
    // threads, matching the reference.
    void layerNormRowsSplitOverThreads() {
        test::GraphBuilder b("layer_norm_rows");
        auto* x = b.input("x", {1, 70, 384});
        b.output(b.op(ir::OpKind::LayerNormalization, {x, b.weights("scale", {384}), b.weights("bias", {384})},
                      {{"axis", int64_t{-1}}}, "ln"));
        const QString out = m_tmp.path() + "/layer_norm_rows_export";
        QString text;
        exportPortable(b, "layer_norm_rows", out, text);
        if (QTest::currentTestFailed()) return;
        QVERIFY2(text.contains("parallel_for(70, part)"), qPrintable(text));
        buildAndCheckOnOneAndTwoThreads(out, 1);
    }

    // Concatenation in place: an inception block's branches (convolutions, a depthwise one and
    // a max pool) write their channels straight into the Concat's output, and a dense block's
    // growing Concats are views of its final buffer, read by BatchNormalization + Relu. An input
    // that another layer also reads is still copied. The export matches the reference on 1 and 2 threads, and its layer
    // dumps (strided slices gathered) match a copying export's.
    void concatenationsWrittenInPlace() {
        test::GraphBuilder b("concat_in_place");
        using ir::OpKind;
        const std::vector<int64_t> pad1{1, 1, 1, 1};
        auto conv = [&](ir::Value* in, int64_t cin, int64_t cout, int64_t k, const char* name, int64_t group = 1) {
            auto* c = b.op(OpKind::Conv,
                           {in, b.weights(std::string(name) + "_w", {cout, cin / group, k, k}),
                            b.weights(std::string(name) + "_b", {cout})},
                           {{"pads", k == 3 ? pad1 : std::vector<int64_t>{0, 0, 0, 0}}, {"group", group}}, name);
            return b.op(OpKind::Relu, {c}, {}, (std::string(name) + "_relu").c_str());
        };
        auto bnRelu = [&](ir::Value* in, int64_t c, const char* name) {
            std::vector<float> var(static_cast<size_t>(c));
            for (size_t i = 0; i < var.size(); ++i) var[i] = 0.5f + 0.01f * static_cast<float>(i);
            auto* bn = b.op(OpKind::BatchNormalization,
                            {in, b.weights(std::string(name) + "_g", {c}), b.weights(std::string(name) + "_beta", {c}),
                             b.weights(std::string(name) + "_mean", {c}), b.floats(std::string(name) + "_var", var)},
                            {}, name);
            return b.op(OpKind::Relu, {bn}, {}, (std::string(name) + "_relu").c_str());
        };
        auto* x = b.input("x", {1, 8, 9, 9});
        auto* stem = conv(x, 8, 16, 3, "stem");
        auto* inception = b.op(
            OpKind::Concat,
            {conv(stem, 16, 8, 1, "branch1"), conv(stem, 16, 12, 3, "branch2"), conv(stem, 16, 16, 3, "branch3_dw", 16),
             b.op(OpKind::MaxPool, {stem}, {{"kernel_shape", std::vector<int64_t>{3, 3}}, {"pads", pad1}}, "branch4")},
            {{"axis", int64_t{1}}}, "inception");
        auto* grow1 = conv(bnRelu(inception, 52, "norm1"), 52, 4, 3, "grow1");
        auto* dense1 = b.op(OpKind::Concat, {inception, grow1}, {{"axis", int64_t{1}}}, "dense1");
        auto* grow2 = conv(bnRelu(dense1, 56, "norm2"), 56, 4, 3, "grow2");
        auto* block = b.op(OpKind::Concat, {inception, grow1, grow2}, {{"axis", int64_t{1}}}, "block");
        b.output(conv(block, 60, 10, 1, "head"));
        auto* side = conv(stem, 16, 6, 1, "side");
        b.output(b.op(OpKind::Sigmoid, {side}, {}, "side_sigmoid"));
        b.output(b.op(OpKind::Concat,
                      {side, b.op(OpKind::AveragePool, {stem},
                                  {{"kernel_shape", std::vector<int64_t>{3, 3}}, {"pads", pad1}}, "avg")},
                      {{"axis", int64_t{1}}}, "side_concat"));
        const QString out = m_tmp.path() + "/concat_in_place_export";
        QString text;
        exportPortable(b, "concat_in_place", out, text);
        if (QTest::currentTestFailed()) return;
        // inception: 4 of 4 in place; dense1 and block: views of block's buffer, no copy.
        QVERIFY2(text.contains("// 4 input(s) written in place"), qPrintable(text));
        QCOMPARE(text.count("input(s) written in place"), 4);
        // side_concat: the average pool in place, `side` (also read by the Sigmoid) copied.
        QCOMPARE(text.count("embark::portable::copy_rows("), 1);
        QVERIFY2(text.contains("copy_rows(") && text.contains(", 81, 6, 6, "), qPrintable(text));
        QVERIFY2(text.contains(".out_stride = 60;"), qPrintable(text));
        QVERIFY2(text.contains("Pool2DShape{1, 9, 9, 16, 9, 9, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 60}"), qPrintable(text));
        buildAndCheckOnOneAndTwoThreads(out, 3);
        if (QTest::currentTestFailed()) return;
        // --concat-in-place off: every input copied, as before; a bad mode is a usage error.
        const QString model = m_tmp.path() + "/concat_in_place.onnx", copying = m_tmp.path() + "/concat_copying_export";
        CliRun off = cli({"export", model, "--lib", "portable", "--concat-in-place", "off", "-o", copying});
        QVERIFY2(off.code == 0, off.describe());
        QFile copyingCode(copying + "/src/model.cpp");
        QVERIFY(copyingCode.open(QIODevice::ReadOnly));
        const QString copyingText = QString::fromUtf8(copyingCode.readAll());
        QVERIFY(!copyingText.contains("written in place") && !copyingText.contains("out_stride"));
        QCOMPARE(copyingText.count("embark::portable::copy_rows("), 4 + 2 + 3 + 2);
        for (const QStringList& args :
             {QStringList{"export", model, "-o", m_tmp.path() + "/never"}, QStringList{"plan", model}}) {
            CliRun bad = cli(args + QStringList{"--concat-in-place", "sometimes"});
            QVERIFY2(bad.code == 2 && bad.err.contains("--concat-in-place"), bad.describe());
        }
        QVERIFY(!QFileInfo::exists(m_tmp.path() + "/never"));

        // The plan shows the strided slices, and the layer dumps (slices gathered into whole
        // tensors) equal the reference interpreter's values.
        CliRun plan = cli({"plan", m_tmp.path() + "/concat_in_place.onnx", "--json"});
        QVERIFY2(plan.code == 0, plan.describe());
        QVERIFY2(plan.out.contains("\"row_stride\": 60") || plan.out.contains("\"row_stride\":60"), plan.describe());
        const QString dumps = m_tmp.path() + "/concat_dumps", reference = m_tmp.path() + "/concat_reference";
        CliRun dump = cli({"exec", out, "--", "--dump", dumps, "--warmup", "0", "--iterations", "1", "--threads", "2"});
        QVERIFY2(dump.code == 0 && dump.count("dump") > 10, dump.describe());
        CliRun ref = cli({"run", m_tmp.path() + "/concat_in_place.onnx", "--input", "x=" + out + "/data/input_0.bin",
                          "--dump", reference});
        QVERIFY2(ref.code == 0, ref.describe());
        const QStringList files = QDir(dumps).entryList({"*.bin"});
        for (const char* layer : {"inception", "dense1", "block", "branch3_dw", "branch4", "grow2"}) {
            QString file;
            for (const QString& f : files)
                if (f.section('_', 1) == QString(layer) + ".bin") file = f;
            QVERIFY2(!file.isEmpty(), qPrintable(files.join(", ")));
            QFile got(dumps + "/" + file);
            QVERIFY(got.open(QIODevice::ReadOnly));
            const QByteArray g = got.readAll();
            QFile want(reference + "/" + layer + "_relu_out.npy"); // the layer's fused Relu, when it has one
            if (!want.exists()) want.setFileName(reference + "/" + layer + "_out.npy");
            QVERIFY2(want.open(QIODevice::ReadOnly), qPrintable(want.fileName()));
            const QByteArray npy = want.readAll();
            QVERIFY(npy.size() > 10 && npy.startsWith("\x93NUMPY") && npy[6] == 1);
            const int header = 10 + (static_cast<unsigned char>(npy[8]) | static_cast<unsigned char>(npy[9]) << 8);
            QCOMPARE(g.size(), npy.size() - header);
            const float* a = reinterpret_cast<const float*>(g.constData());
            const float* e = reinterpret_cast<const float*>(npy.constData() + header);
            for (int i = 0; i < g.size() / 4; ++i)
                QVERIFY2(std::fabs(a[i] - e[i]) <= 1e-4f * (1.f + std::fabs(e[i])),
                         qPrintable(QString("%1[%2]: %3, reference %4").arg(layer).arg(i).arg(a[i]).arg(e[i])));
        }
    }

    // Gemm with alpha != 1 on a run-time B: no kernel library runs it; nothing may be written.
    // A text encoder fed int64 token ids and a bool mask exports: the typed inputs reach the
    // Gather and Cast kernels, the int32, uint8 and float16 outputs come back in their own
    // types, and the export matches the reference with its embedded sample (--check) and with
    // inputs given as .npy, .pb and raw .bin files. A float32 file for the ids is refused
    // (exit 4) and a token id outside the vocabulary stops the run (exit 5) naming the Gather.
    void textEncoderTakesTokenIds() {
        const ir::Graph g = test::textEncoder(8, true);
        const QString model = m_tmp.path() + "/text_encoder.onnx";
        Status w = onnx::writeModel(g, model.toStdString());
        QVERIFY2(w, w ? "" : w.error().message.c_str());
        const QString out = m_tmp.path() + "/text_encoder_export";
        CliRun e = cli({"export", model, "--lib", "portable", "-o", out});
        QVERIFY2(e.code == 0, e.describe());
        QFile code(out + "/src/model.cpp");
        QVERIFY(code.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(code.readAll());
        QVERIFY2(text.contains("embark::generic::gatherBy(") && text.contains("embark::generic::cast("),
                 qPrintable(text.left(3000)));
        CliRun bld = cli({"build", out, "--jobs", "2"});
        QVERIFY2(bld.code == 0, bld.describe());
        CliRun check = cli({"exec", out, "--", "--check", "1e-4", "--warmup", "0"});
        QVERIFY2(check.code == 0 && check.count("check") == 4, check.describe());

        const ir::Tensor ids = ir::Tensor::fromInt64s(ir::Shape{1, 8}, {3, 49, 0, 7, 7, 12, 1, 48});
        const ir::Tensor mask =
            ir::Tensor::fromFloats(ir::Shape{1, 8}, {1, 1, 1, 1, 1, 1, 0, 0}).castTo(ir::DType::Bool);
        auto ref = reference::run(g, {{"input_ids", ids}, {"attention_mask", mask}});
        QVERIFY2(ref, ref ? "" : ref.error().message.c_str());
        const std::string dir = m_tmp.path().toStdString();
        QVERIFY(onnx::writeNpy(dir + "/ids.npy", ids));
        QVERIFY(onnx::writeRaw(dir + "/ids.bin", ids));
        QVERIFY(onnx::writeTensorProto(dir + "/mask.pb", mask, "attention_mask"));
        for (const char* idsFile : {"/ids.npy", "/ids.bin"}) {
            const QString outDir = m_tmp.path() + "/text_out" + QString(idsFile).section('.', 1);
            CliRun run = cli({"exec", out, "--", "--input", m_tmp.path() + idsFile, "--input",
                              m_tmp.path() + "/mask.pb", "--out", outDir, "--warmup", "0"});
            QVERIFY2(run.code == 0 && run.count("output") == 4, run.describe());
            size_t k = 0;
            for (const QJsonObject& line : run.lines) {
                if (line["type"].toString() != "output") continue;
                const ir::Tensor& want = ref->outputs[k++];
                QCOMPARE(line["dtype"].toString(), QString::fromUtf8(ir::dtypeName(want.dtype()).data()));
                auto got = onnx::readRaw(line["file"].toString().toStdString(), want.dtype(), want.shape());
                QVERIFY2(got, got ? "" : got.error().message.c_str());
                const double diff =
                    test::relativeMaxDiff(got->castTo(ir::DType::Float32), want.castTo(ir::DType::Float32));
                // Integer outputs are exact; float16 rounds the float32 logits.
                QVERIFY2(diff <= (want.dtype() == ir::DType::Float32   ? 1e-5
                                  : want.dtype() == ir::DType::Float16 ? 1e-3
                                                                       : 0.0),
                         qPrintable(line["name"].toString() + ": " + QString::number(diff)));
            }
        }

        QVERIFY(onnx::writeNpy(dir + "/ids_float.npy", ids.castTo(ir::DType::Float32)));
        CliRun wrong =
            cli({"exec", out, "--", "--input", m_tmp.path() + "/ids_float.npy", "--input", m_tmp.path() + "/mask.pb"});
        // exec passes run_export's standard error through with its output.
        const QString wrongText = wrong.out + wrong.err;
        QVERIFY2(wrong.code == 4 && wrongText.contains("'<f4'") && wrongText.contains("int64"), wrong.describe());

        QVERIFY(
            onnx::writeNpy(dir + "/ids_bad.npy", ir::Tensor::fromInt64s(ir::Shape{1, 8}, {3, 50, 0, 7, 7, 12, 1, 48})));
        CliRun bad =
            cli({"exec", out, "--", "--input", m_tmp.path() + "/ids_bad.npy", "--input", m_tmp.path() + "/mask.pb"});
        const QString badText = bad.out + bad.err;
        QVERIFY2(bad.code == 5 && badText.contains("node 'embed' (Gather)") && badText.contains("index 50"),
                 bad.describe());
    }

    // Inputs and outputs of the element types beyond float32/float16/int64/int32/int8/uint8/bool
    // (issue 31): a model with a float64 and a uint16 input and float64, uint16 and uint64
    // outputs, computed on the generic typed kernels (Greater, Where, Mul, Cast, Transpose, Add,
    // Reshape), exports with its sample given as .npy, builds, runs on that sample (--check 0:
    // every step is exact or the same single rounding as the reference's) and on inputs given
    // as .npy and .pb with --out, each output in its own type equal to the reference's. A float32
    // file for the float64 input is refused (exit 4, naming both types), and a float op on
    // float64 data is refused at export (exit 3, naming the node, op and type).
    void float64AndUInt16InputsAndOutputs() {
        test::GraphBuilder b("wide_types");
        ir::Value* x = b.input("x", {2, 3}, ir::DType::Float64);
        ir::Value* u = b.input("u", {2, 3}, ir::DType::UInt16);
        ir::Value* big = b.op(ir::OpKind::Greater,
                              {u, b.constant("hundred", ir::Tensor::fromInt64s({1}, {100}).castTo(ir::DType::UInt16))},
                              {}, "is_big");
        ir::Value* uf = b.op(ir::OpKind::Cast, {u}, {{"to", int64_t{11}}}, "u_f64");
        ir::Value* prod = b.op(ir::OpKind::Mul, {x, uf}, {}, "x_times_u");
        ir::Value* picked = b.op(ir::OpKind::Where, {big, prod, x}, {}, "picked");
        b.output(b.op(ir::OpKind::Transpose, {picked}, {{"perm", std::vector<int64_t>{1, 0}}}, "scaled"));
        ir::Value* next =
            b.op(ir::OpKind::Add, {u, b.constant("seven", ir::Tensor::fromInt64s({1}, {7}).castTo(ir::DType::UInt16))},
                 {}, "u_plus_7");
        b.output(b.op(ir::OpKind::Reshape, {next, b.ints("shape32", {3, 2})}, {}, "u_next"));
        b.output(b.op(ir::OpKind::Cast, {u}, {{"to", int64_t{13}}}, "u_wide"));
        const ir::Graph g = b.build();
        const QString model = m_tmp.path() + "/wide_types.onnx";
        Status w = onnx::writeModel(g, model.toStdString());
        QVERIFY2(w, w ? "" : w.error().message.c_str());

        const ir::Tensor xs =
            ir::Tensor::fromFloats({2, 3}, {0.1f, -2.5f, 3.f, 1e-3f, 7.25f, -0.3f}).castTo(ir::DType::Float64);
        const ir::Tensor us = ir::Tensor::fromInt64s({2, 3}, {5, 65535, 101, 100, 40000, 0}).castTo(ir::DType::UInt16);
        const std::string dir = m_tmp.path().toStdString();
        QVERIFY(onnx::writeNpy(dir + "/x64.npy", xs));
        QVERIFY(onnx::writeNpy(dir + "/u16.npy", us));
        QVERIFY(onnx::writeTensorProto(dir + "/u16.pb", us, "u"));
        const QString out = m_tmp.path() + "/wide_types_export";
        CliRun e = cli({"export", model, "--lib", "portable", "-o", out, "--input", "x=" + m_tmp.path() + "/x64.npy",
                        "--input", "u=" + m_tmp.path() + "/u16.npy"});
        QVERIFY2(e.code == 0, e.describe());
        CliRun bld = cli({"build", out, "--jobs", "2"});
        QVERIFY2(bld.code == 0, bld.describe());
        CliRun check = cli({"exec", out, "--", "--check", "0", "--warmup", "0"});
        QVERIFY2(check.code == 0 && check.count("check") == 3, check.describe());

        auto ref = reference::run(g, {{"x", xs}, {"u", us}});
        QVERIFY2(ref, ref ? "" : ref.error().message.c_str());
        const QString outDir = m_tmp.path() + "/wide_out";
        CliRun run = cli({"exec", out, "--", "--input", m_tmp.path() + "/x64.npy", "--input", m_tmp.path() + "/u16.pb",
                          "--out", outDir, "--warmup", "0"});
        QVERIFY2(run.code == 0 && run.count("output") == 3, run.describe());
        size_t k = 0;
        for (const QJsonObject& line : run.lines) {
            if (line["type"].toString() != "output") continue;
            const ir::Tensor& want = ref->outputs[k++];
            QCOMPARE(line["dtype"].toString(), QString::fromUtf8(ir::dtypeName(want.dtype()).data()));
            auto got = onnx::readRaw(line["file"].toString().toStdString(), want.dtype(), want.shape());
            QVERIFY2(got, got ? "" : got.error().message.c_str());
            QVERIFY2(got->identical(want), qPrintable(line["name"].toString() + " differs from the reference"));
        }
        QCOMPARE(k, size_t{3});
        // The uint16 arithmetic wraps as ONNX's (numpy's) does: 65535 + 7 = 6.
        QCOMPARE(ref->outputs[1].intAt(1), int64_t{6});

        // bench against an ONNX test bundle of these types (--expect), writing the bundle it ran
        // (--test-data): each output read back in its own type.
        std::vector<onnx::NamedTensor> ins{{"x", xs}, {"u", us}}, outs;
        for (size_t i = 0; i < ref->outputs.size(); ++i) outs.push_back({ref->outputNames[i], ref->outputs[i]});
        QVERIFY(onnx::writeTestDataSet(dir + "/wide_set/test_data_set_0", ins, outs));
        const QString bundle = m_tmp.path() + "/wide_bundle";
        CliRun bench = cli({"bench", model, "--board", "host", "--lib", "portable", "--iterations", "1", "--warmup",
                            "0", "--work-dir", m_tmp.path() + "/wide_bench", "--db", "-", "--expect",
                            m_tmp.path() + "/wide_set/test_data_set_0", "--test-data", bundle, "--json"});
        QVERIFY2(bench.code == 0, bench.describe());
        const QJsonObject expected = QJsonDocument::fromJson(bench.out.toUtf8()).object()["expected"].toObject();
        QVERIFY2(expected["ok"].toBool() && expected["outputs"].toArray().size() == 3, bench.describe());
        auto written = onnx::readTestDataSet((bundle + "/test_data_set_0").toStdString());
        QVERIFY2(written, written ? "" : written.error().message.c_str());
        QCOMPARE(written->inputs.size(), size_t{2});
        QCOMPARE(written->outputs.size(), size_t{3});
        QVERIFY(written->inputs[1].tensor.identical(us));
        QVERIFY(written->outputs[2].tensor.identical(ref->outputs[2]));

        QVERIFY(onnx::writeNpy(dir + "/x32.npy", xs.castTo(ir::DType::Float32)));
        CliRun wrong =
            cli({"exec", out, "--", "--input", m_tmp.path() + "/x32.npy", "--input", m_tmp.path() + "/u16.npy"});
        const QString wrongText = wrong.out + wrong.err;
        QVERIFY2(wrong.code == 4 && wrongText.contains("'<f4'") && wrongText.contains("float64"), wrong.describe());

        test::GraphBuilder r("float64_relu");
        r.output(r.op(ir::OpKind::Relu, {r.input("x", {2, 3}, ir::DType::Float64)}, {}, "relu64"));
        const QString reluModel = m_tmp.path() + "/float64_relu.onnx";
        Status wr = onnx::writeModel(r.build(), reluModel.toStdString());
        QVERIFY2(wr, wr ? "" : wr.error().message.c_str());
        CliRun refused = cli({"export", reluModel, "--lib", "portable", "-o", m_tmp.path() + "/float64_relu_export"});
        QVERIFY2(refused.code == 3 && refused.err.contains("relu64") && refused.err.contains("Relu") &&
                     refused.err.contains("float64"),
                 refused.describe());
    }

    // A model quantized as ONNX Runtime's quantize_dynamic writes it (DynamicQuantizeLinear,
    // ConvInteger, MatMulInteger, Cast, Mul) exports on the generic typed kernels and equals the
    // reference exactly: the integer sums are exact and every float step is the same single
    // rounding, so no value crosses a rounding tie of the next quantization. The layer dumps
    // of the uint8 and int32 tensors equal the reference's too.
    void dynamicallyQuantizedModelExports() {
        const ir::Graph g = test::dynamicQuantizedModel();
        const QString model = m_tmp.path() + "/dynamic_quant.onnx";
        Status w = onnx::writeModel(g, model.toStdString());
        QVERIFY2(w, w ? "" : w.error().message.c_str());
        const QString out = m_tmp.path() + "/dynamic_quant_export";
        CliRun e = cli({"export", model, "--lib", "portable", "-o", out});
        QVERIFY2(e.code == 0, e.describe());
        QFile code(out + "/src/model.cpp");
        QVERIFY(code.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(code.readAll());
        QCOMPARE(text.count("embark::generic::dynamicQuantizeLinear("), 4);
        QCOMPARE(text.count("embark::generic::convInteger("), 2);
        QCOMPARE(text.count("embark::generic::matmulInteger("), 2);
        CliRun bld = cli({"build", out, "--jobs", "2"});
        QVERIFY2(bld.code == 0, bld.describe());
        const QString dump = m_tmp.path() + "/dynamic_quant_dump";
        CliRun run = cli({"exec", out, "--", "--check", "0", "--warmup", "0", "--dump", dump});
        QVERIFY2(run.code == 0 && run.count("check") == 1, run.describe());

        // Layer by layer: each dump (as float32) against the reference's value, exactly.
        auto sample =
            onnx::readRaw((out + "/data/input_0.bin").toStdString(), ir::DType::Float32, ir::Shape{1, 3, 32, 32});
        QVERIFY(sample);
        auto values = reference::runAllValues(g, {{"input", *sample}});
        QVERIFY2(values, values ? "" : values.error().message.c_str());
        auto folder = exporter::ExportFolder::open(out);
        QVERIFY2(folder, folder ? "" : folder.error().message.c_str());
        int compared = 0;
        for (const QJsonObject& line : run.lines) {
            if (line["type"].toString() != "dump") continue;
            // The reference value of the last original node the layer stands for.
            const int layer = line["layer"].toInt();
            QVERIFY(layer >= 0 && static_cast<size_t>(layer) < folder->schedule.size());
            const std::string node = folder->schedule[static_cast<size_t>(layer)].provenance.back();
            const ir::Node* n = g.findNode(node);
            if (!n || !values->count(n->output(0)->name)) continue;
            const ir::Tensor& want = values->at(n->output(0)->name);
            auto got = onnx::readRaw(line["file"].toString().toStdString(), ir::DType::Float32, want.shape());
            QVERIFY2(got, got ? "" : got.error().message.c_str());
            QVERIFY2(test::relativeMaxDiff(*got, want.castTo(ir::DType::Float32)) == 0, node.c_str());
            ++compared;
        }
        QVERIFY2(compared >= 20, qPrintable(QString::number(compared)));
    }

    void unsupportedOpWritesNothing() {
        test::GraphBuilder b("gemm_alpha_runtime_b");
        auto* a = b.input("a", {3, 4});
        auto* rb = b.input("b", {4, 5});
        b.output(b.op(ir::OpKind::Gemm, {a, rb}, {{"alpha", 2.0f}}, "fc"));
        const QString model = m_tmp.path() + "/gemm_alpha_runtime_b.onnx";
        Status w = onnx::writeModel(b.build(), model.toStdString());
        QVERIFY2(w, w ? "" : w.error().message.c_str());
        const QString out = m_tmp.path() + "/gemm_export";
        for (const char* lib : {"portable", "xnnpack"}) {
            CliRun e = cli({"export", model, "--lib", lib, "-o", out});
            QVERIFY2(e.code == 3, e.describe());
            QVERIFY2(e.err.contains("fc") && e.err.contains("Gemm"), e.describe());
            QVERIFY(!QFileInfo::exists(out));
        }
    }

    void missingXnnpackIsExplained() {
        const QString out = m_tmp.path() + "/digits_xnnpack";
        CliRun e = cli({"export", m_model, "--lib", "xnnpack", "-o", out});
        QVERIFY2(e.code == 0, e.describe());
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("XNNPACK_ROOT", "/nonexistent/xnnpack");
        CliRun b = cli({"build", out, "--jobs", "2"}, env);
        QVERIFY2(b.code == 5, b.describe());
        QVERIFY2((b.out + b.err).contains("XNNPACK_ROOT"), b.describe());
        QVERIFY2(!b.out.contains("Built "), b.describe());
    }

    // A cross export builds with its board's CPU flags, not the generic toolchain file's
    // default: sim-k1's -DEMBARK_VLEN_BITS=256 reached export.json but not the compiler, so K1
    // exports ran VLEN-128 kernels (the configure of the export is enough to see it). Its
    // -march names zvl256b: the compiler must know VLEN 256 for the 6 x 32 tile (config.h).
    void crossExportBuildsWithTheBoardFlags() {
        if (QStandardPaths::findExecutable("clang-19").isEmpty() || !QFileInfo::exists("/usr/riscv64-linux-gnu/lib"))
            QSKIP("clang-19 or the riscv64 cross libraries are absent");
        const QString out = m_tmp.path() + "/digits_k1";
        CliRun e = cli({"export", m_model, "--board", "sim-k1", "-o", out});
        QVERIFY2(e.code == 0, e.describe());
        QProcess cmake;
        cmake.setWorkingDirectory(out);
        cmake.start("cmake", {"-S", ".", "-B", "b", "--toolchain", "toolchain.cmake"});
        QVERIFY(cmake.waitForFinished(5 * 60 * 1000));
        QVERIFY2(cmake.exitCode() == 0, cmake.readAllStandardError().constData());
        QFile cache(out + "/b/CMakeCache.txt");
        QVERIFY(cache.open(QIODevice::ReadOnly));
        const QByteArray text = cache.readAll();
        QVERIFY2(text.contains("EMBARK_TARGET_FLAGS:STRING=-march=rv64gcv_zvl256b -mabi=lp64d -DEMBARK_VLEN_BITS=256"),
                 text.mid(text.indexOf("EMBARK_TARGET_FLAGS"), 120).constData());
    }

    // Last: corrupts the portable export's model.cpp; the compiler's message must surface.
    void compileErrorIsReported() {
        QFile f(m_export + "/src/model.cpp");
        QVERIFY(f.open(QIODevice::Append));
        f.write("\nthis_is_not_cpp embark_broken;\n");
        f.close();
        QFile::remove(m_export + "/build/run_export");
        CliRun b = cli({"build", m_export, "--jobs", "2"});
        QVERIFY2(b.code == 5, b.describe());
        QVERIFY2(b.err.contains("model.cpp") && b.err.contains("this_is_not_cpp"), b.describe());
        QVERIFY2(!b.out.contains("Built "), b.describe());
        QVERIFY(!QFileInfo::exists(m_export + "/build/run_export"));
    }
};

QTEST_GUILESS_MAIN(TestExportCli)
#include "tst_export_cli.moc"
