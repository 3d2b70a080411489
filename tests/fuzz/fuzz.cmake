# The libFuzzer configuration (-DEMBARK_FUZZ=ON with CMAKE_CXX_COMPILER=clang++-19): every
# target compiles with the fuzzer/ASan/UBSan instrumentation, and tests/fuzz adds the targets.
option(EMBARK_FUZZ "Build the libFuzzer targets in tests/fuzz (needs clang and libclang-rt-dev)" OFF)
if(EMBARK_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "EMBARK_FUZZ needs clang: configure with -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_C_COMPILER=clang-19")
  endif()
  # The core modules get coverage instrumentation without libFuzzer's main(); only the fuzz
  # executables link the fuzzer runtime (see tests/fuzz/CMakeLists.txt).
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
  # Added once the core modules exist (this file is included before add_subdirectory(core)).
  set(EMBARK_FUZZ_DIR "${CMAKE_CURRENT_LIST_DIR}")
  cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL include "${EMBARK_FUZZ_DIR}/fuzz_targets.cmake")
endif()
