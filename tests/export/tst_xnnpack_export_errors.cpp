// An XNNPACK call that fails inside an export (here: a convolution whose fused Clip has
// min > max, which XNNPACK's create refuses) is a clear error from run_export that names the
// node, the XNNPACK call and its status, on Debian's 2022 API and on upstream's, never a crash.
#include "onnx/writer.h"
#include "support/graph_builder.h"
#include "support/test_paths.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace embark;

namespace {

struct Run {
    int code = -1;
    bool crashed = false;
    QString out, err;
    QByteArray describe() const {
        return ("exit " + QString::number(code) + "\nstdout: " + out.right(1500) + "\nstderr: " + err.right(1500))
            .toUtf8();
    }
};

Run cli(const QStringList& args, const QProcessEnvironment& env) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(test::cliPath(), args);
    Run r;
    if (!p.waitForStarted() || !p.waitForFinished(20 * 60 * 1000)) {
        p.kill();
        r.err = "embark-cli did not start or finish: " + p.errorString();
        return r;
    }
    r.crashed = p.exitStatus() != QProcess::NormalExit;
    r.code = r.crashed ? -1 : p.exitCode();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace

class TestXnnpackExportErrors : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_model;

private slots:
    void initTestCase() {
        QVERIFY(m_tmp.isValid());
        test::GraphBuilder b("xnn_bad_clip");
        auto* x = b.input("x", {1, 3, 8, 8});
        auto* y = b.op(ir::OpKind::Conv, {x, b.weights("w", {4, 3, 3, 3}), b.weights("bias", {4})},
                       {{"pads", std::vector<int64_t>{1, 1, 1, 1}}}, "conv_bad_range");
        b.output(b.op(ir::OpKind::Clip, {y, b.floats("lo", {1.f}), b.floats("hi", {-1.f})}, {}, "clip_inverted"));
        m_model = m_tmp.path() + "/xnn_bad_clip.onnx";
        Status w = onnx::writeModel(b.build(), m_model.toStdString());
        QVERIFY2(w, w ? "" : w.error().message.c_str());
    }

    void failedCreateNamesNodeCallAndStatus_data() {
        QTest::addColumn<bool>("upstream");
        QTest::newRow("debian (legacy API)") << false;
        QTest::newRow("upstream (reshape/setup API)") << true;
    }

    void failedCreateNamesNodeCallAndStatus() {
        QFETCH(bool, upstream);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (upstream) {
            EMBARK_REQUIRE_SHARED_XNNPACK("x86_64", tree);
            env.insert("XNNPACK_ROOT", tree);
        } else if (env.contains("XNNPACK_ROOT")) {
            env.remove("XNNPACK_ROOT");
        }
        const QString out = m_tmp.path() + (upstream ? "/upstream" : "/debian");
        Run e = cli({"export", m_model, "--lib", "xnnpack", "-o", out, "--force"}, env);
        QVERIFY2(e.code == 0, e.describe());
        Run b = cli({"build", out, "--jobs", "2"}, env);
        if (!upstream && b.code != 0 && (b.out + b.err).contains("XNNPACK was not found"))
            QSKIP("Debian's libxnnpack-dev is not installed");
        QVERIFY2(b.code == 0, b.describe());
        Run x = cli({"exec", out, "--", "--iterations", "1", "--warmup", "0"}, env);
        QVERIFY2(!x.crashed && x.code != 0, x.describe());
        const QString all = x.out + x.err;
        QVERIFY2(all.contains("conv_bad_range") && all.contains("xnn_create_convolution2d_nhwc_f32") &&
                     all.contains("xnn_status_invalid_parameter"),
                 x.describe());
        // The protocol's error line says which stage failed.
        bool sawError = false;
        for (const QString& line : x.out.split('\n')) {
            const QJsonObject j = QJsonDocument::fromJson(line.toUtf8()).object();
            if (j["type"].toString() == "error") sawError = j["stage"].toString() == "init";
        }
        QVERIFY2(sawError, x.describe());
    }
};

QTEST_GUILESS_MAIN(TestXnnpackExportErrors)
#include "tst_xnnpack_export_errors.moc"
