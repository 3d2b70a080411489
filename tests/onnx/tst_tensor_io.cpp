// Tensor files: TensorProto .pb (raw_data and typed fields), .npy (v1/v2, refusing Fortran
// order and big-endian), raw .bin with a given shape, and test_data_set_N folders.
#include "onnx/tensor_io.h"
#include "onnx_models.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace embark;
using namespace embark::test;

Q_DECLARE_METATYPE(embark::ir::Tensor)

namespace {
bool writeBytes(const QString& file, const QByteArray& bytes) {
    QFile f(file);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

ir::Tensor typed(ir::DType dtype, ir::Shape shape) { return ramp(std::move(shape), 1.f).castTo(dtype); }

QByteArray npyFile(int major, const std::string& dict, const QByteArray& data) {
    QByteArray header = QByteArray::fromStdString(dict);
    const int prefix = major == 1 ? 10 : 12;
    while ((prefix + header.size() + 1) % 64) header += ' ';
    header += '\n';
    QByteArray out("\x93NUMPY", 6);
    out += static_cast<char>(major);
    out += '\0';
    const auto len = static_cast<uint32_t>(header.size());
    out += static_cast<char>(len & 0xff);
    out += static_cast<char>((len >> 8) & 0xff);
    if (major > 1) {
        out += static_cast<char>((len >> 16) & 0xff);
        out += static_cast<char>((len >> 24) & 0xff);
    }
    return out + header + data;
}
} // namespace

class TstTensorIo : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string path(const QString& name) const { return m_dir.filePath(name).toStdString(); }

private slots:
    void roundTrips_data() {
        QTest::addColumn<ir::Tensor>("tensor");
        QTest::newRow("float32 4-D") << typed(ir::DType::Float32, ir::Shape{1, 3, 4, 5});
        QTest::newRow("int64 vector") << typed(ir::DType::Int64, ir::Shape{7});
        QTest::newRow("float16") << typed(ir::DType::Float16, ir::Shape{2, 3});
        QTest::newRow("bool") << typed(ir::DType::Bool, ir::Shape{5});
        QTest::newRow("uint8") << typed(ir::DType::UInt8, ir::Shape{2, 2});
        QTest::newRow("float64 scalar") << typed(ir::DType::Float64, ir::Shape{});
        QTest::newRow("empty") << typed(ir::DType::Float32, ir::Shape{0, 3});
    }

    void roundTrips() {
        QFETCH(ir::Tensor, tensor);
        const std::string tag = QTest::currentDataTag();
        QVERIFY(embark::onnx::writeTensorProto(path("t.pb"), tensor, "my_input").ok());
        auto pbBack = embark::onnx::readTensorProto(path("t.pb"));
        QVERIFY2(pbBack.ok(), pbBack.ok() ? "" : pbBack.error().message.c_str());
        QCOMPARE(pbBack->name, std::string("my_input"));
        QVERIFY(pbBack->tensor.identical(tensor));

        QVERIFY(embark::onnx::writeNpy(path("t.npy"), tensor).ok());
        auto npyBack = embark::onnx::readNpy(path("t.npy"));
        QVERIFY2(npyBack.ok(), npyBack.ok() ? "" : npyBack.error().message.c_str());
        QVERIFY(npyBack->identical(tensor));

        QVERIFY(embark::onnx::writeRaw(path("t.bin"), tensor).ok());
        auto rawBack = embark::onnx::readTensorFile(path("t.bin"), tensor.dtype(), tensor.shape());
        QVERIFY2(rawBack.ok(), rawBack.ok() ? "" : rawBack.error().message.c_str());
        QVERIFY(rawBack->tensor.identical(tensor));
    }

    void readsTypedFields() {
        pb::TensorProto f;
        f.set_data_type(pb::TensorProto::FLOAT);
        f.add_dims(3);
        for (float v : {1.f, -2.f, 3.5f}) f.add_float_data(v);
        pb::TensorProto i64;
        i64.set_data_type(pb::TensorProto::INT64);
        i64.add_dims(2);
        i64.add_int64_data(-5);
        i64.add_int64_data(int64_t{1} << 40);
        pb::TensorProto i32;
        i32.set_data_type(pb::TensorProto::INT32);
        i32.add_dims(2);
        i32.add_int32_data(7);
        i32.add_int32_data(-8);
        pb::TensorProto f64;
        f64.set_data_type(pb::TensorProto::DOUBLE);
        f64.add_double_data(0.25);
        pb::TensorProto f16;
        f16.set_data_type(pb::TensorProto::FLOAT16);
        f16.add_dims(1);
        f16.add_int32_data(ir::floatToHalf(1.5f));
        int k = 0;
        for (const auto* proto : {&f, &i64, &i32, &f64, &f16}) {
            const QString file = m_dir.filePath(QString("typed%1.pb").arg(k++));
            QVERIFY(writeBytes(file, QByteArray::fromStdString(proto->SerializeAsString())));
        }
        auto rf = embark::onnx::readTensorProto(path("typed0.pb"));
        QVERIFY(rf.ok());
        QCOMPARE(rf->tensor.toFloatVector(), (std::vector<float>{1.f, -2.f, 3.5f}));
        auto ri = embark::onnx::readTensorProto(path("typed1.pb"));
        QVERIFY(ri.ok());
        QCOMPARE(ri->tensor.toInt64Vector(), (std::vector<int64_t>{-5, int64_t{1} << 40}));
        auto r32 = embark::onnx::readTensorProto(path("typed2.pb"));
        QVERIFY(r32.ok() && r32->tensor.dtype() == ir::DType::Int32);
        QCOMPARE(r32->tensor.toInt64Vector(), (std::vector<int64_t>{7, -8}));
        auto rd = embark::onnx::readTensorProto(path("typed3.pb"));
        QVERIFY(rd.ok() && rd->tensor.shape().rank() == 0);
        QCOMPARE(rd->tensor.at(0), 0.25);
        auto rh = embark::onnx::readTensorProto(path("typed4.pb"));
        QVERIFY(rh.ok() && rh->tensor.dtype() == ir::DType::Float16);
        QCOMPARE(rh->tensor.at(0), 1.5);
    }

