#include "proto_tensor.h"

#include "op_table.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cstring>

namespace embark::onnx {
namespace {
using ::onnx::TensorProto;

std::string sizeText(int64_t count, ir::DType dtype) {
    // A fuzzed or broken file can declare a shape whose byte size overflows int64 (signed
    // overflow is undefined behaviour, and the old text said "= 0 bytes").
    int64_t bytes = 0;
    const bool overflows = __builtin_mul_overflow(count, static_cast<int64_t>(ir::dtypeSize(dtype)), &bytes);
    return std::to_string(count) + " " + std::string(ir::dtypeName(dtype)) + " = " +
           (overflows ? std::string("more than 2^63") : std::to_string(bytes)) + " bytes";
}

// Copies a typed repeated field into a tensor of `dtype`, converting each element.
template <typename Field>
ir::Tensor fromTypedField(const Field& field, ir::DType dtype, const ir::Shape& shape) {
    ir::Tensor t(dtype, shape);
    void* dst = t.mutableData();
    for (int i = 0; i < field.size(); ++i) {
        const auto v = field.Get(i);
        switch (dtype) {
        case ir::DType::Float32: static_cast<float*>(dst)[i] = static_cast<float>(v); break;
        case ir::DType::Float64: static_cast<double*>(dst)[i] = static_cast<double>(v); break;
        // float16 travels in int32_data as its bit pattern
        case ir::DType::Float16: static_cast<uint16_t*>(dst)[i] = static_cast<uint16_t>(v); break;
        case ir::DType::Int8: static_cast<int8_t*>(dst)[i] = static_cast<int8_t>(v); break;
        case ir::DType::Int16: static_cast<int16_t*>(dst)[i] = static_cast<int16_t>(v); break;
        case ir::DType::Int32: static_cast<int32_t*>(dst)[i] = static_cast<int32_t>(v); break;
        case ir::DType::Int64: static_cast<int64_t*>(dst)[i] = static_cast<int64_t>(v); break;
        case ir::DType::UInt8: static_cast<uint8_t*>(dst)[i] = static_cast<uint8_t>(v); break;
        case ir::DType::UInt16: static_cast<uint16_t*>(dst)[i] = static_cast<uint16_t>(v); break;
        case ir::DType::UInt32: static_cast<uint32_t*>(dst)[i] = static_cast<uint32_t>(v); break;
        case ir::DType::UInt64: static_cast<uint64_t*>(dst)[i] = static_cast<uint64_t>(v); break;
        case ir::DType::Bool: static_cast<uint8_t*>(dst)[i] = v != 0 ? 1 : 0; break;
        default: break;
        }
    }
    return t;
}

// True when `path` (already canonical) lies inside `dir` (canonical).
bool isInside(const QString& path, const QString& dir) { return path.startsWith(dir.endsWith('/') ? dir : dir + '/'); }
} // namespace

Expected<ir::Tensor> tensorFromProto(const TensorProto& proto, const std::string& what) {
    const auto dtype = dtypeFromOnnx(proto.data_type());
    if (!dtype)
        return makeError(ErrorKind::Unsupported, what + " has element type " + onnxDTypeName(proto.data_type()) +
                                                     ", which Embark does not support (use float32, float16, float64, "
                                                     "integer or bool tensors)");
    std::vector<int64_t> dims(proto.dims().begin(), proto.dims().end());
    ir::Shape shape(dims);
    const auto numel = shape.checkedNumel();
    if (!numel)
        return makeError(ErrorKind::InvalidInput,
                         what + " has shape " + shape.str() +
                             ", whose element count is negative or overflows: the file is broken");
    if (proto.data_location() == TensorProto::EXTERNAL)
        return makeError(ErrorKind::InvalidInput, what + " keeps its data in an external file that was not loaded");

    const size_t elem = ir::dtypeSize(*dtype);
    if (proto.has_raw_data()) {
        const std::string& raw = proto.raw_data();
        if (static_cast<uint64_t>(*numel) > raw.size() / elem || raw.size() != static_cast<size_t>(*numel) * elem)
            return makeError(ErrorKind::InvalidInput, what + " declares shape " + shape.str() + " (" +
                                                          sizeText(*numel, *dtype) + ") but holds " +
                                                          std::to_string(raw.size()) + " bytes: the file is broken");
        return ir::Tensor::fromBytes(*dtype, shape, raw.data(), raw.size());
    }

    int64_t stored = 0;
    switch (*dtype) {
    case ir::DType::Float32: stored = proto.float_data_size(); break;
    case ir::DType::Float64: stored = proto.double_data_size(); break;
    case ir::DType::Int64: stored = proto.int64_data_size(); break;
    case ir::DType::UInt32:
    case ir::DType::UInt64: stored = proto.uint64_data_size(); break;
    default: stored = proto.int32_data_size(); break;
    }
    if (stored != *numel)
        return makeError(ErrorKind::InvalidInput, what + " declares shape " + shape.str() + " (" +
                                                      std::to_string(*numel) + " elements) but holds " +
                                                      std::to_string(stored) + ": the file is broken");
    switch (*dtype) {
    case ir::DType::Float32: return fromTypedField(proto.float_data(), *dtype, shape);
    case ir::DType::Float64: return fromTypedField(proto.double_data(), *dtype, shape);
    case ir::DType::Int64: return fromTypedField(proto.int64_data(), *dtype, shape);
    case ir::DType::UInt32:
    case ir::DType::UInt64: return fromTypedField(proto.uint64_data(), *dtype, shape);
    default: return fromTypedField(proto.int32_data(), *dtype, shape);
    }
}

void tensorToProto(const ir::Tensor& tensor, const std::string& name, TensorProto* proto) {
    proto->Clear();
    if (!name.empty()) proto->set_name(name);
    proto->set_data_type(onnxDType(tensor.dtype()));
    for (int64_t d : tensor.shape().dims()) proto->add_dims(d);
    proto->set_raw_data(tensor.data(), tensor.byteSize());
}

Status inlineExternalData(TensorProto* proto, const std::string& baseDir, const std::string& displayName) {
    if (proto->data_location() != TensorProto::EXTERNAL) return {};
    const std::string what = "tensor '" + proto->name() + "' of " + displayName;
    std::string location;
    int64_t offset = 0, length = -1;
    for (const auto& entry : proto->external_data()) {
        bool ok = true;
        if (entry.key() == "location")
            location = entry.value();
        else if (entry.key() == "offset")
            offset = QString::fromStdString(entry.value()).toLongLong(&ok);
        else if (entry.key() == "length")
            length = QString::fromStdString(entry.value()).toLongLong(&ok);
        if (!ok || offset < 0)
            return makeError(ErrorKind::InvalidInput,
                             what + " has an invalid external-data " + entry.key() + " '" + entry.value() + "'");
    }
    if (location.empty())
        return makeError(ErrorKind::InvalidInput, what + " is stored externally but names no location");
    if (baseDir.empty())
        return makeError(ErrorKind::InvalidInput,
                         what + " is stored in external file '" + location +
                             "', which needs the model's folder: load the model from its file");
    const QString loc = QString::fromStdString(location);
    const QString cleaned = QDir::cleanPath(loc);
    if (QDir::isAbsolutePath(loc) || cleaned == ".." || cleaned.startsWith("../"))
        return makeError(ErrorKind::InvalidInput,
                         what + " points at external file '" + location +
                             "', outside the model's folder: external data must sit in the model's "
                             "folder (a relative path without '..')");
    const QString dir = QFileInfo(QString::fromStdString(baseDir)).canonicalFilePath();
    const QFileInfo info(QDir(dir).filePath(cleaned));
    if (!info.exists())
        return makeError(ErrorKind::InvalidInput, what + " needs external file '" + location +
                                                      "', which does not exist in " + dir.toStdString() +
                                                      ": copy it next to the model");
    const QString real = info.canonicalFilePath();
    if (!isInside(real, dir))
        return makeError(ErrorKind::InvalidInput, what + " points at external file '" + location +
                                                      "', a link leading to " + real.toStdString() +
                                                      " outside the model's folder: copy the data file instead");
    QFile file(real);
    if (!info.isFile() || !file.open(QIODevice::ReadOnly))
        return makeError(ErrorKind::InvalidInput, what + ": cannot read external file '" + location + "'");
    const int64_t available = file.size() - offset;
    if (length < 0) length = available;
    if (available < length || !file.seek(offset))
        return makeError(ErrorKind::InvalidInput, what + " needs " + std::to_string(length) + " bytes at offset " +
                                                      std::to_string(offset) + " of '" + location +
                                                      "', which holds only " + std::to_string(file.size()) +
                                                      " bytes: the data file is truncated");
    std::string bytes(static_cast<size_t>(length), '\0');
    if (file.read(bytes.data(), length) != length)
        return makeError(ErrorKind::InvalidInput, what + ": short read from external file '" + location + "'");
    proto->set_raw_data(std::move(bytes));
    proto->clear_external_data();
    proto->set_data_location(TensorProto::DEFAULT);
    return {};
}

Status inlineExternalData(::onnx::ModelProto* model, const std::string& baseDir, const std::string& displayName) {
    auto* graph = model->mutable_graph();
    for (auto& init : *graph->mutable_initializer()) EMBARK_TRY(inlineExternalData(&init, baseDir, displayName));
    for (auto& node : *graph->mutable_node())
        for (auto& attr : *node.mutable_attribute())
            if (attr.has_t()) EMBARK_TRY(inlineExternalData(attr.mutable_t(), baseDir, displayName));
    return {};
}

} // namespace embark::onnx
