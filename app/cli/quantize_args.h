// `embark-cli quantize`'s options: declared on a parser, read and checked into QuantizeArgs
// (usage errors are status 2 and print the synopsis' hint).
#pragma once

#include "cli.h"
#include "jobs/calibration_data.h"
#include "passes/quantize_static.h"

#include <QCommandLineParser>

namespace embark::cli {

struct QuantizeArgs {
    QString model, output;
    QStringList calib;
    passes::CalibrationOptions calibration;
    passes::QuantizeExclusions exclude;
    jobs::ImageOptions image;
    bool imageOptionsGiven = false; // --resize, --mean, --std or --layout
    bool report = false, json = false;
};

void addQuantizeOptions(QCommandLineParser& parser);
extern const char* const kQuantizeSynopsis;

// -1 when `args` is filled, else the exit status (usage error printed).
int readQuantizeArgs(const QCommandLineParser& parser, Io& io, QuantizeArgs* args);

} // namespace embark::cli
