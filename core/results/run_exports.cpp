#include "run_exports.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <map>

namespace embark::bench {

QByteArray chromeTrace(const std::vector<LayerSample>& medianLayers, int64_t totalNs, const std::string& board,
                       const std::string& model) {
    QJsonArray events;
    std::map<std::string, int> tids;
    const QString process = QString::fromStdString(board);
    events.append(QJsonObject{
        {"name", "process_name"},
        {"ph", "M"},
        {"pid", 1},
        {"args", QJsonObject{{"name", QStringLiteral("%1 on %2").arg(QString::fromStdString(model), process)}}}});
    events.append(QJsonObject{{"name", "inference"},
                              {"cat", "model"},
                              {"ph", "X"},
                              {"pid", 1},
                              {"tid", 0},
                              {"ts", 0.0},
                              {"dur", static_cast<double>(totalNs) / 1000.0}});
    events.append(QJsonObject{
        {"name", "thread_name"}, {"ph", "M"}, {"pid", 1}, {"tid", 0}, {"args", QJsonObject{{"name", "model"}}}});
    double ts = 0;
    for (const LayerSample& l : medianLayers) {
        auto [it, inserted] = tids.emplace(l.lib, static_cast<int>(tids.size()) + 1);
        if (inserted)
            events.append(QJsonObject{{"name", "thread_name"},
                                      {"ph", "M"},
                                      {"pid", 1},
                                      {"tid", it->second},
                                      {"args", QJsonObject{{"name", QString::fromStdString(l.lib)}}}});
        const double dur = static_cast<double>(l.ns) / 1000.0;
        events.append(QJsonObject{{"name", QString::fromStdString(l.node)},
                                  {"cat", QString::fromStdString(l.lib)},
                                  {"ph", "X"},
                                  {"pid", 1},
                                  {"tid", it->second},
                                  {"ts", ts},
                                  {"dur", dur},
                                  {"args", QJsonObject{{"index", l.index}, {"ns", static_cast<qint64>(l.ns)}}}});
        ts += dur;
    }
    return QJsonDocument(QJsonObject{{"traceEvents", events}, {"displayTimeUnit", "ns"}})
        .toJson(QJsonDocument::Compact);
}

QByteArray layersCsv(const std::vector<LayerSample>& medianLayers) {
    QByteArray csv = "index,node,lib,median_ns\n";
    for (const LayerSample& l : medianLayers) {
        QByteArray node = QByteArray::fromStdString(l.node);
        if (node.contains(',') || node.contains('"')) node = '"' + node.replace("\"", "\"\"") + '"';
        csv += QByteArray::number(l.index) + ',' + node + ',' + QByteArray::fromStdString(l.lib) + ',' +
               QByteArray::number(static_cast<qlonglong>(l.ns)) + '\n';
    }
    return csv;
}

} // namespace embark::bench
