// Reads an export folder's export.json into a typed value: the one reader that the build,
// the benchmark, the CLI and the studio use (core/export/manifest.cpp is the one writer).
// A folder written by another Embark (another "format") is refused with what to do.
#pragma once

#include "ir/dtype.h"
#include "ir/error.h"

#include <QJsonObject>
#include <QString>

#include <string>
#include <vector>

namespace embark::exporter {

// The manifest format this Embark writes and reads.
inline constexpr const char* kExportFormat = "embark-export/1";

struct ExportLayer {
    int index = 0;                       // position in the schedule (run_export's layer index)
    std::string name, op, lib, format;   // node, ONNX op, kernel library, layout
    std::vector<std::string> provenance; // original ONNX node names
    std::vector<std::string> outputs;    // output value names
};

struct ExportIo {
    std::string name;
    std::vector<int64_t> shape;           // model layout
    QString dataFile;                     // data/input_K.bin or data/expected_K.bin (relative)
    ir::DType dtype = ir::DType::Float32; // its element type (and the data file's)
};

struct ExportFolder {
    QString dir;           // absolute
    QString embarkVersion; // the Embark that wrote it
    std::string modelName, modelPath, modelSha256;
    std::string library, arch, board, recipe, exportHash;
    std::vector<std::string> libraries;
    std::vector<ExportIo> inputs, outputs;
    std::vector<ExportLayer> schedule;
    qint64 arenaBytes = 0, weightsBytes = 0;
    QJsonObject memory;  // the memory plan as deployment_plan.h's memoryPlanJson writes it
    QJsonObject xnnpack; // which XNNPACK it links (kind, path, commit, api); empty: none
    QJsonObject json;    // the whole manifest, for what has no field yet

    // Usage (2) when `dir` has no export.json or CMakeLists.txt; InvalidInput (4) for a
    // manifest that is not JSON, lacks a field or has another format (names the folder, the
    // Embark version that wrote it and says to re-export).
    static Expected<ExportFolder> open(const QString& dir);

    // The first output value of schedule layer `index`, or empty.
    std::string layerOutput(int index) const;
};

} // namespace embark::exporter
