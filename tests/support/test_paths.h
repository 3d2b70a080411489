// Paths the tests need: the shared models (optional tier), the CLI binary, test data.
#pragma once

#include <QString>
#include <QStringList>

namespace embark::test {

// ../shared/models, or an empty string when the folder is absent (tests then QSKIP with
// a message saying so).
QString sharedModelsDir();
QString sharedModel(const QString& name); // "<dir>/<name>.onnx" or empty
// Every model of ../shared/models (a "<name>.onnx" file or a "<name>/" folder with one), sorted;
// empty when the folder is absent. Tests that run "every shared model" take their rows from it.
QStringList sharedModelNames();
QString cliPath();
QString sourceDir();
// The build folder and ../shared (absolute). Only test_paths.cpp reads the generated headers that
// hold this clone's paths: a suite whose source named them would miss ccache in any other clone.
QString binaryDir();
QString sharedDir();
QString testDataDir();     // tests/data
QString onnxTestDataDir(); // /usr/share/libonnx-testdata/data or empty
// ../shared/xnnpack/prebuilt/<arch> (upstream XNNPACK built with clang-19), or an empty string
// when it is absent ($EMBARK_SHARED_XNNPACK overrides ../shared/xnnpack).
QString sharedXnnpackTree(const QString& arch);
QString sharedXnnpackSources(); // ../shared/xnnpack/src (the four tarballs) or empty

} // namespace embark::test

#define EMBARK_REQUIRE_SHARED_XNNPACK(arch, tree)                                                                      \
  const QString tree = embark::test::sharedXnnpackTree(arch);                                                          \
  if (tree.isEmpty())                                                                                                  \
  QSKIP(qPrintable("../shared/xnnpack/prebuilt/" + QString(arch) +                                                     \
                   " is absent: the upstream-XNNPACK tier runs only where it exists"))

#define EMBARK_REQUIRE_SHARED_MODELS()                                                                                 \
  do {                                                                                                                 \
    if (embark::test::sharedModelsDir().isEmpty())                                                                     \
      QSKIP("../shared/models is absent: the shared-model tier runs only where it exists");                            \
  } while (0)
