// Before/after fusion: switching stages changes the graph shown, and selecting a fused node
// lights up its original nodes in the "before" view (and back) through provenance.
#include "graph/graph_folding.h"
#include "graph/properties_panel.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "graph/node_item.h"
#include "session/studio_session.h"
#include "stages/stages_view.h"
#include "support/graph_builder.h"
#include "support/test_paths.h"

#include "onnx/writer.h"

#include <QComboBox>
#include <QJsonArray>
#include <QJsonObject>
#include <QStandardItemModel>
#include <QLabel>
#include <QMenu>
#include <QLineEdit>
#include <QListWidget>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <set>

using namespace embark;

namespace {

QStringList linkedIn(ui::GraphScene* scene) {
    QStringList names;
    for (const QString& n : scene->nodeNames())
        if (scene->nodeItem(n)->isLinked()) names << n;
    return names;
}

// A model whose node names nest two module levels deep, as torch.onnx names them:
// /layer1/0/{a,b}, /layer1/1/{a,b}, /layer2/0/{a,b}, then /fc.
QString writeNestedModel(const QString& folder) {
    test::GraphBuilder b("nested");
    ir::Value* x = b.input("x", ir::Shape{1, 8});
    const std::pair<const char*, ir::OpKind> nodes[] = {
        {"/layer1/0/a", ir::OpKind::Relu}, {"/layer1/0/b", ir::OpKind::Sigmoid},
        {"/layer1/1/a", ir::OpKind::Relu}, {"/layer1/1/b", ir::OpKind::Sigmoid},
        {"/layer2/0/a", ir::OpKind::Relu}, {"/layer2/0/b", ir::OpKind::Tanh},
        {"/fc", ir::OpKind::Relu}};
    for (const auto& [name, op] : nodes) x = b.op(op, {x}, {}, name);
    b.output(x);
    const QString path = folder + QStringLiteral("/nested.onnx");
    const Status written = onnx::writeModel(b.build(), path.toStdString());
    if (!written.ok()) qFatal("cannot write the nested model: %s", written.error().message.c_str());
    return path;
}

QPoint nodeCentre(ui::GraphPanel* panel, const QString& node) {
    return panel->view()->mapFromScene(panel->scene()->nodeItem(node)->sceneBoundingRect().center());
}

QStringList actionTexts(const QMenu& menu) {
    QStringList texts;
    for (QAction* a : menu.actions()) {
        texts << a->text();
        if (a->menu())
            for (QAction* sub : a->menu()->actions()) texts << a->text() + QStringLiteral(" > ") + sub->text();
    }
    return texts;
}

QAction* actionNamed(const QMenu& menu, const QString& text) {
    for (QAction* a : menu.actions()) {
        if (a->text() == text) return a;
        if (a->menu())
            for (QAction* sub : a->menu()->actions())
                if (sub->text() == text) return sub;
    }
    return nullptr;
}

} // namespace

class TestStages : public QObject {
    Q_OBJECT
private:
    ui::StudioSession* m_session = nullptr;
    ui::StagesView* m_view = nullptr;

    void waitForLayouts() {
        QTRY_VERIFY_WITH_TIMEOUT(!m_view->beforePanel()->scene()->isLayoutPending() &&
                                     !m_view->afterPanel()->scene()->isLayoutPending(),
                                 10000);
    }
    // The fused node standing for the most original nodes.
    const ir::Node* mostFused() const {
        const ir::Node* best = nullptr;
        for (const ir::Node* n : m_session->stageGraph(m_session->lastStage())->nodes())
            if (!best || n->provenance.size() > best->provenance.size()) best = n;
        return best;
    }

private slots:
    void init() {
        QStandardPaths::setTestModeEnabled(true);
        m_session = new ui::StudioSession;
        m_view = new ui::StagesView(m_session);
        const Status opened =
            m_session->openModel(test::sourceDir() + QStringLiteral("/resources/models/digits_cnn.onnx"));
        QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
        waitForLayouts();
    }
    void cleanup() {
        delete m_view;
        delete m_session;
    }

    void defaultsToImportedAndFused() {
        QCOMPARE(m_view->beforeStage()->currentIndex(), 0);
        QCOMPARE(m_view->afterStage()->currentIndex(), m_session->lastStage());
        QCOMPARE(m_view->beforePanel()->scene()->graph(), m_session->stageGraph(0).get());
        QVERIFY(m_view->rewriteLog()->count() > 0);
    }

    void switchingStageShowsItsGraph() {
        for (int stage = 0; stage < m_session->stageCount(); ++stage) {
            m_view->afterStage()->setCurrentIndex(stage);
            waitForLayouts();
            QCOMPARE(m_view->afterPanel()->scene()->graph(), m_session->stageGraph(stage).get());
            QCOMPARE(m_view->afterPanel()->scene()->nodeNames().size(),
                     qsizetype(m_session->stageGraph(stage)->nodeCount()));
            const QStringList log = m_session->stageLog(stage);
            if (!log.isEmpty()) QCOMPARE(m_view->rewriteLog()->item(0)->text(), log.first());
        }
    }

