#include "deployment_target.h"

namespace embark::exporter {

ExportOptions exportOptions(const DeploymentTarget& t) {
    ExportOptions o;
    o.library = t.library;
    o.arch = t.arch;
    o.board = t.board.id.toStdString();
    o.targetFlags = t.board.cflags.join(' ').toStdString();
    o.toolchainFile = t.toolchain.file;
    o.threadsMax = t.threadsMax;
    o.recipe = t.recipe;
    o.opOverrides = t.opOverrides;
    o.nodeOverrides = t.nodeOverrides;
    o.havePrebuiltXnnpack = t.xnnpackAvailable();
    o.concatInPlace = t.concatInPlace;
    o.dtypePolicy = t.dtypePolicy;
    o.xnnpack = t.xnnpack;
    o.measured = t.measured;
    return o;
}

PlanOptions planOptions(const DeploymentTarget& t) { return planOptions(exportOptions(t)); }

} // namespace embark::exporter
