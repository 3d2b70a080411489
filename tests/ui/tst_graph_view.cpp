// The graph view: the scene holds one item per IR node and one edge per non-constant tensor
// use, the layout arrives from the worker thread, search finds nodes by name or op, and the
// main window opens the bundled model into both stage views.
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "graph/node_item.h"
#include "mainwindow/mainwindow.h"
#include "session/studio_session.h"
#include "stages/stages_view.h"
#include "support/graph_builder.h"
#include "support/test_paths.h"

#include <QFileInfo>

#include <QLineEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace embark;

namespace {

// Edges the view must draw: every non-constant input read by a node, plus every graph output.
int expectedEdges(const ir::Graph& g) {
    int edges = int(g.outputs().size());
    for (const ir::Node* n : g.nodes())
        for (const ir::Value* v : n->inputs())
            if (v && !v->isConstant()) ++edges;
    return edges;
}

std::shared_ptr<const ir::Graph> residualGraph() {
    test::GraphBuilder b("residual");
    ir::Value* x = b.input("x", ir::Shape{1, 4, 8, 8});
    ir::Value* w = b.weights("w", ir::Shape{4, 4, 3, 3});
    ir::Value* c = b.op(ir::OpKind::Conv, {x, w}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}}, "conv");
    ir::Value* r = b.op(ir::OpKind::Relu, {c}, {}, "relu");
    ir::Value* s = b.op(ir::OpKind::Add, {r, x}, {}, "skip");
    ir::Value* p = b.op(ir::OpKind::GlobalAveragePool, {s}, {}, "pool");
    b.output(p);
    return std::make_shared<const ir::Graph>(b.build());
}

QString digitsModel() { return test::sourceDir() + QStringLiteral("/resources/models/digits_cnn.onnx"); }

} // namespace

class TestGraphView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void sceneHoldsNodesAndEdges() {
        auto graph = residualGraph();
        ui::GraphScene scene;
        QSignalSpy ready(&scene, &ui::GraphScene::layoutReady);
        scene.setGraph(graph);
        QVERIFY(scene.isLayoutPending());
        QVERIFY(ready.wait(10000));
        QVERIFY2(scene.layoutError().isEmpty(), qPrintable(scene.layoutError()));
        QCOMPARE(scene.nodeNames(), (QStringList{"conv", "relu", "skip", "pool"}));
        QCOMPARE(scene.edgeCount(), expectedEdges(*graph));
        QCOMPARE(scene.edgeCount(), 6); // x->conv, conv->relu, relu->skip, x->skip, skip->pool, pool->out
        // Layered: every consumer sits below its producer.
        QVERIFY(scene.nodeItem("relu")->y() > scene.nodeItem("conv")->y());
        QVERIFY(scene.nodeItem("pool")->y() > scene.nodeItem("skip")->y());
    }

    void search_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("found");
        QTest::newRow("by op") << "relu" << QStringList{"relu"};
        QTest::newRow("by op, case-insensitive") << "GLOBALAVERAGE" << QStringList{"pool"};
        QTest::newRow("by name") << "skip" << QStringList{"skip"};
        QTest::newRow("by name and op") << "conv" << QStringList{"conv"};
        QTest::newRow("nothing") << "softmax" << QStringList{};
    }
    void search() {
        QFETCH(QString, text);
        QFETCH(QStringList, found);
        ui::GraphPanel panel;
        QSignalSpy ready(panel.scene(), &ui::GraphScene::layoutReady);
        panel.scene()->setGraph(residualGraph());
        QVERIFY(ready.wait(10000));
        panel.searchField()->setText(text);
        QCOMPARE(panel.findNext(), found);
        if (!found.isEmpty()) QCOMPARE(panel.scene()->selectedNode(), found.first());
    }

    void selectionIsReported() {
        ui::GraphScene scene;
        QSignalSpy ready(&scene, &ui::GraphScene::layoutReady);
        scene.setGraph(residualGraph());
        QVERIFY(ready.wait(10000));
        QSignalSpy selected(&scene, &ui::GraphScene::nodeSelected);
        scene.nodeItem("skip")->setSelected(true);
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.first().first().toString(), QStringLiteral("skip"));
        // Programmatic selection is not echoed back (it would loop through the session).
        selected.clear();
        scene.selectNode("relu");
        QCOMPARE(selected.count(), 0);
        QCOMPARE(scene.selectedNode(), QStringLiteral("relu"));
    }

    void mainWindowOpensBundledModel() {
        ui::MainWindow window;
        QVERIFY(window.openModel(digitsModel(), true));
        ui::StudioSession* session = window.session();
        QVERIFY(session->stageCount() >= 2);
        ui::GraphScene* before = window.stages()->beforePanel()->scene();
        ui::GraphScene* after = window.stages()->afterPanel()->scene();
        QTRY_VERIFY_WITH_TIMEOUT(!before->isLayoutPending() && !after->isLayoutPending(), 10000);
        auto imported = session->stageGraph(0), fused = session->stageGraph(session->lastStage());
        QCOMPARE(before->nodeNames().size(), qsizetype(imported->nodeCount()));
        QCOMPARE(after->nodeNames().size(), qsizetype(fused->nodeCount()));
        QCOMPARE(before->edgeCount(), expectedEdges(*imported));
        QCOMPARE(after->edgeCount(), expectedEdges(*fused));
        QVERIFY(fused->nodeCount() < imported->nodeCount()); // the digits CNN has something to fuse
        QCOMPARE(window.recentFiles().value(0), QFileInfo(digitsModel()).absoluteFilePath());
    }

    void openingABrokenFileFailsCleanly() {
        ui::MainWindow window;
        QVERIFY(!window.openModel(test::sourceDir() + QStringLiteral("/README.md"), true));
        QVERIFY(!window.session()->hasModel());
    }
};

QTEST_MAIN(TestGraphView)
#include "tst_graph_view.moc"
