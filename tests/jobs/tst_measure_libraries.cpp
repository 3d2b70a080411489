// `--lib auto` measured for real on the host (jobs/measure_libraries.h), on a two-layer model
// with three timed runs: every node of the fused graph gets a choice backed by a measurement of
// each candidate (portable, and XNNPACK where the host links it), the numbers land in the
// cache, a second model with the same layers under other names is planned from the cache
// alone (no export is built), and `embark-cli plan --lib auto --json` on it records each
// node's candidates with source "cached". Which library wins is never asserted: that is a
// timing.
#include "export/deployment_plan.h"
#include "jobs/measure_libraries.h"
#include "jobs/resolve_target.h"
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

Expected<exporter::DeploymentTarget> autoOnHost() {
    jobs::TargetRequest r;
    r.board = "host";
    r.library = "auto";
    return jobs::resolveTarget(r);
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
