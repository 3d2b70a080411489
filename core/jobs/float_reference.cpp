#include "float_reference.h"

namespace embark::jobs {

Status checkFloatReference(const ir::Graph& fp, const ir::Graph& model, const std::string& floatPath) {
    for (const ir::Value* v : fp.inputs()) {
        if (v->isConstant()) continue;
        const ir::Value* o = model.findValue(v->name);
        if (!o || !o->isGraphInput())
            return makeError(ErrorKind::InvalidInput, "float reference '" + floatPath + "': its input '" + v->name +
                                                          "' is not an input of the model benchmarked: give the float "
                                                          "model the quantized one was made from (the same inputs)");
        if (o->shape != v->shape)
            return makeError(ErrorKind::InvalidInput,
                             "float reference '" + floatPath + "': its input '" + v->name + "' is " + v->shape.str() +
                                 " but " + o->shape.str() +
                                 " in the model benchmarked: the two models must take the same inputs");
    }
    for (const ir::Value* v : model.inputs())
        if (!v->isConstant() && !fp.findValue(v->name))
            return makeError(ErrorKind::InvalidInput,
                             "float reference '" + floatPath + "' has no input '" + v->name +
                                 "', which the model benchmarked takes: the two models must take "
                                 "the same inputs");
    for (const ir::Node* n : fp.nodes())
        for (const ir::Value* out : n->outputs())
            if (out && out->dtype == ir::DType::Float32)
                if (const ir::Value* mine = model.findValue(out->name); mine && mine->dtype == ir::DType::Float32)
                    return {};
    return makeError(ErrorKind::InvalidInput,
                     "float reference '" + floatPath +
                         "': no layer of it has a float32 "
                         "counterpart of the same name in the model benchmarked, so no layer "
                         "can be compared: give the float model the quantized one was made from "
                         "(embark-cli quantize keeps its names)");
}

namespace {

// The output of the QuantizeLinear -> DequantizeLinear pair that alone reads float value `v`
// (where bench::diffLayers reads a quantized value), or nullptr.
const ir::Value* qdqOutput(const ir::Value* v) {
    if (!v || v->dtype != ir::DType::Float32 || v->uses().size() != 1) return nullptr;
    const ir::Node* q = v->uses()[0].node;
    if (q->op != ir::OpKind::QuantizeLinear || !q->output(0) || q->output(0)->uses().size() != 1) return nullptr;
    const ir::Node* dq = q->output(0)->uses()[0].node;
    return dq->op == ir::OpKind::DequantizeLinear ? dq->output(0) : nullptr;
}

} // namespace

bench::LayerDiff diffBoardAgainstFloat(const ir::Graph& fp, const std::map<std::string, ir::Tensor>& fpValues,
                                       const ir::Graph& model, const ir::Graph& exported,
                                       const std::map<std::string, ir::Tensor>& board, double snrDropDb) {
    // bench::diffLayers reads the model's value of the float model's X under X's name, or for a
    // quantized X at its QuantizeLinear -> DequantizeLinear pair's output. Each dump is given
    // the names of the model's values it stands for, the closest match first.
    std::map<std::string, ir::Tensor> values;
    std::map<std::string, std::string> dumpedAs; // key in `values` -> the dumped value
    auto put = [&](const ir::Value* v, const std::string& dumped) {
        if (!v || values.count(v->name)) return;
        values[v->name] = board.at(dumped);
        dumpedAs[v->name] = dumped;
    };
    // 1. An int8 value the model's QuantizeLinear writes (a fused operator's output): X's pair.
    for (const auto& [name, tensor] : board) {
        const ir::Value* v = model.findValue(name);
        if (!v || !v->producer() || v->producer()->op != ir::OpKind::QuantizeLinear) continue;
        for (const ir::Use& u : v->uses())
            if (u.node->op == ir::OpKind::DequantizeLinear && u.index == 0) put(u.node->output(0), name);
    }
    for (const auto& [name, tensor] : board) {
        if (const ir::Value* v = model.findValue(name)) {
            // 2. A value of the model itself (a float layer, or a conversion): under its name, and
            // for the pair after it when the export left that pair out.
            put(v, name);
            put(qdqOutput(v), name);
            continue;
        }
        // 3. A value fuse_qdq made (an int8 operator whose QuantizeLinear was moved past a layout
        // op): the output of the model's node of the same name as the one that writes it.
        const ir::Value* e = exported.findValue(name);
        const ir::Node* n = e && e->producer() ? model.findNode(e->producer()->name) : nullptr;
        if (n && n->outputs().size() == 1 && n->output(0) && n->output(0)->dtype == ir::DType::Float32) {
            put(n->output(0), name);
            put(qdqOutput(n->output(0)), name);
        }
    }
    bench::LayerDiff diff = bench::diffLayers(fp, fpValues, model, values, snrDropDb);
    for (bench::LayerError& e : diff.layers)
        if (auto it = dumpedAs.find(e.compared); it != dumpedAs.end()) e.compared = it->second;
    return diff;
}

} // namespace embark::jobs
