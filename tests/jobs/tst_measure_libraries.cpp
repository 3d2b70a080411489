// `--lib auto` measured for real on the host (jobs/measure_libraries.h), on a two-layer model
// with three timed runs: every node of the fused graph gets a choice backed by a measurement of
// each candidate (portable, and XNNPACK where the host links it), the numbers land in the
// cache, a second model with the same layers under other names is planned from the cache
// alone (no export is built), and `embark-cli plan --lib auto --json` on it records each
// node's candidates with source "cached". Which library wins is never asserted: that is a
// timing. On sim-k230 (qemu-user) the same model is measured in retired instructions (one run
// under the counting plugin), kept apart from the host's nanoseconds in the cache, and plan
// --json records the unit; the plugin's marks are parsed from a log written here.
#include "export/deployment_plan.h"
#include "jobs/instruction_count.h"
#include "jobs/measure_libraries.h"
#include "jobs/resolve_target.h"
#include "targets/board.h"
#include "targets/toolchain.h"
#include "onnx/writer.h"
#include "support/graph_builder.h"
#include "support/test_paths.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace embark;

namespace {

// x [1,4,12,12] -> conv 3x3 -> relu -> max pool 2x2 -> y; names prefixed.
ir::Graph model(const std::string& p) {
    test::GraphBuilder b(p + "model");
    ir::Value* x = b.input(p + "x", ir::Shape{1, 4, 12, 12});
    ir::Value* w = b.weights(p + "w", ir::Shape{8, 4, 3, 3});
    ir::Value* c = b.op(ir::OpKind::Conv, {x, w}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}}, p + "conv");
    ir::Value* r = b.op(ir::OpKind::Relu, {c}, {}, p + "relu");
    b.output(b.op(ir::OpKind::MaxPool, {r},
                  {{"kernel_shape", std::vector<int64_t>{2, 2}}, {"strides", std::vector<int64_t>{2, 2}}}, p + "pool"));
    return b.build();
}

Expected<exporter::DeploymentTarget> autoOn(const QString& board) {
    jobs::TargetRequest r;
    r.board = board;
    r.library = "auto";
    return jobs::resolveTarget(r);
}

Expected<exporter::DeploymentTarget> autoOnHost() { return autoOn("host"); }

// The cross compiler, qemu-user-static (the board's runner) and the dynamic qemu-riscv64 that
// loads the counting plugin; empty when all are there, else what is missing.
QString simK230Missing() {
    auto board = targets::findBoard("sim-k230");
    if (!board) return "no sim-k230 board";
    auto tc = targets::toolchainFor(*board);
    if (!tc || !targets::checkAvailable(*tc)) return "no riscv64 cross compiler (clang-19 or riscv64 g++)";
    if (!targets::checkRunnerAvailable(*board)) return "no qemu-riscv64-static";
    if (!jobs::instructionCountCommand(*board, "p.so", "log", {"./run_export"})) return "no qemu-riscv64 (qemu-user)";
    return {};
}

// run_export's output of one --layers iteration over `layers` layers.
bench::RunOutput runOutput(int layers) {
    QByteArray text = QByteArray("{\"type\":\"meta\",\"model\":\"m\",\"arch\":\"riscv64\",\"libs\":[\"portable\"],"
                                 "\"arena_bytes\":64,\"layers\":") +
                      QByteArray::number(layers) + ",\"threads\":1,\"warmup\":0,\"iterations\":1}\n" +
                      "{\"type\":\"latency\",\"iteration\":0,\"ns\":1000}\n";
    for (int l = 0; l < layers; ++l)
        text += "{\"type\":\"layer\",\"iteration\":0,\"index\":" + QByteArray::number(l) + ",\"node\":\"n" +
                QByteArray::number(l) + "\",\"lib\":\"portable\",\"ns\":10}\n";
    return bench::parseRunOutput(text);
}

} // namespace

