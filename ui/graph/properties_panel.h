// The properties of the selected node: op, attributes, input/output shapes, weight
// statistics, the kernel library that runs it and why, and its ONNX provenance.
#pragma once

#include <QWidget>

class QTreeWidget;
class QTreeWidgetItem;

namespace embark::ui {

class StudioSession;

class PropertiesPanel : public QWidget {
    Q_OBJECT
public:
    explicit PropertiesPanel(StudioSession* session, QWidget* parent = nullptr);
    QTreeWidget* tree() const { return m_tree; }

private:
    void showNode(int stage, const QString& node);
    QTreeWidgetItem* section(const QString& title);

    StudioSession* m_session;
    QTreeWidget* m_tree;
};

} // namespace embark::ui
