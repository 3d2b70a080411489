# Cross-compiles for 64-bit RISC-V Linux with Debian's clang-19 and lld-19 against the GNU
# cross libraries of g++-riscv64-linux-gnu (found by clang's --target, so no --sysroot).
# Clang 19 auto-vectorizes for RVV 1.0, which GCC 12 does not.
# Board flags (-march, -mabi) come in as -DEMBARK_TARGET_FLAGS="...".
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR riscv64)

set(CMAKE_C_COMPILER clang-19)
set(CMAKE_CXX_COMPILER clang++-19)
set(CMAKE_C_COMPILER_TARGET riscv64-linux-gnu)
set(CMAKE_CXX_COMPILER_TARGET riscv64-linux-gnu)
set(CMAKE_ASM_COMPILER_TARGET riscv64-linux-gnu)

set(EMBARK_TARGET_FLAGS "-march=rv64gcv -mabi=lp64d" CACHE STRING "CPU flags of the target board")
# try_compile projects re-read this file: hand them the board flags too.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES EMBARK_TARGET_FLAGS)

set(CMAKE_C_FLAGS_INIT "${EMBARK_TARGET_FLAGS}")
set(CMAKE_CXX_FLAGS_INIT "${EMBARK_TARGET_FLAGS}")
set(CMAKE_ASM_FLAGS_INIT "${EMBARK_TARGET_FLAGS}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-fuse-ld=lld")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-fuse-ld=lld")

set(CMAKE_FIND_ROOT_PATH /usr/riscv64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