class TestMeasureLibraries : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    jobs::MeasureOptions m_options;

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_options.iterations = 3;
        m_options.warmup = 0;
        m_options.cachePath = m_dir.path() + "/lib-auto.json";
    }

    void measuresEveryNodeOnEveryCandidate() {
        auto target = autoOnHost();
        QVERIFY2(target, target ? "" : target.error().message.c_str());
        m_options.workDir = m_dir.path() + "/work1";
        const ir::Graph g = model("a_");
        Status s = jobs::chooseLibrariesByMeasurement(g, *target, m_options);
        QVERIFY2(s.ok(), s.ok() ? "" : s.error().message.c_str());
        QCOMPARE(target->library, std::string("portable"));
        QVERIFY(target->measured);
        const exporter::MeasuredChoice& m = *target->measured;
        QCOMPARE(m.unit, std::string("ns"));
        QCOMPARE(m.cachedCount, 0);
        const size_t candidates = target->xnnpackAvailable() ? 2 : 1;

        auto plan = exporter::buildDeploymentPlan(g, exporter::planOptions(*target));
        QVERIFY2(plan, plan ? "" : plan.error().message.c_str());
        int measured = 0;
        for (const ir::Node* n : (*plan)->passes.graph.nodes()) {
            QVERIFY2(m.nodes.count(n->name), n->name.c_str());
            const exporter::NodeChoice& nc = m.nodes.at(n->name);
            QCOMPARE(nc.candidates.size(), candidates);
            QVERIFY(!nc.chosen.empty());
            for (const exporter::Candidate& c : nc.candidates) {
                if (c.library == "portable") QVERIFY2(c.supported, c.note.c_str());
                if (!c.supported) continue;
                QCOMPARE(c.source, std::string("measured"));
                QVERIFY(c.cost >= 0);
                ++measured;
            }
            QCOMPARE((*plan)->adaptation.nodes.at(n->name).rule, exporter::AssignmentRule::Measured);
            QCOMPARE((*plan)->adaptation.nodes.at(n->name).library, nc.chosen);
        }
        QCOMPARE(m.measuredCount, measured);
        QVERIFY(measured >= 2);
        QVERIFY(QFileInfo(m_options.cachePath).size() > 0);
    }

    void secondModelComesFromTheCache() {
        auto target = autoOnHost();
        QVERIFY(target);
        m_options.workDir = m_dir.path() + "/work2";
        Status s = jobs::chooseLibrariesByMeasurement(model("b_"), *target, m_options);
        QVERIFY2(s.ok(), s.ok() ? "" : s.error().message.c_str());
        QCOMPARE(target->measured->measuredCount, 0);
        QVERIFY(target->measured->cachedCount >= 2);
        QVERIFY(!QFileInfo::exists(m_options.workDir)); // nothing was exported nor built
        for (const auto& [name, nc] : target->measured->nodes)
            for (const exporter::Candidate& c : nc.candidates)
                if (c.supported) QCOMPARE(c.source, std::string("cached"));
    }

    void marksGiveInstructionsPerLayer() {
        // Meta written, init's own clock reads, then t0, forwardProfiled's start, one read per
        // layer and the end, then the latency line; stderr writes (fd 2) do not delimit.
        const QByteArray log = "mark 0 write 1 100\n"
                               "mark 1 clock 1 150\n"
                               "mark 2 write 2 170\n"
                               "mark 3 clock 1 1000\n"
                               "mark 4 clock 1 1010\n"
                               "mark 5 clock 1 1510\n"
                               "mark 6 clock 1 1710\n"
                               "mark 7 clock 1 1720\n"
                               "mark 8 write 1 1800\n"
                               "mark 9 clock 1 1900\n"
                               "insns 2000\n";
        auto counts = jobs::parseInstructionMarks(log, runOutput(2));
        QVERIFY2(counts, counts ? "" : counts.error().message.c_str());
        QCOMPARE(counts->inference, uint64_t(720));
        QCOMPARE(counts->layers.size(), size_t(2));
        QCOMPARE(counts->layers[0].node, std::string("n0"));
        QCOMPARE(counts->layers[0].instructions, uint64_t(500));
        QCOMPARE(counts->layers[1].node, std::string("n1"));
        QCOMPARE(counts->layers[1].instructions, uint64_t(200));

        auto none = jobs::parseInstructionMarks("insns 2000\n", runOutput(2));
        QVERIFY(!none);
        QVERIFY(QString::fromStdString(none.error().message).contains("marks=on"));
        auto few = jobs::parseInstructionMarks("mark 0 write 1 1\nmark 1 clock 1 2\nmark 2 clock 1 3\n"
                                               "mark 3 write 1 4\n",
                                               runOutput(2));
        QVERIFY(!few);
        QVERIFY(QString::fromStdString(few.error().message).contains("--layers"));
    }

    void simulatorAndClockNeverShareACacheEntry() {
        auto sim = autoOn("sim-k230");
        QVERIFY2(sim, sim ? "" : sim.error().message.c_str());
        QVERIFY(jobs::countsInstructions(sim->board));
        QVERIFY(!jobs::countsInstructions(autoOnHost()->board));
        // The same board id and libraries, run on a real board instead of qemu: another key.
        exporter::DeploymentTarget real = *sim;
        real.board.runner.execPrefix.clear();
        QVERIFY(!jobs::countsInstructions(real.board));
        QVERIFY(jobs::measurementCacheKey(*sim, "portable", "sig") !=
                jobs::measurementCacheKey(real, "portable", "sig"));
        QVERIFY(jobs::measurementCacheKey(*sim, "portable", "sig").contains("|instructions|"));
        QVERIFY(jobs::measurementCacheKey(real, "portable", "sig").contains("|ns|"));
    }

    void measuresInstructionsOnSimK230() {
        if (const QString missing = simK230Missing(); !missing.isEmpty())
            QSKIP(qPrintable("sim-k230 instruction counts need the riscv64 toolchain and qemu-user: " + missing));
        auto target = autoOn("sim-k230");
        QVERIFY2(target, target ? "" : target.error().message.c_str());
        m_options.workDir = m_dir.path() + "/work-sim";
        const ir::Graph g = model("s_");
        Status s = jobs::chooseLibrariesByMeasurement(g, *target, m_options);
        QVERIFY2(s.ok(), s.ok() ? "" : s.error().message.c_str());
        const exporter::MeasuredChoice& m = *target->measured;
        QCOMPARE(m.unit, std::string("instructions"));
        QCOMPARE(m.cachedCount, 0); // the host's entries of the same layers are not this board's
        int measured = 0;
        for (const auto& [name, nc] : m.nodes)
            for (const exporter::Candidate& c : nc.candidates) {
                if (c.library == "portable") QVERIFY2(c.supported, c.note.c_str());
                if (!c.supported) continue;
                QCOMPARE(c.source, std::string("measured"));
                // Retired instructions: a whole, positive count (a conv of 8x4x3x3 over 12x12
                // takes thousands of them).
                QVERIFY2(c.cost > 1000, (name + " " + c.library + " " + std::to_string(c.cost)).c_str());
                QCOMPARE(c.cost, std::floor(c.cost));
                ++measured;
            }
        QVERIFY(measured >= 2);
        QCOMPARE(m.measuredCount, measured);

        // plan --json from the cache alone: every node says "instructions".
        const QString path = m_dir.path() + "/s.onnx";
        Status w = onnx::writeModel(model("t_"), path.toStdString());
        QVERIFY2(w.ok(), w.ok() ? "" : w.error().message.c_str());
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("EMBARK_LIB_AUTO_CACHE", m_options.cachePath);
        p.setProcessEnvironment(env);
        p.start(test::cliPath(), {"plan", path, "--board", "sim-k230", "--lib", "auto", "--json"});
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const QJsonObject json = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        QCOMPARE(json["auto"].toObject()["unit"].toString(), QStringLiteral("instructions"));
        QCOMPARE(json["auto"].toObject()["measured"].toInt(), 0);
        int nodes = 0;
        for (const QJsonValue& v : json["nodes"].toArray()) {
            const QJsonObject node = v.toObject();
            if (node["rule"].toString() == QLatin1String("layout conversion")) continue;
            QCOMPARE(node["measurement"].toObject()["unit"].toString(), QStringLiteral("instructions"));
            ++nodes;
        }
        QVERIFY(nodes >= 2);
    }

    void planJsonRecordsTheMeasurements() {
        const QString path = m_dir.path() + "/c.onnx";
        Status w = onnx::writeModel(model("c_"), path.toStdString());
        QVERIFY2(w.ok(), w.ok() ? "" : w.error().message.c_str());
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("EMBARK_LIB_AUTO_CACHE", m_options.cachePath);
        p.setProcessEnvironment(env);
        p.start(test::cliPath(), {"plan", path, "--board", "host", "--lib", "auto", "--json"});
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const QJsonObject json = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        QCOMPARE(json["library"].toString(), QStringLiteral("auto"));
        QCOMPARE(json["auto"].toObject()["measured"].toInt(), 0);
        int nodes = 0;
        for (const QJsonValue& v : json["nodes"].toArray()) {
            const QJsonObject node = v.toObject();
            if (node["rule"].toString() == QLatin1String("layout conversion")) continue;
            QCOMPARE(node["rule"].toString(), QStringLiteral("measured (auto)"));
            const QJsonObject m = node["measurement"].toObject();
            QCOMPARE(m["chosen"].toString(), node["lib"].toString());
            QCOMPARE(m["unit"].toString(), QStringLiteral("ns"));
            for (const QJsonValue& c : m["candidates"].toArray())
                if (c.toObject()["supported"].toBool())
                    QCOMPARE(c.toObject()["source"].toString(), QStringLiteral("cached"));
            ++nodes;
        }
        QVERIFY(nodes >= 2);
    }
};

QTEST_GUILESS_MAIN(TestMeasureLibraries)
#include "tst_measure_libraries.moc"
