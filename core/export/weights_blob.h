// The export's parameter blob: every constant the generated code reads, each 64-byte aligned,
// in one file that the export links in with .incbin (never as giant C arrays).
#pragma once

#include "ir/tensor.h"

#include <QByteArray>

#include <cstdint>
#include <map>
#include <string>

namespace embark::exporter {

class WeightsBlob {
public:
    // Adds a tensor (stored once per key) and returns its byte offset.
    int64_t add(const std::string& key, const ir::Tensor& tensor);
    // Adds raw float data (e.g. weights permuted for a layout) under a new key.
    int64_t addFloats(const std::string& key, const float* data, int64_t count);
    const QByteArray& bytes() const { return m_bytes; }
    int64_t size() const { return m_bytes.size(); }

private:
    int64_t append(const void* data, int64_t bytes);
    QByteArray m_bytes;
    std::map<std::string, int64_t> m_offsets;
};

} // namespace embark::exporter
