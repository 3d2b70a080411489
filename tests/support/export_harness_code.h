// Fixed C++ text of the export harness's generated runner (see export_harness.h): the
// runner's helpers and main(), and the per-model function that fills a Spec.
#pragma once

namespace embark::test::harness_code {

const char* runnerPrologue(); // includes, Spec, runModel(); ends inside no namespace
const char* runnerMain();     // main() over `const ModelEntry kModels[]`
const char* specFunction();   // "Spec spec_@K@()" reading namespace embark_model_@K@

} // namespace embark::test::harness_code
