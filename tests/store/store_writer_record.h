// The record the crash-safety writer stores for sequence number `seq`: deterministic, so the
// test can rebuild it and check that every committed run came back intact.
#pragma once

#include "store/run_record.h"

inline embark::store::RunRecord crashTestRecord(int seq) {
    using namespace embark::store;
    RunRecord r;
    r.fingerprint.modelPath = "crash/model-" + std::to_string(seq) + ".onnx";
    r.fingerprint.modelSha256 = std::string(64, char('a' + seq % 26));
    r.fingerprint.boardId = "sim-k230";
    r.fingerprint.kernelLibrary = seq % 2 ? "xnnpack" : "portable";
    r.fingerprint.threads = 1 + seq % 4;
    r.fingerprint.date = QDateTime::fromMSecsSinceEpoch(1700000000000LL + seq * 1000LL, Qt::UTC);
    // enough rows that a transaction spans many pages, so kills land mid-write
    for (int i = 0; i < 400; ++i) r.latencyNs.push_back(int64_t(seq) * 1000 + (i * 31) % 97);
    for (int i = 0; i < 120; ++i)
        r.layers.push_back({"node_" + std::to_string(i), i % 3 ? "portable" : "xnnpack", double(seq + i)});
    for (int i = 0; i < 60; ++i)
        r.layerAccuracy.push_back({"node_" + std::to_string(i), 1e-6 * i, 1e-7 * seq, 1e-8, 0.999, 90.0 + i});
    r.outputAccuracy.push_back({"logits", 1e-6, 1e-7, 1e-8, 1.0, 120});
    r.extra = QJsonObject{{"seq", seq}};
    return r;
}
