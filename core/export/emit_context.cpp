#include "emit_context.h"

#include "kernel_libraries.h"

#include <cctype>
#include <cmath>
#include <cstdio>

namespace embark::exporter {

namespace {
// A blob key qualified by the bytes it stands for (FNV-1a): values of different graphs (a
// model and its control-flow bodies) may share a name but not their contents.
std::string contentKey(const std::string& key, const void* data, size_t bytes) {
    uint64_t h = 1469598103934665603ull;
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ull;
    return key + "#" + std::to_string(bytes) + ":" + std::to_string(h);
}
} // namespace

std::string EmitContext::ptr(const ir::Value* v) {
    if (auto bound = m_bound.find(v->name); bound != m_bound.end()) return bound->second;
    if (v->isConstant()) return "W(" + std::to_string(constantOffset(v)) + ")";
    const PlannedBuffer* b = m_plan.bufferFor(v->name);
    return m_arena + "(" + std::to_string(b ? b->offset + m_plan.viewOf(v->name).byteOffset : 0) + ")";
}

int64_t EmitContext::arenaOffset(const ir::Value* v) const {
    if (v->isConstant() || m_bound.count(v->name)) return -1;
    const PlannedBuffer* b = m_plan.bufferFor(v->name);
    if (!b || !b->inArena) return -1;
    return static_cast<int64_t>(b->offset + m_plan.viewOf(v->name).byteOffset);
}

int64_t EmitContext::rowStride(const ir::Value* v) const {
    return v->isConstant() || m_bound.count(v->name) ? 0 : m_plan.viewOf(v->name).rowStride;
}

int64_t EmitContext::constantOffset(const ir::Value* v) {
    const ir::Tensor& c = v->constant;
    const std::string key =
        contentKey("c:" + v->name, c.data(), c.byteSize()) + ":" + std::string(ir::dtypeName(c.dtype()));
    if (c.dtype() == ir::DType::Float32) return m_blob.add(key, c);
    return m_blob.add(key, c.castTo(ir::DType::Float32));
}

std::string EmitContext::floats(const std::string& key, const std::vector<float>& data) {
    const std::string k = contentKey("f:" + key, data.data(), data.size() * sizeof(float));
    return "W(" + std::to_string(m_blob.addFloats(k, data.data(), static_cast<int64_t>(data.size()))) + ")";
}

std::string EmitContext::int64s(const std::string& key, const std::vector<int64_t>& data) {
    const ir::Tensor t = ir::Tensor::fromInt64s(ir::Shape{static_cast<int64_t>(data.size())}, data);
    return "WI(" + std::to_string(m_blob.add(contentKey("i:" + key, t.data(), t.byteSize()), t)) + ")";
}

int64_t EmitContext::rawBytes(const std::string& key, const ir::Tensor& data) {
    return m_blob.add(
        contentKey("r:" + key, data.data(), data.byteSize()) + ":" + std::string(ir::dtypeName(data.dtype())), data);
}

bool EmitContext::isNhwc(const ir::Value* v) const {
    auto it = m_a.valueLayouts.find(v->name);
    return it != m_a.valueLayouts.end() && it->second == targets::Layout::NHWC;
}

targets::Layout EmitContext::format(const ir::Node& n) const {
    auto it = m_a.nodes.find(n.name);
    return it == m_a.nodes.end() ? targets::Layout::NCHW : it->second.format;
}

const std::string& EmitContext::library(const ir::Node& n) const { return kernelLibrary(n).id; }

const targets::KernelLibrary& EmitContext::kernelLibrary(const ir::Node& n) const { return assignedLibrary(m_a, n); }

bool EmitContext::linksXnnpack() const {
    for (const targets::KernelLibrary& lib : kernelLibraries())
        if (lib.linksXnnpack && links(lib)) return true;
    return false;
}

std::string EmitContext::ident(const ir::Node& n, const char* suffix) {
    std::string s = "L" + m_identPrefix + std::to_string(m_counter++) + "_";
    for (char c : n.name) {
        if (s.size() > 40) break;
        s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    }
    return s + suffix;
}

std::string EmitContext::scratch(const ir::Node& n, int64_t count) {
    const std::string name = ident(n, "_scratch");
    decls += "static std::vector<float> " + name + ";\n";
    init += "    " + name + ".assign(" + std::to_string(count) + ", 0.f);\n";
    return name + ".data()";
}

std::string cppString(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        const unsigned char u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20 || u >= 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\%03o", u);
            out += buf;
        } else if (c == '?')
            out += "\\?"; // no trigraphs
        else
            out += c;
    }
    return out + "\"";
}

