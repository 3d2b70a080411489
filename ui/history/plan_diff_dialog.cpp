#include "plan_diff_dialog.h"

#include "graph/graph_colors.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"

#include "onnx/model_inputs.h"

#include <QApplication>
#include <QScreen>
#include <QFileInfo>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>

namespace embark::ui {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

QString changeText(store::PlanChange c) {
    switch (c) {
    case store::PlanChange::Added: return PlanDiffDialog::tr("added");
    case store::PlanChange::Removed: return PlanDiffDialog::tr("removed");
    case store::PlanChange::Fused: return PlanDiffDialog::tr("fused differently");
    case store::PlanChange::Reassigned: return PlanDiffDialog::tr("re-assigned (library or layout)");
    case store::PlanChange::Rewritten: return PlanDiffDialog::tr("rewritten (other op)");
    case store::PlanChange::Unchanged: break;
    }
    return PlanDiffDialog::tr("unchanged");
}

// A stored plan names the values its first nodes read but not their shapes: the run's model
// declares them (when it is still there), instead of the graph showing "scalar".
void fillInputShapes(ir::Graph& graph, const store::RunRecord& run) {
    auto declared = onnx::declaredInputs(run.fingerprint.modelPath);
    if (!declared) return;
    for (const onnx::DeclaredInput& in : *declared) {
        ir::Value* v = graph.findValue(in.name);
        if (!v || !v->isGraphInput() || v->shape.rank() != 0 || !in.hasShape || in.dims.empty()) continue;
        std::vector<int64_t> dims;
        for (const onnx::DeclaredDim& d : in.dims) dims.push_back(d.value);
        if (std::all_of(dims.begin(), dims.end(), [](int64_t d) { return d > 0; })) v->shape = ir::Shape(dims);
    }
}

QString runTitle(const store::RunRecord& r) {
    return PlanDiffDialog::tr("Run #%1: %2 on %3 (%4)")
        .arg(r.id)
        .arg(QFileInfo(q(r.fingerprint.modelPath)).fileName(), q(r.fingerprint.boardId),
             q(r.fingerprint.kernelLibrary));
}

} // namespace

PlanDiffDialog::PlanDiffDialog(const store::RunRecord& a, std::vector<store::PlanNode> planA, const store::RunRecord& b,
                               std::vector<store::PlanNode> planB, QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Plans of runs #%1 and #%2").arg(a.id).arg(b.id));
    m_ids[0] = a.id;
    m_ids[1] = b.id;
    m_plans[0] = std::move(planA);
    m_plans[1] = std::move(planB);
    m_diff = store::diffPlans(m_plans[0], m_plans[1]);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setText(summary());
    m_details = new QLabel(tr("Select a node to see what changed."), this);
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* split = new QSplitter(Qt::Horizontal, this);
    const store::RunRecord* runs[2] = {&a, &b};
    for (int side = 0; side < 2; ++side) {
        auto* box = new QWidget(split);
        auto* layout = new QVBoxLayout(box);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(new QLabel(side == 0 ? tr("Baseline %1").arg(runTitle(*runs[0])) : runTitle(*runs[1]), box));
        m_panels[side] = new GraphPanel(box);
        layout->addWidget(m_panels[side], 1);
        split->addWidget(box);
        auto graph = store::planGraph(m_plans[side]);
        if (!graph) {
            m_drawError = tr("Run #%1's plan cannot be drawn: %2").arg(runs[side]->id).arg(q(graph.error().message));
            continue;
        }
        fillInputShapes(**graph, *runs[side]);
        m_panels[side]->scene()->setGraph(std::shared_ptr<const ir::Graph>(std::move(*graph)));
        mark(side);
        connect(m_panels[side]->scene(), &GraphScene::nodeSelected, this,
                [this, side](const QString& node) { selectNode(side == 0, node); });
    }
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);
    layout->addWidget(m_details);
    if (!m_drawError.isEmpty()) m_summary->setText(summary() + QLatin1Char('\n') + m_drawError);
    // At most most of the screen (a 768-line laptop too).
    QSize size(1200, 760);
    if (const QScreen* screen = parent ? parent->screen() : QGuiApplication::primaryScreen())
        size = size.boundedTo(screen->availableGeometry().size() * 9 / 10);
    resize(size);
}

