// The resolved XNNPACK as the exporter records it (export.json "xnnpack", XNNPACK_ROOT's
// default in the export's CMakeLists.txt), so callers fill ExportOptions in one line.
#pragma once

#include "export/exporter.h"
#include "xnnpack_resolve.h"

namespace embark::xnnpack {

inline exporter::XnnpackLink exportLink(const XnnpackResolution& r) {
    exporter::XnnpackLink l;
    l.kind = r.kindId().toStdString();
    l.path = r.path.toStdString();
    l.root = r.rootForExport().toStdString();
    l.commit = r.commit.toStdString();
    l.api = r.api.toStdString();
    return l;
}

} // namespace embark::xnnpack
