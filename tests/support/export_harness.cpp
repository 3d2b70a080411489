#include "export_harness.h"

#include "export_harness_code.h"
#include "test_paths.h"

#include "targets/board.h"
#include "targets/toolchain.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace embark::test {

Expected<HarnessTarget> harnessTarget(const QString& boardId, bool upstream) {
    auto board = targets::findBoard(boardId);
    if (!board) return board.error();
    HarnessTarget t;
    t.arch = board->arch;
    t.exportOptions.board = boardId.toStdString();
    t.exportOptions.force = true;
    if (!board->isHost()) {
        auto toolchain = targets::toolchainFor(*board);
        if (!toolchain) return toolchain.error();
        if (Status ok = targets::checkAvailable(*toolchain); !ok)
            return makeError(ErrorKind::Unsupported, ok.error().message);
        if (Status ok = targets::checkRunnerAvailable(*board); !ok)
            return makeError(ErrorKind::Unsupported, ok.error().message);
        t.exportOptions.arch = t.arch.toStdString();
        t.exportOptions.targetFlags = board->cflags.join(' ').toStdString();
        t.exportOptions.toolchainFile = toolchain->file;
        t.harness.cmakeArgs = toolchain->cmakeArguments();
        t.harness.execPrefix = board->runner.execPrefix;
    }
    if (upstream) {
        const QString tree = sharedXnnpackTree(t.arch);
        if (tree.isEmpty())
            return makeError(ErrorKind::Unsupported,
                             "../shared/xnnpack/prebuilt/" + t.arch.toStdString() +
                                 " is absent: the upstream-XNNPACK rows run only where it exists");
        t.exportOptions.havePrebuiltXnnpack = true;
        t.harness.cmakeArgs << "-DXNNPACK_ROOT=" + tree;
    }
    return t;
}

const char* harnessStatusName(HarnessStatus s) {
    switch (s) {
    case HarnessStatus::Ok: return "ok";
    case HarnessStatus::BuildFailed: return "build failed";
    case HarnessStatus::InitFailed: return "init failed";
    case HarnessStatus::Crashed: return "crashed";
    case HarnessStatus::NotRun: return "not run";
    }
    return "?";
}

namespace {

// One model as the harness sees it: its code with the API include redirected, its blobs
// with absolute paths, and the indices of its sample-input / expected-output symbols.
struct PreparedModel {
    QString exportDir;
    std::string modelCpp;
    std::string blobs;
    std::vector<std::string> symbols; // embark_weights, embark_input_0, ...
    bool usesXnnpack = false;
};

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Writes only when the content changed, so ninja recompiles only what changed.
Status writeIfChanged(const QString& path, const std::string& text) {
    const QByteArray bytes = QByteArray::fromStdString(text);
    if (QFileInfo::exists(path) && readAll(path) == bytes) return {};
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size())
        return makeError(ErrorKind::External, "cannot write '" + path.toStdString() + "'");
    return {};
}

// Mirrors an export's kernel folder into the harness folder (files written only when changed,
// files no longer there removed). Every harness of a target then compiles its kernels under the
// same relative paths, so ccache (CCACHE_BASEDIR) serves the objects another shard or suite built.
Status mirrorKernels(const QString& from, const QString& to) {
    const QDir source(from);
    std::set<QString> kept;
    QDirIterator files(from, QDir::Files, QDirIterator::Subdirectories);
    while (files.hasNext()) {
        const QString rel = source.relativeFilePath(files.next());
        kept.insert(rel);
        EMBARK_TRY(writeIfChanged(to + "/" + rel, readAll(from + "/" + rel).toStdString()));
    }
    const QDir target(to);
    QDirIterator old(to, QDir::Files, QDirIterator::Subdirectories);
    while (old.hasNext()) {
        const QString path = old.next();
        if (!kept.count(target.relativeFilePath(path))) QFile::remove(path);
    }
    return {};
}

