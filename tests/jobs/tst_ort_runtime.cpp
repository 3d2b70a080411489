// ONNX Runtime as a runtime beside the exports (issue 17).
// - Parsers, with text in the real formats: onnxruntime_perf_test -s statistics, onnx_test_runner's
//   summary, an ORT profile (Chrome trace, the event names ORT 1.30 gives digits_cnn) mapped onto
//   the imported graph, a NumPy .npy file.
// - The SpacemiT EP options (typed, validated) and the perf_test / onnx_test_runner command lines.
// - Board files' "onnxruntime" object.
// - The host for real: digits_cnn through npm's onnxruntime-node (skipped when Node.js, npm or
//   the package cannot be had): latency, profile mapped to the graph, outputs against the
//   reference, the stored run in `embark-cli runs list`, and a comparison with the export's run.
// - The K1 half over the real SSH fixture: a board whose runtime folder is missing, one whose
//   folder lacks bin/onnxruntime_perf_test, and a stand-in SpacemiT-ORT folder (shell scripts
//   printing the tools' real output formats) that checks the exact command lines, environment,
//   downloads, parsing, .npy comparison and that nothing is left on the board.
#include "results/ort_output.h"
#include "jobs/bench_pipeline.h"
#include "export/exporter.h"
#include "jobs/ort_pipeline.h"
#include "onnx/importer.h"
#include "onnx/tensor_io.h"
#include "reference/interpreter.h"
#include "store/run_store.h"
#include "support/cli_process.h"
#include "support/sshd_fixture.h"
#include "support/test_paths.h"
#include "targets/board.h"
#include "targets/onnxruntime.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <thread>

using namespace embark;

namespace {

const bool kLongWatchdog = [] {
    if (!qEnvironmentVariableIsSet("QTEST_FUNCTION_TIMEOUT")) qputenv("QTEST_FUNCTION_TIMEOUT", "3600000");
    return true;
}();

QString digitsPath() { return test::sourceDir() + "/resources/models/digits_cnn.onnx"; }

// onnxruntime_perf_test -s as ORT prints it (performance_runner.cc: Run() then DumpToFile's
// statistics).
const char* kPerfTestOutput = "Setting intra_op_num_threads to 2\n"
                              "Session creation time cost: 0.0456301 s\n"
                              "First inference time cost: 14 ms\n"
                              "Total inference time cost: 1.23456 s\n"
                              "Total inference requests: 100\n"
                              "Average inference time cost: 12.3456 ms\n"
                              "Total inference run time: 1.24013 s\n"
                              "Number of inferences per second: 80.6367 \n"
                              "Avg CPU usage: 97 %\n"
                              "Peak working set size: 41639936 bytes\n"
                              "Avg CPU usage:97\n"
                              "Peak working set size:41639936\n"
                              "Runs:100\n"
                              "Min Latency: 0.0114212 s\n"
                              "Max Latency: 0.0155398 s\n"
                              "P50 Latency: 0.0121003 s\n"
                              "P90 Latency: 0.0130017 s\n"
                              "P95 Latency: 0.0135125 s\n"
                              "P99 Latency: 0.0150333 s\n"
                              "P999 Latency: 0.0155398 s\n";

// onnx_test_runner's summary (TestResultStat::ToString).
const char* kTestRunnerPassed = "result: \n"
                                "\tModels: 1\n"
                                "\tTotal test cases: 1\n"
                                "\t\tSucceeded: 1\n"
                                "\t\tNot implemented: 0\n"
                                "\t\tFailed: 0\n"
                                "\tStats by Operator type:\n"
                                "\t\tNot implemented(0): \n"
                                "\t\tFailed:\n"
                                "Failed Test Cases:\n";

const char* kTestRunnerFailed = "result: \n"
                                "\tModels: 1\n"
                                "\tTotal test cases: 2\n"
                                "\t\tSucceeded: 1\n"
                                "\t\tNot implemented: 0\n"
                                "\t\tFailed: 1\n"
                                "\tStats by Operator type:\n"
                                "\t\tNot implemented(0): \n"
                                "\t\tFailed:\n"
                                "\t\t\tConv\n"
                                "Failed Test Cases:model of onnx domain\n";

// An ORT 1.30 profile of digits_cnn (graph optimisation "all": NCHWc convolutions named after
// the Relu output they write, ReorderOutput nodes of ORT's own), two runs: the first a warm-up.
QByteArray profileEvent(const char* cat, const char* name, double ts, double dur, const char* op = nullptr,
                        const char* provider = "CPUExecutionProvider") {
    QByteArray e = QByteArray("{\"cat\":\"") + cat +
                   "\",\"pid\":28600,\"tid\":28600,\"dur\":" + QByteArray::number(dur) +
                   ",\"ts\":" + QByteArray::number(ts) + ",\"ph\":\"X\",\"name\":\"" + name + "\",\"args\":{";
    if (op) e += QByteArray("\"op_name\":\"") + op + "\",\"provider\":\"" + provider + "\",\"node_index\":\"3\"";
    return e + "}}";
}

QByteArray digitsProfile() {
    QList<QByteArray> events{profileEvent("Session", "model_loading_uri", 5, 796),
                             profileEvent("Session", "session_initialization", 849, 22135)};
    const struct {
        const char* name;
        const char* op;
        double dur;
    } nodes[] = {
        {"/features/features.2/Relu_output_0_nchwc_kernel_time", "Conv", 0},
        {"ReorderOutput_kernel_time", "ReorderOutput", 0},
        {"/features/features.3/MaxPool_kernel_time", "MaxPool", 0},
        {"/features/features.6/Relu_output_0_nchwc_kernel_time", "Conv", 0},
        {"/features/features.7/MaxPool_output_0_nchwc_kernel_time", "MaxPool", 0},
        {"/features/features.9/Relu_output_0_nchwc_kernel_time", "Conv", 0},
        {"/pool/GlobalAveragePool_output_0_nchwc_kernel_time", "GlobalAveragePool", 0},
        {"ReorderOutput_token_8_kernel_time", "ReorderOutput", 0},
        {"/Flatten_kernel_time", "Flatten", 0},
        {"/fc/Gemm_kernel_time", "Gemm", 0},
    };
    double ts = 30000;
    for (int run = 0; run < 2; ++run) {
        const double start = ts;
        int k = 0;
        for (const auto& n : nodes) {
            // Warm-up run 1000 µs per node; the timed run 10, 20, ... µs.
            const double dur = run == 0 ? 1000 : 10.0 * ++k;
            events << profileEvent("Node", n.name, ts + 1, dur, n.op);
            events << profileEvent("Node", QByteArray(n.name).replace("_kernel_time", "_fence_after").constData(),
                                   ts + 1 + dur, 0);
            ts += dur + 2;
        }
        events << profileEvent("Session", "SequentialExecutor::Execute", start, ts - start);
        events << profileEvent("Session", "model_run", start, ts - start + 1);
        ts += 100;
    }
    return "[\n" + events.join(",\n") + "\n]\n";
}

// A NumPy .npy file (format 1.0) of float32 values, as numpy.save writes it.
QByteArray npyBytes(const std::vector<int64_t>& shape, const std::vector<float>& values) {
    QByteArray dims;
    for (int64_t d : shape) dims += QByteArray::number(static_cast<qlonglong>(d)) + ", ";
    if (shape.size() > 1) dims.chop(1);
    if (shape.size() > 1) dims.chop(1);
    QByteArray header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + dims + "), }";
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    QByteArray out("\x93NUMPY\x01\x00", 8);
    out += char(header.size() & 0xff);
    out += char(header.size() >> 8);
    out += header;
    out += QByteArray(reinterpret_cast<const char*>(values.data()), static_cast<qsizetype>(values.size() * 4));
    return out;
}

bool writeFile(const QString& path, const QByteArray& data, bool executable = false) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size()) return false;
    f.close();
    if (executable) f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return true;
}

