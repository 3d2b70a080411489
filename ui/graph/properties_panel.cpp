#include "properties_panel.h"

#include "graph_bodies.h"

#include "session/engine_text.h"
#include "session/qt_text.h"
#include "session/studio_session.h"

#include "ir/model_stats.h"

#include <QHeaderView>
#include <QLocale>
#include <QMap>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace embark::ui {

namespace {

QString valueLine(const ir::Value* v) {
    return QStringLiteral("%1  %2").arg(QString::fromStdString(v->shape.str()), toQString(ir::dtypeName(v->dtype)));
}

// min / max / mean / std of a constant, for spotting dead or exploding weights at a glance.
QString weightStats(const ir::Tensor& t) {
    if (t.numel() == 0) return {};
    double lo = INFINITY, hi = -INFINITY, sum = 0, sq = 0;
    const int64_t n = t.numel();
    for (int64_t i = 0; i < n; ++i) {
        const double x = t.at(i);
        lo = std::min(lo, x);
        hi = std::max(hi, x);
        sum += x;
        sq += x * x;
    }
    const double mean = sum / double(n);
    const double stddev = std::sqrt(std::max(0.0, sq / double(n) - mean * mean));
    return PropertiesPanel::tr("min %1  max %2  mean %3  std %4")
        .arg(lo, 0, 'g', 4)
        .arg(hi, 0, 'g', 4)
        .arg(mean, 0, 'g', 4)
        .arg(stddev, 0, 'g', 4);
}

// A measured cost: a time in ns shown in ns/µs/ms, or a count of retired instructions.
QString measuredCost(double value, const QString& unit) {
    const QLocale locale;
    if (unit != QLatin1String("ns"))
        return PropertiesPanel::tr("%1 instructions").arg(locale.toString(qlonglong(std::llround(value))));
    if (value < 1e3) return PropertiesPanel::tr("%1 ns").arg(locale.toString(value, 'f', 0));
    if (value < 1e6) return PropertiesPanel::tr("%1 \u00b5s").arg(locale.toString(value / 1e3, 'f', 1));
    return PropertiesPanel::tr("%1 ms").arg(locale.toString(value / 1e6, 'f', 3));
}

} // namespace

PropertiesPanel::PropertiesPanel(StudioSession* session, QWidget* parent) : QWidget(parent), m_session(session) {
    m_tree = new QTreeWidget(this);
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("Property"), tr("Value")});
    // The property column fits its names up to ~45% of the width (fitKeyColumn), so values
    // stay readable in a narrow dock; the full text is in each cell's tooltip.
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    m_tree->setWordWrap(true);
    m_tree->setAlternatingRowColors(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tree);
    connect(session, &StudioSession::selectionChanged, this, &PropertiesPanel::showNode);
    connect(session, &StudioSession::targetChanged, this,
            [this] { showNode(m_session->selectedStage(), m_session->selectedNode()); });
    connect(session, &StudioSession::modelChanged, m_tree, &QTreeWidget::clear);
}

void PropertiesPanel::setNodeMetric(const QHash<QString, double>& values, const QString& label) {
    if (values.isEmpty())
        setNodeFigures({});
    else
        setNodeFigures({Figure{label, values, false}});
}

void PropertiesPanel::setNodeFigures(const QList<Figure>& figures) {
    m_figures.clear();
    for (const Figure& f : figures)
        if (!f.values.isEmpty()) m_figures << f;
    m_metricModel = m_session->modelPath();
    showNode(m_session->selectedStage(), m_session->selectedNode());
}

void PropertiesPanel::setPartitions(const RunPartitions& partitions) {
    m_partitions = partitions;
    m_partitionModel = m_session->modelPath();
    showNode(m_session->selectedStage(), m_session->selectedNode());
}

QTreeWidgetItem* PropertiesPanel::section(const QString& title) {
    auto* item = new QTreeWidgetItem(m_tree, {title});
    QFont bold = item->font(0);
    bold.setBold(true);
    item->setFont(0, bold);
    item->setExpanded(true);
    item->setFirstColumnSpanned(true); // the title is not cut by the property column's width
    return item;
}

void PropertiesPanel::showNode(int stage, const QString& name) {
    fill(stage, name);
    fitKeyColumn();
}