Expected<PreparedModel> prepare(const QString& exportDir) {
    PreparedModel m;
    m.exportDir = QFileInfo(exportDir).absoluteFilePath();
    if (m.exportDir.contains('"') || m.exportDir.contains('\\'))
        return makeError(ErrorKind::Usage,
                         "export folder '" + m.exportDir.toStdString() + "' has a quote or backslash");
    m.modelCpp = readAll(m.exportDir + "/src/model.cpp").toStdString();
    m.blobs = readAll(m.exportDir + "/src/blobs.S.in").toStdString();
    if (m.modelCpp.empty() || m.blobs.empty())
        return makeError(ErrorKind::InvalidInput, "'" + m.exportDir.toStdString() +
                                                      "' is not an export folder (no src/model.cpp or src/blobs.S.in)");
    const std::string include = "#include \"model_api.h\"";
    const size_t at = m.modelCpp.find(include);
    if (at == std::string::npos)
        return makeError(ErrorKind::InvalidInput,
                         m.exportDir.toStdString() + "/src/model.cpp does not include model_api.h");
    // model_api.h has #pragma once; the harness declares the API once per renamed namespace.
    m.modelCpp.replace(at, include.size(), "#include \"harness_model_api.inc\"");
    for (size_t p = m.blobs.find("@EMBARK_EXPORT_DIR@"); p != std::string::npos;
         p = m.blobs.find("@EMBARK_EXPORT_DIR@", p))
        m.blobs.replace(p, 19, m.exportDir.toStdString());
    m.symbols = {"embark_weights", "embark_weights_end"};
    static const QRegularExpression data("embark_(input|expected)_(\\d+)\\[\\]");
    for (auto it = data.globalMatch(QString::fromStdString(m.modelCpp)); it.hasNext();)
        m.symbols.push_back(it.next().captured(0).chopped(2).toStdString());
    // The assembler's dependency file does not list .incbin files: a hash of them in the text
    // makes ninja reassemble when a re-export changed the data behind the same paths.
    QCryptographicHash hash(QCryptographicHash::Sha1);
    QStringList blobFiles{m.exportDir + "/src/weights.bin"};
    for (const QString& f : QDir(m.exportDir + "/data").entryList({"*.bin"}, QDir::Files, QDir::Name))
        blobFiles << m.exportDir + "/data/" + f;
    for (const QString& f : blobFiles) {
        QFile file(f);
        if (file.open(QIODevice::ReadOnly)) hash.addData(&file);
    }
    m.blobs = "/* data hash " + hash.result().toHex().toStdString() + " */\n" + m.blobs;
    m.usesXnnpack = m.modelCpp.find("#include \"embark_xnnpack.h\"") != std::string::npos;
    return m;
}

std::string defines(const PreparedModel& m, int k, bool undef) {
    std::string s = undef ? "#undef embark_model\n" : "#define embark_model embark_model_" + std::to_string(k) + "\n";
    for (const std::string& sym : m.symbols)
        s += undef ? "#undef " + sym + "\n" : "#define " + sym + " " + sym + "_" + std::to_string(k) + "\n";
    return s;
}

struct Layout {
    std::vector<std::vector<int>> units; // model indices per translation unit
    std::set<int> excluded;              // models whose code does not compile
};

std::string unitName(const std::vector<int>& unit) {
    return "unit_" + std::to_string(unit.front()) + "_" + std::to_string(unit.size());
}