bool writeJson(const QString& path, const QJsonObject& o) { return writeFile(path, QJsonDocument(o).toJson()); }

ir::Graph importDigits() {
    auto g = onnx::importModel(digitsPath().toStdString(), {});
    if (!g) qFatal("cannot import digits_cnn: %s", g.error().message.c_str());
    return std::move(*g);
}

QString msg(const Error& e) { return QString::fromStdString(e.message); }

} // namespace

class TestOrtRuntime : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    test::SshdFixture m_sshd;
    bool m_haveSshd = false;
    QString m_sshdError;

    QString boardsDir() const { return m_tmp.path() + "/config/boards"; }
    QString storePath() const { return m_tmp.path() + "/runs.db"; }

    jobs::BenchOptions options(const QString& board) const {
        jobs::BenchOptions o;
        o.modelPath = digitsPath();
        o.boardId = board;
        o.runtime = "onnxruntime";
        o.iterations = 5;
        o.warmup = 1;
        o.workDir = m_tmp.path() + "/work";
        o.storePath = storePath();
        o.runTimeoutSeconds = 300;
        o.ssh.configFile = m_sshd.sshConfig();
        o.ssh.knownHostsFile = m_sshd.knownHosts();
        o.ssh.connectTimeout = std::chrono::seconds(10);
        return o;
    }

    // A SpacemiT-ORT board reached over the SSH fixture, its runs in `workdir`.
    bool writeSshOrtBoard(const QString& id, const QString& root, const QString& workdir) {
        const QJsonObject runner{{"kind", "ssh"},         {"host", "127.0.0.1"},       {"port", m_sshd.port()},
                                 {"user", m_sshd.user()}, {"key", m_sshd.clientKey()}, {"workdir", workdir}};
        const QJsonObject b{{"id", id},
                            {"name", "K1 stand-in " + id},
                            {"arch", "riscv64"},
                            {"isa", "rv64gcv"},
                            {"cores", 8},
                            {"memory_bytes", qint64(4) << 30},
                            {"vlen_bits", 256},
                            {"runner", runner},
                            {"onnxruntime", QJsonObject{{"root", root}, {"ep", "spacemit"}}}};
        return QDir().mkpath(workdir) && writeJson(boardsDir() + "/" + id + ".json", b);
    }

    static bool folderEmpty(const QString& dir) {
        return QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden).isEmpty();
    }