std::string cppFloat(double v) {
    if (std::isinf(v)) return v > 0 ? "INFINITY" : "-INFINITY";
    if (std::isnan(v)) return "NAN";
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.9gf", v);
    std::string s = buf;
    if (s.find_first_of(".eEn") == std::string::npos) s.insert(s.size() - 1, ".0");
    return s;
}

std::string cppInts(const std::vector<int64_t>& v) {
    std::string s = "{";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "}";
}

std::string shapeInit(const ir::Shape& s) {
    std::vector<int64_t> d = s.dims();
    return "{" + std::to_string(d.size()) + ", " + cppInts(d.empty() ? std::vector<int64_t>{1} : d) + "}";
}

Error unsupported(Emitter emitter, const ir::Node& n, const std::string& what) {
    if (emitter == Emitter::Xnnpack)
        return makeError(ErrorKind::Unsupported, "node " + n.describe() + ": the XNNPACK wrappers do not support " +
                                                     what + "; assign it to portable (--override-node " + n.name +
                                                     "=portable)");
    return makeError(ErrorKind::Unsupported, "node " + n.describe() + ": the portable kernels do not support " + what +
                                                 "; run it on another library or change the model");
}

const ir::Tensor* constant(const ir::Node& n, size_t i) {
    const ir::Value* v = n.input(i);
    return v && v->isConstant() ? &v->constant : nullptr;
}

std::string bytesOf(EmitContext& ctx, const ir::Value* v) {
    if (!v->isConstant() || v->dtype == ir::DType::Float32) return "static_cast<const void*>(" + ctx.ptr(v) + ")";
    return "static_cast<const void*>(embark_weights + " +
           std::to_string(ctx.rawBytes("typed:" + v->name, v->constant)) + ")";
}

void emitCopy(EmitContext& ctx, const ir::Value* in, const ir::Value* out) {
    ctx.forward += "    embark::generic::copy(" + ctx.ptr(in) + ", " + ctx.ptr(out) + ", " +
                   std::to_string(out->shape.numel()) + ");\n";
}

std::vector<int64_t> transposePerm(const ir::Node& n) {
    std::vector<int64_t> perm = n.attrInts("perm");
    if (perm.empty())
        for (size_t i = n.input(0)->shape.rank(); i-- > 0;) perm.push_back(static_cast<int64_t>(i));
    return perm;
}

Spatial2D spatial2D(const ir::Node& n, int64_t kh, int64_t kw, int64_t inH, int64_t inW, int64_t outH, int64_t outW) {
    Spatial2D s;
    s.kh = kh;
    s.kw = kw;
    const auto strides = n.attrInts("strides", {1, 1});
    const auto dil = n.attrInts("dilations", {1, 1});
    s.sh = strides.size() > 0 ? strides[0] : 1;
    s.sw = strides.size() > 1 ? strides[1] : 1;
    s.dh = dil.size() > 0 ? dil[0] : 1;
    s.dw = dil.size() > 1 ? dil[1] : 1;
    const std::string autoPad = n.attrString("auto_pad", "NOTSET");
    if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
        auto split = [&](int64_t in, int64_t out, int64_t k, int64_t st, int64_t d, int64_t* a, int64_t* b) {
            const int64_t total = std::max<int64_t>(0, (out - 1) * st + (k - 1) * d + 1 - in);
            *a = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
            *b = total - *a;
        };
        split(inH, outH, kh, s.sh, s.dh, &s.pt, &s.pb);
        split(inW, outW, kw, s.sw, s.dw, &s.pl, &s.pr);
    } else if (autoPad != "VALID") {
        const auto pads = n.attrInts("pads", {0, 0, 0, 0});
        if (pads.size() >= 4) {
            s.pt = pads[0];
            s.pl = pads[1];
            s.pb = pads[2];
            s.pr = pads[3];
        }
    }
    return s;
}

} // namespace embark::exporter
