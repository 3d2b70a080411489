// Import of models built in code: a small conv model, Constant nodes, names, metadata,
// shape overrides, external data, and one row per kind of broken model with a check of the
// error kind and of what the message names.
#include "onnx/importer.h"
#include "onnx/model_inputs.h"
#include "onnx/tensor_io.h"
#include "onnx_models.h"

#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

using namespace embark;
using namespace embark::test;

Q_DECLARE_METATYPE(embark::ErrorKind)

class TstImporter : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString path(const QString& name) const { return m_dir.filePath(name); }

    static bool writeBytes(const QString& file, const QByteArray& bytes) {
        QFile f(file);
        return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
    }

    // A model whose weight lives in external file `location` (written as `dataFile`).
    ProtoModel externalModel(const std::string& location) {
        ProtoModel p;
        p.input("x", {1, 4});
        auto* w = p.initializer("w", ramp(ir::Shape{1, 4}));
        w->clear_raw_data();
        w->set_data_location(pb::TensorProto::EXTERNAL);
        auto* loc = w->add_external_data();
        loc->set_key("location");
        loc->set_value(location);
        auto* len = w->add_external_data();
        len->set_key("length");
        len->set_value("16");
        p.node("Add", {"x", "w"}, {"y"}, "add");
        p.output("y", 2);
        return p;
    }

    // Builds the broken model of row `kase` and returns the path to import.
    QString makeBad(const QString& kase, embark::onnx::ImportOptions* options) {
        const QString dir = m_dir.filePath(kase);
        QDir().mkpath(dir);
        const QString file = dir + "/model.onnx";
        if (kase == "directory") return dir;
        if (kase == "missing") return dir + "/nope.onnx";
        if (kase == "empty") writeBytes(file, {});
        if (kase == "truncated") {
            const std::string b = convModel().bytes();
            writeBytes(file, QByteArray::fromStdString(b.substr(0, b.size() / 2)));
        }
        if (kase == "random_bytes") {
            QRandomGenerator rng(7);
            QByteArray b(1000, '\0');
            for (auto& c : b) c = static_cast<char>(rng.bounded(256));
            writeBytes(file, b);
        }
        if (kase == "text_file") writeBytes(file, "hello, this is a text file and not a model\n");
        if (kase == "cycle") {
            ProtoModel p;
            p.input("x", {1, 4});
            p.node("Add", {"x", "c"}, {"b"}, "add_loop");
            p.node("Relu", {"b"}, {"c"}, "relu_loop");
            p.output("c", 2);
            p.save(file);
        }
        if (kase == "unsupported_op") {
            ProtoModel p;
            p.input("x", {1, 4});
            p.node("FooBar", {"x"}, {"y"}, "weird_node");
            p.output("y", 2);
            p.save(file);
        }
        if (kase == "missing_initializer") {
            ProtoModel p;
            p.input("x", {1, 3, 8, 8});
            attrInts(p.node("Conv", {"x", "conv_w"}, {"y"}, "conv_a"), "kernel_shape", {3, 3});
            p.output("y", 4);
            p.save(file);
        }
        if (kase == "overflow") {
            ProtoModel p;
            p.input("x", {int64_t{1} << 40, int64_t{1} << 40});
            p.node("Relu", {"x"}, {"y"}, "relu");
            p.output("y", 2);
            p.save(file);
        }
        if (kase == "negative_dim") {
            ProtoModel p;
            p.input("x", {1, -3});
            p.m.mutable_graph()
                ->mutable_input(0)
                ->mutable_type()
                ->mutable_tensor_type()
                ->mutable_shape()
                ->mutable_dim(1)
                ->set_dim_value(-3);
            p.node("Relu", {"x"}, {"y"}, "relu");
            p.output("y", 2);
            p.save(file);
        }
        if (kase == "external_dotdot") externalModel("../outside.bin").save(file);
        if (kase == "external_absolute") externalModel("/etc/hostname").save(file);
        if (kase == "external_missing") externalModel("weights.bin").save(file);
        if (kase == "external_short") {
            writeBytes(dir + "/weights.bin", QByteArray(8, '\0'));
            externalModel("weights.bin").save(file);
        }
        if (kase == "external_symlink") {
            writeBytes(m_dir.filePath("outside.bin"), QByteArray(16, '\0'));
            QFile::link(m_dir.filePath("outside.bin"), dir + "/weights.bin");
            externalModel("weights.bin").save(file);
        }
        if (kase == "unknown_shape_input") {
            convModel().save(file);
            options->shapeOverrides["nosuch"] = ir::Shape{1, 3, 8, 8};
        }
        if (kase == "symbolic_dim") {
            ProtoModel p = convModel();
            p.m.mutable_graph()
                ->mutable_input(0)
                ->mutable_type()
                ->mutable_tensor_type()
                ->mutable_shape()
                ->mutable_dim(0)
                ->set_dim_param("batch");
            p.save(file);
        }
        if (kase == "opset_too_old") convModel(5).save(file);
        if (kase == "opset_too_new") convModel(22).save(file);
        if (kase == "string_input") {
            ProtoModel p;
            p.input("names", {2}, pb::TensorProto::STRING);
            p.node("Identity", {"names"}, {"y"}, "id");
            p.output("y", 1, pb::TensorProto::STRING);
            p.save(file);
        }
        if (kase == "foreign_domain") {
            ProtoModel p;
            p.input("x", {1, 4});
            p.node("FusedGelu", {"x"}, {"y"}, "ms_gelu")->set_domain("com.microsoft");
            p.output("y", 2);
            p.save(file);
        }
        return file;
    }