Status generate(const QString& dir, const std::vector<PreparedModel>& models, const Layout& layout,
                const HarnessOptions& o, const QString& kernelsDir, const QString& xnnDir) {
    std::string api = readAll(models.front().exportDir + "/src/model_api.h").toStdString();
    const size_t once = api.find("#pragma once");
    if (once != std::string::npos) api.erase(once, 12);
    EMBARK_TRY(writeIfChanged(dir + "/models/harness_model_api.inc", api));
    EMBARK_TRY(writeIfChanged(dir + "/output_compact.h",
                              readAll(models.front().exportDir + "/src/output_compact.h").toStdString()));

    std::string sources;
    for (const auto& unit : layout.units) {
        std::string cpp = "// Generated by Embark's export harness: models with renamed symbols.\n";
        std::string asmText = "/* Generated by Embark's export harness: the models' weights and sample data. */\n";
        for (int k : unit) {
            const PreparedModel& m = models[static_cast<size_t>(k)];
            EMBARK_TRY(writeIfChanged(dir + "/models/model_" + QString::number(k) + ".cpp", m.modelCpp));
            cpp += defines(m, k, false) + "#include \"../models/model_" + std::to_string(k) + ".cpp\"\n" +
                   defines(m, k, true);
            asmText += defines(m, k, false) + m.blobs + "\n" + defines(m, k, true);
        }
        const std::string name = unitName(unit);
        EMBARK_TRY(writeIfChanged(dir + "/units/" + QString::fromStdString(name) + ".cpp", cpp));
        EMBARK_TRY(writeIfChanged(dir + "/units/" + QString::fromStdString(name) + ".S", asmText));
        sources += "  units/" + name + ".cpp units/" + name + ".S\n";
    }

    std::string main = harness_code::runnerPrologue();
    std::string specs, table = "const ModelEntry kModels[] = {\n";
    for (size_t k = 0; k < models.size(); ++k) {
        const std::string K = std::to_string(k);
        if (layout.excluded.count(static_cast<int>(k))) {
            table += "    {" + K + ", nullptr},\n";
            continue;
        }
        main += "#define embark_model embark_model_" + K +
                "\n#include \"models/harness_model_api.inc\"\n#undef embark_model\n";
        std::string spec = harness_code::specFunction();
        for (size_t p = spec.find("@K@"); p != std::string::npos; p = spec.find("@K@", p)) spec.replace(p, 3, K);
        specs += spec;
        table += "    {" + K + ", spec_" + K + "},\n";
    }
    if (layout.excluded.size() == models.size()) table += "    {-1, nullptr},\n";
    main += "\n" + specs + "\n" + table + "};\n" + harness_code::runnerMain();
    EMBARK_TRY(writeIfChanged(dir + "/main.cpp", main));

    bool xnn = false;
    for (size_t k = 0; k < models.size(); ++k)
        xnn = xnn || (models[k].usesXnnpack && !layout.excluded.count(static_cast<int>(k)));
    std::string cm = "# Generated by Embark's export harness: many exports linked into one binary.\n"
                     "cmake_minimum_required(VERSION 3.16)\nproject(embark_export_harness LANGUAGES C CXX ASM)\n"
                     "set(CMAKE_CXX_STANDARD 17)\nset(CMAKE_CXX_STANDARD_REQUIRED ON)\nset(CMAKE_BUILD_TYPE Release)\n"
                     "set(CMAKE_CXX_FLAGS_RELEASE \"-O2 -DNDEBUG\")\nfind_package(Threads REQUIRED)\n";
    cm += "file(GLOB _kernels CONFIGURE_DEPENDS \"" + kernelsDir.toStdString() +
          "/*.cpp\")\n"; // a kernel file added since the last run is built too
    cm += "add_library(harness_kernels STATIC ${_kernels})\ntarget_compile_options(harness_kernels PRIVATE -O3)\n";
    cm += "target_include_directories(harness_kernels PUBLIC \"" + kernelsDir.toStdString() + "\")\n";
    cm += "target_link_libraries(harness_kernels PUBLIC Threads::Threads)\n";
    cm += "add_executable(harness main.cpp\n" + sources + ")\n";
    cm += "file(GLOB _units \"${CMAKE_CURRENT_SOURCE_DIR}/units/*.cpp\")\n";
    cm +=
        "set_source_files_properties(${_units} PROPERTIES COMPILE_OPTIONS \"" + o.modelFlags.toStdString() + ";-w\")\n";
    cm += "target_link_libraries(harness PRIVATE harness_kernels)\n";
    if (xnn) cm += "include(\"" + xnnDir.toStdString() + "/xnnpack.cmake\")\nembark_link_xnnpack(harness)\n";
    return writeIfChanged(dir + "/CMakeLists.txt", cm);
}

struct ProcessOutput {
    int exitCode = -1;
    bool crashed = false, timedOut = false, started = true;
    QString text;
};

