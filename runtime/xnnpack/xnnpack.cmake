# Finds XNNPACK (+ pthreadpool, cpuinfo) for an Embark export and links the wrappers in this
# folder into a target: include() this file, then call embark_link_xnnpack(<target>).
#
# Where XNNPACK comes from, first match wins:
#   1. XNNPACK_ROOT (CMake cache variable or environment variable): a prebuilt tree with
#      include/xnnpack.h and lib/ (or lib64/) holding libXNNPACK, libpthreadpool and
#      libcpuinfo, static or shared (upstream's static builds add libxnnpack-microkernels-prod.a
#      or libmicrokernels-prod.a, and maybe libkleidiai.a, which are linked when present).
#   2. Cross build for aarch64: the private sysroot made by scripts/xnnpack-sysroot.sh
#      (EMBARK_XNNPACK_SYSROOT, else /opt/embark/sysroot-arm64, else
#      ${XDG_CACHE_HOME:-~/.cache}/embark/sysroot-arm64).
#   3. Native build: the system's libxnnpack-dev (Debian ships no CMake config for it).
# The API is detected from the header: xnn_reshape_convolution2d_nhwc_f32 exists only in
# upstream XNNPACK, which then compiles the wrappers with EMBARK_XNN_API_UPSTREAM.
# Shared libraries are copied into lib/ beside the binary after the build and found through
# RPATH $ORIGIN/lib, so the build folder's binary + lib/ can be deployed as is.

include_guard(GLOBAL)
include(CheckCXXSourceCompiles)

# A project that can live without XNNPACK (Embark's own test suite) sets
# EMBARK_XNNPACK_OPTIONAL before including this file and reads EMBARK_XNNPACK_FOUND; an
# export needs XNNPACK, so by default a missing library stops the configure.
set(EMBARK_XNNPACK_FOUND FALSE)
macro(_embark_xnn_not_found problem)
  if(EMBARK_XNNPACK_OPTIONAL)
    message(WARNING "${problem}${_embark_xnn_install_help}")
    return()
  endif()
  message(FATAL_ERROR "${problem}${_embark_xnn_install_help}")
endmacro()

set(EMBARK_XNNPACK_RUNTIME_DIR "${CMAKE_CURRENT_LIST_DIR}")
set(XNNPACK_ROOT "$ENV{XNNPACK_ROOT}" CACHE PATH "Prebuilt XNNPACK tree (include/, lib/); overrides the system library")
set(EMBARK_XNNPACK_SYSROOT "$ENV{EMBARK_XNNPACK_SYSROOT}" CACHE PATH "Sysroot with Debian's arm64 XNNPACK (scripts/xnnpack-sysroot.sh)")