private slots:
    void importsConvModel() {
        const QString file = path("conv.onnx");
        QVERIFY(convModel().save(file));
        auto g = embark::onnx::importModel(file.toStdString());
        QVERIFY2(g.ok(), g.ok() ? "" : g.error().message.c_str());
        // The Constant node became a constant value, not a node.
        QCOMPARE(g->nodeCount(), size_t(5));
        QVERIFY(!g->findNode("bias_const"));
        QVERIFY(g->findValue("b") && g->findValue("b")->isConstant());
        QCOMPARE(g->inputs().size(), size_t(1));
        QCOMPARE(g->inputs()[0]->shape, (ir::Shape{1, 3, 8, 8}));
        QCOMPARE(g->outputs()[0]->shape, (ir::Shape{1, 4}));
        const ir::Node* conv = g->findNode("conv1");
        QVERIFY(conv);
        QCOMPARE(conv->op, ir::OpKind::Conv);
        QCOMPARE(conv->attrInts("pads"), (std::vector<int64_t>{1, 1, 1, 1}));
        QCOMPARE(conv->provenance, std::vector<std::string>{"conv1"});
        QCOMPARE(g->findValue("c")->shape, (ir::Shape{1, 4, 8, 8}));
        QCOMPARE(g->metadata["opset"], std::string("13"));
        QCOMPARE(g->metadata["model_name"], std::string("conv"));
        QCOMPARE(g->metadata["sha256"].size(), size_t(64));
        QVERIFY(g->metadata["path"].find("conv.onnx") != std::string::npos);
        QVERIFY(g->validate().ok());
    }

    // metadata_props keys starting with "embark." reach the graph's metadata (hints such as
    // exporter::kStandsForInnerNodes); other keys do not.
    void copiesEmbarkMetadataProps() {
        ProtoModel p = convModel();
        auto* hint = p.m.add_metadata_props();
        hint->set_key("embark.stands_for_inner_nodes");
        hint->set_value("bench");
        auto* other = p.m.add_metadata_props();
        other->set_key("author");
        other->set_value("someone");
        auto g = embark::onnx::importModelFromBytes(p.bytes(), "", "hint.onnx");
        QVERIFY2(g.ok(), g.ok() ? "" : g.error().message.c_str());
        QCOMPARE(g->metadata["embark.stands_for_inner_nodes"], std::string("bench"));
        QVERIFY(!g->metadata.count("author"));
    }

    void namesUnnamedAndDuplicateNodes() {
        ProtoModel p;
        p.input("x", {1, 4});
        p.node("Relu", {"x"}, {"a"});
        p.node("Relu", {"a"}, {"b"}, "dup");
        p.node("Relu", {"b"}, {"c"}, "dup");
        p.output("c", 2);
        auto g = embark::onnx::importModelFromBytes(p.bytes(), "", "names.onnx");
        QVERIFY2(g.ok(), g.ok() ? "" : g.error().message.c_str());
        const auto nodes = g->nodes();
        QCOMPARE(nodes[0]->name, std::string("Relu_0"));
        QCOMPARE(nodes[1]->name, std::string("dup"));
        QVERIFY(nodes[2]->name != "dup");
    }

    void initializerListedAsInputIsConstant() {
        ProtoModel p = convModel();
        p.input("w", {4, 3, 3, 3});
        auto g = embark::onnx::importModelFromBytes(p.bytes(), "", "init_input.onnx");
        QVERIFY2(g.ok(), g.ok() ? "" : g.error().message.c_str());
        QCOMPARE(g->inputs().size(), size_t(1));
        QVERIFY(g->findValue("w")->isConstant());
    }

    void shapeOverrideResolvesSymbolicDims() {
        ProtoModel p = convModel();
        p.m.mutable_graph()
            ->mutable_input(0)
            ->mutable_type()
            ->mutable_tensor_type()
            ->mutable_shape()
            ->mutable_dim(0)
            ->set_dim_param("batch");
        embark::onnx::ImportOptions options;
        options.shapeOverrides["x"] = ir::Shape{2, 3, 8, 8};
        auto g = embark::onnx::importModelFromBytes(p.bytes(), "", "sym.onnx", options);
        QVERIFY2(g.ok(), g.ok() ? "" : g.error().message.c_str());
        QCOMPARE(g->inputs()[0]->shape, (ir::Shape{2, 3, 8, 8}));
        QCOMPARE(g->outputs()[0]->shape, (ir::Shape{2, 4}));
    }

    // Declared shapes are checked, never trusted: a value_info and a graph output declared
    // 28x28 behind an AveragePool (ceil_mode 1, 55x55, kernel 3, stride 2) that computes 27x27
    // import as 27x27, with one warning per value naming both shapes. A matching declaration
    // gives no warning.
    void declaredShapesAreCheckedNotTrusted() {
        for (int64_t declared : {28, 27}) {
            ProtoModel p(13);
            p.input("x", {1, 4, 55, 55});
            auto* pool = p.node("AveragePool", {"x"}, {"pooled"}, "pool");
            attrInts(pool, "kernel_shape", {3, 3});
            attrInts(pool, "strides", {2, 2});
            attrInt(pool, "ceil_mode", 1);
            p.node("Relu", {"pooled"}, {"y"}, "relu");
            for (auto* vi : {p.m.mutable_graph()->add_value_info(), p.m.mutable_graph()->add_output()}) {
                vi->set_name(vi == &p.m.graph().value_info(0) ? "pooled" : "y");
                auto* tt = vi->mutable_type()->mutable_tensor_type();
                tt->set_elem_type(pb::TensorProto::FLOAT);
                for (int64_t d : {int64_t{1}, int64_t{4}, declared, declared})
                    tt->mutable_shape()->add_dim()->set_dim_value(d);
            }
            auto g = embark::onnx::importModelFromBytes(p.bytes(), "", "ceil_pool.onnx");
            QVERIFY2(g.ok(), g.ok() ? "" : g.error().message.c_str());
            QCOMPARE(g->findValue("pooled")->shape, (ir::Shape{1, 4, 27, 27}));
            QCOMPARE(g->outputs()[0]->shape, (ir::Shape{1, 4, 27, 27}));
            const auto w = g->metadata.find("shape_warnings");
            if (declared == 27) {
                QVERIFY(w == g->metadata.end());
                continue;
            }
            QVERIFY(w != g->metadata.end());
            QCOMPARE(
                QString::fromStdString(w->second),
                QString("value 'pooled' is declared 1x4x28x28 but its op computes 1x4x27x27; Embark uses 1x4x27x27\n"
                        "value 'y' is declared 1x4x28x28 but its op computes 1x4x27x27; Embark uses 1x4x27x27\n"));
        }
    }

    // The test data beside a model fixes its free input dimensions (by TensorProto name, else
    // by index); a tensor that contradicts a fixed dimension does not.
    void testDataShapesFixFreeDimensions() {
        const QString dir = m_dir.filePath("test_data_shapes");
        QDir().mkpath(dir + "/test_data_set_0");
        std::vector<embark::onnx::DeclaredInput> inputs(2);
        inputs[0].name = "ids";
        inputs[0].dims = {{-1, "batch"}, {-1, "sequence"}};
        inputs[1].name = "audio";
        inputs[1].dims = {{1, ""}, {-1, "samples"}};
        QCOMPARE(embark::onnx::shapeOption(inputs[0]), std::string("--shape ids=1x1"));
        QCOMPARE(embark::onnx::freeDimsText(inputs[0]), std::string("symbolic dimensions 'batch' and 'sequence'"));
        QCOMPARE(embark::onnx::freeDimsText(inputs[1]), std::string("symbolic dimension 'samples'"));
        const std::string set = (dir + "/test_data_set_0/").toStdString();
        QVERIFY(embark::onnx::writeTensorProto(
            set + "input_0.pb", ir::Tensor::fromInt64s(ir::Shape{2, 7}, std::vector<int64_t>(14, 1)), "ids"));
        QVERIFY(embark::onnx::writeTensorProto(set + "input_1.pb", ir::Tensor(ir::DType::Float32, ir::Shape{3, 160}),
                                               "audio"));
        auto shapes = embark::onnx::testDataShapes((dir + "/model.onnx").toStdString(), inputs);
        QCOMPARE(shapes.size(), size_t(1)); // audio's 3x160 contradicts its fixed first dim
        QCOMPARE(shapes.at("ids"), (ir::Shape{2, 7}));
    }

    void readsExternalDataInsideTheFolder() {
        const QString dir = m_dir.filePath("external_ok");
        QDir().mkpath(dir);
        const ir::Tensor w = ramp(ir::Shape{1, 4});
        QVERIFY(writeBytes(dir + "/weights.bin", QByteArray(static_cast<const char*>(w.data()), 16)));
        QVERIFY(externalModel("weights.bin").save(dir + "/model.onnx"));
        auto g = embark::onnx::importModel((dir + "/model.onnx").toStdString());
        QVERIFY2(g.ok(), g.ok() ? "" : g.error().message.c_str());
        QVERIFY(g->findValue("w")->constant.identical(w));
    }

    void rejectsBrokenModels_data() {
        QTest::addColumn<QString>("kase");
        QTest::addColumn<ErrorKind>("kind");
        QTest::addColumn<QStringList>("mentions");
        const auto bad = ErrorKind::InvalidInput;
        QTest::newRow("not a file") << "directory" << bad << QStringList{"directory"};
        QTest::newRow("missing file") << "missing" << bad << QStringList{"nope.onnx", "no such file"};
        QTest::newRow("empty file") << "empty" << bad << QStringList{"model.onnx", "empty"};
        QTest::newRow("truncated") << "truncated" << bad << QStringList{"model.onnx"};
        QTest::newRow("random bytes") << "random_bytes" << bad << QStringList{"model.onnx", "ONNX"};
        QTest::newRow("text file") << "text_file" << bad << QStringList{"model.onnx", "ONNX"};
        QTest::newRow("cycle") << "cycle" << bad << QStringList{"model.onnx", "cycle", "_loop"};
        QTest::newRow("unsupported op") << "unsupported_op" << ErrorKind::Unsupported
                                        << QStringList{"FooBar",         "weird_node", "opset 13",
                                                       "supported ops:", "Conv",       "Softmax"};
        QTest::newRow("foreign domain") << "foreign_domain" << ErrorKind::Unsupported
                                        << QStringList{"FusedGelu", "com.microsoft", "ms_gelu"};
        QTest::newRow("missing initializer")
            << "missing_initializer" << bad << QStringList{"conv_a", "conv_w", "missing initializer"};
        QTest::newRow("dim overflow") << "overflow" << bad << QStringList{"'x'", "overflow"};
        QTest::newRow("negative dim") << "negative_dim" << bad << QStringList{"'x'", "negative", "-3"};
        QTest::newRow("external ..") << "external_dotdot" << bad << QStringList{"'w'", "../outside.bin", "outside"};
        QTest::newRow("external absolute")
            << "external_absolute" << bad << QStringList{"'w'", "/etc/hostname", "outside"};
        QTest::newRow("external symlink") << "external_symlink" << bad << QStringList{"'w'", "weights.bin", "outside"};
        QTest::newRow("external missing")
            << "external_missing" << bad << QStringList{"'w'", "weights.bin", "does not exist"};
        QTest::newRow("external short") << "external_short" << bad << QStringList{"'w'", "weights.bin", "truncated"};
        QTest::newRow("unknown --shape input")
            << "unknown_shape_input" << ErrorKind::Usage << QStringList{"nosuch", "inputs are: x"};
        QTest::newRow("symbolic dim") << "symbolic_dim" << bad
                                      << QStringList{"input 'x'", "'batch'", "?x3x8x8", "--shape x=1x3x8x8"};
        QTest::newRow("opset too old") << "opset_too_old" << ErrorKind::Unsupported
                                       << QStringList{"opset 5", "6 to 21"};
        QTest::newRow("opset too new") << "opset_too_new" << ErrorKind::Unsupported << QStringList{"opset 22"};
        QTest::newRow("string dtype") << "string_input" << ErrorKind::Unsupported << QStringList{"'names'", "string"};
    }

    void rejectsBrokenModels() {
        QFETCH(QString, kase);
        QFETCH(ErrorKind, kind);
        QFETCH(QStringList, mentions);
        embark::onnx::ImportOptions options;
        const QString file = makeBad(kase, &options);
        auto g = embark::onnx::importModel(file.toStdString(), options);
        QVERIFY2(!g.ok(), "the broken model imported");
        const QString message = QString::fromStdString(g.error().message);
        QVERIFY2(g.error().kind == kind, qPrintable("wrong kind for: " + message));
        for (const QString& m : mentions) QVERIFY2(message.contains(m), qPrintable("'" + m + "' not in: " + message));
    }
};

QTEST_GUILESS_MAIN(TstImporter)
#include "tst_importer.moc"
