// The PassManager's stages side by side: a "before" and an "after" graph, each with a stage
// selector, selection linked through provenance, and the rewrite log of the "after" stage.
#pragma once

#include "graph/graph_bodies.h"
#include "graph/graph_partitions.h"

#include <QHash>
#include <QWidget>

class QComboBox;
class QLabel;
class QMenu;
class QListWidget;
class QSplitter;

namespace embark::ui {

class GraphPanel;
class StudioSession;

class StagesView : public QWidget {
    Q_OBJECT
public:
    // What the node colours of both panes show: op category (kernel library in the fused
    // stage), or a per-node figure: the run shown's layer time or error (max_rel), or the
    // memory plan's bytes in use while the node runs.
    // Diff marks what the "after" stage changed from the "before" stage: nodes added,
    // removed, fused into a block, or rewritten to another op. Partition: where an ONNX
    // Runtime run ran each node (an EP subgraph, or the CPU provider as a fallback).
    enum class Colouring { Default = 0, Time, Error, Memory, Diff, Partition };
    enum class Change { Added = 0, Removed, Fused, Rewritten, Unchanged };

    explicit StagesView(StudioSession* session, QWidget* parent = nullptr);
    // The error colours' tolerance on max_rel (the accuracy chart's line and the benchmark's
    // first-divergent rule use the same).
    static constexpr double kErrorTolerance = 1e-3;

    GraphPanel* beforePanel() const { return m_before; }
    GraphPanel* afterPanel() const { return m_after; }
    QComboBox* beforeStage() const { return m_beforeStage; }
    QComboBox* afterStage() const { return m_afterStage; }
    QListWidget* rewriteLog() const { return m_log; }
    QComboBox* colouringBox() const { return m_colouring; }
    Colouring colouring() const;
    void setColouring(Colouring colouring);
    // The figures of one kind, by node names of the last stage (an empty map: none). A kind
    // without figures is disabled in the selector.
    void setFigures(Colouring kind, const QHash<QString, double>& values);
    const QHash<QString, double>& figures(Colouring kind) const;
    // The partitions of the ONNX Runtime run shown (not valid: none; the kind is disabled).
    // Setting valid partitions does not change the colouring; the caller chooses.
    void setPartitions(const RunPartitions& partitions);
    const RunPartitions& partitions() const { return m_partitions; }
    // Where `node` of `stage` ran in the run shown (PartitionKind or a subgraph index).
    int partitionOf(int stage, const QString& node) const;
    // The selector's name of a kind with its unit ("time (ms)").
    static QString figureLabel(Colouring kind);
    // Folding by module prefix: the nodes of `panel` under `prefix` ("/features/denseblock3")
    // become one box. Returns why it cannot (empty when done).
    QString foldModule(GraphPanel* panel, const QString& prefix);
    // Expands one level: the module's direct sub-modules (of two nodes or more) stay folded
    // (a double-click on a box does this too).
    void expandModule(GraphPanel* panel, const QString& prefix);
    // Expands the module and everything folded inside it.
    void expandModuleFully(GraphPanel* panel, const QString& prefix);
    void expandAll(GraphPanel* panel);
    // Folds every module `depth` levels deep ("/layer1" is 1, "/layer1/0" is 2) of two nodes
    // or more; modules that cannot fold (see foldModule) stay open. Returns how many folded.
    int foldDepth(GraphPanel* panel, int depth);
    // Shows `node` (a search match inside a folded module): expands the modules holding it,
    // then selects it.
    void revealMatch(GraphPanel* panel, const QString& node);
    // Control flow: `panel` shows the body `attr` (then_branch, else_branch, body; empty: the
    // first) of the If/Loop/Scan `node` of what it shows now. False when there is none.
    bool openBody(GraphPanel* panel, const QString& node, const QString& attr = {});
    // Back out to `depth` bodies deep (0: the stage's graph; -1: one level up).
    void leaveBody(GraphPanel* panel, int depth = -1);
    BodyPath bodyPath(const GraphPanel* panel) const { return m_bodies[panel == m_after]; }
    // The bar above a pane inside a body: Back and the path (each step a link back to it).
    QWidget* breadcrumb(const GraphPanel* panel) const { return m_crumbBar[panel == m_after]; }
    QLabel* breadcrumbLabel(const GraphPanel* panel) const { return m_crumbLabel[panel == m_after]; }
    // The graph `panel` shows before folding: its stage's graph or the body it stepped into.
    std::shared_ptr<const ir::Graph> shownGraph(const GraphPanel* panel) const;
    QStringList foldedModules(const GraphPanel* panel) const;
    // The name `panel` shows for a node of its stage: the folded box it is in, or itself.
    QString shownName(const GraphPanel* panel, const QString& node) const;
    // Fold / expand entries (and "Open body" for control flow) for `node` of the pane that
    // last asked for a context menu.
    void addFoldActions(QMenu* menu, const QString& node);
    // What changed for each node of `panel`'s stage between the two stages shown.
    QHash<QString, Change> changes(const GraphPanel* panel) const;
    // Takes the rewrite list (with its caption) out of the view, for a window that shows it
    // in a dock of its own so the graphs get the whole height. Null the second time.
    QWidget* takeRewritePanel();
    // The panel holding keyboard focus, else "after" (for fit/zoom/find actions).
    GraphPanel* activePanel() const;

