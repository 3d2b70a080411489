// libFuzzer target: arbitrary bytes as run_export's JSON-lines output through
// bench::parseRunOutput, plus the per-layer medians computed from what it parsed.
#include "results/run_protocol.h"

#include <QByteArray>

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const QByteArray lines(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const embark::bench::RunOutput run = embark::bench::parseRunOutput(lines);
    (void)run.medianLayers();
    return 0;
}
