// The int8 kernel cases of quant_cases.h as a standalone program, cross-compiled and run under
// qemu by cross_check.sh (RVV with Clang, aarch64 with GCC), where the int8 register tiles
// differ from the host's. Exit 0 when every byte equals the reference arithmetic.
#include "quant_cases.h"

int main() {
    std::setvbuf(stdout, nullptr, _IONBF, 0); // every line out before a crash under qemu
    const int failures = embark::quant_cases::run_all(true);
    std::printf("int8 kernels: %s (%d failing configurations)\n", failures ? "FAILED" : "all equal", failures);
    return failures ? 1 : 0;
}
