// The default recipe on the shared models (skipped without ../shared/models): outputs equal
// the imported graph's within 1e-5 of their magnitude, expected ops gone, provenance exact.
#include "onnx/importer.h"
#include "export/kernel_libraries.h"
#include "pass_test_util.h"
#include "passes/pass_manager.h"
#include "support/test_paths.h"

#include "ir/fused.h"

#include <QTest>

using namespace embark;
using ir::OpKind;

class TestPassesModels : public QObject {
    Q_OBJECT
private slots:
    void defaultRecipe_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("library");
        for (const char* m : {"resnet18", "mobilenet_v2", "squeezenet1_1", "lenet5", "digits"})
            for (const char* lib : {"portable", "xnnpack"})
                QTest::newRow((std::string(m) + "/" + lib).c_str()) << QString(m) << QString(lib);
    }
    void defaultRecipe() {
        EMBARK_REQUIRE_SHARED_MODELS();
        QFETCH(QString, model);
        QFETCH(QString, library);
        const QString path = test::sharedModel(model);
        if (path.isEmpty()) QSKIP("model file absent");
        auto g = onnx::importModel(path.toStdString());
        QVERIFY2(g.ok(), g.ok() ? "" : g.error().message.c_str());
        passes::PassOptions options;
        options.library = exporter::findKernelLibrary(library.toStdString());
        auto run = passes::PassManager::run(*g, "default", options);
        QVERIFY2(run.ok(), run.ok() ? "" : run.error().message.c_str());
        const ir::Graph& fused = run->graph;
        QVERIFY(fused.validate().ok());
        QCOMPARE(test::countOps(fused, OpKind::BatchNormalization), 0);
        QCOMPARE(test::countOps(fused, OpKind::Identity), 0);
        QCOMPARE(test::countOps(fused, OpKind::Relu), 0); // every Relu fused (both libraries declare it)
        QCOMPARE(test::countOps(fused, OpKind::Dropout), 0);
        if (model == "mobilenet_v2") QCOMPARE(test::countOps(fused, OpKind::Clip), 0);
        const auto missing = passes::unaccountedNodes(*g, fused);
        QVERIFY2(missing.empty(), missing.empty() ? "" : ("unaccounted: " + missing.front()).c_str());
        const QString diff = test::compareOutputs(*g, fused);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        qInfo("%s: %zu nodes imported, %zu after the recipe (%d rewrites)", qPrintable(model), g->nodeCount(),
              fused.nodeCount(), run->rewrites);
    }
};

QTEST_GUILESS_MAIN(TestPassesModels)
#include "tst_passes_models.moc"
