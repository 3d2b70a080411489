// The target: board, runtime (Embark's export or the board's ONNX Runtime) and kernel library
// pickers, which XNNPACK the export links (with a button
// that builds one when the board has none), add/edit a user board (the Board menu button), the overrides made from
// the graph's context menu, and the memory plan of the fused graph.
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QToolButton;
class QTreeWidget;

namespace embark::ui {

class MemoryChart;
class StudioSession;

class TargetPanel : public QWidget {
    Q_OBJECT
public:
    explicit TargetPanel(StudioSession* session, QWidget* parent = nullptr);
    QComboBox* boardPicker() const { return m_board; }
    QComboBox* libraryPicker() const { return m_library; }
    QComboBox* runtimePicker() const { return m_runtime; }
    QPushButton* epOptionsButton() const { return m_epOptions; }
    QTreeWidget* overrides() const { return m_overrides; }
    MemoryChart* memoryChart() const { return m_memory; }
    QPushButton* sshButton() const { return m_ssh; }
    QLabel* xnnpackLine() const { return m_xnnpack; }
    QLabel* autoLine() const { return m_auto; }
    QPushButton* buildXnnpackButton() const { return m_buildXnnpack; }
    QToolButton* boardMenuButton() const { return m_boardMenu; }

signals:
    // "Build XNNPACK for <arch>..." was pressed (StudioJobs queues the build).
    void buildXnnpackRequested(const QString& arch);

public slots:
    // The selected board's SSH connection (ui/ssh); reloads the boards when saved.
    void editSsh();
    // The SpacemiT EP options dialog (typed fields); the session keeps what it accepts.
    void editEpOptions();

private:
    void reloadBoards();
    void refresh();
    void refreshXnnpack();
    void refreshAuto();
    void editBoard(bool copyAsNew);
    void removeSelectedOverride();

    StudioSession* m_session;
    QComboBox* m_board;
    QLabel* m_boardInfo;
    QComboBox* m_library;
    QComboBox* m_runtime;
    QPushButton* m_epOptions;
    QLabel* m_epSummary;
    QLabel* m_xnnpack;
    QLabel* m_auto; // library "auto": measuring, or what the measurement chose
    QPushButton* m_buildXnnpack;
    QPushButton* m_ssh;
    QToolButton* m_boardMenu;
    QTreeWidget* m_overrides;
    QLabel* m_summary;
    MemoryChart* m_memory;
};

} // namespace embark::ui
