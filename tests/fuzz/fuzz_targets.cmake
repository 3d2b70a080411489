# libFuzzer targets (EMBARK_FUZZ=ON, included by fuzz.cmake once core/ exists); tests/fuzz/fuzz.sh
# builds and runs them.
set(EMBARK_FUZZ_TARGETS
  fuzz_onnx_import   embark_onnx
  fuzz_tensor_files  embark_onnx
  fuzz_board_file    embark_targets
  fuzz_run_protocol  embark_results)

list(LENGTH EMBARK_FUZZ_TARGETS _count)
math(EXPR _last "${_count} - 1")
foreach(i RANGE 0 ${_last} 2)
  math(EXPR j "${i} + 1")
  list(GET EMBARK_FUZZ_TARGETS ${i} target)
  list(GET EMBARK_FUZZ_TARGETS ${j} module)
  add_executable(${target} "${EMBARK_FUZZ_DIR}/${target}.cpp")
  target_link_libraries(${target} PRIVATE ${module})
  target_link_options(${target} PRIVATE -fsanitize=fuzzer)
endforeach()
