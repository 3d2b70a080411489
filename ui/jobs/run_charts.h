// Converts a benchmark run (a finished benchmark job's result, or a run from the store) into
// the plain data the charts draw.
#pragma once

#include "charts/charts_panel.h"

namespace embark::jobs {
struct BenchResult;
}
namespace embark::store {
struct RunRecord;
}

namespace embark::ui {

// Per-layer timings (ms, coloured by the library that ran them), per-layer accuracy and the
// latency of every timed iteration; the first divergent layer from the run's extra data.
RunCharts runChartsFromRecord(const store::RunRecord& record);
// As above, with the first divergent layer as the pipeline found it.
RunCharts runChartsFromBench(const jobs::BenchResult& result);

} // namespace embark::ui
