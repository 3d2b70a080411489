# Cross-compiles for 64-bit RISC-V Linux with Debian's riscv64-linux-gnu-g++ (GCC 12: accepts
# -march=rv64gcv but emits scalar code; the baseline the Clang toolchain is measured against).
# Board flags (-march, -mabi) come in as -DEMBARK_TARGET_FLAGS="...".
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR riscv64)

set(CMAKE_C_COMPILER riscv64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER riscv64-linux-gnu-g++)

set(EMBARK_TARGET_FLAGS "-march=rv64gcv -mabi=lp64d" CACHE STRING "CPU flags of the target board")
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES EMBARK_TARGET_FLAGS)

set(CMAKE_C_FLAGS_INIT "${EMBARK_TARGET_FLAGS}")
set(CMAKE_CXX_FLAGS_INIT "${EMBARK_TARGET_FLAGS}")
set(CMAKE_ASM_FLAGS_INIT "${EMBARK_TARGET_FLAGS}")

set(CMAKE_FIND_ROOT_PATH /usr/riscv64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