void PropertiesPanel::showModule(int stage, const QString& prefix, const QStringList& nodes) {
    m_tree->clear();
    auto graph = m_session->stageGraph(stage);
    if (!graph) return;
    QMap<QString, int> ops;
    qlonglong macs = 0;
    for (const QString& name : nodes)
        if (const ir::Node* n = graph->findNode(name.toStdString())) {
            ++ops[toQString(ir::opName(n->op))];
            macs += qlonglong(ir::nodeMacs(*n));
        }
    QStringList opText;
    for (auto it = ops.cbegin(); it != ops.cend(); ++it)
        opText << QStringLiteral("%1 \u00d7%2").arg(it.key()).arg(it.value());
    auto add = [](QTreeWidgetItem* parent, const QString& key, const QString& value) {
        auto* item = new QTreeWidgetItem(parent, {key, value});
        item->setToolTip(0, key);
        item->setToolTip(1, value);
        if (value.isEmpty()) item->setFirstColumnSpanned(true);
    };
    QTreeWidgetItem* general = section(tr("Folded module"));
    add(general, tr("Name"), prefix);
    add(general, tr("Stage"), m_session->stageName(stage));
    add(general, tr("Nodes"), QLocale().toString(nodes.size()));
    add(general, tr("Ops"), opText.join(QStringLiteral(", ")));
    if (macs > 0) add(general, tr("MACs"), QLocale().toString(macs));
    QTreeWidgetItem* members = section(tr("Nodes in the module (expand it from its menu)"));
    for (const QString& name : nodes) add(members, name, QString());
    fitKeyColumn();
}

void PropertiesPanel::fitKeyColumn() {
    // At least the header's own title ("Property", "Propriété"), also while nothing is shown.
    const int want = std::max(static_cast<QAbstractItemView*>(m_tree)->sizeHintForColumn(0) + 8, // public there
                              m_tree->header()->sectionSizeHint(0));
    const int cap = std::max(120, m_tree->viewport()->width() * 45 / 100);
    m_tree->setColumnWidth(0, std::min(want, cap));
}

void PropertiesPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitKeyColumn();
}

