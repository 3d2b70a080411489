#include "kernel_libraries.h"

#include <algorithm>

namespace embark::exporter {

using targets::KernelLibrary;

const std::vector<KernelLibrary>& kernelLibraries() {
    static const std::vector<KernelLibrary> libs{portableKernelLibrary(), xnnpackKernelLibrary()};
    return libs;
}

const KernelLibrary* findKernelLibrary(std::string_view id) {
    for (const KernelLibrary& l : kernelLibraries())
        if (l.id == id) return &l;
    return nullptr;
}

const KernelLibrary& portableLibrary() { return kernelLibraries().front(); }

std::vector<std::string> kernelLibraryIds() {
    std::vector<std::string> ids;
    for (const KernelLibrary& l : kernelLibraries()) ids.push_back(l.id);
    return ids;
}

const std::vector<std::string>& kernelLibraryArchitectures() {
    static const std::vector<std::string> archs{"x86_64", "aarch64", "riscv64"};
    return archs;
}

Expected<const KernelLibrary*> resolveKernelLibrary(const std::string& id, const std::string& arch,
                                                    bool havePrebuiltTree) {
    const KernelLibrary* lib = findKernelLibrary(id);
    if (!lib) {
        std::string known;
        for (const std::string& k : kernelLibraryIds()) known += (known.empty() ? "" : ", ") + k;
        return makeError(ErrorKind::Usage, "unknown kernel library '" + id + "' (known: " + known + ")");
    }
    const auto& archs = kernelLibraryArchitectures();
    if (std::find(archs.begin(), archs.end(), arch) == archs.end())
        return makeError(ErrorKind::Usage, "unknown architecture '" + arch + "' (known: x86_64, aarch64, riscv64)");
    if (!lib->availableOn(arch, havePrebuiltTree)) {
        std::string msg = "kernel library '" + id + "' is not available on " + arch;
        auto& pre = lib->prebuiltArchitectures;
        if (std::find(pre.begin(), pre.end(), arch) != pre.end())
            msg += ": it needs an XNNPACK tree for " + arch + ": run 'embark-cli xnnpack build --arch " + arch +
                   "' (or set XNNPACK_ROOT to a prebuilt tree)";
        msg += "; use --lib portable";
        return makeError(ErrorKind::Unsupported, msg);
    }
    return lib;
}

} // namespace embark::exporter
