// Folding a stage's graph by module prefix in the stages view (stages_view.h), and stepping
// into the bodies of control-flow nodes.
#include "stages_view.h"

#include "graph/graph_folding.h"
#include "graph/graph_view.h"
#include "session/studio_session.h"

#include <QLabel>
#include <QMenu>

#include <map>

namespace embark::ui {

namespace {

int depthOf(const QString& prefix) { return int(prefix.count(QLatin1Char('/'))); }

// The modules one level below `prefix` ("" for the top) holding two nodes or more, in graph order.
QStringList subModules(const ir::Graph& graph, const QString& prefix, int depth) {
    QStringList order;
    QHash<QString, int> count;
    for (const ir::Node* n : graph.nodes()) {
        const QStringList prefixes = modulePrefixes(QString::fromStdString(n->name));
        if (prefixes.size() < depth) continue;
        const QString p = prefixes.at(depth - 1);
        if (!prefix.isEmpty() && !p.startsWith(prefix + QLatin1Char('/'))) continue;
        if (count[p]++ == 0) order << p;
    }
    QStringList out;
    for (const QString& p : order)
        if (count.value(p) >= 2) out << p;
    return out;
}

// Adds `candidates` to `folded`: all at once when they fold together, else each one that does.
int addFolds(const ir::Graph& graph, const QStringList& candidates, QStringList& folded) {
    QStringList all = folded;
    for (const QString& c : candidates)
        if (!all.contains(c)) all << c;
    if (foldGraph(graph, all).ok()) {
        const int added = int(all.size() - folded.size());
        folded = all;
        return added;
    }
    int added = 0;
    for (const QString& c : candidates) {
        if (folded.contains(c)) continue;
        QStringList next = folded;
        next << c;
        if (!foldGraph(graph, next).ok()) continue;
        folded = next;
        ++added;
    }
    return added;
}

} // namespace

std::shared_ptr<const ir::Graph> StagesView::shownGraph(const GraphPanel* panel) const {
    auto graph = m_session->stageGraph(stageOf(panel));
    if (auto body = bodyGraph(graph, m_bodies[panel == m_after])) return body;
    return graph;
}

QString StagesView::shownName(const GraphPanel* panel, const QString& node) const {
    // The outermost folded prefix the node is under.
    QString box;
    for (const QString& p : m_folded[panel == m_after])
        if (node.startsWith(p + QLatin1Char('/')) && (box.isEmpty() || p.size() < box.size())) box = p;
    return box.isEmpty() ? node : box;
}

QStringList StagesView::shownNames(const GraphPanel* panel, const QStringList& nodes) const {
    QStringList out;
    for (const QString& n : nodes) {
        const QString s = shownName(panel, n);
        if (!out.contains(s)) out << s;
    }
    return out;
}
QString StagesView::foldModule(GraphPanel* panel, const QString& prefix) {
    QStringList& folded = m_folded[panel == m_after];
    if (prefix.isEmpty() || folded.contains(prefix)) return {};
    auto graph = shownGraph(panel);
    if (!graph) return tr("No graph to fold");
    QStringList next = folded;
    next << prefix;
    auto shown = foldGraph(*graph, next);
    if (!shown.ok()) return QString::fromStdString(shown.error().message);
    folded = next;
    showStage(panel, stageOf(panel));
    return {};
}

void StagesView::expandModule(GraphPanel* panel, const QString& prefix) {
    QStringList& folded = m_folded[panel == m_after];
    if (folded.removeAll(prefix) == 0) return;
    if (auto graph = shownGraph(panel)) addFolds(*graph, subModules(*graph, prefix, depthOf(prefix) + 1), folded);
    showStage(panel, stageOf(panel));
}

void StagesView::expandModuleFully(GraphPanel* panel, const QString& prefix) {
    QStringList& folded = m_folded[panel == m_after];
    const qsizetype before = folded.size();
    folded.removeIf([&](const QString& p) { return p == prefix || p.startsWith(prefix + QLatin1Char('/')); });
    if (folded.size() != before) showStage(panel, stageOf(panel));
}

void StagesView::expandAll(GraphPanel* panel) {
    if (m_folded[panel == m_after].isEmpty()) return;
    m_folded[panel == m_after].clear();
    showStage(panel, stageOf(panel));
}

int StagesView::foldDepth(GraphPanel* panel, int depth) {
    auto graph = shownGraph(panel);
    if (!graph || depth < 1) return 0;
    const QStringList candidates = subModules(*graph, {}, depth);
    QStringList& folded = m_folded[panel == m_after];
    // Folds inside the new boxes are theirs now; shallower ones keep holding them.
    QStringList next;
    for (const QString& p : folded)
        if (depthOf(p) < depth) next << p;
    const int added = addFolds(*graph, candidates, next);
    if (next == folded) return 0;
    folded = next;
    showStage(panel, stageOf(panel));
    return added;
}

QStringList StagesView::foldedModules(const GraphPanel* panel) const { return m_folded[panel == m_after]; }

void StagesView::revealMatch(GraphPanel* panel, const QString& node) {
    QStringList& folded = m_folded[panel == m_after];
    const qsizetype before = folded.size();
    folded.removeIf([&](const QString& p) { return node.startsWith(p + QLatin1Char('/')); });
    if (folded.size() != before) showStage(panel, stageOf(panel));
    m_session->select(stageOf(panel), node);
}

bool StagesView::openBody(GraphPanel* panel, const QString& node, const QString& attr) {
    auto graph = shownGraph(panel);
    const ir::Node* n = graph ? graph->findNode(node.toStdString()) : nullptr;
    if (!n) return false;
    const QStringList bodies = bodyNames(*n);
    const QString body = attr.isEmpty() && !bodies.isEmpty() ? bodies.first() : attr;
    if (!bodies.contains(body)) return false;
    m_bodies[panel == m_after].append({node, body});
    m_folded[panel == m_after].clear(); // module prefixes name the graph they were made in
    showStage(panel, stageOf(panel));
    return true;
}

void StagesView::leaveBody(GraphPanel* panel, int depth) {
    BodyPath& path = m_bodies[panel == m_after];
    if (path.isEmpty()) return;
    if (depth < 0) depth = int(path.size()) - 1;
    if (depth >= path.size()) return;
    const QString left = path.at(depth).node; // the control-flow node stepped out of
    path.resize(depth);
    m_folded[panel == m_after].clear();
    showStage(panel, stageOf(panel));
    m_session->select(stageOf(panel), left);
}

void StagesView::updateBreadcrumb(GraphPanel* panel) {
    const BodyPath& path = m_bodies[panel == m_after];
    QWidget* bar = m_crumbBar[panel == m_after];
    QLabel* label = m_crumbLabel[panel == m_after];
    if (!bar) return;
    bar->setVisible(!path.isEmpty());
    if (path.isEmpty()) return;
    // Each step links back to the graph it was taken from.
    auto top = m_session->stageGraph(stageOf(panel));
    QString html = QStringLiteral("<a href=\"0\">%1</a>").arg(tr("Graph").toHtmlEscaped());
    for (int i = 0; i < path.size(); ++i) {
        const auto from = bodyGraph(top, path.mid(0, i));
        const QString text = from ? bodyPathText(*from, {path.at(i)}) : path.at(i).attr;
        html += QStringLiteral(" \u203A ");
        html += i + 1 == path.size() ? QStringLiteral("<b>%1</b>").arg(text.toHtmlEscaped())
                                     : QStringLiteral("<a href=\"%1\">%2</a>").arg(i + 1).arg(text.toHtmlEscaped());
    }
    label->setText(html);
}

void StagesView::addFoldActions(QMenu* menu, const QString& node) {
    GraphPanel* panel = m_menuPanel ? m_menuPanel : m_after;
    const QStringList& folded = m_folded[panel == m_after];
    menu->addSeparator();
    if (auto graph = shownGraph(panel))
        if (const ir::Node* n = graph->findNode(node.toStdString()))
            for (const QString& body : bodyNames(*n))
                menu->addAction(tr("Open body '%1'").arg(body), this,
                                [this, panel, node, body] { openBody(panel, node, body); });
    if (!m_bodies[panel == m_after].isEmpty())
        menu->addAction(tr("Back to the enclosing graph"), this, [this, panel] { leaveBody(panel); });
    QStringList prefixes = modulePrefixes(node);
    if (folded.contains(node)) {
        menu->addAction(tr("Expand '%1' one level").arg(node), this,
                        [this, panel, node] { expandModule(panel, node); });
        menu->addAction(tr("Expand '%1' fully").arg(node), this,
                        [this, panel, node] { expandModuleFully(panel, node); });
        prefixes << node;
    } else {
        for (const QString& prefix : modulePrefixes(node))
            menu->addAction(tr("Fold '%1'").arg(prefix), this, [this, panel, prefix] {
                const QString error = foldModule(panel, prefix);
                if (!error.isEmpty()) emit foldFailed(error);
            });
    }
    if (!prefixes.isEmpty()) {
        QMenu* depths = menu->addMenu(tr("Fold all blocks at this depth"));
        for (const QString& prefix : prefixes) {
            const int depth = depthOf(prefix);
            depths->addAction(tr("Depth %1, like '%2'").arg(depth).arg(prefix), this,
                              [this, panel, depth] { foldDepth(panel, depth); });
        }
    }
    if (!folded.isEmpty()) menu->addAction(tr("Expand all modules"), this, [this, panel] { expandAll(panel); });
}
} // namespace embark::ui
