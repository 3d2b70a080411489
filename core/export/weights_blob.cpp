#include "weights_blob.h"

namespace embark::exporter {

int64_t WeightsBlob::append(const void* data, int64_t bytes) {
    const int64_t offset = (m_bytes.size() + 63) / 64 * 64;
    m_bytes.resize(offset + bytes, '\0');
    if (bytes) std::memcpy(m_bytes.data() + offset, data, static_cast<size_t>(bytes));
    return offset;
}

int64_t WeightsBlob::add(const std::string& key, const ir::Tensor& tensor) {
    auto it = m_offsets.find(key);
    if (it != m_offsets.end()) return it->second;
    const int64_t offset = append(tensor.data(), static_cast<int64_t>(tensor.byteSize()));
    m_offsets[key] = offset;
    return offset;
}

int64_t WeightsBlob::addFloats(const std::string& key, const float* data, int64_t count) {
    auto it = m_offsets.find(key);
    if (it != m_offsets.end()) return it->second;
    const int64_t offset = append(data, count * static_cast<int64_t>(sizeof(float)));
    m_offsets[key] = offset;
    return offset;
}

} // namespace embark::exporter
