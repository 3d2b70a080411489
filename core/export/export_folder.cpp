#include "export_folder.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace embark::exporter {
namespace {

std::string str(const QJsonValue& v) { return v.toString().toStdString(); }

std::vector<std::string> strings(const QJsonValue& v) {
    std::vector<std::string> out;
    for (const auto& s : v.toArray()) out.push_back(s.toString().toStdString());
    return out;
}

std::vector<ExportIo> ios(const QJsonValue& v, const char* fileKey) {
    std::vector<ExportIo> out;
    for (const auto& e : v.toArray()) {
        const QJsonObject o = e.toObject();
        ExportIo io{str(o["name"]), {}, o[fileKey].toString()};
        for (const auto& d : o["shape"].toArray()) io.shape.push_back(d.toInteger());
        // Exports written before other element types had float32 throughout.
        if (o.contains("dtype") && !ir::dtypeFromName(o["dtype"].toString().toStdString(), &io.dtype))
            io.dtype = ir::DType::Undefined;
        out.push_back(std::move(io));
    }
    return out;
}

} // namespace

Expected<ExportFolder> ExportFolder::open(const QString& dirIn) {
    const QString dir = QFileInfo(dirIn).absoluteFilePath();
    const std::string where = "'" + dir.toStdString() + "'";
    if (!QFileInfo::exists(dir + "/export.json") || !QFileInfo::exists(dir + "/CMakeLists.txt"))
        return makeError(ErrorKind::Usage, where +
                                               " is not an Embark export folder (no CMakeLists.txt and export.json): "
                                               "write one with embark-cli export");
    QFile f(dir + "/export.json");
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorKind::External,
                         "cannot read " + where + "/export.json: " + f.errorString().toStdString());
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    if (!doc.isObject())
        return makeError(ErrorKind::InvalidInput, where + "/export.json is not a JSON object (" +
                                                      pe.errorString().toStdString() + "): re-export the model");
    const QJsonObject j = doc.object();
    ExportFolder e;
    e.dir = dir;
    e.json = j;
    e.embarkVersion = j["embark_version"].toString();
    const QString format = j["format"].toString();
    if (format != QLatin1String(kExportFormat))
        return makeError(ErrorKind::InvalidInput,
                         where + " was written by Embark " +
                             (e.embarkVersion.isEmpty() ? "(unknown version)" : e.embarkVersion.toStdString()) +
                             " in format '" + format.toStdString() + "'; this Embark " EMBARK_VERSION " reads '" +
                             kExportFormat + "': export the model again with this Embark");
    for (const char* key : {"arch", "library", "schedule", "memory", "inputs", "outputs"})
        if (!j.contains(key))
            return makeError(ErrorKind::InvalidInput, where + "/export.json has no '" + key + "': re-export the model");
    const QJsonObject model = j["model"].toObject();
    e.modelName = str(model["name"]);
    e.modelPath = str(model["path"]);
    e.modelSha256 = str(model["sha256"]);
    e.library = str(j["library"]);
    e.arch = str(j["arch"]);
    e.board = str(j["board"]);
    e.recipe = str(j["recipe"]);
    e.exportHash = str(j["export_hash"]);
    e.libraries = strings(j["libraries"]);
    e.inputs = ios(j["inputs"], "sample");
    e.outputs = ios(j["outputs"], "expected");
    e.memory = j["memory"].toObject();
    e.arenaBytes = e.memory["arena_bytes"].toInteger();
    e.weightsBytes = j["weights_bytes"].toInteger();
    e.xnnpack = j["xnnpack"].toObject();
    for (const auto& v : j["schedule"].toArray()) {
        const QJsonObject n = v.toObject();
        ExportLayer l;
        l.index = n["index"].toInt();
        l.name = str(n["name"]);
        l.op = str(n["op"]);
        l.lib = str(n["lib"]);
        l.format = str(n.contains("layout") ? n["layout"] : n["format"]); // "format" before the names were unified
        l.provenance = strings(n["provenance"]);
        for (const auto& o : n["outputs"].toArray()) l.outputs.push_back(str(o.toObject()["name"]));
        e.schedule.push_back(std::move(l));
    }
    return e;
}

std::string ExportFolder::layerOutput(int index) const {
    if (index < 0 || static_cast<size_t>(index) >= schedule.size() ||
        schedule[static_cast<size_t>(index)].outputs.empty())
        return {};
    return schedule[static_cast<size_t>(index)].outputs.front();
}

} // namespace embark::exporter
