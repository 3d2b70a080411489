// Two runs' plans side by side (issue 19, graph diff): each run's stored plan drawn as a graph,
// nodes marked added, removed, fused differently, re-assigned to another kernel library or
// layout, or rewritten (store::diffPlans); selecting a node in one plan lights up the nodes
// standing for the same ONNX nodes in the other, and the line below names what changed.
#pragma once

#include "store/run_plan.h"

#include <QDialog>

#include <memory>

class QLabel;

namespace embark::ui {

class GraphPanel;

class PlanDiffDialog : public QDialog {
    Q_OBJECT
public:
    // `a` is the baseline. The plans are the runs' stored plans (store::runPlan), not empty.
    PlanDiffDialog(const store::RunRecord& a, std::vector<store::PlanNode> planA, const store::RunRecord& b,
                   std::vector<store::PlanNode> planB, QWidget* parent = nullptr);
    ~PlanDiffDialog() override;

    GraphPanel* panelA() const { return m_panels[0]; }
    GraphPanel* panelB() const { return m_panels[1]; }
    const store::PlanDiff& diff() const { return m_diff; }
    QString summary() const;
    QString details() const;
    // Selects `node` of plan A (or B) and lights up its counterparts in the other plan.
    void selectNode(bool inA, const QString& node);
    // A plan that could not be drawn (an unknown op): the error, else empty.
    QString drawError() const { return m_drawError; }

private:
    void mark(int side);

    store::PlanDiff m_diff;
    std::vector<store::PlanNode> m_plans[2];
    int64_t m_ids[2] = {0, 0};
    GraphPanel* m_panels[2] = {nullptr, nullptr};
    QLabel* m_summary;
    QLabel* m_details;
    QString m_drawError;
    bool m_selecting = false;
};

} // namespace embark::ui