    void setSideBySide(bool on);
    bool isSideBySide() const;

    // The nodes a rewrite-log line names ('conv1', 'bn1'), in each pane's stage: an original
    // node, or the node it became. Empty when the line names none.
    QStringList rewriteNodes(int row, const GraphPanel* panel) const;

public slots:
    // Selects a node of the last (fused) stage by name, as a chart bar does, and centres it
    // in the "after" pane and its original nodes in the "before" pane.
    void revealNode(const QString& node);
    // Highlights the nodes of rewrite-log row `row` in both panes and frames them.
    void showRewrite(int row);
    // Colours both panes by a per-node figure keyed by node names of the last stage (a run's
    // per-layer time or error; fused nodes carry their block's figure); nodes of other
    // stages get the figure of the node they became. An empty map restores the colours.
    // (The figures become the Time kind's, and Time is selected.)
    void setNodeMetric(const QHash<QString, double>& values, const QString& label);

signals:
    // The selector changed what the colours show.
    void colouringChanged(embark::ui::StagesView::Colouring colouring);
    // A fold asked from the node menu could not be made (the message says why).
    void foldFailed(const QString& message);
    // A folded box was selected (its first node is the session's selection, for the links):
    // Properties shows the module, `nodes` of `stage`.
    void moduleSelected(int stage, const QString& prefix, const QStringList& nodes);

public:
signals:
    void nodeContextMenuRequested(const QString& node, const QPoint& globalPos);

private:
    void reloadStages();
    void showStage(GraphPanel* panel, int stage);
    void applySelection(int stage, const QString& node);
    void applyMetric(GraphPanel* panel);
    void applyPartitions(GraphPanel* panel);
    int stageOf(const GraphPanel* panel) const;

    StudioSession* m_session;
    GraphPanel* m_before;
    GraphPanel* m_after;
    QComboBox* m_beforeStage;
    QComboBox* m_afterStage;
    QListWidget* m_log;
    QWidget* m_beforeBox;
    QWidget* m_logBox;
    void updateColouringChoices();
    QStringList shownNames(const GraphPanel* panel, const QStringList& nodes) const;
    // A per-node map of the stage's nodes, with each folded box's entry made from its nodes'.
    template <typename T, typename Merge>
    void foldValues(const GraphPanel* panel, QHash<QString, T>& values, Merge merge) const;
    QComboBox* m_colouring;
    QStringList m_folded[2]; // before, after
    BodyPath m_bodies[2];    // the body each pane stepped into (empty: the stage's graph)
    QWidget* m_crumbBar[2] = {};
    QLabel* m_crumbLabel[2] = {};
    void updateBreadcrumb(GraphPanel* panel);
    GraphPanel* m_menuPanel = nullptr;
    QHash<QString, double> m_figures[6]; // by Colouring, by node name of the last stage
    RunPartitions m_partitions;
    QString m_metricLabel; // setNodeMetric's label for the Time kind
    QString m_metricModel; // the model the run figures are for
};

} // namespace embark::ui