ProcessOutput runTool(const QString& program, const QStringList& args, const QString& workDir, int timeoutMs) {
    QProcess p;
    p.setWorkingDirectory(workDir);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    ProcessOutput r;
    if (!p.waitForStarted()) {
        r.started = false;
        r.text = p.errorString();
        return r;
    }
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.timedOut = true;
    }
    r.text = QString::fromLocal8Bit(p.readAll());
    r.crashed = p.exitStatus() == QProcess::CrashExit;
    r.exitCode = p.exitCode();
    return r;
}

// Maps each FAILED ninja edge to the compiler's message printed after it.
std::map<QString, QString> failedEdges(const QString& log) {
    std::map<QString, QString> failed;
    QString current;
    for (const QString& line : log.split('\n')) {
        if (line.startsWith("FAILED: ")) {
            current = line.mid(8).trimmed();
            failed[current];
            continue;
        }
        if (line.startsWith('[') || line.startsWith("ninja: ")) {
            current.clear();
            continue;
        }
        if (!current.isEmpty() && failed[current].size() < 4000) failed[current] += line + "\n";
    }
    return failed;
}

// The compiler's first error lines, for a readable message.
std::string firstErrors(const QString& message) {
    QStringList keep;
    for (const QString& line : message.split('\n'))
        if (line.contains("error") && keep.size() < 3) keep << line.trimmed();
    return (keep.isEmpty() ? message.left(600) : keep.join(" | ")).toStdString();
}

Status build(const QString& dir, const std::vector<PreparedModel>& models, Layout& layout, const HarnessOptions& o,
             const QString& kernelsDir, const QString& xnnDir, std::vector<HarnessResult>& results) {
    for (int round = 0; round < 6; ++round) {
        EMBARK_TRY(generate(dir, models, layout, o, kernelsDir, xnnDir));
        if (!QFileInfo::exists(dir + "/build/build.ninja")) {
            QStringList configure{"-S", dir, "-B", dir + "/build", "-G", "Ninja"};
            // Hundreds of exports compile the same kernels and models run after run: ccache
            // (when installed; scripts/test.sh sets CCACHE_BASEDIR) keeps them across runs.
            if (!QStandardPaths::findExecutable("ccache").isEmpty())
                configure << "-DCMAKE_C_COMPILER_LAUNCHER=ccache"
                          << "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache";
            const ProcessOutput c = runTool("cmake", configure + o.cmakeArgs, dir, o.timeoutMs);
            if (c.exitCode != 0 || c.crashed || c.timedOut) {
                QDir(dir + "/build").removeRecursively();
                return makeError(ErrorKind::External, "configuring the export harness in '" + dir.toStdString() +
                                                          "' failed:\n" + c.text.right(3000).toStdString());
            }
        }
        if (o.log)
            o.log(QStringLiteral("harness: building %1 model(s) in %2 unit(s)")
                      .arg(models.size() - layout.excluded.size())
                      .arg(layout.units.size()));
        const ProcessOutput b = runTool(
            "ninja", {"-C", dir + "/build", "-k", "0", "-j", QString::number(std::max(1, o.jobs))}, dir, o.timeoutMs);
        if (b.exitCode == 0 && !b.crashed && !b.timedOut) return {};
        if (b.timedOut || !b.started)
            return makeError(ErrorKind::External, "building the export harness timed out or could not start ninja");
        const auto failed = failedEdges(b.text);
        std::vector<std::vector<int>> units;
        bool progress = false;
        for (const auto& unit : layout.units) {
            auto it = std::find_if(failed.begin(), failed.end(), [&](const auto& f) {
                return f.first.contains("units/" + QString::fromStdString(unitName(unit)) + ".");
            });
            if (it == failed.end()) {
                units.push_back(unit);
                continue;
            }
            progress = true;
            if (unit.size() == 1) { // this model's code does not compile
                layout.excluded.insert(unit.front());
                HarnessResult& r = results[static_cast<size_t>(unit.front())];
                r.status = HarnessStatus::BuildFailed;
                // Name the export's own file (same line numbers: one include line was swapped).
                QString message = it->second;
                message.replace(dir + "/units/../models/model_" + QString::number(unit.front()) + ".cpp",
                                models[static_cast<size_t>(unit.front())].exportDir + "/src/model.cpp");
                r.message = firstErrors(message);
                continue;
            }
            for (int k : unit) units.push_back({k}); // compile one by one to find the culprit
        }
        layout.units = units;
        if (!progress)
            return makeError(ErrorKind::External, "building the export harness in '" + dir.toStdString() +
                                                      "' failed outside the models:\n" +
                                                      b.text.right(4000).toStdString());
        if (layout.units.empty()) return {};
    }
    return makeError(ErrorKind::External, "the export harness did not build after 6 rounds");
}

