// Shared-model tier: the real exported networks in ../shared/models import with the expected
// structure (skips without the folder); the small ones also match their test data through
// the reference interpreter.
#include "onnx/importer.h"
#include "onnx/tensor_io.h"
#include "reference/interpreter.h"
#include "support/graph_builder.h"
#include "support/test_paths.h"

#include <QFileInfo>
#include <QtTest>

using namespace embark;
using namespace embark::test;

class TstSharedModels : public QObject {
    Q_OBJECT

private slots:
    void imports_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("onnxNodes"); // as exported, Constant nodes included
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("inputShape");
        QTest::addColumn<QString>("outputShape");
        QTest::newRow("resnet18") << "resnet18" << 101 << "input"
                                  << "1x3x224x224"
                                  << "1x1000";
        QTest::newRow("mobilenet_v2") << "mobilenet_v2" << 300 << "input"
                                      << "1x3x224x224"
                                      << "1x1000";
        QTest::newRow("squeezenet1_1") << "squeezenet1_1" << 84 << "input"
                                       << "1x3x224x224"
                                       << "1x1000";
        QTest::newRow("lenet5") << "lenet5" << 12 << "input"
                                << "1x1x28x28"
                                << "1x10";
        QTest::newRow("digits") << "digits" << 11 << ""
                                << ""
                                << "";
    }

    void imports() {
        EMBARK_REQUIRE_SHARED_MODELS();
        QFETCH(QString, model);
        QFETCH(int, onnxNodes);
        QFETCH(QString, input);
        QFETCH(QString, inputShape);
        QFETCH(QString, outputShape);
        auto g = embark::onnx::importModel(sharedModel(model).toStdString());
        QVERIFY2(g.ok(), g.ok() ? "" : g.error().message.c_str());
        // Every ONNX node is either an IR node or a folded-in Constant value.
        QVERIFY(g->nodeCount() <= static_cast<size_t>(onnxNodes));
        QVERIFY(g->nodeCount() > 0);
        qInfo("%s: %zu IR nodes (%d in the file), %zu values", qPrintable(model), g->nodeCount(), onnxNodes,
              g->valueCount());
        QCOMPARE(g->inputs().size(), size_t(1));
        QCOMPARE(g->outputs().size(), size_t(1));
        if (!input.isEmpty()) {
            QCOMPARE(QString::fromStdString(g->inputs()[0]->name), input);
            QCOMPARE(QString::fromStdString(g->inputs()[0]->shape.str()), inputShape);
            QCOMPARE(QString::fromStdString(g->outputs()[0]->shape.str()), outputShape);
        }
        for (const ir::Value* v : g->values()) QVERIFY2(v->shape.checkedNumel().has_value(), v->name.c_str());
        QCOMPARE(g->metadata["opset"], std::string("13"));
        QVERIFY(g->validate().ok());
    }

    // mobilenet_v2 writes ReLU6 as Clip whose min/max come from Constant nodes.
    void mobilenetClipBoundsComeFromConstantNodes() {
        EMBARK_REQUIRE_SHARED_MODELS();
        auto g = embark::onnx::importModel(sharedModel("mobilenet_v2").toStdString());
        QVERIFY2(g.ok(), g.ok() ? "" : g.error().message.c_str());
        int clips = 0;
        for (const ir::Node* n : g->nodes()) {
            if (n->op != ir::OpKind::Clip) continue;
            ++clips;
            QVERIFY(n->input(1) && n->input(1)->isConstant());
            QVERIFY(n->input(2) && n->input(2)->isConstant());
            QCOMPARE(n->input(1)->constant.at(0), 0.0);
            QCOMPARE(n->input(2)->constant.at(0), 6.0);
        }
        qInfo("mobilenet_v2: %d Clip nodes", clips);
        QVERIFY(clips > 0);
        for (const ir::Node* n : g->nodes()) QVERIFY(n->op != ir::OpKind::Constant);
    }

    void smallModelsMatchTheirTestData_data() {
        QTest::addColumn<QString>("model");
        QTest::newRow("lenet5") << "lenet5";
        QTest::newRow("digits") << "digits";
    }

    void smallModelsMatchTheirTestData() {
        EMBARK_REQUIRE_SHARED_MODELS();
        QFETCH(QString, model);
        const QString file = sharedModel(model);
        auto g = embark::onnx::importModel(file.toStdString());
        QVERIFY2(g.ok(), g.ok() ? "" : g.error().message.c_str());
        const QString dir =
            QFileInfo(file).absolutePath() + (model == "digits" ? "" : "/" + model) + "/test_data_set_0";
        auto set = embark::onnx::readTestDataSet(dir.toStdString());
        QVERIFY2(set.ok(), set.ok() ? "" : set.error().message.c_str());
        std::map<std::string, ir::Tensor> inputs{{g->inputs()[0]->name, set->inputs[0].tensor}};
        auto r = reference::run(*g, inputs);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        const double diff = relativeMaxDiff(r->outputs[0], set->outputs[0].tensor);
        qInfo("%s: max |diff| / max |ref| = %g", qPrintable(model), diff);
        QVERIFY(diff < 1e-4);
    }
};

QTEST_GUILESS_MAIN(TstSharedModels)
#include "tst_shared_models.moc"