    void readsNpyVersion2() {
        const std::vector<float> v{1.f, 2.f, 3.f, 4.f, 5.f, 6.f};
        const QByteArray data(reinterpret_cast<const char*>(v.data()), 24);
        QVERIFY(writeBytes(m_dir.filePath("v2.npy"),
                           npyFile(2, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", data)));
        auto t = embark::onnx::readNpy(path("v2.npy"));
        QVERIFY2(t.ok(), t.ok() ? "" : t.error().message.c_str());
        QCOMPARE(t->shape(), (ir::Shape{2, 3}));
        QCOMPARE(t->toFloatVector(), v);
    }

    void rejectsBadFiles_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QStringList>("mentions");
        const QByteArray data(24, '\0');
        QTest::newRow("npy fortran") << "fortran.npy"
                                     << npyFile(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", data)
                                     << QStringList{"fortran.npy", "Fortran"};
        QTest::newRow("npy big-endian") << "big.npy"
                                        << npyFile(1, "{'descr': '>f4', 'fortran_order': False, 'shape': (2, 3), }",
                                                   data)
                                        << QStringList{"big.npy", "big-endian"};
        QTest::newRow("npy short data") << "short.npy"
                                        << npyFile(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 4), }",
                                                   data)
                                        << QStringList{"short.npy", "32 bytes", "24"};
        QTest::newRow("npy object dtype")
            << "object.npy" << npyFile(1, "{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", data)
            << QStringList{"object.npy", "dtype"};
        QTest::newRow("npy not npy") << "text.npy" << QByteArray("just text") << QStringList{"text.npy", "NUMPY"};
        QTest::newRow("pb empty") << "empty.pb" << QByteArray() << QStringList{"empty.pb", "TensorProto"};
        QTest::newRow("pb garbage") << "garbage.pb" << QByteArray("\xff\xff\xff\xff\xff\xff garbage", 14)
                                    << QStringList{"garbage.pb", "TensorProto"};
        QTest::newRow("bin wrong size") << "wrong.bin" << QByteArray(20, '\0')
                                        << QStringList{"wrong.bin", "20 bytes", "24 bytes"};
        QTest::newRow("unknown extension") << "tensor.txt" << QByteArray("1 2 3") << QStringList{"tensor.txt", ".txt"};
    }

    void rejectsBadFiles() {
        QFETCH(QString, file);
        QFETCH(QByteArray, bytes);
        QFETCH(QStringList, mentions);
        QVERIFY(writeBytes(m_dir.filePath(file), bytes));
        auto t = embark::onnx::readTensorFile(path(file), ir::DType::Float32, ir::Shape{2, 3});
        QVERIFY(!t.ok());
        const QString message = QString::fromStdString(t.error().message);
        for (const QString& m : mentions) QVERIFY2(message.contains(m), qPrintable("'" + m + "' not in: " + message));
    }

    void testDataSetsSortNumerically() {
        const std::string dir = path("test_data_set_0");
        std::vector<embark::onnx::NamedTensor> inputs, outputs;
        for (int i = 0; i < 12; ++i)
            inputs.push_back({"in" + std::to_string(i), ir::Tensor::scalarFloat(static_cast<float>(i))});
        outputs.push_back({"out", typed(ir::DType::Float32, ir::Shape{1, 10})});
        QVERIFY(embark::onnx::writeTestDataSet(dir, inputs, outputs).ok());
        auto set = embark::onnx::readTestDataSet(dir);
        QVERIFY2(set.ok(), set.ok() ? "" : set.error().message.c_str());
        QCOMPARE(set->inputs.size(), size_t(12));
        for (int i = 0; i < 12; ++i) {
            QCOMPARE(set->inputs[static_cast<size_t>(i)].name, "in" + std::to_string(i));
            QCOMPARE(set->inputs[static_cast<size_t>(i)].tensor.at(0), double(i));
        }
        QVERIFY(set->outputs[0].tensor.identical(outputs[0].tensor));
        QVERIFY(!embark::onnx::readTestDataSet(path("no_such_set")).ok());
    }
};

QTEST_GUILESS_MAIN(TstTensorIo)
#include "tst_tensor_io.moc"
