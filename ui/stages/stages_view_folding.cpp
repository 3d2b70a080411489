// Folding a stage's graph by module prefix in the stages view (stages_view.h).
#include "stages_view.h"

#include "graph/graph_folding.h"
#include "graph/graph_view.h"
#include "session/studio_session.h"

#include <QMenu>

namespace embark::ui {

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
    auto graph = m_session->stageGraph(stageOf(panel));
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
    if (m_folded[panel == m_after].removeAll(prefix) > 0) showStage(panel, stageOf(panel));
}

void StagesView::expandAll(GraphPanel* panel) {
    if (m_folded[panel == m_after].isEmpty()) return;
    m_folded[panel == m_after].clear();
    showStage(panel, stageOf(panel));
}

QStringList StagesView::foldedModules(const GraphPanel* panel) const { return m_folded[panel == m_after]; }

void StagesView::addFoldActions(QMenu* menu, const QString& node) {
    GraphPanel* panel = m_menuPanel ? m_menuPanel : m_after;
    const QStringList& folded = m_folded[panel == m_after];
    menu->addSeparator();
    if (folded.contains(node)) {
        menu->addAction(tr("Expand '%1'").arg(node), this, [this, panel, node] { expandModule(panel, node); });
    } else {
        for (const QString& prefix : modulePrefixes(node))
            menu->addAction(tr("Fold '%1'").arg(prefix), this, [this, panel, prefix] {
                const QString error = foldModule(panel, prefix);
                if (!error.isEmpty()) emit foldFailed(error);
            });
    }
    if (!folded.isEmpty()) menu->addAction(tr("Expand all modules"), this, [this, panel] { expandAll(panel); });
}
} // namespace embark::ui
