#include "sweep_report.h"

#include "sweep_chart.h"
#include "text_table.h"

#include <QFileInfo>
#include <QJsonArray>

namespace embark::cli {

QJsonObject sweepJson(const jobs::SweepResult& r) {
    QJsonArray cells;
    for (const jobs::SweepCell& c : r.cells) {
        const bool ok = c.state == jobs::SweepCell::State::Ok;
        QJsonObject cell{{"model", c.model},
                         {"board", c.boardId},
                         {"lib", QString::fromStdString(c.library)},
                         {"dtype", c.quantized ? "int8" : "float32"},
                         {"status", jobs::sweepCellStateName(c.state)},
                         {"message", QString::fromStdString(c.message)},
                         {"run_id", c.runId ? QJsonValue(static_cast<qint64>(c.runId)) : QJsonValue()},
                         {"median_ns", ok ? QJsonValue(c.medianNs) : QJsonValue()},
                         {"ci95_low_ns", ok && c.ci95HighNs > 0 ? QJsonValue(c.ci95LowNs) : QJsonValue()},
                         {"ci95_high_ns", ok && c.ci95HighNs > 0 ? QJsonValue(c.ci95HighNs) : QJsonValue()},
                         {"max_rel", c.maxRel >= 0 ? QJsonValue(c.maxRel) : QJsonValue()},
                         {"cosine", c.cosine >= 0 ? QJsonValue(c.cosine) : QJsonValue()},
                         {"best", c.bestOnBoard}};
        if (!c.device.isEmpty()) cell["lava_device"] = c.device;
        cells.append(cell);
    }
    QJsonObject quantized;
    for (const auto& [model, out] : r.quantized) quantized[model] = out;
    return QJsonObject{{"schema", "embark-cli/1"}, {"sweep", r.sweepId}, {"cells", cells},
                       {"failed", r.failed()},     {"builds", r.builds}, {"quantized_models", quantized}};
}

void printSweepTable(const jobs::SweepResult& r, Io& io) {
    using A = TextTable::Align;
    TextTable table({{"model"},
                     {"board"},
                     {"lib"},
                     {"dtype"},
                     {"status"},
                     {"median ms", A::Right},
                     {"95% CI ms", A::Right},
                     {"max_rel", A::Right},
                     {"cosine", A::Right},
                     {"best"},
                     {"run", A::Right},
                     {"device"}});
    for (const jobs::SweepCell& c : r.cells) {
        const bool ok = c.state == jobs::SweepCell::State::Ok;
        const auto ms = [](double ns) { return QString::number(ns / 1e6, 'f', 3); };
        table.addRow({QFileInfo(c.model).completeBaseName(), c.boardId, QString::fromStdString(c.library),
                      c.quantized ? "int8" : "float32", jobs::sweepCellStateName(c.state), ok ? ms(c.medianNs) : "-",
                      ok && c.ci95HighNs > 0 ? ms(c.ci95LowNs) + "-" + ms(c.ci95HighNs) : "-",
                      c.maxRel >= 0 ? QString::number(c.maxRel, 'g', 3) : "-",
                      c.cosine >= 0 ? QString::number(c.cosine, 'f', 6) : "-", c.bestOnBoard ? "*" : "",
                      c.runId ? QString::number(c.runId) : "-", c.device});
    }
    io.out << "Sweep " << r.sweepId << "\n";
    table.print(io.out);
    io.out << "* the fastest library of the model on the board; `embark-cli runs compare --sweep " << r.sweepId
           << "` shows this table again, `runs compare A B` compares two runs\n";
}

Status writeSweepChartFile(const jobs::SweepResult& sweep, const QString& path, Io& io) {
    EMBARK_TRY(chartio::writeSweepChart(sweep, path));
    io.err << "wrote the chart " << path << "\n";
    io.err.flush();
    return {};
}

} // namespace embark::cli