Expected<ir::Tensor> readFloats(const QString& file, const QJsonArray& shape) {
    std::vector<int64_t> dims;
    for (const auto& d : shape) dims.push_back(static_cast<int64_t>(d.toDouble()));
    const ir::Shape s(dims);
    const QByteArray bytes = readAll(file);
    if (static_cast<size_t>(bytes.size()) != static_cast<size_t>(s.numel()) * sizeof(float))
        return makeError(ErrorKind::External, "'" + file.toStdString() + "' holds " + std::to_string(bytes.size()) +
                                                  " bytes, shape " + s.str() + " needs " +
                                                  std::to_string(s.numel() * 4));
    return ir::Tensor::fromBytes(ir::DType::Float32, s, bytes.constData(), static_cast<size_t>(bytes.size()));
}

Status run(const QString& dir, const HarnessOptions& o, std::vector<HarnessResult>& results) {
    QDir(dir + "/out").removeRecursively();
    QDir(dir + "/dump").removeRecursively();
    int from = 0;
    for (int attempt = 0; attempt <= static_cast<int>(results.size()); ++attempt) {
        QStringList args{"--from", QString::number(from), "--out", dir + "/out"};
        if (o.dumpLayers) args << "--dump" << dir + "/dump";
        const QStringList command = o.execPrefix + QStringList{dir + "/build/harness"} + args;
        const ProcessOutput p = runTool(command.front(), command.mid(1), dir, o.timeoutMs);
        if (!p.started) return makeError(ErrorKind::External, "cannot start the harness: " + p.text.toStdString());
        int current = -1;
        bool done = false;
        for (const QString& line : p.text.split('\n')) {
            if (!line.startsWith('{')) continue;
            const QJsonObject j = QJsonDocument::fromJson(line.toUtf8()).object();
            const QString type = j["type"].toString();
            const int model = j["model"].toInt(-1);
            if (type == "done") {
                done = true;
                continue;
            }
            if (model < 0 || model >= static_cast<int>(results.size())) continue;
            HarnessResult& r = results[static_cast<size_t>(model)];
            if (type == "start")
                current = model;
            else if (type == "result") {
                current = -1;
                r.status = j["ok"].toBool() ? HarnessStatus::Ok : HarnessStatus::InitFailed;
                r.message = j["message"].toString().toStdString();
            } else if (type == "output") {
                HarnessOutput out;
                out.name = j["name"].toString().toStdString();
                out.maxAbs = j["max_abs"].toDouble();
                out.maxRef = j["max_ref"].toDouble();
                out.finite = j["finite"].toBool();
                auto data = readFloats(j["file"].toString(), j["shape"].toArray());
                if (!data) return data.error();
                out.data = *data;
                r.outputs.push_back(std::move(out));
            } else if (type == "layer") {
                HarnessLayer l;
                l.index = j["index"].toInt();
                l.node = j["node"].toString().toStdString();
                l.lib = j["lib"].toString().toStdString();
                for (const QString& p : j["provenance"].toString().split(',', Qt::SkipEmptyParts))
                    l.provenance.push_back(p.toStdString());
                l.value = j["value"].toString().toStdString();
                auto data = readFloats(j["file"].toString(), j["shape"].toArray());
                if (!data) return data.error();
                l.data = *data;
                r.layers.push_back(std::move(l));
            }
        }
        if (done && !p.crashed && p.exitCode == 0) return {};
        if (current < 0)
            return makeError(ErrorKind::External, "the harness stopped between models (exit " +
                                                      std::to_string(p.exitCode) + "):\n" +
                                                      p.text.right(2000).toStdString());
        HarnessResult& r = results[static_cast<size_t>(current)];
        r.status = HarnessStatus::Crashed;
        r.outputs.clear();
        r.message =
            p.timedOut ? "timed out" : (p.crashed ? "crashed (signal)" : "exited with " + std::to_string(p.exitCode));
        r.message += ": " + p.text.right(400).toStdString();
        from = current + 1;
    }
    return makeError(ErrorKind::External, "the harness kept crashing");
}

} // namespace