private slots:
    void initTestCase() {
        QVERIFY(m_tmp.isValid());
        QVERIFY(QDir().mkpath(boardsDir()));
        qputenv("EMBARK_CONFIG_DIR", (m_tmp.path() + "/config").toUtf8());
        m_haveSshd = m_sshd.start(&m_sshdError) && m_sshd.writeKnownHosts(true);
    }

    // --- parsers
    void perfTestStatistics() {
        const bench::PerfTestStats s = bench::parsePerfTestOutput(kPerfTestOutput);
        QVERIFY(s.complete());
        QCOMPARE(*s.averageMs, 12.3456);
        QCOMPARE(*s.minS, 0.0114212);
        QCOMPARE(*s.maxS, 0.0155398);
        QCOMPARE(*s.p50S, 0.0121003);
        QCOMPARE(*s.p90S, 0.0130017);
        QCOMPARE(*s.p95S, 0.0135125);
        QCOMPARE(*s.p99S, 0.0150333);
        QCOMPARE(*s.p999S, 0.0155398);
        QCOMPARE(*s.peakWorkingSetBytes, int64_t(41639936));
        QCOMPARE(*s.requests, int64_t(100));
        QCOMPARE(*s.runs, int64_t(100));
        QCOMPARE(*s.sessionCreationS, 0.0456301);
        QCOMPARE(*s.firstInferenceMs, 14.0);
        QCOMPARE(*s.avgCpuPercent, 97.0);
        QVERIFY(s.error.empty());
        // Without -s there are no percentiles; a failed session says why.
        const bench::PerfTestStats partial = bench::parsePerfTestOutput(
            "Session creation time cost: 0.04 s\nAverage inference time cost: 12.3 ms\nAvg CPU usage:97\n");
        QVERIFY(!partial.complete());
        const bench::PerfTestStats failed = bench::parsePerfTestOutput(
            "2026-12-02 05:00:00.000 onnxruntime_perf_test[E:onnxruntime:, inference_session.cc:2105 Initialize] "
            "SpaceMIT EP: Resize mode cubic is not supported\n");
        QVERIFY(QString::fromStdString(failed.error).contains("Resize mode cubic"));
        // Noise never breaks it.
        QVERIFY(
            !bench::parsePerfTestOutput(QByteArray("\x00\xff garbage: x\n: 3\nP50 Latency: nan s\n", 32)).complete());
    }

    void testRunnerSummary() {
        const bench::TestRunnerResult ok = bench::parseTestRunnerOutput(kTestRunnerPassed);
        QVERIFY(ok.parsed);
        QCOMPARE(ok.models, 1);
        QCOMPARE(ok.total, 1);
        QCOMPARE(ok.succeeded, 1);
        QCOMPARE(ok.failed, 0);
        QVERIFY(ok.passed());
        QVERIFY(ok.failedCases.empty());
        const bench::TestRunnerResult bad = bench::parseTestRunnerOutput(kTestRunnerFailed);
        QVERIFY(bad.parsed);
        QCOMPARE(bad.total, 2);
        QCOMPARE(bad.failed, 1); // not the per-op "Failed:" line below the counts
        QVERIFY(!bad.passed());
        QCOMPARE(bad.failedCases.size(), size_t(1));
        QVERIFY(!bench::parseTestRunnerOutput("Segmentation fault\n").passed());
    }

    void profileMappedOntoGraph() {
        auto profile = bench::parseOrtProfile(digitsProfile());
        QVERIFY2(profile, profile ? "" : profile.error().message.c_str());
        QCOMPARE(profile->runDurUs.size(), size_t(2));
        QCOMPARE(profile->nodes.size(), size_t(20)); // fences skipped
        QCOMPARE(profile->nodes.front().run, 0);
        QCOMPARE(profile->nodes.back().run, 1);
        QCOMPARE(profile->nodes.front().name, std::string("/features/features.2/Relu_output_0_nchwc"));
        QCOMPARE(profile->nodes.front().op, std::string("Conv"));
        std::vector<bench::OrtLayer> layers = bench::ortLayers(*profile, 1); // the warm-up left out
        QCOMPARE(layers.size(), size_t(10));
        for (size_t i = 0; i < layers.size(); ++i) {
            QCOMPARE(layers[i].runs, 1);
            QCOMPARE(layers[i].medianNs, 10000.0 * double(i + 1));
        }
        QCOMPARE(bench::ortLayers(*profile, 0).front().medianNs, (1000.0 + 10.0) / 2 * 1000);
        const ir::Graph g = importDigits();
        bench::mapToGraph(layers, g);
        auto find = [&](const std::string& ort) -> const bench::OrtLayer& {
            for (const auto& l : layers)
                if (l.ortName == ort) return l;
            qFatal("no layer %s", ort.c_str());
        };
        // The fused NCHWc Conv+Relu links both original nodes.
        const bench::OrtLayer& conv = find("/features/features.2/Relu_output_0_nchwc");
        QCOMPARE(conv.how, std::string("fused"));
        QCOMPARE(conv.nodes, (std::vector<std::string>{"/features/features.0/Conv", "/features/features.2/Relu"}));
        QCOMPARE(find("/features/features.3/MaxPool").nodes, std::vector<std::string>{"/features/features.3/MaxPool"});
        QCOMPARE(find("/features/features.7/MaxPool_output_0_nchwc").nodes,
                 std::vector<std::string>{"/features/features.7/MaxPool"});
        QCOMPARE(find("/fc/Gemm").how, std::string("name"));
        QVERIFY(find("ReorderOutput_token_8").nodes.empty()); // ORT's own layout change
        int mapped = 0;
        for (const auto& l : layers) mapped += l.nodes.empty() ? 0 : 1;
        QCOMPARE(mapped, 8);
        QCOMPARE(bench::providerLabel("CPUExecutionProvider"), std::string("ort-cpu"));
        QCOMPARE(bench::providerLabel("SpaceMITExecutionProvider"), std::string("ort-spacemit"));
        // The {"traceEvents": [...]} form (an EP's own profile) parses the same.
        auto wrapped = bench::parseOrtProfile("{\"traceEvents\":" + digitsProfile() + "}");
        QVERIFY(wrapped);
        QCOMPARE(wrapped->nodes.size(), size_t(20));
        // Not JSON: an error, not a crash.
        auto bad = bench::parseOrtProfile("[{\"ph\":\"X\"");
        QVERIFY(!bad);
        QVERIFY(msg(bad.error()).contains("not JSON"));
    }

    // A Conv+BatchNormalization+Clip ORT fused and named after the Clip's output, where some
    // BatchNormalization parameters come from Constant nodes (as in torchvision's MobileNetV2
    // export): the entry links all three nodes.
    void fusedChainWithConstantNodes() {
        ir::Graph g;
        ir::Value* x = g.addValue("x", ir::DType::Float32, ir::Shape{1, 2, 4, 4});
        g.addInput(x);
        auto constant = [&](const std::string& name, ir::Shape shape) {
            return g.addConstant(name, ir::Tensor::fromFloats(shape, std::vector<float>(size_t(shape.numel()), 1.f)));
        };
        ir::Value* convOut = g.addValue("conv_out", ir::DType::Float32, ir::Shape{1, 2, 4, 4});
        g.addNode(ir::OpKind::Conv, "conv", {x, constant("w", ir::Shape{2, 2, 1, 1})}, {convOut});
        ir::Value* mean = g.addValue("mean", ir::DType::Float32, ir::Shape{2});
        g.addNode(ir::OpKind::Constant, "mean_const", {}, {mean});
        ir::Value* bnOut = g.addValue("bn_out", ir::DType::Float32, ir::Shape{1, 2, 4, 4});
        g.addNode(ir::OpKind::BatchNormalization, "bn",
                  {convOut, constant("scale", ir::Shape{2}), constant("bias", ir::Shape{2}), mean,
                   constant("var", ir::Shape{2})},
                  {bnOut});
        ir::Value* y = g.addValue("y", ir::DType::Float32, ir::Shape{1, 2, 4, 4});
        g.addNode(ir::OpKind::Clip, "clip", {bnOut, constant("lo", ir::Shape{}), constant("hi", ir::Shape{})}, {y});
        g.addOutput(y);
        for (ir::Node* n : g.nodes()) n->provenance = {n->name};
        auto profile = bench::parseOrtProfile("[" + profileEvent("Node", "y_nchwc_kernel_time", 10, 5, "Conv") + "," +
                                              profileEvent("Session", "model_run", 0, 100) + "]");
        QVERIFY(profile);
        std::vector<bench::OrtLayer> layers = bench::ortLayers(*profile);
        bench::mapToGraph(layers, g);
        QCOMPARE(layers.size(), size_t(1));
        QCOMPARE(layers[0].how, std::string("fused"));
        QCOMPARE(layers[0].nodes, (std::vector<std::string>{"conv", "bn", "clip"}));
    }

    void npyDump() {
        const QString path = m_tmp.path() + "/dump.npy";
        QVERIFY(writeFile(path, npyBytes({1, 3}, {1.5f, -2.f, 0.25f})));
        auto t = onnx::readNpy(path.toStdString());
        QVERIFY2(t, t ? "" : t.error().message.c_str());
        QCOMPARE(t->shape(), (ir::Shape{1, 3}));
        QCOMPARE(t->at(0), 1.5);
        QCOMPARE(t->at(1), -2.0);
        QCOMPARE(t->at(2), 0.25);
        QVERIFY(writeFile(path, QByteArray("\x93NUMPY\x01\x00\x05\x00{'de", 14)));
        QVERIFY(!onnx::readNpy(path.toStdString()));
    }

    // --- options and command lines
    void epOptionsValidated() {
        auto o = targets::parseEpOptions({"dump_subgraphs=true", "SPACEMIT_EP_DENSE_ACCURACY_LEVEL=2",
                                          "SPACEMIT_EP_DISABLE_OP_TYPE_FILTER=Softmax,Gemm"},
                                         4);
        QVERIFY2(o, o ? "" : o.error().message.c_str());
        QCOMPARE(o->at("SPACEMIT_EP_DUMP_SUBGRAPHS"), QString("1"));
        QCOMPARE(o->at("SPACEMIT_EP_INTRA_THREAD_NUM"), QString("4")); // set explicitly from --threads
        QCOMPARE(targets::epEnvironment(*o),
                 (QStringList{"SPACEMIT_EP_DENSE_ACCURACY_LEVEL=2", "SPACEMIT_EP_DISABLE_OP_TYPE_FILTER=Softmax,Gemm",
                              "SPACEMIT_EP_DUMP_SUBGRAPHS=1", "SPACEMIT_EP_INTRA_THREAD_NUM=4"}));
        QVERIFY(
            targets::parseEpOptions({"SPACEMIT_EP_INTRA_THREAD_NUM=2", "SPACEMIT_EP_INTRA_THREAD_AFFINITY=4,5"}, 8));
        QCOMPARE(targets::spacemitEpOptions().size(), size_t(11));

        struct Bad {
            QStringList in;
            int threads;
            QString says;
        };
        const Bad bad[] = {
            {{"SPACEMIT_EP_INTRA_THREAD_AFFINITY=0,1,2"}, 4, "names 3 CPU(s) but the EP runs 4 thread(s)"},
            {{"SPACEMIT_EP_INTRA_THREAD_NUM=2", "SPACEMIT_EP_INTRA_THREAD_AFFINITY=0"},
             1,
             "names 1 CPU(s) but the EP runs 2"},
            {{"SPACEMIT_EP_INTRA_THREAD_AFFINITY=0,0"}, 2, "names a CPU twice"},
            {{"SPACEMIT_EP_INTRA_THREAD_AFFINITY=a,b"}, 2, "CPU numbers separated by commas"},
            {{"SPACEMIT_EP_INTRA_THREAD_NUM=0"}, 1, "integer from 1 to 256"},
            {{"SPACEMIT_EP_INTER_THREAD_NUM=x"}, 1, "SPACEMIT_EP_INTER_THREAD_NUM='x'"},
            {{"SPACEMIT_EP_DUMP_TENSORS=maybe"}, 1, "takes 0 or 1"},
            {{"SPACEMIT_EP_DENSE_ACCURACY_LEVEL=9"}, 1, "integer from 0 to 4"},
            {{"SPACEMIT_EP_DEBUG_PROFILE=../x.json"}, 1, "file name in the run folder"},
            {{"SPACEMIT_EP_DISABLE_OP_TYPE_FILTER=Conv;Relu"}, 1, "ONNX op types separated by commas"},
            {{"SPACEMIT_EP_DISABLE_OP_NAME_FILTER=a,,b"}, 1, "none empty"},
            {{"SPACEMIT_EP_TURBO=1"},
             1,
             "unknown SpacemiT EP option 'SPACEMIT_EP_TURBO' (known: SPACEMIT_EP_INTRA_THREAD_NUM"},
            {{"SPACEMIT_EP_DUMP_TENSORS"}, 1, "is not KEY=VALUE"},
            {{"DUMP_TENSORS=1", "SPACEMIT_EP_DUMP_TENSORS=0"}, 1, "given twice"},
        };
        for (const Bad& b : bad) {
            auto r = targets::parseEpOptions(b.in, b.threads);
            QVERIFY2(!r, qPrintable(b.in.join(' ')));
            QVERIFY2(msg(r.error()).contains(b.says), qPrintable(msg(r.error())));
            QCOMPARE(r.error().kind, ErrorKind::Usage);
        }
        QCOMPARE(targets::epOptionDifferences(QJsonObject{{"A", "1"}, {"B", "2"}},
                                              QJsonObject{{"A", "1"}, {"B", "3"}, {"C", "1"}}),
                 (QStringList{"B", "C"}));
    }

    void commandLines() {
        targets::OrtRuntime r;
        r.root = "/opt/spacemit-ort";
        r.ep = "spacemit";
        targets::PerfTestRequest q;
        q.model = "model/model.onnx";
        q.iterations = 50;
        q.threads = 4;
        q.concurrent = 1;
        QCOMPARE(targets::perfTestArgv(r, q),
                 (QStringList{"/opt/spacemit-ort/bin/onnxruntime_perf_test", "-e", "spacemit", "-r", "50", "-x", "4",
                              "-c", "1", "-S", "1", "-I", "-s", "model/model.onnx"}));
        q.profilePrefix = "ort_profile";
        QCOMPARE(targets::perfTestArgv(r, q).mid(13), (QStringList{"-p", "ort_profile", "model/model.onnx"}));
        QCOMPARE(targets::testRunnerArgv(r, "model"),
                 (QStringList{"/opt/spacemit-ort/bin/onnx_test_runner", "-e", "spacemit", "model"}));
        auto ep = targets::parseEpOptions({"SPACEMIT_EP_DUMP_SUBGRAPHS=1"}, 4);
        QVERIFY(ep);
        QCOMPARE(targets::runtimeEnvironment(r, *ep),
                 (QStringList{"LD_LIBRARY_PATH=/opt/spacemit-ort/lib", "SPACEMIT_EP_DUMP_SUBGRAPHS=1",
                              "SPACEMIT_EP_INTRA_THREAD_NUM=4"}));
        r.ep = "cpu"; // the CPU provider gets no EP options
        QCOMPARE(targets::runtimeEnvironment(r, *ep), QStringList{"LD_LIBRARY_PATH=/opt/spacemit-ort/lib"});
    }

    void boardFiles() {
        auto k1 = targets::findBoard("spacemit-k1");
        QVERIFY2(k1, k1 ? "" : k1.error().message.c_str());
        QVERIFY(k1->onnxruntime);
        QCOMPARE(k1->onnxruntime->ep, QString("spacemit"));
        QVERIFY(!k1->onnxruntime->root.isEmpty());
        auto host = targets::findBoard("host");
        QVERIFY(host && host->onnxruntime && host->onnxruntime->isNode());
        QCOMPARE(targets::npmPackageVersion(host->onnxruntime->node), QString("1.30"));
        QCOMPARE(QJsonValue(host->toJson().value("onnxruntime")).toObject().value("node").toString(),
                 host->onnxruntime->node);
        auto sim = targets::findBoard("sim-k230");
        QVERIFY(sim && !sim->onnxruntime);

        const QByteArray base = "{\"id\":\"b\",\"name\":\"B\",\"arch\":\"riscv64\",\"cores\":1,\"memory_bytes\":1000,"
                                "\"runner\":{\"kind\":\"ssh\",\"host\":\"b\"},\"onnxruntime\":";
        struct Case {
            QByteArray ort;
            QString says;
        };
        const Case cases[] = {
            {"{\"root\":\"/opt/ort\",\"node\":\"onnxruntime-node\"}", "exactly one of \"root\""},
            {"{\"ep\":\"spacemit\"}", "exactly one of \"root\""},
            {"{\"root\":\"opt/ort\"}", "field 'onnxruntime.root' must be an absolute path"},
            {"{\"root\":\"/opt/ort\",\"ep\":\"cuda\"}",
             "field 'onnxruntime.ep' must be one of spacemit, cpu (not 'cuda')"},
            {"{\"root\":5}", "field 'onnxruntime.root' must be a string"},
            {"{\"node\":\"onnxruntime-node@1.30\"}", "runs on this computer only"},
            {"[1]", "field 'onnxruntime' must be an object"},
        };
        for (const Case& c : cases) {
            auto b = targets::parseBoard(base + c.ort + "}", "b.json");
            QVERIFY2(!b, c.ort.constData());
            QVERIFY2(msg(b.error()).contains(c.says), qPrintable(msg(b.error())));
            QVERIFY(msg(b.error()).startsWith("b.json: "));
        }
        auto ok = targets::parseBoard(base + "{\"root\":\"/opt/ort\"}}", "b.json");
        QVERIFY(ok && ok->onnxruntime && ok->onnxruntime->ep == "spacemit");
    }

    void refusedBeforeRunning() {
        jobs::BenchOptions o = options("sim-k230");
        auto r = jobs::runBenchmark(o);
        QVERIFY(!r);
        QVERIFY2(msg(r.error()).contains("board 'sim-k230' has no ONNX Runtime") && msg(r.error()).contains("host"),
                 qPrintable(msg(r.error())));
        o = options("host");
        o.epOptions = {"SPACEMIT_EP_DUMP_TENSORS=1"};
        r = jobs::runBenchmark(o);
        QVERIFY(!r);
        QVERIFY2(msg(r.error()).contains("runs ONNX Runtime's cpu provider"), qPrintable(msg(r.error())));
        o = options("host");
        o.runtime = "tvm";
        r = jobs::runBenchmark(o);
        QVERIFY(!r && msg(r.error()).contains("unknown runtime 'tvm'"));
        // The CLI says the same before anything runs.
        const test::CliResult cli = test::runCli({"bench", digitsPath(), "--board", "host", "--runtime", "tvm"});
        QCOMPARE(cli.code, 2);
        QVERIFY(cli.err.contains("--runtime 'tvm'"));
        const test::CliResult lib =
            test::runCli({"bench", digitsPath(), "--runtime", "export", "--ep-option", "DUMP_TENSORS=1"});
        QCOMPARE(lib.code, 2);
        QVERIFY(lib.err.contains("--ep-option applies to --runtime onnxruntime only"));
    }

    // --- the host, for real
    void hostOnnxRuntime() {
        if (QStandardPaths::findExecutable("node").isEmpty() || QStandardPaths::findExecutable("npm").isEmpty())
            QSKIP("Node.js or npm is not installed (scripts/install-deps.sh installs them): the host ONNX Runtime runs "
                  "need them");
        jobs::BenchOptions o = options("host");
        o.layers = true;
        o.iterations = 8;
        o.warmup = 2;
        auto r = jobs::runBenchmark(o);
        if (!r && (msg(r.error()).contains("npm") || msg(r.error()).contains("cannot install")))
            QSKIP(qPrintable("onnxruntime-node could not be installed: " + msg(r.error())));
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        const store::RunRecord& rec = r->record;
        QVERIFY2(rec.status == store::RunStatus::Ok, rec.message.c_str());
        QVERIFY(rec.id > 0);
        QCOMPARE(rec.fingerprint.kernelLibrary, std::string("onnxruntime"));
        QCOMPARE(rec.extra.value("runtime").toString(), QString("onnxruntime"));
        QVERIFY(rec.extra.value("ort_version").toString().startsWith("onnxruntime-node 1."));
        // Latency: one sample per timed iteration, and ORT's figures beside them.
        QCOMPARE(rec.latencyNs.size(), size_t(8));
        QCOMPARE(rec.latency.count, int64_t(8));
        QVERIFY(rec.latency.minNs > 0 && rec.latency.minNs <= rec.latency.medianNs &&
                rec.latency.medianNs <= rec.latency.maxNs);
        const QJsonObject l = rec.extra.value("ort_latency").toObject();
        for (const char* k : {"average_ns", "min_ns", "max_ns", "p50_ns", "p90_ns", "p95_ns", "p99_ns"})
            QVERIFY2(l.value(k).toDouble() > 0, k);
        QCOMPARE(l.value("min_ns").toDouble(), rec.latency.minNs);
        QVERIFY(l.value("p50_ns").toDouble() <= l.value("p95_ns").toDouble() &&
                l.value("p95_ns").toDouble() <= l.value("max_ns").toDouble());
        // The profile: ORT's nodes, at least 7 of them on the graph's nodes.
        const QJsonArray layers = rec.extra.value("ort_layers").toArray();
        QVERIFY(layers.size() >= 8);
        int mapped = 0;
        QSet<QString> graphNodes;
        for (const QJsonValue& v : layers)
            for (const QJsonValue& n : v.toObject().value("nodes").toArray()) graphNodes << n.toString();
        for (const QJsonValue& v : layers) mapped += v.toObject().value("nodes").toArray().isEmpty() ? 0 : 1;
        QVERIFY2(mapped >= 7, qPrintable(QString::number(mapped)));
        for (const char* n :
             {"/features/features.0/Conv", "/features/features.4/Conv", "/features/features.8/Conv", "/fc/Gemm"})
            QVERIFY2(graphNodes.contains(n), n);
        QCOMPARE(rec.layers.size(), size_t(layers.size()));
        QCOMPARE(r->medianLayers.size(), rec.layers.size());
        for (const auto& t : rec.layers) QVERIFY(t.ns > 0 && t.lib == "ort-cpu");
        // Outputs against the reference on the export's sample.
        QCOMPARE(rec.outputAccuracy.size(), size_t(1));
        QCOMPARE(rec.outputAccuracy[0].name, std::string("logits"));
        QVERIFY2(rec.outputAccuracy[0].maxRel <= 1e-4, qPrintable(QString::number(rec.outputAccuracy[0].maxRel)));
        QVERIFY(rec.outputAccuracy[0].cosine >= 0.99999);
        // The bundle onnx_test_runner would read, in the run's work folder.
        auto bundle = onnx::readTestDataSet((r->exportDir + "/model/test_data_set_0").toStdString());
        QVERIFY(bundle && bundle->inputs.size() == 1 && bundle->outputs.size() == 1);

        // Stored: `runs list` shows it, `runs show` has the runtime.
        const test::CliResult list = test::runCli({"runs", "list", "--db", storePath()});
        QCOMPARE(list.code, 0);
        QVERIFY2(list.out.contains("onnxruntime") && list.out.contains("digits_cnn"), list.out.constData());
        auto store = store::RunStore::open(storePath());
        QVERIFY(store);
        auto back = (*store)->getRun(rec.id);
        QVERIFY(back);
        QCOMPARE(back->extra.value("runtime").toString(), QString("onnxruntime"));
        QCOMPARE(back->layers.size(), rec.layers.size());

        // The CLI: --trace (Perfetto) from the mapped profile, --json with the runtime.
        const QString trace = m_tmp.path() + "/ort_trace.json";
        const test::CliResult cli = test::runCli({"bench", digitsPath(), "--board", "host", "--runtime", "onnxruntime",
                                                  "--iterations", "3", "--warmup", "1", "--layers", "--db", storePath(),
                                                  "--work-dir", m_tmp.path() + "/work", "--trace", trace, "--json"},
                                                 600000);
        QVERIFY2(cli.code == 0, cli.err.constData());
        const QJsonObject json = QJsonDocument::fromJson(cli.out).object();
        QCOMPARE(json.value("runtime").toString(), QString("onnxruntime"));
        QCOMPARE(json.value("lib").toString(), QString("onnxruntime"));
        QFile tf(trace);
        QVERIFY(tf.open(QIODevice::ReadOnly));
        const QJsonArray events = QJsonDocument::fromJson(tf.readAll()).object().value("traceEvents").toArray();
        int conv = 0;
        for (const QJsonValue& e : events)
            conv += e.toObject().value("name").toString() == "/features/features.0/Conv" ? 1 : 0;
        QCOMPARE(conv, 1);
    }

    // Export vs ONNX Runtime on this machine: both runs in one store, compared.
    void exportVersusOnnxRuntime() {
        auto store = store::RunStore::open(storePath());
        QVERIFY(store);
        store::RunFilter f;
        f.kernelLibrary = "onnxruntime";
        auto ort = (*store)->listRuns(f);
        QVERIFY(ort);
        if (ort->empty()) QSKIP("no ONNX Runtime run stored (hostOnnxRuntime was skipped)");
        jobs::BenchOptions o = options("host");
        o.runtime = "export";
        o.library = "portable";
        o.iterations = 5;
        o.layers = true;
        auto r = jobs::runBenchmark(o);
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QVERIFY2(r->record.status == store::RunStatus::Ok, r->record.message.c_str());
        auto c = (*store)->compareRuns(r->record.id, ort->front().id);
        QVERIFY2(c, c ? "" : c.error().message.c_str());
        QVERIFY(c->medianRatio > 0);
        QVERIFY(!c->layers.empty());
        const test::CliResult cli = test::runCli(
            {"runs", "compare", QString::number(r->record.id), QString::number(ort->front().id), "--db", storePath()});
        QVERIFY2(cli.code == 0, cli.err.constData());
        qInfo("export portable median %.3f ms, ONNX Runtime median %.3f ms (ratio ORT/export %.2f; not a benchmark)",
              c->a.medianNs / 1e6, c->b.medianNs / 1e6, c->medianRatio);
    }

    // --- the K1 half over the real SSH fixture
    void missingRuntimeFolder() {
        if (!m_haveSshd) QSKIP(qPrintable("no sshd fixture: " + m_sshdError));
        const QString work = m_tmp.path() + "/board-missing";
        const QString root = m_tmp.path() + "/no-such-spacemit-ort";
        QVERIFY(writeSshOrtBoard("k1-missing", root, work));
        auto r = jobs::runBenchmark(options("k1-missing"));
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QCOMPARE(r->record.status, store::RunStatus::Failed);
        const QString m = QString::fromStdString(r->record.message);
        QVERIFY2(m.contains(root) && m.contains("does not exist on the board") && m.contains("spacemit-ort.riscv64") &&
                     m.contains("k1-missing.json"),
                 qPrintable(m));
        QVERIFY(folderEmpty(work));
        // The CLI says the same and exits 5.
        const test::CliResult cli =
            test::runCli({"bench", digitsPath(), "--board", "k1-missing", "--runtime", "onnxruntime",
                          "--accept-new-host-key", "--db", "-", "--work-dir", m_tmp.path() + "/work"});
        QCOMPARE(cli.code, 5);
        QVERIFY2(cli.out.contains("FAILED") && cli.out.contains(root.toUtf8()), (cli.out + "\n" + cli.err).constData());

        // A folder without bin/onnxruntime_perf_test.
        const QString empty = m_tmp.path() + "/empty-ort";
        QVERIFY(QDir().mkpath(empty + "/lib"));
        QVERIFY(writeSshOrtBoard("k1-empty", empty, work));
        r = jobs::runBenchmark(options("k1-empty"));
        QVERIFY(r);
        QCOMPARE(r->record.status, store::RunStatus::Failed);
        const QString m2 = QString::fromStdString(r->record.message);
        QVERIFY2(m2.contains(empty + "/bin/onnxruntime_perf_test is missing") &&
                     m2.contains("apt install spacemit-onnxruntime"),
                 qPrintable(m2));
        QVERIFY(folderEmpty(work));
    }

    // A stand-in SpacemiT-ORT: shell scripts that record their command line and environment and
    // print the real tools' output formats, write a profile, subgraphs and .npy dumps.
    void spacemitRunOverSsh() {
        if (!m_haveSshd) QSKIP(qPrintable("no sshd fixture: " + m_sshdError));
        const QString root = m_tmp.path() + "/spacemit-ort";
        const QString work = m_tmp.path() + "/board-k1";
        const QString rec = m_tmp.path() + "/k1-record";
        const QString assets = m_tmp.path() + "/k1-assets";
        QVERIFY(QDir().mkpath(root + "/lib") && QDir().mkpath(rec) && QDir().mkpath(assets));
        QVERIFY(writeFile(assets + "/profile.json", digitsProfile()));
        QVERIFY(writeFile(assets + "/ep_profile.json", "{\"traceEvents\":" + digitsProfile() + "}"));
        // Dumps: the first node's output as the reference computes it, the model output off by 5%.
        const ir::Graph g = importDigits();
        reference::RunOptions ro;
        ro.captureAll = true;
        auto ref = reference::run(g, exporter::exportSampleInputs(g), ro);
        QVERIFY(ref);
        const ir::Value* first = g.nodes().front()->output(0);
        const ir::Tensor& firstRef = ref->values.at(first->name);
        std::vector<float> a(size_t(firstRef.numel())), b(size_t(ref->outputs[0].numel()));
        for (size_t i = 0; i < a.size(); ++i) a[i] = float(firstRef.at(int64_t(i)));
        for (size_t i = 0; i < b.size(); ++i) b[i] = float(ref->outputs[0].at(int64_t(i)) * 1.05 + 0.5);
        auto safe = [](QString s) { return s.replace(QRegularExpression("[^A-Za-z0-9_-]"), "_"); };
        QVERIFY(writeFile(assets + "/" + safe(QString::fromStdString(first->name)) + ".npy",
                          npyBytes(firstRef.shape().dims(), a)));
        QVERIFY(writeFile(assets + "/logits.npy", npyBytes(ref->outputs[0].shape().dims(), b)));

        const QByteArray record = "printf '%s\\n' \"$0\" \"$@\" > " + rec.toUtf8() +
                                  "/$(basename $0).args\n"
                                  "env | grep -E '^(SPACEMIT_EP_|LD_LIBRARY_PATH)' | sort > " +
                                  rec.toUtf8() +
                                  "/$(basename $0).env\n"
                                  "pwd > " +
                                  rec.toUtf8() + "/$(basename $0).pwd\n";
        QByteArray perf = "#!/bin/sh\n" + record +
                          "prefix=''\nwhile [ $# -gt 0 ]; do [ \"$1\" = -p ] && prefix=$2; shift; done\n"
                          "[ -f model/model.onnx ] || { echo 'model/model.onnx missing' >&2; exit 1; }\n"
                          "[ -n \"$prefix\" ] && cp " +
                          assets.toUtf8() +
                          "/profile.json \"${prefix}_2026-12-02_05-00-00.json\"\n"
                          "[ -n \"$SPACEMIT_EP_DEBUG_PROFILE\" ] && cp " +
                          assets.toUtf8() +
                          "/ep_profile.json \"$SPACEMIT_EP_DEBUG_PROFILE\"\n"
                          "[ \"$SPACEMIT_EP_DUMP_SUBGRAPHS\" = 1 ] && cp model/model.onnx spacemit_subgraph_0.onnx && "
                          "cp model/model.onnx spacemit_subgraph_1.onnx\n"
                          "cat <<'EOF'\n" +
                          QByteArray(kPerfTestOutput) + "EOF\n";
        QByteArray runner =
            "#!/bin/sh\n" + record +
            "[ -f model/test_data_set_0/input_0.pb ] && [ -f model/test_data_set_0/output_0.pb ] || exit 1\n"
            "[ \"$SPACEMIT_EP_DUMP_TENSORS\" = 1 ] && mkdir -p dumps && cp " +
            assets.toUtf8() +
            "/*.npy dumps/\n"
            "cat <<'EOF'\n" +
            QByteArray(kTestRunnerPassed) + "EOF\n";
        QVERIFY(writeFile(root + "/bin/onnxruntime_perf_test", perf, true));
        QVERIFY(writeFile(root + "/bin/onnx_test_runner", runner, true));
        QVERIFY(writeSshOrtBoard("k1-standin", root, work));

        jobs::BenchOptions o = options("k1-standin");
        o.iterations = 100;
        o.threads = 2;
        o.layers = true;
        o.accuracyLayers = true; // SPACEMIT_EP_DUMP_TENSORS=1
        o.epOptions = {"SPACEMIT_EP_INTRA_THREAD_AFFINITY=0,1", "DUMP_SUBGRAPHS=1",
                       "SPACEMIT_EP_DEBUG_PROFILE=ep_profile.json"};
        auto r = jobs::runBenchmark(o);
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        const store::RunRecord& run = r->record;
        QVERIFY2(run.status == store::RunStatus::Ok, run.message.c_str());

        // The exact command lines and environment, run in the board's run folder.
        auto lines = [&](const QString& file) {
            QFile f(rec + "/" + file);
            return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts)
                                               : QStringList{};
        };
        QCOMPARE(lines("onnxruntime_perf_test.args"),
                 (QStringList{root + "/bin/onnxruntime_perf_test", "-e", "spacemit", "-r", "100", "-x", "2", "-c", "1",
                              "-S", "1", "-I", "-s", "-p", "ort_profile", "model/model.onnx"}));
        QCOMPARE(lines("onnx_test_runner.args"),
                 (QStringList{root + "/bin/onnx_test_runner", "-e", "spacemit", "model"}));
        const QStringList env{"LD_LIBRARY_PATH=" + root + "/lib",      "SPACEMIT_EP_DEBUG_PROFILE=ep_profile.json",
                              "SPACEMIT_EP_DUMP_SUBGRAPHS=1",          "SPACEMIT_EP_DUMP_TENSORS=1",
                              "SPACEMIT_EP_INTRA_THREAD_AFFINITY=0,1", "SPACEMIT_EP_INTRA_THREAD_NUM=2"};
        QCOMPARE(lines("onnxruntime_perf_test.env"), env);
        QCOMPARE(lines("onnx_test_runner.env"), env);
        QVERIFY(lines("onnxruntime_perf_test.pwd").value(0).startsWith(work + "/"));

        // perf_test's statistics are the run's latency.
        QCOMPARE(run.latency.count, int64_t(100));
        QCOMPARE(run.latency.medianNs, 0.0121003e9);
        QCOMPARE(run.latency.meanNs, 12.3456e6);
        QCOMPARE(run.latency.minNs, 0.0114212e9);
        QCOMPARE(run.latency.p90Ns, 0.0130017e9);
        const QJsonObject l = run.extra.value("ort_latency").toObject();
        QCOMPARE(l.value("p99_ns").toDouble(), 0.0150333e9);
        QCOMPARE(l.value("p999_ns").toDouble(), 0.0155398e9);
        QCOMPARE(l.value("peak_working_set_bytes").toInteger(), qint64(41639936));
        QVERIFY(run.extra.value("test_runner").toObject().value("passed").toBool());
        QCOMPARE(run.extra.value("ep_options").toObject().value("SPACEMIT_EP_INTRA_THREAD_AFFINITY").toString(),
                 QString("0,1"));
        QCOMPARE(run.fingerprint.compilerFlags, std::string("ep=spacemit"));
        // Profile (perf_test's warm-up run left out), EP profile and subgraphs downloaded.
        QCOMPARE(run.layers.size(), size_t(10));
        QCOMPARE(run.layers.front().node, std::string("/features/features.0/Conv"));
        QCOMPARE(run.layers.front().ns, 10000.0);
        QCOMPARE(run.extra.value("subgraph_count").toInt(), 2);
        QCOMPARE(run.extra.value("subgraph_nodes").toInt(),
                 int(2 * g.nodes().size()));                         // each stand-in subgraph is the model
        QCOMPARE(run.extra.value("ep_layers").toArray().size(), 10); // the EP's profile, mapped as ORT's
        QVERIFY(QFileInfo::exists(run.extra.value("ep_profile").toString()));
        // The .npy dumps against the reference: the first layer agrees, the output diverges.
        QCOMPARE(r->layerAccuracy.size(), size_t(2));
        QVERIFY(r->layerAccuracy[0].accuracy.maxRel < 1e-6);
        QCOMPARE(r->firstDivergentLayer, 1);
        QCOMPARE(run.extra.value("first_divergent_layer").toString(), QString::fromStdString(g.nodes().back()->name));
        QCOMPARE(run.outputAccuracy.size(), size_t(1));
        QVERIFY(run.outputAccuracy[0].maxRel > 0.01);
        // Nothing left on the board.
        QVERIFY(folderEmpty(work));
    }

    // A run killed on the board is stored as failed, one cancelled (Ctrl+C, the studio's Cancel)
    // as cancelled; neither leaves its run folder or a process behind.
    void killedOrCancelledMidRun() {
        if (!m_haveSshd) QSKIP(qPrintable("no sshd fixture: " + m_sshdError));
        const QString killed = m_tmp.path() + "/killed-ort", slow = m_tmp.path() + "/slow-ort";
        const QString work = m_tmp.path() + "/board-midrun", started = m_tmp.path() + "/slow-started";
        QVERIFY(QDir().mkpath(killed + "/lib") && QDir().mkpath(slow + "/lib"));
        QVERIFY(writeFile(killed + "/bin/onnxruntime_perf_test",
                          "#!/bin/sh\necho 'Session creation time cost: 0.04 s'\nkill -9 $$\n", true));
        QVERIFY(writeFile(slow + "/bin/onnxruntime_perf_test",
                          "#!/bin/sh\ntouch " + started.toUtf8() + "\nsleep 67\necho 'never printed'\n", true));
        QVERIFY(writeSshOrtBoard("k1-killed", killed, work));
        QVERIFY(writeSshOrtBoard("k1-slow", slow, work));

        auto r = jobs::runBenchmark(options("k1-killed"));
        QVERIFY(r);
        QCOMPARE(r->record.status, store::RunStatus::Failed);
        QVERIFY2(QString::fromStdString(r->record.message).contains("KILL"), r->record.message.c_str());
        QVERIFY(r->record.id > 0); // stored
        QVERIFY(folderEmpty(work));

        std::atomic_bool cancel{false};
        jobs::BenchOptions o = options("k1-slow");
        o.cancel = &cancel;
        std::thread canceller([&] {
            for (int i = 0; i < 600 && !QFileInfo::exists(started); ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
            cancel = true;
        });
        r = jobs::runBenchmark(o);
        canceller.join();
        QVERIFY(QFileInfo::exists(started));
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QCOMPARE(r->record.status, store::RunStatus::Cancelled);
        QVERIFY(folderEmpty(work));
        QProcess pgrep;
        pgrep.start("pgrep", {"-f", "sleep 67"});
        QVERIFY(pgrep.waitForFinished(10000));
        QVERIFY2(pgrep.exitCode() != 0, "the cancelled tool still runs on the board");
    }

    // An EP that rejects the model: the runtime's message is the run's message.
    void modelRejectedByTheEp() {
        if (!m_haveSshd) QSKIP(qPrintable("no sshd fixture: " + m_sshdError));
        const QString root = m_tmp.path() + "/rejecting-ort";
        const QString work = m_tmp.path() + "/board-rejecting";
        QVERIFY(QDir().mkpath(root + "/lib"));
        QVERIFY(writeFile(
            root + "/bin/onnxruntime_perf_test",
            "#!/bin/sh\necho '2026-12-02 05:00:00.000 onnxruntime_perf_test[E:onnxruntime:, "
            "inference_session.cc:2105 Initialize] SpaceMIT EP: op Resize (mode cubic) is not supported' >&2\n"
            "exit 1\n",
            true));
        QVERIFY(writeSshOrtBoard("k1-rejecting", root, work));
        auto r = jobs::runBenchmark(options("k1-rejecting"));
        QVERIFY(r);
        QCOMPARE(r->record.status, store::RunStatus::Failed);
        QVERIFY2(
            QString::fromStdString(r->record.message).contains("SpaceMIT EP: op Resize (mode cubic) is not supported"),
            r->record.message.c_str());
        QVERIFY(folderEmpty(work));

        // A release without onnx_test_runner: the latency stands, the verdict is unknown and says why.
        const QString noRunner = m_tmp.path() + "/no-test-runner-ort";
        QVERIFY(QDir().mkpath(noRunner + "/lib"));
        QVERIFY(writeFile(noRunner + "/bin/onnxruntime_perf_test",
                          "#!/bin/sh\ncat <<'EOF'\n" + QByteArray(kPerfTestOutput) + "EOF\n", true));
        QVERIFY(writeSshOrtBoard("k1-no-runner", noRunner, work));
        r = jobs::runBenchmark(options("k1-no-runner"));
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QVERIFY2(r->record.status == store::RunStatus::Ok, r->record.message.c_str());
        const QJsonObject t = r->record.extra.value("test_runner").toObject();
        QVERIFY(t.value("passed").isNull());
        QVERIFY2(t.value("message").toString().contains("onnx_test_runner"), qPrintable(t.value("message").toString()));
        QVERIFY(folderEmpty(work));
    }
};

QTEST_GUILESS_MAIN(TestOrtRuntime)
#include "tst_ort_runtime.moc"
