// The portable emitter's recurrent layers: LSTM, GRU and RNN on the generic kernel
// (runtime/generic/recurrent.h), the attributes resolved here, once, into its RnnShape.
#include "export/emit_context.h"

#include "ir/recurrent.h"

namespace embark::exporter {
namespace {

std::string activationInit(const ir::RecurrentActivation& a) {
    static const char* const kNames[] = {
        "Relu",       "Tanh",        "Sigmoid", "Affine",   "LeakyRelu", "ThresholdedRelu",
        "ScaledTanh", "HardSigmoid", "Elu",     "Softsign", "Softplus"};
    return std::string("{embark::generic::RnnAct::") + kNames[static_cast<int>(a.kind)] + ", " + cppFloat(a.alpha) +
           ", " + cppFloat(a.beta) + "}";
}

} // namespace

Status emitPortableRecurrent(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* x = n.input(0);
    const ir::Value* r = n.input(2);
    if (!x || !n.input(1) || !r || x->shape.rank() != 3 || r->shape.rank() != 3)
        return unsupported(Emitter::Portable, n, "a recurrent layer without 3-D X, W and R");
    for (const ir::Value* v : n.inputs())
        if (v && ctx.isNhwc(v)) return unsupported(Emitter::Portable, n, "recurrent layers on channels-last data");
    auto specOr = ir::recurrentSpec(n, r->shape[2]);
    if (!specOr) return specOr.error();
    const ir::RecurrentSpec& s = *specOr;
    if (x->dtype != ir::DType::Float32)
        return unsupported(Emitter::Portable, n,
                           "a recurrent input X of dtype " + std::string(ir::dtypeName(x->dtype)));
    // Weights, biases, initial states and peepholes are float32 in ONNX's layout wherever they
    // come from: parameters, or values computed at run time (a streaming model feeding its states
    // back as inputs). The lengths are read as constants.
    static const char* const kNames[] = {"X", "W", "R", "B", "sequence_lens", "initial_h", "initial_c", "P"};
    for (size_t i = 1; i < 8; ++i) {
        const ir::Value* v = n.input(i);
        if (!v || v->isConstant()) continue;
        if (i == 4) return unsupported(Emitter::Portable, n, "recurrent sequence_lens computed at run time");
        if (v->dtype != ir::DType::Float32)
            return unsupported(Emitter::Portable, n,
                               std::string("a recurrent ") + kNames[i] + " of dtype " +
                                   std::string(ir::dtypeName(v->dtype)));
    }
    std::string lens = "nullptr";
    if (const ir::Value* sl = n.input(4)) {
        std::vector<int64_t> v;
        for (int64_t i = 0; i < sl->constant.numel(); ++i) v.push_back(static_cast<int64_t>(sl->constant.at(i)));
        lens = ctx.int64s(n.name + ":sequence_lens", v);
    }
    const int64_t seq = s.layout ? x->shape[1] : x->shape[0], batch = s.layout ? x->shape[0] : x->shape[1];
    const char* kind = n.op == ir::OpKind::LSTM ? "Lstm" : n.op == ir::OpKind::GRU ? "Gru" : "Rnn";
    std::string acts = "{";
    for (int d = 0; d < 2; ++d) {
        acts += d ? ", {" : "{";
        for (int k = 0; k < 3; ++k) {
            // Unused slots (the second direction of a single one, g and h of RNN) repeat f.
            const int dir = d < s.directions ? d : 0, idx = k < s.activationsPerDirection ? k : 0;
            acts += (k ? ", " : "") + activationInit(s.activation(dir, idx));
        }
        acts += "}";
    }
    acts += "}";
    const std::string shape = ctx.ident(n, "_rnn");
    ctx.decls +=
        "static const embark::generic::RnnShape " + shape + " = {embark::generic::RnnKind::" + kind + ", " +
        std::to_string(seq) + ", " + std::to_string(batch) + ", " + std::to_string(x->shape[2]) + ", " +
        std::to_string(s.hidden) + ", " + std::to_string(s.directions) + ", " + (s.reverse ? "true" : "false") + ", " +
        (s.layout ? "true" : "false") + ", " + (s.hasClip ? "true" : "false") + ", " + cppFloat(s.clip) + ", " +
        (s.linearBeforeReset ? "true" : "false") + ", " + (s.inputForget ? "true" : "false") + ", " + acts + "};\n";
    auto in = [&](size_t i) { return n.input(i) ? ctx.ptr(n.input(i)) : std::string("nullptr"); };
    // An output nothing reads (an ONNX output left empty) gets no shape at import and no room
    // in the arena: the kernel skips it.
    const ir::Shape stateShape =
        s.layout ? ir::Shape{batch, s.directions, s.hidden} : ir::Shape{s.directions, batch, s.hidden};
    const ir::Shape yShape =
        s.layout ? ir::Shape{batch, seq, s.directions, s.hidden} : ir::Shape{seq, s.directions, batch, s.hidden};
    for (size_t i = 0; i < n.outputs().size(); ++i) {
        const ir::Value* v = n.output(i);
        if (v && (!v->uses().empty() || v->isGraphOutput()) && v->shape != (i == 0 ? yShape : stateShape))
            return makeError(ErrorKind::InvalidInput, "node " + n.describe() + ": output '" + v->name + "' has shape " +
                                                          v->shape.str() + ", expected " +
                                                          (i == 0 ? yShape : stateShape).str());
    }
    auto out = [&](size_t i) {
        const ir::Value* v = n.output(i);
        return v && (!v->uses().empty() || v->isGraphOutput()) ? ctx.ptr(v) : std::string("nullptr");
    };
    const bool lstm = n.op == ir::OpKind::LSTM;
    const int64_t scratchFloats = (s.gates + 5) * s.hidden;
    // With constant weights, the input projection W x + Wb of every step runs first as one GEMM per
    // direction (the portable fully-connected layer, packed at init), and R is packed once for the
    // per-step product h R^T; the recurrence then only adds R h to each step's projected row.
    const ir::Value* w = n.input(1);
    const ir::Value* bias = n.input(3);
    std::string xProj = "nullptr", rPacked = "nullptr";
    if (w->isConstant() && (!bias || bias->isConstant())) {
        const int64_t inputs = x->shape[2], rows = seq * batch, gateRows = s.gates * s.hidden;
        xProj = ctx.scratch(n, s.directions * rows * gateRows);
        for (int d = 0; d < s.directions; ++d) {
            const std::string fc = ctx.ident(n, ("_w" + std::to_string(d)).c_str());
            ctx.decls += "static embark::portable::FullyConnected " + fc + ";\n";
            ctx.init += "    " + fc + " = embark::portable::pack_fully_connected(" + std::to_string(inputs) + ", " +
                        std::to_string(gateRows) + ", " + ctx.ptr(w) + " + " + std::to_string(d * gateRows * inputs) +
                        ", true, " +
                        (bias ? ctx.ptr(bias) + " + " + std::to_string(d * 2 * gateRows) : std::string("nullptr")) +
                        ");\n";
            ctx.forward += "    embark::portable::fully_connected(" + fc + ", " + std::to_string(rows) + ", " +
                           ctx.ptr(x) + ", " + xProj + " + " + std::to_string(d * rows * gateRows) +
                           ", g_pool.get());\n";
        }
    }
    if (r->isConstant()) {
        const std::string packed = ctx.ident(n, "_rpacked");
        ctx.decls += "static std::vector<float> " + packed + ";\n";
        ctx.init += "    " + packed + ".assign(static_cast<size_t>(embark::generic::rnnPackedFloats(" + shape +
                    ")), 0.f);\n    embark::generic::rnnPackRecurrent(" + shape + ", " + ctx.ptr(r) + ", " + packed +
                    ".data());\n";
        rPacked = packed + ".data()";
    }
    ctx.forward += "    embark::generic::rnn(" + shape + ", " + in(0) + ", " + in(1) + ", " + in(2) + ", " + in(3) +
                   ", " + lens + ", " + in(5) + ", " + (lstm ? in(6) : "nullptr") + ", " + (lstm ? in(7) : "nullptr") +
                   ", " + out(0) + ", " + out(1) + ", " + (lstm ? out(2) : "nullptr") + ", " +
                   ctx.scratch(n, scratchFloats) + ", " + xProj + ", " + rPacked + ");\n";
    return {};
}

} // namespace embark::exporter
