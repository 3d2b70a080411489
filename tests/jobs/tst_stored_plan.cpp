// The plan a benchmark stores with its run (issue 19): every node of the adapted graph with
// its library and layout. digits_cnn planned with the portable library and with XNNPACK (no
// build, no board): the stored plans draw as graphs and their diff finds nodes re-assigned to
// XNNPACK and the layout conversions XNNPACK's NHWC kernels need.
#include "export/exporter.h"
#include "jobs/stored_plan.h"
#include "onnx/importer.h"
#include "support/test_paths.h"

#include <QTest>

using namespace embark;

class TestStoredPlan : public QObject {
    Q_OBJECT

private slots:
    void portableAgainstXnnpack() {
        auto model =
            onnx::importModel((test::sourceDir() + QStringLiteral("/resources/models/digits_cnn.onnx")).toStdString());
        QVERIFY2(model, model ? "" : model.error().message.c_str());
        std::vector<store::PlanNode> plans[2];
        const char* libs[2] = {"portable", "xnnpack"};
        for (int i = 0; i < 2; ++i) {
            exporter::PlanOptions po;
            po.library = libs[i];
            po.arch = exporter::hostArch();
            auto dp = exporter::buildDeploymentPlan(*model, po);
            QVERIFY2(dp, dp ? "" : dp.error().message.c_str());
            plans[i] = jobs::storedPlan(**dp);
            QCOMPARE(plans[i].size(), (*dp)->adaptation.graph.nodeCount());
            for (const store::PlanNode& n : plans[i]) {
                QVERIFY2(!n.library.empty() && (n.layout == "NCHW" || n.layout == "NHWC" || n.layout == "any"),
                         n.name.c_str());
                QCOMPARE(n.shapes.size(), n.outputs.size());
            }
            auto back = store::planFromJson(store::planToJson(plans[i]));
            QVERIFY(back && back->size() == plans[i].size());
            auto g = store::planGraph(plans[i]);
            QVERIFY2(g, g ? "" : g.error().message.c_str());
            QCOMPARE((*g)->nodeCount(), plans[i].size());
            QCOMPARE((*g)->inputs().size(), model->inputs().size());
        }
        const store::PlanDiff d = store::diffPlans(plans[0], plans[1]);
        qInfo("digits_cnn portable -> xnnpack: %d re-assigned, %d/%d fused differently, %d added, %d removed",
              d.reassigned, d.fusedA, d.fusedB, d.added, d.removed);
        QVERIFY(d.reassigned > 0);
        for (const store::PlanNodeChange& c : d.b)
            if (c.change == store::PlanChange::Reassigned) QVERIFY(c.libraryA != c.libraryB || c.layoutA != c.layoutB);
        QVERIFY(store::diffPlans(plans[0], plans[0]).identical());
    }
};

QTEST_GUILESS_MAIN(TestStoredPlan)
#include "tst_stored_plan.moc"
