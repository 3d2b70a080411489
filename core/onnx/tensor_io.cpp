#include "tensor_io.h"

#include "proto_tensor.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>

#include <algorithm>

namespace embark::onnx {
namespace {

Expected<QByteArray> readAll(const std::string& path) {
    const QFileInfo info(QString::fromStdString(path));
    if (!info.exists()) return makeError(ErrorKind::InvalidInput, path + ": no such file");
    if (info.isDir()) return makeError(ErrorKind::InvalidInput, path + " is a directory, not a tensor file");
    QFile file(info.filePath());
    if (!file.open(QIODevice::ReadOnly))
        return makeError(ErrorKind::InvalidInput, path + ": cannot read (" + file.errorString().toStdString() + ")");
    return file.readAll();
}

Status writeAll(const std::string& path, const char* data, size_t size) {
    QSaveFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::WriteOnly))
        return makeError(ErrorKind::External, path + ": cannot write (" + file.errorString().toStdString() + ")");
    // flush() first: Qt 6.4's commit() ignores an error of the final buffered write (disk
    // full) and would replace the old file with a truncated one.
    if (file.write(data, static_cast<qint64>(size)) != static_cast<qint64>(size) || !file.flush() || !file.commit())
        return makeError(ErrorKind::External, path + ": cannot write (" + file.errorString().toStdString() + ")");
    return {};
}

// NumPy dtype descriptors without the byte-order character.
struct NpyType {
    const char* code;
    ir::DType dtype;
};
constexpr NpyType kNpyTypes[] = {
    {"f4", ir::DType::Float32}, {"f8", ir::DType::Float64}, {"f2", ir::DType::Float16}, {"i1", ir::DType::Int8},
    {"i2", ir::DType::Int16},   {"i4", ir::DType::Int32},   {"i8", ir::DType::Int64},   {"u1", ir::DType::UInt8},
    {"u2", ir::DType::UInt16},  {"u4", ir::DType::UInt32},  {"u8", ir::DType::UInt64},  {"b1", ir::DType::Bool},
};

Error npyError(const std::string& path, const std::string& what) {
    return makeError(ErrorKind::InvalidInput, path + ": not a readable .npy file: " + what);
}

// The value text of `key` in the header dict ("'descr': '<f4', ..."), up to `end`.
QString dictValue(const QString& header, const QString& key) {
    const QRegularExpression re("['\"]" + key + "['\"]\\s*:\\s*(\\([^)]*\\)|'[^']*'|\"[^\"]*\"|\\w+)");
    const auto m = re.match(header);
    return m.hasMatch() ? m.captured(1) : QString();
}
} // namespace

Expected<NamedTensor> readTensorProto(const std::string& path) {
    auto bytes = readAll(path);
    if (!bytes) return bytes.error();
    ::onnx::TensorProto proto;
    if (bytes->isEmpty() || !proto.ParseFromArray(bytes->constData(), static_cast<int>(bytes->size())))
        return makeError(ErrorKind::InvalidInput,
                         path + ": not an ONNX TensorProto file (empty, truncated or another format)");
    if (proto.dims_size() == 0 && !proto.has_raw_data() && proto.float_data_size() == 0 &&
        proto.int32_data_size() == 0 && proto.int64_data_size() == 0 && proto.double_data_size() == 0 &&
        proto.uint64_data_size() == 0 && proto.data_type() == 0)
        return makeError(ErrorKind::InvalidInput, path + ": not an ONNX TensorProto file (no type, shape or data)");
    EMBARK_TRY(inlineExternalData(&proto, QFileInfo(QString::fromStdString(path)).absolutePath().toStdString(), path));
    auto t = tensorFromProto(proto, "tensor '" + proto.name() + "' in " + path);
    if (!t) return t.error();
    return NamedTensor{proto.name(), std::move(*t)};
}

Status writeTensorProto(const std::string& path, const ir::Tensor& tensor, const std::string& name) {
    ::onnx::TensorProto proto;
    tensorToProto(tensor, name, &proto);
    const std::string bytes = proto.SerializeAsString();
    return writeAll(path, bytes.data(), bytes.size());
}