void PropertiesPanel::fill(int stage, const QString& name) {
    m_tree->clear();
    auto graph = m_session->stageGraph(stage);
    const ir::Node* node = graph ? graph->findNode(name.toStdString()) : nullptr;
    // A node of a control-flow body the graph view stepped into.
    BodyPath body;
    if (!node && graph) node = findNodeInBodies(*graph, name.toStdString(), &body);
    if (!node) return;
    auto add = [](QTreeWidgetItem* parent, const QString& key, const QString& value) {
        auto* item = new QTreeWidgetItem(parent, {key, value});
        item->setToolTip(0, key);
        item->setToolTip(1, value);
        // A name without a value (provenance) uses the whole row.
        if (value.isEmpty()) item->setFirstColumnSpanned(true);
        return item;
    };
    QTreeWidgetItem* general = section(tr("Node"));
    add(general, tr("Name"), name);
    add(general, tr("Op"), toQString(ir::opName(node->op)));
    add(general, tr("Category"), toQString(ir::categoryName(ir::opCategory(node->op))));
    add(general, tr("Stage"), m_session->stageName(stage));
    if (!body.isEmpty()) add(general, tr("Inside"), bodyPathText(*graph, body));
    if (const QStringList bodies = bodyNames(*node); !bodies.isEmpty())
        add(general, tr("Bodies"), tr("%1 (double-click the node to open)").arg(bodies.join(QStringLiteral(", "))));
    if (const int64_t macs = ir::nodeMacs(*node)) add(general, tr("MACs"), QLocale().toString(qlonglong(macs)));

    if (!node->attrs.empty()) {
        QTreeWidgetItem* attrs = section(tr("Attributes"));
        for (const auto& [key, value] : node->attrs)
            add(attrs, QString::fromStdString(key), QString::fromStdString(ir::attributeToString(value)));
    }

    QTreeWidgetItem* inputs = section(tr("Inputs"));
    QTreeWidgetItem* weights = nullptr;
    for (const ir::Value* v : node->inputs()) {
        if (!v) continue;
        QTreeWidgetItem* item = add(inputs, QString::fromStdString(v->name), valueLine(v));
        if (!v->isConstant()) continue;
        item->setText(1, tr("%1  (constant)").arg(valueLine(v)));
        if (!weights) weights = section(tr("Weight statistics"));
        add(weights, QString::fromStdString(v->name), weightStats(v->constant));
    }
    QTreeWidgetItem* outputs = section(tr("Outputs"));
    for (const ir::Value* v : node->outputs())
        if (v) add(outputs, QString::fromStdString(v->name), valueLine(v));

    if (stage == m_session->lastStage()) {
        auto it = m_session->assignments().find(node->name);
        if (it != m_session->assignments().end()) {
            QTreeWidgetItem* lib = section(tr("Kernel library"));
            add(lib, tr("Library"), it->second.library);
            add(lib, tr("Why"), it->second.why);
        }
        // Library "auto": the measurements behind the node's library (plan --json's "measurement").
        if (auto measured = m_session->measuredChoice())
            if (auto m = measured->nodes.find(node->name); m != measured->nodes.end()) {
                QTreeWidgetItem* sec = section(tr("Measurement (library auto)"));
                const QString unit = QString::fromStdString(measured->unit);
                add(sec, tr("Chosen"), QString::fromStdString(m->second.chosen));
                for (const exporter::Candidate& c : m->second.candidates) {
                    const QString lib = QString::fromStdString(c.library);
                    QTreeWidgetItem* item;
                    if (!c.supported) {
                        item = add(sec, lib, tr("not a candidate: %1").arg(engineText(QString::fromStdString(c.note))));
                    } else {
                        const QString source = c.source == "cached" ? tr("cached") : tr("measured");
                        item = add(sec, lib,
                                   c.conversion > 0
                                       ? tr("%1 + %2 layout conversion = %3 (%4)")
                                             .arg(measuredCost(c.cost, unit), measuredCost(c.conversion, unit),
                                                  measuredCost(c.cost + c.conversion, unit), source)
                                       : tr("%1 (%2)").arg(measuredCost(c.cost, unit), source));
                    }
                    if (c.library == m->second.chosen) {
                        QFont bold = item->font(0);
                        bold.setBold(true);
                        item->setFont(0, bold);
                        item->setFont(1, bold);
                    }
                }
                add(sec, tr("Measured on"),
                    tr("%1, %2").arg(QString::fromStdString(measured->board),
                                     unit == QLatin1String("ns") ? tr("wall clock") : tr("retired instructions")));
                add(sec, tr("Signature"), QString::fromStdString(m->second.signature));
            }
    }

    // Figures of a run of another model (one opened since) name other nodes.
    if (!m_figures.isEmpty() && m_metricModel == m_session->modelPath()) {
        // The figure is per node of the fused stage: an earlier stage's node shows the figure
        // of the fused node it became.
        QString holder;
        if (stage == m_session->lastStage())
            holder = name;
        else if (const QStringList to = m_session->linkedNodes(stage, name, m_session->lastStage()); !to.isEmpty())
            holder = to.first();
        QTreeWidgetItem* run = section(tr("Layer figures"));
        for (const Figure& f : std::as_const(m_figures)) {
            if (f.values.contains(holder)) {
                const double v = f.values.value(holder);
                QTreeWidgetItem* item = add(run, f.label,
                                            f.bytes ? QLocale().formattedDataSize(qint64(std::llround(v)), 1)
                                                    : QLocale().toString(v, 'g', 4));
                if (holder != name) item->setText(1, tr("%1  (of the fused node %2)").arg(item->text(1), holder));
            } else {
                add(run, f.label, tr("(no figure for this node)"));
            }
        }
    }

    // Where the ONNX Runtime run shown ran the node: an EP subgraph or the CPU provider.
    if (m_partitions.valid && m_partitionModel == m_session->modelPath())
        if (auto model = m_session->stageGraph(0)) {
            const QSet<QString> modelNodes = nodeNames(*model);
            QTreeWidgetItem* part = section(tr("ONNX Runtime partition"));
            const int p = partitionOfNode(m_partitions, *node, modelNodes);
            QTreeWidgetItem* ran = add(part, tr("Ran in"), partitionLabel(m_partitions, p));
            if (p >= 0 && p < m_partitions.files.size())
                ran->setToolTip(1, tr("Subgraph model: %1").arg(m_partitions.files.at(p)));
            if (p == kSplitPartitions) // each original node's partition
                for (const std::string& o : node->provenance)
                    if (const ir::Node* original = model->findNode(o))
                        add(part, QString::fromStdString(o),
                            partitionLabel(m_partitions, partitionOfNode(m_partitions, *original, modelNodes)));
            add(part, tr("Subgraphs in the run"), QString::number(m_partitions.subgraphCount()));
        }

    QTreeWidgetItem* provenance = section(tr("Provenance (original ONNX nodes)"));
    for (const std::string& p : node->provenance) add(provenance, QString::fromStdString(p), {});
    if (node->provenance.empty()) add(provenance, tr("(none recorded)"), {});
}

} // namespace embark::ui