PlanDiffDialog::~PlanDiffDialog() = default;

QString PlanDiffDialog::summary() const {
    if (m_diff.identical())
        return tr("The plans of runs #%1 and #%2 are the same: every node runs with the same library and layout.")
            .arg(m_ids[0])
            .arg(m_ids[1]);
    return tr("Run #%2 against run #%1 (baseline): %3 re-assigned to another library or layout, %4 fused differently "
              "(%5 in #%1, %6 in #%2), %7 added, %8 removed, %9 rewritten.")
        .arg(m_ids[0])
        .arg(m_ids[1])
        .arg(m_diff.reassigned)
        .arg(m_diff.fusedA + m_diff.fusedB)
        .arg(m_diff.fusedA)
        .arg(m_diff.fusedB)
        .arg(m_diff.added)
        .arg(m_diff.removed)
        .arg(m_diff.rewritten);
}

QString PlanDiffDialog::details() const { return m_details->text(); }

void PlanDiffDialog::mark(int side) {
    const QPalette palette = QApplication::palette();
    const bool dark = isDarkPalette(palette);
    auto tone = [dark](int hue) { return QColor::fromHsl(hue, 170, dark ? 90 : 185); };
    using C = store::PlanChange;
    // In PlanChange order; unchanged last (nodes without a class get it).
    const QList<GraphScene::NodeClass> classes{
        {changeText(C::Added), tone(120)},    {changeText(C::Removed), tone(0)},
        {changeText(C::Fused), tone(280)},    {changeText(C::Reassigned), tone(210)},
        {changeText(C::Rewritten), tone(45)}, {changeText(C::Unchanged), noFigureColor(palette)}};
    QHash<QString, int> classOf;
    for (const store::PlanNodeChange& c : side == 0 ? m_diff.a : m_diff.b) classOf.insert(q(c.node), int(c.change));
    m_panels[side]->scene()->setNodeClasses(
        classOf, classes, side == 0 ? tr("Changes to the baseline's nodes") : tr("Changes from the baseline"));
}

void PlanDiffDialog::selectNode(bool inA, const QString& node) {
    if (m_selecting) return;
    m_selecting = true;
    const int side = inA ? 0 : 1, other = 1 - side;
    const std::vector<store::PlanNodeChange>& changes = inA ? m_diff.a : m_diff.b;
    const store::PlanNodeChange* change = nullptr;
    for (const store::PlanNodeChange& c : changes)
        if (q(c.node) == node) change = &c;
    m_panels[side]->scene()->selectNode(node);
    m_panels[side]->scene()->setLinkedNodes({});
    QStringList linked;
    if (change)
        for (const std::string& n : change->counterparts) linked << q(n);
    m_panels[other]->scene()->selectNode({});
    m_panels[other]->scene()->setLinkedNodes(linked);
    if (!linked.isEmpty()) m_panels[other]->view()->zoomToNodes(linked);
    if (!change) {
        m_details->clear();
    } else {
        QString text = tr("%1 (run #%2): %3").arg(node).arg(m_ids[side]).arg(changeText(change->change));
        if (change->change == store::PlanChange::Reassigned)
            text += tr("; run #%1: %2 %3, run #%4: %5 %6")
                        .arg(m_ids[0])
                        .arg(q(change->libraryA), q(change->layoutA))
                        .arg(m_ids[1])
                        .arg(q(change->libraryB), q(change->layoutB));
        if (!linked.isEmpty()) text += tr("; in run #%1: %2").arg(m_ids[other]).arg(linked.join(QStringLiteral(", ")));
        m_details->setText(text);
    }
    m_selecting = false;
}

} // namespace embark::ui