Expected<ir::Tensor> readNpy(const std::string& path) {
    auto bytes = readAll(path);
    if (!bytes) return bytes.error();
    const QByteArray& b = *bytes;
    if (b.size() < 10 || !b.startsWith("\x93NUMPY")) return npyError(path, "missing the \\x93NUMPY magic");
    const int major = static_cast<unsigned char>(b[6]);
    qsizetype headerLen = 0, headerStart = 0;
    if (major == 1) {
        headerLen = static_cast<unsigned char>(b[8]) | (static_cast<unsigned char>(b[9]) << 8);
        headerStart = 10;
    } else if (major == 2 || major == 3) {
        if (b.size() < 12) return npyError(path, "truncated header");
        headerLen = static_cast<qsizetype>(static_cast<unsigned char>(b[8]) | (static_cast<unsigned char>(b[9]) << 8) |
                                           (static_cast<unsigned char>(b[10]) << 16) |
                                           (static_cast<uint32_t>(static_cast<unsigned char>(b[11])) << 24));
        headerStart = 12;
    } else {
        return npyError(path, "format version " + std::to_string(major) + " (supported: 1, 2, 3)");
    }
    if (headerLen < 0 || headerStart + headerLen > b.size()) return npyError(path, "truncated header");
    const QString header = QString::fromUtf8(b.mid(headerStart, headerLen));
    const qsizetype dataStart = headerStart + headerLen;

    QString descr = dictValue(header, "descr");
    descr.remove('\'').remove('"');
    if (descr.size() != 3) return npyError(path, "unsupported dtype '" + descr.toStdString() + "'");
    const QChar order = descr[0];
    const QString code = descr.mid(1);
    std::optional<ir::DType> dtype;
    for (const NpyType& t : kNpyTypes)
        if (code == t.code) dtype = t.dtype;
    if (!dtype) return npyError(path, "unsupported dtype '" + descr.toStdString() + "'");
    if (order == '>' && ir::dtypeSize(*dtype) > 1)
        return npyError(path, "big-endian data ('" + descr.toStdString() + "'); save it little-endian: a.astype('<" +
                                  code.toStdString() + "')");
    if (dictValue(header, "fortran_order") == "True")
        return npyError(path, "Fortran (column-major) order; save it in C order: np.save(f, np.ascontiguousarray(a))");

    QString shapeText = dictValue(header, "shape");
    if (!shapeText.startsWith('(')) return npyError(path, "no shape in the header");
    shapeText = shapeText.mid(1, shapeText.size() - 2);
    std::vector<int64_t> dims;
    for (const QString& part : shapeText.split(',', Qt::SkipEmptyParts)) {
        bool ok = false;
        const qlonglong d = part.trimmed().toLongLong(&ok);
        if (!ok || d < 0) return npyError(path, "invalid shape (" + shapeText.toStdString() + ")");
        dims.push_back(d);
    }
    const ir::Shape shape(dims);
    const auto numel = shape.checkedNumel();
    if (!numel) return npyError(path, "shape " + shape.str() + " overflows");
    const uint64_t expected = static_cast<uint64_t>(*numel) * ir::dtypeSize(*dtype);
    const uint64_t actual = static_cast<uint64_t>(b.size() - dataStart);
    if (static_cast<uint64_t>(*numel) > actual || expected != actual)
        return npyError(path, "shape " + shape.str() + " of " + std::string(ir::dtypeName(*dtype)) + " needs " +
                                  std::to_string(expected) + " bytes of data but the file holds " +
                                  std::to_string(actual));
    return ir::Tensor::fromBytes(*dtype, shape, b.constData() + dataStart, static_cast<size_t>(expected));
}

Status writeNpy(const std::string& path, const ir::Tensor& tensor) {
    std::string code;
    for (const NpyType& t : kNpyTypes)
        if (t.dtype == tensor.dtype()) code = t.code;
    const char order = ir::dtypeSize(tensor.dtype()) == 1 ? '|' : '<';
    std::string shape = "(";
    for (int64_t d : tensor.shape().dims()) shape += std::to_string(d) + ", ";
    if (tensor.shape().rank() > 1)
        shape.resize(shape.size() - 2);
    else if (tensor.shape().rank() == 1)
        shape.resize(shape.size() - 1);
    shape += ")";
    std::string header =
        "{'descr': '" + std::string(1, order) + code + "', 'fortran_order': False, 'shape': " + shape + ", }";
    // Pad with spaces so the data starts on a 64-byte boundary, newline last (NumPy's layout).
    const size_t unpadded = 10 + header.size() + 1;
    header.append((64 - unpadded % 64) % 64, ' ');
    header += '\n';
    std::string out = "\x93NUMPY";
    out += '\x01';
    out += '\x00';
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>((header.size() >> 8) & 0xff);
    out += header;
    out.append(static_cast<const char*>(tensor.data()), tensor.byteSize());
    return writeAll(path, out.data(), out.size());
}