    void fusedNodeLightsUpItsOrigins() {
        const ir::Node* fused = mostFused();
        QVERIFY2(fused->provenance.size() >= 2, "the digits model should fuse at least two nodes into one");
        const QString name = QString::fromStdString(fused->name);
        m_view->afterPanel()->scene()->nodeItem(name)->setSelected(true); // as a click would
        QCOMPARE(m_session->selectedStage(), m_session->lastStage());
        QCOMPARE(m_session->selectedNode(), name);
        QStringList origins;
        for (const std::string& p : fused->provenance)
            if (m_session->stageGraph(0)->findNode(p)) origins << QString::fromStdString(p);
        QCOMPARE(linkedIn(m_view->beforePanel()->scene()), origins);
        QVERIFY(linkedIn(m_view->afterPanel()->scene()).isEmpty());
    }

    void originalNodeLightsUpItsFusedNode() {
        const ir::Node* fused = mostFused();
        const QString original = QString::fromStdString(fused->provenance.back());
        m_view->beforePanel()->scene()->nodeItem(original)->setSelected(true);
        QCOMPARE(m_session->selectedStage(), 0);
        QCOMPARE(linkedIn(m_view->afterPanel()->scene()), QStringList{QString::fromStdString(fused->name)});
        QVERIFY(m_view->afterPanel()->scene()->selectedNode().isEmpty());
        // Clearing the selection clears the highlight.
        m_view->beforePanel()->scene()->clearSelection();
        QVERIFY(linkedIn(m_view->afterPanel()->scene()).isEmpty());
    }

    // Issue #19 defect 1: find + Enter in "before", then open another model crashed, because
    // clearing the scene emitted selectionChanged while its items were being deleted and the
    // stages view then touched the deleted items. Every selection change a scene reports must
    // only see node items that are still in the scene.
    void openingAnotherModelAfterSearchKeepsNoDeletedItem() {
        bool dangling = false;
        int reports = 0;
        for (ui::GraphPanel* panel : {m_view->beforePanel(), m_view->afterPanel()}) {
            ui::GraphScene* scene = panel->scene();
            connect(scene, &QGraphicsScene::selectionChanged, m_view, [scene, &dangling, &reports] {
                ++reports;
                const QList<QGraphicsItem*> live = scene->items();
                for (const QString& n : scene->nodeNames())
                    if (!live.contains(scene->nodeItem(n))) dangling = true;
            });
        }
        QLineEdit* find = m_view->beforePanel()->searchField();
        find->setText(QStringLiteral("conv"));
        QTest::keyClick(find, Qt::Key_Return);
        QVERIFY(!m_view->beforePanel()->scene()->selectedNode().isEmpty());
        QCOMPARE(m_session->selectedStage(), 0);
        QVERIFY(!linkedIn(m_view->afterPanel()->scene()).isEmpty());
        reports = 0;
        const Status opened =
            m_session->openModel(test::sourceDir() + QStringLiteral("/resources/models/digits_cnn.onnx"));
        QVERIFY(opened.ok());
        waitForLayouts();
        QVERIFY2(!dangling, "a selection change saw a node item that had been deleted");
        // The old items went quietly: nothing echoed a half-cleared selection to the session.
        QCOMPARE(m_session->selectedStage(), -1);
        QVERIFY(linkedIn(m_view->afterPanel()->scene()).isEmpty());
        // Search still works on the new graph.
        QTest::keyClick(find, Qt::Key_Return);
        QVERIFY(!m_view->beforePanel()->scene()->selectedNode().isEmpty());
    }

    // Issue #19 defect 9: the panes say what their colours mean, and a fused node names what it
    // absorbed (a third line, a tooltip).
    void fusedNodesAndLegends() {
        ui::GraphScene* before = m_view->beforePanel()->scene();
        ui::GraphScene* after = m_view->afterPanel()->scene();
        QCOMPARE(before->legend().title, QStringLiteral("Colour: op category"));
        QVERIFY(!after->legend().title.isEmpty());
        if (!m_session->assignments().empty())
            QCOMPARE(after->legend().title, QStringLiteral("Colour: kernel library"));
        const ir::Node* fused = mostFused();
        const QString name = QString::fromStdString(fused->name);
        QStringList ops;
        for (const std::string& p : fused->provenance)
            if (const ir::Node* o = m_session->stageGraph(0)->findNode(p);
                o && o->name != fused->name && o->op != ir::OpKind::Identity && o->op != ir::OpKind::Dropout)
                ops << QString::fromLatin1(ir::opName(o->op).data(), qsizetype(ir::opName(o->op).size()));
        QVERIFY(!ops.isEmpty());
        const QStringList absorbed = after->absorbedOps(name);
        QVERIFY(absorbed.size() <= qsizetype(fused->provenance.size() - 1));
        QVERIFY(!absorbed.contains(QStringLiteral("Identity"))); // no-ops removed on the way are not listed
        for (const QString& op : ops) QVERIFY2(absorbed.contains(op), qPrintable(absorbed.join(", ")));
        ui::NodeItem* item = after->nodeItem(name);
        QVERIFY(item->badge().startsWith(QStringLiteral("+ ")));
        QVERIFY(item->toolTip().contains(QStringLiteral("fused")));
        // Unfused nodes carry no badge; the "before" graph has none.
        for (const QString& n : before->nodeNames()) QVERIFY(before->nodeItem(n)->badge().isEmpty());
    }

