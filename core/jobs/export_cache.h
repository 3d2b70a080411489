// Exports shared between benchmarks: a sweep builds each (model, target) once and runs that
// binary on every board of the same kind (the same architecture, flags, compiler, library and
// plan options: a simulated K1, an SSH K1 and a LAVA K1 device type share one build). The
// export step of a benchmark whose BenchOptions carry a cache asks it first; the first
// benchmark of a key exports and builds while the others of that key wait, then reuse it.
#pragma once

#include "compile/export_builder.h"
#include "export/exporter.h"

#include <QString>

#include <map>
#include <memory>
#include <mutex>
#include <optional>

namespace embark::jobs {

class ExportCache {
public:
    struct Entry {
        std::mutex mutex; // held by the benchmark exporting and building this key
        std::optional<exporter::ExportResult> exported;
        std::optional<build::BuildResult> built;
        QString builtFor; // the board of the benchmark that built it
    };

    // The entry of a key, made empty the first time.
    std::shared_ptr<Entry> entry(const QString& key);
    // A build finished for an entry (counted once per entry).
    void noteBuilt();
    int builds() const;

private:
    mutable std::mutex m_mutex;
    std::map<QString, std::shared_ptr<Entry>> m_entries;
    int m_builds = 0;
};

} // namespace embark::jobs