Expected<std::vector<HarnessResult>> runExportHarness(const std::vector<HarnessEntry>& entries,
                                                      const HarnessOptions& o) {
    std::vector<HarnessResult> results(entries.size());
    if (entries.empty()) return results;
    const QString dir = QFileInfo(o.workDir).absoluteFilePath();
    if (!QDir().mkpath(dir)) return makeError(ErrorKind::External, "cannot create '" + dir.toStdString() + "'");
    std::vector<PreparedModel> models;
    QString kernelsDir, xnnDir;
    for (size_t k = 0; k < entries.size(); ++k) {
        results[k].id = entries[k].id;
        auto m = prepare(entries[k].exportDir);
        if (!m) return m.error();
        if (kernelsDir.isEmpty()) kernelsDir = m->exportDir + "/kernels/portable";
        if (xnnDir.isEmpty() && m->usesXnnpack) xnnDir = m->exportDir + "/kernels/xnnpack";
        models.push_back(std::move(*m));
    }
    if (!kernelsDir.isEmpty()) {
        EMBARK_TRY(mirrorKernels(kernelsDir, dir + "/kernels/portable"));
        kernelsDir = dir + "/kernels/portable";
    }
    if (!xnnDir.isEmpty()) {
        EMBARK_TRY(mirrorKernels(xnnDir, dir + "/kernels/xnnpack"));
        xnnDir = dir + "/kernels/xnnpack";
    }
    Layout layout;
    const size_t per = static_cast<size_t>(std::max(1, o.modelsPerUnit));
    for (size_t k = 0; k < models.size(); k += per) {
        std::vector<int> unit;
        for (size_t i = k; i < std::min(models.size(), k + per); ++i) unit.push_back(static_cast<int>(i));
        layout.units.push_back(unit);
    }
    EMBARK_TRY(build(dir, models, layout, o, kernelsDir, xnnDir, results));
    if (layout.excluded.size() == models.size()) return results;
    EMBARK_TRY(run(dir, o, results));
    return results;
}

std::string compareHarnessResults(const std::vector<HarnessResult>& results,
                                  const std::vector<std::vector<ir::Tensor>>& expected, double tol) {
    if (results.size() != expected.size())
        return std::to_string(results.size()) + " results for " + std::to_string(expected.size()) + " exports";
    for (size_t i = 0; i < results.size(); ++i) {
        const HarnessResult& r = results[i];
        if (r.status != HarnessStatus::Ok) return r.id + ": " + r.message;
        if (r.outputs.size() != expected[i].size())
            return r.id + ": " + std::to_string(r.outputs.size()) + " outputs, expected " +
                   std::to_string(expected[i].size());
        for (size_t k = 0; k < r.outputs.size(); ++k) {
            const HarnessOutput& out = r.outputs[k];
            if (!out.finite || out.maxAbs > tol * (1 + out.maxRef))
                return r.id + " " + out.name + ": max |diff| vs the reference " + std::to_string(out.maxAbs);
            const ir::Tensor& want = expected[i][k];
            if (out.data.shape() != want.shape())
                return r.id + " " + out.name + ": shape " + out.data.shape().str() + ", expected " + want.shape().str();
            for (int64_t e = 0; e < want.numel(); ++e)
                if (!(std::fabs(out.data.at(e) - want.at(e)) <= tol * (1 + std::fabs(want.at(e)))))
                    return r.id + " " + out.name + " element " + std::to_string(e) + ": " +
                           std::to_string(out.data.at(e)) + ", expected " + std::to_string(want.at(e));
        }
    }
    return {};
}

} // namespace embark::test
