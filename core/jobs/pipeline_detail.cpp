#include "pipeline_detail.h"

#include <QFile>

namespace embark::jobs::detail {

Error external(const QString& m) { return makeError(ErrorKind::External, m.toStdString()); }

QString safeName(const QString& s) {
    QString out;
    for (QChar ch : s) out += ch.isLetterOrNumber() || ch == '-' || ch == '_' ? ch : QChar('_');
    return out;
}

store::AccuracyEntry accuracyEntry(const bench::Accuracy& a) {
    return store::AccuracyEntry{a.name, a.maxAbs, a.maxRel, a.rmse, a.cosine, a.snrDb};
}

Error cancelled(const char* when) { return makeError(ErrorKind::External, std::string("cancelled ") + when); }

ir::Tensor readRawTensor(const QString& path, ir::DType dtype, const ir::Shape& shape, bool* ok) {
    QFile f(path);
    *ok = false;
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QByteArray bytes = f.readAll();
    if (static_cast<size_t>(bytes.size()) != static_cast<size_t>(shape.numel()) * ir::dtypeSize(dtype)) return {};
    *ok = true;
    return ir::Tensor::fromBytes(dtype, shape, bytes.constData(), static_cast<size_t>(bytes.size()));
}

} // namespace embark::jobs::detail
