#include "exporter.h"

#include "emit_context.h"
#include "model_source.h"
#include "deployment_plan.h"
#include "fused_blocks.h"
#include "kernel_libraries.h"
#include "manifest.h"
#include "memory_planner.h"
#include "slot_template.h"
#include "passes/pass_manager.h"
#include "targets/source_tree.h"
#include "reference/interpreter.h"
#include "staged_folder.h"
#include "targets/kernel_library.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSysInfo>

#include <memory>
#include <random>
#include <vector>

namespace embark::exporter {

PlanOptions planOptions(const ExportOptions& o) {
    PlanOptions p;
    p.library = o.library;
    p.arch = o.arch.empty() ? hostArch() : o.arch;
    p.recipe = o.recipe;
    p.opOverrides = o.opOverrides;
    p.nodeOverrides = o.nodeOverrides;
    p.havePrebuiltXnnpack = o.havePrebuiltXnnpack;
    p.concatInPlace = o.concatInPlace;
    p.dtypePolicy = o.dtypePolicy;
    p.measured = o.measured;
    return p;
}

bool parseDTypePolicy(const std::string& text, DTypePolicy* out) {
    if (text == "int8")
        *out = DTypePolicy::Int8;
    else if (text == "float32")
        *out = DTypePolicy::Float32;
    else
        return false;
    return true;
}

const char* dtypePolicyName(DTypePolicy p) { return p == DTypePolicy::Float32 ? "float32" : "int8"; }

std::string hostArch() {
    const QString cpu = QSysInfo::currentCpuArchitecture();
    if (cpu == "arm64") return "aarch64";
    return cpu.toStdString(); // x86_64, riscv64
}

QString defaultRuntimeDir() {
    const QString env = qEnvironmentVariable("EMBARK_RUNTIME_DIR");
    return env.isEmpty() ? targets::sourceTree() + "/runtime" : env;
}

std::string describeValue(const ir::Value* v) {
    return "'" + v->name + "' (" + std::string(ir::dtypeName(v->dtype)) + ", " + v->shape.str() + ")";
}

std::string replaceAll(std::string s, const std::string& from, const std::string& to) {
    for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
        s.replace(p, from.size(), to);
    return s;
}

namespace {

// The run protocol's element types (model_api.h DType): every numeric type and bool.
bool ioType(ir::DType t) { return t != ir::DType::Undefined && t != ir::DType::Count_; }

Status checkIoTypes(const ir::Graph& g) {
    const char* types = "numeric (float16/32/64, int8/16/32/64, uint8/16/32/64) and bool";
    for (const ir::Value* v : g.inputs())
        if (!ioType(v->dtype))
            return makeError(ErrorKind::Unsupported, "model input " + describeValue(v) + ": exports take " + types +
                                                         " inputs; cast it in the model");
    for (const ir::Value* v : g.outputs())
        if (!ioType(v->dtype))
            return makeError(ErrorKind::Unsupported,
                             "model output " + describeValue(v) + ": exports give " + types + " outputs");
    return {};
}

} // namespace

Expected<ExportResult> exportModel(const ir::Graph& model, const ExportOptions& options) {
    EMBARK_TRY(checkIoTypes(model));
    auto deployment = buildDeploymentPlan(model, planOptions(options));
    if (!deployment) return deployment.error();
    return writeExport(model, **deployment, options);
}

Expected<ExportResult> writeExport(const ir::Graph& model, const DeploymentPlan& dp, const ExportOptions& optionsIn) {
    ExportOptions o = optionsIn;
    if (o.arch.empty()) o.arch = hostArch();
    if (o.runtimeDir.isEmpty()) o.runtimeDir = defaultRuntimeDir();
    EMBARK_TRY(checkIoTypes(model));
    const Adaptation* adapted = &dp.adaptation;
    const MemoryPlan* plan = &dp.memory;
    const std::vector<FusedBlock>& blocks = dp.fusedBlocks;

    const auto samples = exportSampleInputs(model, o.sampleInputs);
    // The expected outputs embedded for run_export --check (see DeploymentPlan::referenceGraph).
    auto reference = reference::run(dp.referenceGraph(model), samples);
    if (!reference) return reference.error();
    // The export writes the planned shapes; the reference computes its own on the sample. They
    // must agree, never silently differ: the importer checks declared shapes, so what is left
    // is a shape that depends on input values (a window length or Range bound fed at run time),
    // which an export, whose shapes are fixed, cannot follow.
    // An output whose length depends on the data (dynamic_length.h) must fit in its capacity.
    const ir::Graph& planned = adapted->graph;
    const auto fits = [&](size_t k) {
        const ir::Shape& got = reference->outputs[k].shape();
        const ir::Value* v = k < planned.outputs().size() ? planned.outputs()[k] : nullptr;
        auto d = v ? dp.dynamicLengths.find(v->name) : dp.dynamicLengths.end();
        if (d == dp.dynamicLengths.end() || got.rank() != v->shape.rank()) return false;
        for (size_t i = 0; i < got.rank(); ++i)
            if (i == static_cast<size_t>(d->second.axis) ? got[i] > v->shape[i] : got[i] != v->shape[i]) return false;
        return true;
    };
    for (size_t k = 0; k < reference->outputs.size() && k < model.outputs().size(); ++k)
        if (reference->outputs[k].shape() != model.outputs()[k]->shape && !fits(k))
            return makeError(ErrorKind::Unsupported,
                             "model output " + describeValue(model.outputs()[k]) +
                                 ": on the sample input the reference interpreter computes shape " +
                                 reference->outputs[k].shape().str() +
                                 ": its shape depends on input "
                                 "values, and exports have fixed shapes; make that input a constant");

    WeightsBlob blob;
    EmitContext ctx(*adapted, *plan, blob);
    ctx.dynamic = dp.dynamicLengths;
    // Named after the file (graph names are often generic, like "torch_jit").
    std::string modelName = model.name.empty() ? "model" : model.name;
    if (auto it = model.metadata.find("path"); it != model.metadata.end() && !it->second.empty())
        modelName = QFileInfo(QString::fromStdString(it->second)).completeBaseName().toStdString();
    std::vector<ir::Shape> expectedShapes; // model_api.h expectedOutputDims: the reference's on the sample
    for (const ir::Tensor& t : reference->outputs) expectedShapes.push_back(t.shape());
    auto emitted = emitModelSource(ctx, adapted->graph, o, modelName, blocks, expectedShapes);
    if (!emitted) return emitted.error();
    // XNNPACK may read up to 16 bytes past a constant operand: pad the blob's end.
    blob.addFloats("__tail_padding", std::vector<float>(16, 0.f).data(), 16);

    auto stagedOrError = StagedFolder::create(o.outDir, o.force);
    if (!stagedOrError) return stagedOrError.error();
    std::unique_ptr<StagedFolder> staged(*stagedOrError);

    // Sample data: model layout, raw little-endian, in each tensor's element type.
    std::string incbins, dataFiles;
    for (size_t k = 0; k < model.inputs().size(); ++k) {
        const ir::Tensor t = samples.at(model.inputs()[k]->name).castTo(model.inputs()[k]->dtype);
        const QString rel = QStringLiteral("data/input_%1.bin").arg(k);
        EMBARK_TRY(staged->writeFile(
            rel, QByteArray(static_cast<const char*>(t.data()), static_cast<qsizetype>(t.byteSize()))));
        incbins += "    .balign 64\n    .global embark_input_" + std::to_string(k) + "\nembark_input_" +
                   std::to_string(k) + ":\n    .incbin \"@EMBARK_EXPORT_DIR@/" + rel.toStdString() + "\"\n";
        dataFiles += ";${CMAKE_CURRENT_SOURCE_DIR}/" + rel.toStdString();
    }
    for (size_t k = 0; k < reference->outputs.size(); ++k) {
        const ir::Tensor t = reference->outputs[k].castTo(model.outputs()[k]->dtype);
        const QString rel = QStringLiteral("data/expected_%1.bin").arg(k);
        EMBARK_TRY(staged->writeFile(
            rel, QByteArray(static_cast<const char*>(t.data()), static_cast<qsizetype>(t.byteSize()))));
        incbins += "    .balign 64\n    .global embark_expected_" + std::to_string(k) + "\nembark_expected_" +
                   std::to_string(k) + ":\n    .incbin \"@EMBARK_EXPORT_DIR@/" + rel.toStdString() + "\"\n";
        dataFiles += ";${CMAKE_CURRENT_SOURCE_DIR}/" + rel.toStdString();
    }

    const QString rt = o.runtimeDir;
    auto cmake = SlotTemplate::load(rt + "/common/CMakeLists.txt.in");
    if (!cmake) return cmake.error();
    auto blobs = SlotTemplate::load(rt + "/common/blobs.S.in");
    if (!blobs) return blobs.error();
    std::string suffix;
    for (char c : modelName) suffix += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    cmake->set("MODEL_NAME", replaceAll(modelName, "\n", " "))
        .set("PROJECT_SUFFIX", suffix.empty() ? "model" : suffix)
        .set("TARGET_FLAGS", replaceAll(replaceAll(o.targetFlags, "\\", ""), "\"", ""))
        .set("XNNPACK_ROOT", replaceAll(replaceAll(o.xnnpack.root, "\\", ""), "\"", ""))
        .set("DATA_FILES", dataFiles.empty() ? "" : dataFiles.substr(1));
    // USES_<ID>: whether the export links each library's runtime.
    for (const targets::KernelLibrary& lib : kernelLibraries())
        cmake->set("USES_" + QString::fromStdString(lib.id).toUpper().toStdString(), ctx.links(lib) ? "ON" : "OFF");
    auto cm = cmake->render();
    if (!cm) return cm.error();
    auto bl = blobs->set("DATA_INCBINS", incbins).render();
    if (!bl) return bl.error();

    const QByteArray weights = blob.bytes();
    EMBARK_TRY(staged->writeFile("CMakeLists.txt", QByteArray::fromStdString(*cm)));
    EMBARK_TRY(staged->writeFile("src/blobs.S.in", QByteArray::fromStdString(*bl)));
    EMBARK_TRY(staged->writeFile("src/model.cpp", QByteArray::fromStdString(emitted->cpp)));
    EMBARK_TRY(staged->writeFile("src/weights.bin", weights));
    EMBARK_TRY(staged->copyFile(rt + "/common/main.cpp", "src/main.cpp"));
    EMBARK_TRY(staged->copyFile(rt + "/common/model_api.h", "src/model_api.h"));
    EMBARK_TRY(staged->copyFile(rt + "/common/output_compact.h", "src/output_compact.h"));
    // The runtime folders of every library the export links, in kernels/<id>/.
    for (const targets::KernelLibrary& lib : kernelLibraries()) {
        if (!ctx.links(lib)) continue;
        const QString dest = "kernels/" + QString::fromStdString(lib.id) + "/";
        for (const std::string& folder : lib.runtimeFolders) {
            const QString dir = rt + "/" + QString::fromStdString(folder);
            for (const QString& f : QDir(dir).entryList({"*.h", "*.cpp", "*.cmake"}, QDir::Files))
                EMBARK_TRY(staged->copyFile(dir + "/" + f, dest + f));
        }
    }
    if (!o.toolchainFile.isEmpty()) {
        // The generic toolchain file caches a default EMBARK_TARGET_FLAGS; the board's flags go
        // into the cache first, so `cmake --toolchain toolchain.cmake` builds for this board
        // (a cache entry that exists is kept), and -DEMBARK_TARGET_FLAGS=... still overrides.
        QFile generic(o.toolchainFile);
        if (!generic.open(QIODevice::ReadOnly))
            return makeError(ErrorKind::External,
                             "cannot read the toolchain file '" + o.toolchainFile.toStdString() + "'");
        const std::string flags = replaceAll(replaceAll(o.targetFlags, "\\", ""), "\"", "");
        QByteArray head;
        if (!flags.empty())
            head = "# This board's CPU flags (export.json target_flags), ahead of the generic file's default.\n"
                   "set(EMBARK_TARGET_FLAGS \"" +
                   QByteArray::fromStdString(flags) + "\" CACHE STRING \"CPU flags of the target board\")\n\n";
        EMBARK_TRY(staged->writeFile("toolchain.cmake", head + generic.readAll()));
    }

    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(QByteArray::fromStdString(emitted->cpp));
    hash.addData(weights);
    ExportResult result;
    result.dir = staged->targetPath();
    result.layers = emitted->layers;
    result.arenaBytes = plan->arenaBytes;
    result.lowerBoundBytes = plan->lowerBoundBytes;
    result.weightsBytes = weights.size();
    result.libraries = adapted->librariesUsed;
    result.partitions = adapted->partitions;
    result.conversions = adapted->conversions;
    result.exportHash = hash.result().toHex().toStdString();
    result.log = dp.passes.stages.empty() ? std::vector<std::string>{} : dp.passes.stages.back().log;

    ManifestInput mi{model, *adapted, *plan, o, result, ctx, blocks};
    EMBARK_TRY(staged->writeFile("export.json", manifestJson(mi)));
    EMBARK_TRY(staged->writeFile("README.md", QByteArray::fromStdString(exportReadme(mi))));
    EMBARK_TRY(staged->commit());
    return result;
}

namespace {

// The values a generated integer input may take: below the dimension it indexes when it feeds
// a Gather's indices (token ids into an embedding), else small non-negative numbers.
int64_t integerSampleLimit(const ir::Value* v) {
    int64_t limit = 0;
    for (const ir::Use& use : v->uses())
        if (use.node->op == ir::OpKind::Gather && use.index == 1 && use.node->input(0)) {
            const ir::Value* data = use.node->input(0);
            const int64_t axis = data->shape.rank() ? data->shape.normAxis(use.node->attrInt("axis", 0)) : 0;
            const int64_t dim = data->shape.rank() ? data->shape[static_cast<size_t>(axis)] : 1;
            limit = limit == 0 ? dim : std::min(limit, dim);
        }
    return limit > 0 ? limit : 4;
}

} // namespace

std::map<std::string, ir::Tensor> exportSampleInputs(const ir::Graph& g,
                                                     const std::map<std::string, ir::Tensor>& given) {
    std::map<std::string, ir::Tensor> in = given;
    std::mt19937 rng(20261129);
    std::uniform_real_distribution<float> dist(0.f, 1.f);
    for (const ir::Value* v : g.inputs()) {
        if (in.count(v->name)) continue;
        std::vector<float> data(static_cast<size_t>(v->shape.numel()));
        if (ir::isFloating(v->dtype)) {
            for (float& x : data) x = dist(rng);
        } else {
            const int64_t limit = v->dtype == ir::DType::Bool ? 2 : integerSampleLimit(v);
            std::uniform_int_distribution<int64_t> ints(0, limit - 1);
            for (float& x : data) x = static_cast<float>(ints(rng));
        }
        in[v->name] = ir::Tensor::fromFloats(v->shape, data).castTo(v->dtype);
    }
    return in;
}

} // namespace embark::exporter
