// libFuzzer target: arbitrary bytes as a board file (boards/*.json) through targets::parseBoard.
#include "targets/board.h"

#include <QByteArray>
#include <QString>

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const QByteArray json(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    auto board = embark::targets::parseBoard(json, QStringLiteral("fuzz-board.json"));
    (void)board;
    return 0;
}
