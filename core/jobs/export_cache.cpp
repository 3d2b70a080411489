#include "export_cache.h"

namespace embark::jobs {

std::shared_ptr<ExportCache::Entry> ExportCache::entry(const QString& key) {
    std::lock_guard lock(m_mutex);
    auto& e = m_entries[key];
    if (!e) e = std::make_shared<Entry>();
    return e;
}

void ExportCache::noteBuilt() {
    std::lock_guard lock(m_mutex);
    ++m_builds;
}

int ExportCache::builds() const {
    std::lock_guard lock(m_mutex);
    return m_builds;
}

} // namespace embark::jobs