    // Issue #19 defect 17: a rewrite in the list highlights its nodes in both panes.
    void clickingARewriteSelectsItsNodes() {
        const QStringList log = m_session->stageLog(m_session->lastStage());
        int row = -1;
        for (int i = 0; i < log.size() && row < 0; ++i)
            if (log.at(i).startsWith(QStringLiteral("fused"))) row = i;
        QVERIFY2(row >= 0, qPrintable(log.join("\n")));
        QListWidgetItem* item = m_view->rewriteLog()->item(row);
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view));
        m_view->rewriteLog()->scrollToItem(item);
        QTest::mouseClick(m_view->rewriteLog()->viewport(), Qt::LeftButton, {},
                          m_view->rewriteLog()->visualItemRect(item).center());
        const QStringList inBefore = linkedIn(m_view->beforePanel()->scene());
        const QStringList inAfter = linkedIn(m_view->afterPanel()->scene());
        QVERIFY2(inBefore.size() >= 2, qPrintable(log.at(row) + " -> " + inBefore.join(", ")));
        QCOMPARE(inAfter.size(), 1);
        for (const QString& n : inBefore)
            QVERIFY2(m_session->linkedNodes(0, n, m_session->lastStage()).contains(inAfter.first()), qPrintable(n));
        // Both panes frame them.
        for (ui::GraphPanel* panel : {m_view->beforePanel(), m_view->afterPanel()}) {
            const QStringList nodes = panel == m_view->beforePanel() ? inBefore : inAfter;
            QVERIFY(panel->view()->visibleSceneRect().intersects(panel->scene()->nodesRect(nodes)));
        }
    }

    // Issue #19 defect 17: a chart bar names a node of the fused stage; both panes centre it.
    void revealNodeCentresBothPanes() {
        m_view->resize(1400, 900);
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view));
        const ir::Node* fused = mostFused();
        const QString name = QString::fromStdString(fused->name);
        for (ui::GraphPanel* panel : {m_view->beforePanel(), m_view->afterPanel()}) {
            panel->view()->setZoom(2.0);
            panel->view()->centerOnScenePoint(panel->scene()->sceneRect().bottomRight());
        }
        QVERIFY(!m_view->afterPanel()->view()->visibleSceneRect().contains(
            m_view->afterPanel()->scene()->nodesRect({name})));
        m_view->revealNode(name);
        QCOMPARE(m_session->selectedNode(), name);
        QCOMPARE(m_view->afterPanel()->scene()->selectedNode(), name);
        QVERIFY(m_view->afterPanel()->view()->visibleSceneRect().contains(
            m_view->afterPanel()->scene()->nodesRect({name})));
        const QStringList origins = linkedIn(m_view->beforePanel()->scene());
        QVERIFY(!origins.isEmpty());
        QVERIFY(m_view->beforePanel()->view()->visibleSceneRect().intersects(
            m_view->beforePanel()->scene()->nodesRect(origins)));
        // The same through the session alone (what a chart click does): the selected
        // pane scrolls too when the node is off screen.
        m_view->afterPanel()->view()->centerOnScenePoint(m_view->afterPanel()->scene()->sceneRect().bottomRight());
        m_session->select(m_session->lastStage(), {});
        m_session->select(m_session->lastStage(), name);
        QVERIFY(m_view->afterPanel()->view()->visibleSceneRect().contains(
            m_view->afterPanel()->scene()->nodesRect({name})));
    }

    // Per-layer figures: the fused stage's figures colour both panes; an original node gets the
    // figure of the fused node it became.
    void nodeMetricReachesBothPanes() {
        const ir::Node* fused = mostFused();
        const QString name = QString::fromStdString(fused->name);
        QHash<QString, double> figures;
        double v = 1;
        for (const ir::Node* n : m_session->stageGraph(m_session->lastStage())->nodes())
            figures.insert(QString::fromStdString(n->name), v++);
        m_view->setNodeMetric(figures, QStringLiteral("time (ms)"));
        ui::GraphScene* before = m_view->beforePanel()->scene();
        ui::GraphScene* after = m_view->afterPanel()->scene();
        QCOMPARE(after->nodeMetric(name), std::optional<double>(figures.value(name)));
        for (const std::string& p : fused->provenance)
            if (before->nodeItem(QString::fromStdString(p)))
                QCOMPARE(before->nodeMetric(QString::fromStdString(p)), std::optional<double>(figures.value(name)));
        QCOMPARE(before->legend().title, QStringLiteral("Colour: time (ms)"));
        QCOMPARE(after->legend().title, QStringLiteral("Colour: time (ms)"));
        m_view->setNodeMetric({}, {});
        QCOMPARE(before->legend().title, QStringLiteral("Colour: op category"));
    }

    // Graph diff: what the "after" stage changed, marked in both panes and checked against the
    // session's own links (the ones the linked selection uses).
    void diffMarksFusedRemovedAndAddedNodes() {
        using C = ui::StagesView::Colouring;
        using Ch = ui::StagesView::Change;
        m_view->setColouring(C::Diff);
        QCOMPARE(m_view->colouring(), C::Diff);
        waitForLayouts();
        const int last = m_session->lastStage();
        const QHash<QString, Ch> before = m_view->changes(m_view->beforePanel());
        const QHash<QString, Ch> after = m_view->changes(m_view->afterPanel());
        QCOMPARE(before.size(), qsizetype(m_session->stageGraph(0)->nodeCount()));
        QCOMPARE(after.size(), qsizetype(m_session->stageGraph(last)->nodeCount()));
        for (auto it = before.constBegin(); it != before.constEnd(); ++it) {
            const QStringList to = m_session->linkedNodes(0, it.key(), last);
            QCOMPARE(it.value() == Ch::Removed, to.isEmpty());
            QVERIFY(it.value() != Ch::Added);
        }
        for (auto it = after.constBegin(); it != after.constEnd(); ++it) {
            const QStringList from = m_session->linkedNodes(last, it.key(), 0);
            QCOMPARE(it.value() == Ch::Added, from.isEmpty());
            QCOMPARE(it.value() == Ch::Fused, from.size() > 1);
            QVERIFY(it.value() != Ch::Removed);
        }
        // The most fused node and its original nodes are marked fused, in the scenes too.
        const ir::Node* fused = mostFused();
        QVERIFY(fused->provenance.size() >= 2);
        QCOMPARE(after.value(QString::fromStdString(fused->name)), Ch::Fused);
        QCOMPARE(m_view->afterPanel()->scene()->nodeClass(QString::fromStdString(fused->name)), int(Ch::Fused));
        for (const std::string& p : fused->provenance) {
            if (!before.contains(QString::fromStdString(p))) continue;
            QCOMPARE(before.value(QString::fromStdString(p)), Ch::Fused);
            QCOMPARE(m_view->beforePanel()->scene()->nodeClass(QString::fromStdString(p)), int(Ch::Fused));
        }
        // A legend with counts that add up to the nodes shown.
        const ui::GraphLegend& legend = m_view->afterPanel()->scene()->legend();
        QVERIFY2(legend.title.contains(QStringLiteral("Changes")), qPrintable(legend.title));
        int counted = 0;
        QStringList labels;
        for (const ui::GraphLegend::Entry& e : legend.entries) {
            counted += e.count;
            labels << e.label;
        }
        QCOMPARE(counted, int(m_session->stageGraph(last)->nodeCount()));
        QVERIFY2(labels.contains(QStringLiteral("fused into a block")), qPrintable(labels.join(',')));
        QVERIFY(m_view->beforePanel()->legendLabel()->text().contains(QStringLiteral("fused into a block")));
        // The same stage on both sides: nothing changed.
        m_view->afterStage()->setCurrentIndex(0);
        waitForLayouts();
        for (Ch c : m_view->changes(m_view->afterPanel())) QCOMPARE(c, Ch::Unchanged);
        for (Ch c : m_view->changes(m_view->beforePanel())) QCOMPARE(c, Ch::Unchanged);
        // Back to the default colours.
        m_view->setColouring(C::Default);
        QCOMPARE(m_view->afterPanel()->scene()->nodeClass(QString::fromStdString(fused->name)), -1);
        QCOMPARE(m_view->afterPanel()->scene()->legend().title, QStringLiteral("Colour: op category"));
    }

    // Issue 17: an ONNX Runtime run's partitions (the EP's subgraph models name the nodes it
    // compiled; the rest fell back to the CPU provider) colour both panes, with a legend giving
    // the number of subgraphs and fallback nodes.
    void partitionsColourBothPanes() {
        using C = ui::StagesView::Colouring;
        auto* model = qobject_cast<QStandardItemModel*>(m_view->colouringBox()->model());
        const int item = m_view->colouringBox()->findData(int(C::Partition));
        QVERIFY(item >= 0 && model);
        QVERIFY(!model->item(item)->isEnabled()); // no run with partitions yet
        QStringList names;
        for (const ir::Node* n : m_session->stageGraph(0)->nodes()) names << QString::fromStdString(n->name);
        QVERIFY(names.size() >= 8);
        const QJsonObject extra{
            {"runtime", "onnxruntime"},
            {"ep", "spacemit"},
            {"ep_options", QJsonObject{{"SPACEMIT_EP_DUMP_SUBGRAPHS", "1"}}},
            {"subgraphs",
             QJsonArray{QJsonObject{{"file", "sub0.onnx"}, {"nodes", QJsonArray::fromStringList(names.mid(0, 3))}},
                        QJsonObject{{"file", "sub1.onnx"}, {"nodes", QJsonArray::fromStringList(names.mid(3, 2))}}}},
            {"subgraph_count", 2}};
        const ui::RunPartitions partitions = ui::partitionsFromExtra(extra);
        QVERIFY(partitions.valid);
        QCOMPARE(partitions.subgraphCount(), 2);
        m_view->setPartitions(partitions);
        QVERIFY(model->item(item)->isEnabled());
        m_view->setColouring(C::Partition);
        QCOMPARE(m_view->colouring(), C::Partition);
        waitForLayouts();
        ui::GraphScene* before = m_view->beforePanel()->scene();
        QCOMPARE(before->nodeClass(names[0]), 0);
        QCOMPARE(before->nodeClass(names[4]), 1);
        QCOMPARE(before->nodeClass(names[6]), 4); // subgraphs 0, 1, split, not in the model, CPU
        QCOMPARE(m_view->partitionOf(0, names[6]), int(ui::kCpuFallback));
        const int fallback = int(names.size()) - 5;
        const QString title = before->legend().title;
        QVERIFY2(title.contains(QStringLiteral("EP subgraphs: 2,")) &&
                     title.contains(QStringLiteral("fell back to the CPU provider: %1)").arg(fallback)),
                 qPrintable(title));
        int cpu = 0, sub0 = 0;
        for (const ui::GraphLegend::Entry& e : before->legend().entries) {
            if (e.label == QStringLiteral("CPU provider (fallback)")) cpu = e.count;
            if (e.label == QStringLiteral("EP subgraph 1 (spacemit)")) sub0 = e.count;
        }
        QCOMPARE(cpu, fallback);
        QCOMPARE(sub0, 3);
        QVERIFY(m_view->beforePanel()->legendLabel()->text().contains(QStringLiteral("EP subgraph 2 (spacemit)")));
        // The fused stage: a node gets its original nodes' partition, or "split" when they differ.
        const int last = m_session->lastStage();
        const QSet<QString> modelNodes = ui::nodeNames(*m_session->stageGraph(0));
        int checked = 0;
        for (const ir::Node* n : m_session->stageGraph(last)->nodes()) {
            const QString name = QString::fromStdString(n->name);
            std::set<int> where;
            for (const std::string& o : n->provenance)
                if (modelNodes.contains(QString::fromStdString(o)))
                    where.insert(partitions.subgraphOf.value(QString::fromStdString(o), -1));
            if (n->provenance.empty() && modelNodes.contains(name)) where.insert(partitions.subgraphOf.value(name, -1));
            const int expected = where.empty()      ? int(ui::kNotInModel)
                                 : where.size() > 1 ? int(ui::kSplitPartitions)
                                                    : *where.begin();
            QCOMPARE(m_view->partitionOf(last, name), expected);
            const int cls = expected >= 0                      ? expected
                            : expected == ui::kSplitPartitions ? 2
                            : expected == ui::kNotInModel      ? 3
                                                               : 4;
            QCOMPARE(m_view->afterPanel()->scene()->nodeClass(name), cls);
            ++checked;
        }
        QVERIFY(checked > 0);
        // No partitions: the kind is disabled and the colours go back to the default.
        m_view->setPartitions({});
        QCOMPARE(m_view->colouring(), C::Default);
        QVERIFY(!model->item(item)->isEnabled());
        QCOMPARE(before->legend().title, QStringLiteral("Colour: op category"));
        // A run without SPACEMIT_EP_DUMP_SUBGRAPHS (a host run) has no partitions.
        QVERIFY(!ui::partitionsFromExtra(
                     QJsonObject{{"runtime", "onnxruntime"}, {"ep", "cpu"}, {"subgraphs", QJsonArray{}}})
                     .valid);
        // One that asked for them and got none ran everything on the CPU provider.
        const ui::RunPartitions none = ui::partitionsFromExtra(
            QJsonObject{{"ep_options", QJsonObject{{"SPACEMIT_EP_DUMP_SUBGRAPHS", "1"}}}, {"subgraphs", QJsonArray{}}});
        QVERIFY(none.valid);
        QCOMPARE(ui::fallbackNodeCount(none, modelNodes), int(modelNodes.size()));
    }

    // Folding by module prefix: "/features" (8 of digits_cnn's nodes) becomes one box in the
    // "after" pane; selection, figures and the diff reach the box; expanding restores the nodes.
    void foldingByModulePrefix() {
        QCOMPARE(ui::modulePrefixes(QStringLiteral("/features/denseblock3/denselayer1/conv1/Conv")),
                 (QStringList{QStringLiteral("/features"), QStringLiteral("/features/denseblock3"),
                              QStringLiteral("/features/denseblock3/denselayer1"),
                              QStringLiteral("/features/denseblock3/denselayer1/conv1")}));
        QVERIFY(ui::modulePrefixes(QStringLiteral("logits")).isEmpty());
        ui::GraphPanel* after = m_view->afterPanel();
        ui::GraphScene* scene = after->scene();
        const int last = m_session->lastStage();
        const QStringList all = scene->nodeNames();
        QStringList under;
        for (const QString& n : all)
            if (n.startsWith(QStringLiteral("/features/"))) under << n;
        QVERIFY2(under.size() >= 2, qPrintable(all.join(',')));
        // The node menu offers each module the node is in (the pane asking is the "after" one
        // by default).
        QMenu menu;
        m_view->addFoldActions(&menu, under.first());
        QStringList texts;
        for (QAction* a : menu.actions()) texts << a->text();
        QVERIFY2(texts.contains(QStringLiteral("Fold '/features'")), qPrintable(texts.join('|')));
        for (QAction* a : menu.actions())
            if (a->text() == QStringLiteral("Fold '/features'")) a->trigger();
        waitForLayouts();
        QCOMPARE(m_view->foldedModules(after), QStringList{QStringLiteral("/features")});
        QVERIFY(scene->nodeItem(QStringLiteral("/features")));
        QCOMPARE(scene->nodeNames().size(), all.size() - under.size() + 1);
        for (const QString& n : under) QVERIFY(!scene->nodeItem(n));
        QVERIFY(scene->edgeCount() > 0);
        // Selecting an original node inside the module links the box in the other pane.
        const QString original = QString::fromStdString(m_session->stageGraph(0)->nodes().front()->name);
        QVERIFY(original.startsWith(QStringLiteral("/features/")));
        m_session->select(0, original);
        QCOMPARE(linkedIn(scene), QStringList{QStringLiteral("/features")});
        // Clicking the box selects its first node (Properties and the other pane follow).
        scene->selectNode({});
        emit scene->nodeSelected(QStringLiteral("/features"));
        QCOMPARE(m_session->selectedStage(), last);
        QVERIFY(m_session->selectedNode().startsWith(QStringLiteral("/features/")));
        QCOMPARE(scene->selectedNode(), QStringLiteral("/features"));
        // Per-layer time: the box carries its nodes' total.
        QHash<QString, double> figures;
        double total = 0;
        for (const ir::Node* n : m_session->stageGraph(last)->nodes()) {
            figures.insert(QString::fromStdString(n->name), 2.0);
            if (QString::fromStdString(n->name).startsWith(QStringLiteral("/features/"))) total += 2.0;
        }
        m_view->setNodeMetric(figures, QStringLiteral("time (ms)"));
        QCOMPARE(scene->nodeMetric(QStringLiteral("/features")), std::optional<double>(total));
        m_view->setNodeMetric({}, {});
        // The diff marks the box with its nodes' change (fused: digits_cnn's Conv+Relu).
        m_view->setColouring(ui::StagesView::Colouring::Diff);
        QCOMPARE(scene->nodeClass(QStringLiteral("/features")), int(ui::StagesView::Change::Fused));
        m_view->setColouring(ui::StagesView::Colouring::Default);
        // The default colouring names the box as a folded module, not "not assigned" (the
        // screenshots' densenet121 legend read "not assigned (7)" for seven folded blocks).
        bool foldedEntry = false;
        QStringList labels;
        for (const auto& e : scene->legend().entries) {
            labels << e.label + QLatin1Char('=') + QString::number(e.count);
            if (e.label == QStringLiteral("folded module")) foldedEntry = e.count == 1;
            QVERIFY(e.label != QStringLiteral("not assigned"));
        }
        QVERIFY2(foldedEntry, qPrintable(labels.join('|')));
        // Expand (from the box's menu): every node is back.
        QMenu boxMenu;
        m_view->addFoldActions(&boxMenu, QStringLiteral("/features"));
        QAction* expand = nullptr;
        for (QAction* a : boxMenu.actions())
            if (a->text() == QStringLiteral("Expand '/features' one level")) expand = a;
        QVERIFY(expand);
        expand->trigger();
        waitForLayouts();
        QCOMPARE(scene->nodeNames(), all);
        QVERIFY(m_view->foldedModules(after).isEmpty());
        // A module that another node runs between (it reads one of its nodes and feeds another)
        // cannot fold: a message, nothing folded.
        ir::Graph g;
        ir::Value* x = g.addValue("x", ir::DType::Float32, ir::Shape({1, 4}));
        g.addInput(x);
        ir::Value* a = g.addValue("a", ir::DType::Float32, ir::Shape({1, 4}));
        ir::Value* b = g.addValue("b", ir::DType::Float32, ir::Shape({1, 4}));
        ir::Value* c = g.addValue("c", ir::DType::Float32, ir::Shape({1, 4}));
        g.addNode(ir::OpKind::Relu, "/m/first", {x}, {a});
        g.addNode(ir::OpKind::Relu, "/outside", {a}, {b});
        g.addNode(ir::OpKind::Relu, "/m/second", {b}, {c});
        g.addOutput(c);
        auto folded = ui::foldGraph(g, {QStringLiteral("/m")});
        QVERIFY(!folded.ok());
        QVERIFY2(QString::fromStdString(folded.error().message).contains(QStringLiteral("Cannot fold")),
                 folded.error().message.c_str());
        auto fine = ui::foldGraph(g, {QStringLiteral("/outside")}); // a single node: unchanged
        QVERIFY(fine.ok());
        QCOMPARE((*fine)->nodeCount(), size_t(3));
        // A node that only passes weights to a module (ONNX's Identity_N) folds with it.
        ir::Graph h;
        ir::Value* in = h.addValue("in", ir::DType::Float32, ir::Shape({1, 4}));
        h.addInput(in);
        ir::Value* w = h.addConstant("w", ir::Tensor::fromFloats(ir::Shape({1, 4}), {1, 2, 3, 4}));
        ir::Value* w2 = h.addValue("w2", ir::DType::Float32, ir::Shape({1, 4}));
        ir::Value* s1 = h.addValue("s1", ir::DType::Float32, ir::Shape({1, 4}));
        ir::Value* s2 = h.addValue("s2", ir::DType::Float32, ir::Shape({1, 4}));
        h.addNode(ir::OpKind::Identity, "Identity_7", {w}, {w2});
        h.addNode(ir::OpKind::Add, "/m/add", {in, w2}, {s1});
        h.addNode(ir::OpKind::Relu, "/m/relu", {s1}, {s2});
        h.addOutput(s2);
        auto box = ui::foldGraph(h, {QStringLiteral("/m")});
        QVERIFY(box.ok());
        QCOMPARE((*box)->nodeCount(), size_t(1));
        QCOMPARE((*box)->nodes().front()->attrInt(ui::kFoldedAttr, 0), int64_t(3));
    }

    // Issue 33's folding expectations: fold all blocks at a depth, a double-click expands one
    // level (the sub-blocks stay folded), and search reaches into folded blocks (stepping onto
    // a match inside one opens it and selects the node).
    void foldingLevelByLevel() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(m_session->openModel(writeNestedModel(dir.path())).ok());
        waitForLayouts();
        ui::GraphPanel* pane = m_view->afterPanel(); // the pane a menu acts on by default
        m_view->resize(1400, 800);
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view));
        ui::GraphScene* scene = pane->scene();
        QVERIFY(scene->nodeItem(QStringLiteral("/layer1/0/a")));
        // The node menu offers to fold every block at each depth the node is in.
        QMenu menu;
        m_view->addFoldActions(&menu, QStringLiteral("/layer1/0/a"));
        const QStringList texts = actionTexts(menu);
        QAction* depth1 = actionNamed(menu, QStringLiteral("Depth 1, like '/layer1'"));
        QVERIFY2(depth1 && actionNamed(menu, QStringLiteral("Depth 2, like '/layer1/0'")), qPrintable(texts.join('|')));
        QVERIFY(texts.contains(QStringLiteral("Fold all blocks at this depth")));
        depth1->trigger();
        waitForLayouts();
        QCOMPARE(m_view->foldedModules(pane), (QStringList{QStringLiteral("/layer1"), QStringLiteral("/layer2")}));
        QVERIFY(scene->nodeItem(QStringLiteral("/layer1")) && scene->nodeItem(QStringLiteral("/layer2")));
        QVERIFY(scene->nodeItem(QStringLiteral("/fc")));
        // A double-click on /layer1 opens one level: its two blocks, still folded.
        QTest::mouseDClick(pane->view()->viewport(), Qt::LeftButton, {}, nodeCentre(pane, QStringLiteral("/layer1")));
        waitForLayouts();
        QVERIFY(scene->nodeItem(QStringLiteral("/layer1/0")) && scene->nodeItem(QStringLiteral("/layer1/1")));
        QVERIFY(!scene->nodeItem(QStringLiteral("/layer1/0/a")));
        QVERIFY(scene->nodeItem(QStringLiteral("/layer2")));
        // The box menu expands one level or fully.
        QMenu boxMenu;
        m_view->addFoldActions(&boxMenu, QStringLiteral("/layer1/0"));
        QVERIFY(actionNamed(boxMenu, QStringLiteral("Expand '/layer1/0' one level")));
        QVERIFY(actionNamed(boxMenu, QStringLiteral("Expand '/layer1/0' fully")));
        // Search: Tanh is inside the folded /layer2; the match counts, and stepping onto it
        // opens /layer2 and selects it.
        pane->searchField()->setText(QStringLiteral("tanh"));
        QCOMPARE(pane->matchLabel()->text(), QStringLiteral("1 match(es)"));
        pane->findNext();
        waitForLayouts();
        QVERIFY(!m_view->foldedModules(pane).contains(QStringLiteral("/layer2")));
        QVERIFY(scene->nodeItem(QStringLiteral("/layer2/0/b")));
        QCOMPARE(m_session->selectedNode(), QStringLiteral("/layer2/0/b"));
        QTRY_COMPARE(scene->selectedNode(), QStringLiteral("/layer2/0/b"));
        QCOMPARE(pane->matchLabel()->text(), QStringLiteral("1 of 1"));
        // The other blocks stay as they were.
        QVERIFY(scene->nodeItem(QStringLiteral("/layer1/0")));
    }

    // Issue 31: control flow in the graph view. A double-click on a Loop opens its body, the
    // node menu opens an If's branches, a breadcrumb leads back out, and Properties work on
    // the nodes inside.
    void controlFlowBodies() {
        QVERIFY(
            m_session->openModel(test::sourceDir() + QStringLiteral("/tests/data/control_flow/loop_recurrence.onnx"))
                .ok());
        waitForLayouts();
        ui::PropertiesPanel properties(m_session);
        ui::GraphPanel* pane = m_view->afterPanel();
        m_view->resize(1400, 800);
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view));
        ui::GraphScene* scene = pane->scene();
        QVERIFY(scene->nodeItem(QStringLiteral("recur")));
        QVERIFY2(scene->nodeItem(QStringLiteral("recur"))->badge().contains(QStringLiteral("body (8)")),
                 qPrintable(scene->nodeItem(QStringLiteral("recur"))->badge()));
        QVERIFY(m_view->breadcrumb(pane)->isHidden());
        QTest::mouseDClick(pane->view()->viewport(), Qt::LeftButton, {}, nodeCentre(pane, QStringLiteral("recur")));
        waitForLayouts();
        QCOMPARE(m_view->bodyPath(pane), (ui::BodyPath{{QStringLiteral("recur"), QStringLiteral("body")}}));
        QVERIFY(scene->nodeItem(QStringLiteral("body_if")));
        QVERIFY(!scene->nodeItem(QStringLiteral("recur")));
        QVERIFY(!m_view->breadcrumb(pane)->isHidden());
        QVERIFY2(m_view->breadcrumbLabel(pane)->text().contains(QStringLiteral("Loop 'recur'")),
                 qPrintable(m_view->breadcrumbLabel(pane)->text()));
        // The If inside: its menu opens either branch.
        QMenu menu;
        m_view->addFoldActions(&menu, QStringLiteral("body_if"));
        QAction* elseBranch = actionNamed(menu, QStringLiteral("Open body 'else_branch'"));
        QVERIFY2(elseBranch && actionNamed(menu, QStringLiteral("Open body 'then_branch'")),
                 qPrintable(actionTexts(menu).join('|')));
        elseBranch->trigger();
        waitForLayouts();
        QCOMPARE(m_view->bodyPath(pane).size(), 2);
        QCOMPARE(m_view->bodyPath(pane).last().attr, QStringLiteral("else_branch"));
        // Properties of a node inside say where it is.
        const QString inner = scene->nodeNames().first();
        emit scene->nodeSelected(inner);
        QCOMPARE(m_session->selectedNode(), inner);
        QStringList rows;
        for (int i = 0; i < properties.tree()->topLevelItemCount(); ++i) {
            QTreeWidgetItem* section = properties.tree()->topLevelItem(i);
            for (int j = 0; j < section->childCount(); ++j)
                rows << section->child(j)->text(0) + QLatin1Char('=') + section->child(j)->text(1);
        }
        QVERIFY2(
            rows.contains(QStringLiteral("Inside=Loop 'recur' \u203A body \u203A If 'body_if' \u203A else_branch")),
            qPrintable(rows.join('|')));
        QVERIFY2(rows.contains(QStringLiteral("Name=") + inner), qPrintable(rows.join('|')));
        // Back one level, then to the top through the breadcrumb's first link.
        m_view->leaveBody(pane);
        waitForLayouts();
        QCOMPARE(m_view->bodyPath(pane).size(), 1);
        QCOMPARE(m_session->selectedNode(), QStringLiteral("body_if"));
        emit m_view->breadcrumbLabel(pane)->linkActivated(QStringLiteral("0"));
        waitForLayouts();
        QVERIFY(m_view->bodyPath(pane).isEmpty());
        QVERIFY(scene->nodeItem(QStringLiteral("recur")));
        QCOMPARE(m_session->selectedNode(), QStringLiteral("recur"));
        QVERIFY(m_view->breadcrumb(pane)->isHidden());
    }
};

QTEST_MAIN(TestStages)
#include "tst_stages.moc"
