// Before/after fusion: switching stages changes the graph shown, and selecting a fused node
// lights up its original nodes in the "before" view (and back) through provenance.
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "graph/node_item.h"
#include "session/studio_session.h"
#include "stages/stages_view.h"
#include "support/test_paths.h"

#include <QComboBox>
#include <QListWidget>
#include <QStandardPaths>
#include <QTest>

using namespace embark;

namespace {

QStringList linkedIn(ui::GraphScene* scene) {
    QStringList names;
    for (const QString& n : scene->nodeNames())
        if (scene->nodeItem(n)->isLinked()) names << n;
    return names;
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
        const Status opened = m_session->openModel(test::sourceDir() + QStringLiteral("/resources/models/digits_cnn.onnx"));
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
};

QTEST_MAIN(TestStages)
#include "tst_stages.moc"
