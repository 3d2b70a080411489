// The kernel libraries an export can use. Each one lives in its own folder under
// core/export/libraries/<id>/: its support table (<id>_library.cpp: which ops, under which
// constraints, in which layout, which activations it fuses, where it runs) beside the emitter
// that writes its layers, so adding an op to a library is one folder's change. The table's
// type and its constraint checks are targets::KernelLibrary (core/targets/kernel_library.h),
// which the passes take as a parameter.
#pragma once

#include "targets/kernel_library.h"

#include <string>
#include <string_view>
#include <vector>

namespace embark::exporter {

// The support tables, defined in libraries/<id>/<id>_library.cpp.
targets::KernelLibrary portableKernelLibrary();
targets::KernelLibrary xnnpackKernelLibrary();

// Every library, portable first.
const std::vector<targets::KernelLibrary>& kernelLibraries();
const targets::KernelLibrary* findKernelLibrary(std::string_view id);
const targets::KernelLibrary& portableLibrary();
std::vector<std::string> kernelLibraryIds();
// The CPU architectures Embark targets.
const std::vector<std::string>& kernelLibraryArchitectures();

// Usage error unless `id` names a library available on `arch` ("xnnpack on riscv64 needs a
// tree: run embark-cli xnnpack build --arch riscv64, or set XNNPACK_ROOT").
Expected<const targets::KernelLibrary*> resolveKernelLibrary(const std::string& id, const std::string& arch,
                                                             bool havePrebuiltTree = false);

} // namespace embark::exporter
