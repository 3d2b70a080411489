// Internal to the recipes' source files (pipeline_steps.cpp: the export recipe's steps; the ONNX
// Runtime recipe's ort_pipeline.cpp: resolve, tools, prepare, deploy; ort_run_step.cpp: run;
// ort_results.cpp: compare, store): the helpers they share (pipeline_detail.cpp; execOnBoard in ort_pipeline.cpp).
#pragma once

#include "pipeline.h"
#include "results/metrics.h"
#include "store/run_record.h"

#include <QString>
#include <QStringList>

namespace embark::jobs::detail {

Error external(const QString& m);

// A name with every character but letters, digits, '-' and '_' replaced by '_'.
QString safeName(const QString& s);

Error cancelled(const char* when);

// A raw little-endian tensor file of an export or runner (sample, output, dump) in its element
// type; *ok is false when the file is missing or its size is not the shape's.
ir::Tensor readRawTensor(const QString& path, ir::DType dtype, const ir::Shape& shape, bool* ok);

// One accuracy line of a stored run.
store::AccuracyEntry accuracyEntry(const bench::Accuracy& a);

// Runs a command on the board without the exec prefix; errors name the board.
Expected<deploy::ExecResult> execOnBoard(PipelineState& s, StepContext& c, const QStringList& argv,
                                         const QStringList& env = {}, bool streamLog = false);

} // namespace embark::jobs::detail
