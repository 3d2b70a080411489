# Cross-compiles for 64-bit Arm Linux with Debian's aarch64-linux-gnu-g++.
# Board flags (-mcpu) come in as -DEMBARK_TARGET_FLAGS="...". A private arm64 sysroot (e.g.
# Debian's arm64 libxnnpack extracted by scripts/install-deps.sh) may be added to the search
# with -DEMBARK_TARGET_SYSROOT_EXTRA=<dir>.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

set(EMBARK_TARGET_FLAGS "-mcpu=cortex-a76" CACHE STRING "CPU flags of the target board")
set(EMBARK_TARGET_SYSROOT_EXTRA "" CACHE PATH "Extra arm64 library tree searched by find_*")
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES EMBARK_TARGET_FLAGS EMBARK_TARGET_SYSROOT_EXTRA)

set(CMAKE_C_FLAGS_INIT "${EMBARK_TARGET_FLAGS}")
set(CMAKE_CXX_FLAGS_INIT "${EMBARK_TARGET_FLAGS}")
set(CMAKE_ASM_FLAGS_INIT "${EMBARK_TARGET_FLAGS}")

set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu ${EMBARK_TARGET_SYSROOT_EXTRA})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
