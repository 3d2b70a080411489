// Internal to the ONNX Runtime recipe's source files (ort_pipeline.cpp: resolve, tools, prepare,
// deploy; ort_run_step.cpp: run; ort_results.cpp: compare, store): the helpers they share.
#pragma once

#include "pipeline.h"

#include <QString>
#include <QStringList>

namespace embark::jobs::detail {

Error external(const QString& m);

// A name with every character but letters, digits, '-' and '_' replaced by '_'.
QString safeName(const QString& s);

Error cancelled(const char* when);

// Runs a command on the board without the exec prefix; errors name the board.
Expected<deploy::ExecResult> execOnBoard(PipelineState& s, StepContext& c, const QStringList& argv,
                                         const QStringList& env = {}, bool streamLog = false);

} // namespace embark::jobs::detail
