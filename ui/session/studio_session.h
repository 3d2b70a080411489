// The studio's document: the open model and its pass stages, the chosen board, kernel
// library and overrides, and the node selection every view shares. Calls core; no widgets.
#pragma once

#include "library_assignment.h"

#include "export/memory_planner.h"
#include "passes/pass_manager.h"
#include "targets/board.h"

#include <QObject>
#include <QStringList>

#include <map>
#include <memory>
#include <optional>

class QUndoStack;

namespace embark::ui {

class StudioSession : public QObject {
    Q_OBJECT
public:
    explicit StudioSession(QObject* parent = nullptr);

    // Imports the model and runs the default recipe; the error names the file on failure.
    // `shapes` fixes free input dimensions (ImportOptions::shapeOverrides, the CLI's --shape).
    Status openModel(const QString& path, const std::map<std::string, ir::Shape>& shapes = {});
    // The same on a worker thread (a big model never freezes the window); the result is
    // swapped in on this thread and modelOpenFinished reports it. A newer call supersedes
    // an older one still running.
    void openModelInBackground(const QString& path, const std::map<std::string, ir::Shape>& shapes = {});
    // The input shapes the open model was imported with, for jobs that import it again.
    const std::map<std::string, ir::Shape>& shapeOverrides() const { return m_shapes; }
    bool isOpening() const { return m_opening > 0; }
    QString modelPath() const { return m_path; }
    bool hasModel() const { return m_run != nullptr; }

    // Stage 0 is the imported graph, the last one the fused graph the export uses.
    int stageCount() const;
    QString stageName(int stage) const;
    std::shared_ptr<const ir::Graph> stageGraph(int stage) const;
    QStringList stageLog(int stage) const;
    int lastStage() const { return stageCount() - 1; }

    // Nodes of stage `to` that share an original ONNX node with `node` of stage `from`.
    QStringList linkedNodes(int from, const QString& node, int to) const;

    // --- target
    const targets::BoardCatalog& boards() const { return m_boards; }
    void reloadBoards();
    QString boardId() const { return m_boardId; }
    const targets::Board* board() const { return m_boards.find(m_boardId); }
    void setBoard(const QString& id);
    QString library() const { return m_request.library.c_str(); }
    void setLibrary(const QString& id);
    // An empty library removes the override.
    void setNodeOverride(const QString& node, const QString& library);
    void setOpOverride(const QString& op, const QString& library);
    const AssignmentRequest& request() const { return m_request; }
    // Library "auto" (issue 32): each node's library is chosen by measuring the candidates on
    // the board (a job, StudioJobs::measureLibraries). The measurement belongs to the open
    // model, the board and the overrides; changing any of them drops it.
    bool isAutoLibrary() const { return m_request.library == "auto"; }
    bool needsMeasurement() const;
    std::shared_ptr<const exporter::MeasuredChoice> measuredChoice() const { return m_request.measured; }
    // What a measurement is of ("model|board|overrides"): a job's result is taken only while
    // this is still what the session shows.
    QString measurementKey() const;
    void setMeasuredChoice(const QString& key, std::shared_ptr<const exporter::MeasuredChoice> choice);
    // Why the measurement of `key` failed (the nodes stay on portable); empty once anything changed.
    void setMeasurementFailed(const QString& key, const QString& error);
    QString measurementError() const { return m_measureErrorKey == measurementKey() ? m_measureError : QString(); }
    // What a benchmark runs the model with: "export" (Embark's export) or "onnxruntime" (the
    // board's ONNX Runtime, issue 17). Reads "export" on a board without ONNX Runtime.
    QString runtime() const;
    void setRuntime(const QString& id);
    // SpacemiT EP options (KEY=VALUE, validated by the EP options dialog) for ONNX Runtime runs
    // on a board whose execution provider is spacemit.
    QStringList epOptions() const { return m_epOptions; }
    void setEpOptions(const QStringList& options);
    // The user's edits of the four above, as commands (session_commands.h); the setters are
    // what the commands call. Opening a model clears it: its edits named the old model's nodes.
    QUndoStack* undoStack() const { return m_undoStack; }
    // For the fused (last) stage, from exporter::adapt() for the board's architecture; empty
    // without a model or when adaptation fails (then assignmentError() says why, as the
    // export would).
    const LibraryAssignments& assignments() const { return m_assignments; }
    QString assignmentError() const { return m_assignmentError; }
    const std::optional<exporter::MemoryPlan>& memoryPlan() const { return m_plan; }
    // The whole deployment plan the views show (null without a model or when it fails): the
    // one an export with this board, library and overrides writes into export.json.
    std::shared_ptr<const exporter::DeploymentPlan> deploymentPlan() const { return m_deployment; }
    QString memoryPlanError() const { return m_planError; }