Expected<ir::Tensor> readRaw(const std::string& path, ir::DType dtype, const ir::Shape& shape) {
    const auto numel = shape.checkedNumel();
    if (!numel) return makeError(ErrorKind::Usage, path + ": shape " + shape.str() + " is invalid");
    auto bytes = readAll(path);
    if (!bytes) return bytes.error();
    const uint64_t expected = static_cast<uint64_t>(*numel) * ir::dtypeSize(dtype); // numel < 2^63, size <= 8
    if (static_cast<uint64_t>(bytes->size()) != expected)
        return makeError(ErrorKind::InvalidInput,
                         path + " holds " + std::to_string(bytes->size()) + " bytes but shape " + shape.str() + " of " +
                             std::string(ir::dtypeName(dtype)) + " needs " + std::to_string(expected) +
                             " bytes: check the input's shape and dtype");
    return ir::Tensor::fromBytes(dtype, shape, bytes->constData(), static_cast<size_t>(expected));
}

Status writeRaw(const std::string& path, const ir::Tensor& tensor) {
    return writeAll(path, static_cast<const char*>(tensor.data()), tensor.byteSize());
}

Expected<NamedTensor> readTensorFile(const std::string& path, ir::DType rawDType, const ir::Shape& rawShape) {
    const QString suffix = QFileInfo(QString::fromStdString(path)).suffix().toLower();
    if (suffix == "pb") return readTensorProto(path);
    if (suffix == "npy") {
        auto t = readNpy(path);
        if (!t) return t.error();
        return NamedTensor{"", std::move(*t)};
    }
    if (suffix == "bin" || suffix == "raw") {
        auto t = readRaw(path, rawDType, rawShape);
        if (!t) return t.error();
        return NamedTensor{"", std::move(*t)};
    }
    return makeError(ErrorKind::Usage, path + ": unknown tensor file type '." + suffix.toStdString() +
                                           "' (use .pb, .npy, or .bin/.raw raw little-endian data)");
}

Expected<TestDataSet> readTestDataSet(const std::string& dir) {
    const QDir d(QString::fromStdString(dir));
    if (!d.exists()) return makeError(ErrorKind::InvalidInput, dir + ": no such test data folder");
    TestDataSet set;
    for (const char* kind : {"input", "output"}) {
        const QRegularExpression re(QString("^%1_(\\d+)\\.pb$").arg(kind));
        std::vector<std::pair<int, QString>> files;
        for (const QString& f : d.entryList(QDir::Files)) {
            const auto m = re.match(f);
            if (m.hasMatch()) files.emplace_back(m.captured(1).toInt(), d.filePath(f));
        }
        std::sort(files.begin(), files.end());
        auto& target = std::string(kind) == "input" ? set.inputs : set.outputs;
        for (const auto& [index, file] : files) {
            auto t = readTensorProto(file.toStdString());
            if (!t) return t.error();
            target.push_back(std::move(*t));
        }
    }
    if (set.inputs.empty() && set.outputs.empty())
        return makeError(ErrorKind::InvalidInput,
                         dir + ": no input_K.pb or output_K.pb files (not a test_data_set_N folder)");
    return set;
}

Status writeTestDataSet(const std::string& dir, const std::vector<NamedTensor>& inputs,
                        const std::vector<NamedTensor>& outputs) {
    if (!QDir().mkpath(QString::fromStdString(dir)))
        return makeError(ErrorKind::External, dir + ": cannot create the folder");
    for (size_t i = 0; i < inputs.size(); ++i)
        EMBARK_TRY(writeTensorProto(dir + "/input_" + std::to_string(i) + ".pb", inputs[i].tensor, inputs[i].name));
    for (size_t i = 0; i < outputs.size(); ++i)
        EMBARK_TRY(writeTensorProto(dir + "/output_" + std::to_string(i) + ".pb", outputs[i].tensor, outputs[i].name));
    return {};
}

std::map<std::string, ir::Tensor> pairTestSetInputs(const ir::Graph& graph, const std::vector<NamedTensor>& set) {
    std::map<std::string, ir::Tensor> inputs;
    for (size_t i = 0; i < graph.inputs().size() && i < set.size(); ++i) {
        const ir::Value* v = graph.inputs()[i];
        const ir::Tensor* t = &set[i].tensor;
        for (const auto& named : set)
            if (named.name == v->name) t = &named.tensor;
        inputs[v->name] = *t;
    }
    return inputs;
}

} // namespace embark::onnx