set(_embark_xnn_install_help "
How to get XNNPACK for this build:
  * host (Debian 12):  sudo apt-get install libxnnpack-dev libpthreadpool-dev libcpuinfo-dev
  * aarch64 (cross):   run scripts/xnnpack-sysroot.sh from the Embark sources (it unpacks
                       Debian's arm64 packages into /opt/embark/sysroot-arm64 or
                       ~/.cache/embark/sysroot-arm64), or set EMBARK_XNNPACK_SYSROOT
  * any architecture:  embark-cli xnnpack build --arch riscv64|aarch64|x86_64 --tarballs DIR
                       (or --source XNNPACK-checkout) builds upstream XNNPACK into Embark's
                       cache, which exports then link (see docs/cli.md, section xnnpack)
  * riscv64 or other:  or build upstream XNNPACK for the target yourself and point XNNPACK_ROOT
                       at it (-DXNNPACK_ROOT=DIR or the XNNPACK_ROOT environment variable).
                       Recipe (riscv64, clang-19, RVV): git clone https://github.com/google/XNNPACK,
                       then cmake -S XNNPACK -B build-rv -G Ninja -DCMAKE_BUILD_TYPE=Release
                       -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=riscv64
                       -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19
                       -DCMAKE_C_COMPILER_TARGET=riscv64-linux-gnu -DCMAKE_CXX_COMPILER_TARGET=riscv64-linux-gnu
                       -DCMAKE_ASM_COMPILER=clang-19 -DCMAKE_ASM_COMPILER_TARGET=riscv64-linux-gnu
                       -DCMAKE_C_FLAGS=-march=rv64gcv -DCMAKE_CXX_FLAGS=-march=rv64gcv
                       -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld-19 -DXNNPACK_ENABLE_RISCV_VECTOR=ON
                       -DXNNPACK_BUILD_TESTS=OFF -DXNNPACK_BUILD_BENCHMARKS=OFF
                       -DCMAKE_INSTALL_PREFIX=$HOME/xnnpack-riscv64 (it downloads cpuinfo and
                       pthreadpool at configure time; offline, clone github.com/pytorch/cpuinfo
                       and github.com/google/pthreadpool and pass -DCPUINFO_SOURCE_DIR=...
                       -DPTHREADPOOL_SOURCE_DIR=...), cmake --build build-rv,
                       cmake --install build-rv, and copy the build's libpthreadpool.a,
                       libcpuinfo.a and lib*microkernels-prod.a into $HOME/xnnpack-riscv64/lib
                       if the install step left them out. Then XNNPACK_ROOT=$HOME/xnnpack-riscv64.")

# Sets _embark_xnn_include and _embark_xnn_libs (ordered for the linker) from a prefix whose
# headers are in <prefix>/<incdir> and libraries in one of <libdirs>; false when incomplete.
function(_embark_xnn_probe prefix incdir libdirs found_var)
  set(${found_var} FALSE PARENT_SCOPE)
  if(NOT EXISTS "${prefix}/${incdir}/xnnpack.h")
    return()
  endif()
  set(_dirs "")
  foreach(d IN LISTS libdirs)
    list(APPEND _dirs "${prefix}/${d}")
  endforeach()
  set(_libs "")
  foreach(name XNNPACK xnnpack-microkernels-prod microkernels-prod kleidiai pthreadpool cpuinfo)
    string(MAKE_C_IDENTIFIER "_embark_xnn_lib_${name}_${prefix}" _var)
    find_library(${_var} NAMES ${name} PATHS ${_dirs} NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
    if(${_var})
      list(APPEND _libs "${${_var}}")
    elseif(name MATCHES "^(XNNPACK|pthreadpool|cpuinfo)$")
      message(STATUS "XNNPACK: ${prefix} has xnnpack.h but no lib${name} in ${_dirs}")
      set(_embark_xnn_missing "lib${name} (looked in ${_dirs})" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(_embark_xnn_include "${prefix}/${incdir}" PARENT_SCOPE)
  set(_embark_xnn_libs "${_libs}" PARENT_SCOPE)
  set(_embark_xnn_libdirs "${_dirs}" PARENT_SCOPE)
  set(${found_var} TRUE PARENT_SCOPE)
endfunction()

set(_embark_xnn_found FALSE)
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
  set(_embark_xnn_multiarch aarch64-linux-gnu)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^riscv64")
  set(_embark_xnn_multiarch riscv64-linux-gnu)
else()
  set(_embark_xnn_multiarch x86_64-linux-gnu)
endif()

if(XNNPACK_ROOT)
  _embark_xnn_probe("${XNNPACK_ROOT}" include "lib;lib64;lib/${_embark_xnn_multiarch}" _embark_xnn_found)
  if(NOT _embark_xnn_found)
    set(_why "")
    if(_embark_xnn_missing)
      set(_why " (missing: ${_embark_xnn_missing})")
    elseif(NOT EXISTS "${XNNPACK_ROOT}/include/xnnpack.h")
      set(_why " (missing: ${XNNPACK_ROOT}/include/xnnpack.h)")
    endif()
    _embark_xnn_not_found("XNNPACK_ROOT=${XNNPACK_ROOT} is not a usable XNNPACK tree${_why}: it needs include/xnnpack.h and lib/ with libXNNPACK, libpthreadpool and libcpuinfo.")
  endif()
  set(_embark_xnn_source "XNNPACK_ROOT=${XNNPACK_ROOT}")
elseif(CMAKE_CROSSCOMPILING AND _embark_xnn_multiarch STREQUAL "aarch64-linux-gnu")
  set(_candidates "${EMBARK_XNNPACK_SYSROOT}" /opt/embark/sysroot-arm64)
  if(DEFINED ENV{XDG_CACHE_HOME} AND NOT "$ENV{XDG_CACHE_HOME}" STREQUAL "")
    list(APPEND _candidates "$ENV{XDG_CACHE_HOME}/embark/sysroot-arm64")
  elseif(DEFINED ENV{HOME})
    list(APPEND _candidates "$ENV{HOME}/.cache/embark/sysroot-arm64")
  endif()
  foreach(root IN LISTS _candidates)
    if(root AND NOT _embark_xnn_found)
      _embark_xnn_probe("${root}/usr" include "lib/aarch64-linux-gnu" _embark_xnn_found)
      set(_embark_xnn_source "the arm64 sysroot ${root}")
    endif()
  endforeach()
  if(NOT _embark_xnn_found)
    _embark_xnn_not_found("No aarch64 XNNPACK found (looked in: ${_candidates}).")
  endif()
elseif(CMAKE_CROSSCOMPILING)
  _embark_xnn_not_found("No XNNPACK for ${CMAKE_SYSTEM_PROCESSOR}: Debian packages none for it; run 'embark-cli xnnpack build --arch ${CMAKE_SYSTEM_PROCESSOR}' and export again, or set XNNPACK_ROOT to a prebuilt tree.")
else()
  foreach(prefix /usr /usr/local)
    if(NOT _embark_xnn_found)
      _embark_xnn_probe("${prefix}" include "lib/${_embark_xnn_multiarch};lib;lib64" _embark_xnn_found)
      set(_embark_xnn_source "${prefix}")
    endif()
  endforeach()
  if(NOT _embark_xnn_found)
    _embark_xnn_not_found("XNNPACK was not found on this system (no xnnpack.h with libXNNPACK, libpthreadpool and libcpuinfo under /usr or /usr/local).")
  endif()
endif()

# The libraries must be built for the target: a tree for another CPU would only fail at link
# time with hundreds of "incompatible" or "file in wrong format" lines, so say it here.
# Reads the ELF e_machine of a shared object, or of the first ELF member of a static archive.
function(_embark_xnn_elf_machine lib out)
  set(${out} "" PARENT_SCOPE)
  get_filename_component(lib "${lib}" REALPATH)
  file(READ "${lib}" _magic LIMIT 8 HEX)
  set(_off 0)
  if(_magic STREQUAL "213c617263683e0a") # "!<arch>\n": walk the members (symbol table first)
    set(_off 8)
    foreach(_i RANGE 16)
      file(READ "${lib}" _hdr OFFSET ${_off} LIMIT 60)
      string(LENGTH "${_hdr}" _len)
      if(_len LESS 60)
        return()
      endif()
      string(SUBSTRING "${_hdr}" 48 10 _size)
      string(STRIP "${_size}" _size)
      math(EXPR _data "${_off} + 60")
      file(READ "${lib}" _elf OFFSET ${_data} LIMIT 4 HEX)
      if(_elf STREQUAL "7f454c46")
        set(_off ${_data})
        break()
      endif()
      math(EXPR _off "${_data} + ${_size} + (${_size} % 2)")
    endforeach()
  endif()
  file(READ "${lib}" _e OFFSET ${_off} LIMIT 20 HEX)
  if(NOT _e MATCHES "^7f454c46")
    return()
  endif()
  string(SUBSTRING "${_e}" 36 4 _m) # e_machine, little-endian, at byte 18
  set(_names "3e00=x86_64" "b700=aarch64" "f300=riscv64" "2800=arm" "0300=x86")
  set(_name "ELF machine 0x${_m}")
  foreach(_pair IN LISTS _names)
    string(REPLACE "=" ";" _kv "${_pair}")
    list(GET _kv 0 _k)
    if(_k STREQUAL _m)
      list(GET _kv 1 _name)
    endif()
  endforeach()
  set(${out} "${_name}" PARENT_SCOPE)
endfunction()

set(_embark_xnn_target_arch "${CMAKE_SYSTEM_PROCESSOR}")
if(_embark_xnn_target_arch MATCHES "^(arm64|ARM64)$")
  set(_embark_xnn_target_arch aarch64)
elseif(_embark_xnn_target_arch MATCHES "^(AMD64|amd64)$")
  set(_embark_xnn_target_arch x86_64)
endif()
foreach(lib IN LISTS _embark_xnn_libs)
  _embark_xnn_elf_machine("${lib}" _machine)
  if(_machine AND NOT _machine STREQUAL _embark_xnn_target_arch)
    _embark_xnn_not_found("${lib} (from ${_embark_xnn_source}) is built for ${_machine}, but this build targets ${_embark_xnn_target_arch}: point XNNPACK_ROOT at a tree for ${_embark_xnn_target_arch} (embark-cli xnnpack build --arch ${_embark_xnn_target_arch} makes one).")
  endif()
endforeach()

# The header alone decides the API, so the check compiles without linking (works for cross
# builds and for static trees whose link line the check would not know).
set(_embark_xnn_saved_includes "${CMAKE_REQUIRED_INCLUDES}")
set(_embark_xnn_saved_type "${CMAKE_TRY_COMPILE_TARGET_TYPE}")
set(CMAKE_REQUIRED_INCLUDES "${_embark_xnn_include}")
set(CMAKE_REQUIRED_QUIET ON)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
unset(EMBARK_XNN_HAS_RESHAPE CACHE) # XNNPACK_ROOT may have changed since the last configure
check_cxx_source_compiles("
#include <xnnpack.h>
int probe() { return xnn_reshape_convolution2d_nhwc_f32 != nullptr; }
" EMBARK_XNN_HAS_RESHAPE)
set(CMAKE_REQUIRED_INCLUDES "${_embark_xnn_saved_includes}")
set(CMAKE_TRY_COMPILE_TARGET_TYPE "${_embark_xnn_saved_type}")
unset(CMAKE_REQUIRED_QUIET)

if(EMBARK_XNN_HAS_RESHAPE)
  set(EMBARK_XNNPACK_API upstream)
else()
  set(EMBARK_XNNPACK_API legacy)
endif()
message(STATUS "XNNPACK: ${EMBARK_XNNPACK_API} API from ${_embark_xnn_source}")
set(EMBARK_XNNPACK_FOUND TRUE)

set(EMBARK_XNNPACK_SHARED_LIBS "")
foreach(lib IN LISTS _embark_xnn_libs)
  if(lib MATCHES "\\.so")
    list(APPEND EMBARK_XNNPACK_SHARED_LIBS "${lib}")
  endif()
endforeach()

# Adds the wrappers to <target> and links XNNPACK; shared libraries are bundled into lib/.
function(embark_link_xnnpack target)
  target_sources(${target} PRIVATE
    "${EMBARK_XNNPACK_RUNTIME_DIR}/embark_xnnpack_common.cpp"
    "${EMBARK_XNNPACK_RUNTIME_DIR}/embark_xnnpack_legacy.cpp"
    "${EMBARK_XNNPACK_RUNTIME_DIR}/embark_xnnpack_quant.cpp"
    "${EMBARK_XNNPACK_RUNTIME_DIR}/embark_xnnpack_upstream.cpp")
  target_include_directories(${target} PRIVATE "${EMBARK_XNNPACK_RUNTIME_DIR}")
  # SYSTEM: XNNPACK's own header is not ours to keep -Wextra clean.
  target_include_directories(${target} SYSTEM PRIVATE "${_embark_xnn_include}")
  if(EMBARK_XNNPACK_API STREQUAL "upstream")
    target_compile_definitions(${target} PRIVATE EMBARK_XNN_API_UPSTREAM=1)
  endif()
  find_package(Threads REQUIRED)
  # Static archives may reference each other (XNNPACK <-> micro-kernels): list them twice.
  target_link_libraries(${target} PRIVATE ${_embark_xnn_libs} ${_embark_xnn_libs} Threads::Threads m)
  if(EMBARK_XNNPACK_SHARED_LIBS)
    # DT_RPATH (not RUNPATH) so $ORIGIN/lib also wins over LD_LIBRARY_PATH on the board;
    # rpath-link lets the linker resolve libXNNPACK's own NEEDED entries in a sysroot.
    foreach(dir IN LISTS _embark_xnn_libdirs)
      target_link_options(${target} PRIVATE "-Wl,-rpath-link,${dir}")
    endforeach()
    target_link_options(${target} PRIVATE "-Wl,--disable-new-dtags")
    # Through the property, not a -Wl,-rpath flag: CMake escapes $ORIGIN for the generator
    # and the shell (a raw flag reaches the linker as "$/lib").
    set_property(TARGET ${target} APPEND PROPERTY BUILD_RPATH "\$ORIGIN/lib")
    set_property(TARGET ${target} APPEND PROPERTY INSTALL_RPATH "\$ORIGIN/lib")
    set(_copy_commands COMMAND ${CMAKE_COMMAND} -E make_directory "$<TARGET_FILE_DIR:${target}>/lib")
    foreach(lib IN LISTS EMBARK_XNNPACK_SHARED_LIBS)
      # Copy the real file under its SONAME-style name (libfoo.so.0), which the loader asks for.
      get_filename_component(_real "${lib}" REALPATH)
      get_filename_component(_real_name "${_real}" NAME)
      string(REGEX MATCH "^.*\\.so(\\.[0-9]+)?" _soname "${_real_name}")
      list(APPEND _copy_commands COMMAND ${CMAKE_COMMAND} -E copy_if_different "${_real}"
        "$<TARGET_FILE_DIR:${target}>/lib/${_soname}")
    endforeach()
    add_custom_command(TARGET ${target} POST_BUILD ${_copy_commands}
      COMMENT "Bundling XNNPACK shared libraries into lib/ beside ${target}" VERBATIM)
  endif()
endfunction()