    // True while a plan is built on a worker thread (models of asyncPlanNodes() nodes or
    // more, after an edit); planningChanged reports it and targetChanged follows when the
    // plan is in. Opening a model plans it on the opening thread.
    bool isPlanning() const { return m_planning > 0; }
    int asyncPlanNodes() const { return m_asyncPlanNodes; }
    void setAsyncPlanNodes(int nodes) { m_asyncPlanNodes = nodes; }

    // --- selection (stage, node name); an empty name clears it
    int selectedStage() const { return m_selStage; }
    QString selectedNode() const { return m_selNode; }
    void select(int stage, const QString& node);

signals:
    void modelChanged();
    // After openModelInBackground: `error` is empty on success.
    void modelOpenFinished(const QString& path, const QString& error);
    void targetChanged();
    void selectionChanged(int stage, const QString& node);
    void planningChanged(bool planning);

private:
    // A model's deployment plan (the one an export writes) and the stages the views show: the
    // plan's own passes, or when no plan can be built, the passes alone and the plan's error.
    struct Planned {
        std::shared_ptr<exporter::DeploymentPlan> plan;
        std::shared_ptr<passes::PassRun> run;
        QString planError; // why there is no plan (the views still show the stages)
        QString openError; // the model cannot be shown at all
    };
    // Import and plan, once: thread-safe, touch no member.
    static Planned prepareModel(const QString& path, const std::map<std::string, ir::Shape>& shapes,
                                const AssignmentRequest& request, const targets::Board& board);
    static Planned planModel(std::shared_ptr<const ir::Graph> imported, const AssignmentRequest& request,
                             const targets::Board& board);
    // The chosen board (a copy for the planning thread); no id when there is none.
    targets::Board targetBoard() const;
    void adoptModel(const QString& path, Planned prepared);
    // Takes a plan in; true when its pass stages replaced the model's (the library's fusion
    // patterns changed what the passes do).
    bool adoptPlan(Planned planned, bool keepStagesIfSame);
    // Rebuilds the deployment plan after an edit (on a worker thread for big models) and
    // emits targetChanged (and modelChanged when the stages changed).
    void updateAssignments();

    QString m_path;
    std::map<std::string, ir::Shape> m_shapes;
    std::shared_ptr<passes::PassRun> m_run;
    std::vector<std::shared_ptr<const ir::Graph>> m_graphs; // per stage, shared with views
    targets::BoardCatalog m_boards;
    QString m_boardId;
    QString m_runtime = QStringLiteral("export");
    QStringList m_epOptions;
    AssignmentRequest m_request;
    LibraryAssignments m_assignments;
    QString m_assignmentError;
    QString m_measureErrorKey, m_measureError;
    std::optional<exporter::MemoryPlan> m_plan;
    QString m_planError;
    std::shared_ptr<exporter::DeploymentPlan> m_deployment;
    QUndoStack* m_undoStack;
    int m_opening = 0;        // background opens in flight
    int m_planning = 0;       // background plans in flight
    quint64 m_planSerial = 0; // the newest plan request; older results are dropped
    int m_asyncPlanNodes = 300;
    quint64 m_openSerial = 0; // the newest background open; older results are dropped
    int m_selStage = -1;
    QString m_selNode;
};

} // namespace embark::ui
