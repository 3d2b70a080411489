// If, Loop and Scan in exports. Each body is cloned with the shapes it runs with (its inputs
// from the node's, the outer-scope values it reads bound by position to the node's implicit
// inputs, every other value's shape found by running it once on zeros with the reference),
// planned by the memory planner into an arena of its own, and emitted node by node by the
// same emitters as the model (portable and generic kernels), inline in forward() where the
// node runs. What the fixed shapes decide is computed at export time: Shape, Size and what
// reads only them and constants fold (the constant_folding pass on the body), and an If whose
// condition folded emits only its branch. Outer-scope values are read where the enclosing graph keeps them;
// loop-carried values live in the node's outputs between iterations; scan outputs are written slice by slice into the
// node's outputs, whose shapes the export fixes.
#include "control_flow.h"

#include "concat_in_place.h"
#include "kernel_libraries.h"
#include "exporter.h"
#include "model_source.h"
#include "passes/pass_manager.h"
#include "reference/interpreter.h"

#include <algorithm>

namespace embark::exporter {

namespace {

using ir::DType;
using ir::OpKind;

std::string str(int64_t v) { return std::to_string(v); }
std::string str(size_t v) { return std::to_string(v); }

// A body ready to emit: its graph (with fixed shapes) as an adaptation to the portable
// library, its memory plan, and the context that emits it.
struct Body {
    Adaptation adaptation;
    MemoryPlan plan;
    std::unique_ptr<EmitContext> ctx;
    std::string code; // its nodes' code, in schedule order
};

// The shape and element type a body input runs with.
struct ValueType {
    DType dtype = DType::Float32;
    ir::Shape shape;
};

// Builds, plans and emits body `attr` of n. `inputs` are the types of the body's inputs, in
// order; `arena` the accessor of the body's arena (several bodies of one node may share one).
// When the body cannot run at all with these shapes (a kernel refuses them), the error's
// message is also left in `*unrunnable` (if given).
Expected<std::unique_ptr<Body>> buildBody(EmitContext& outer, const ir::Node& n, const std::string& attr,
                                          const std::vector<ValueType>& inputs, const std::string& arena,
                                          const std::string& identPrefix, std::string* unrunnable = nullptr) {
    const ir::Graph* source = n.subgraph(attr);
    if (!source) return makeError(ErrorKind::InvalidInput, "node " + n.describe() + " has no '" + attr + "' body");
    auto body = std::make_unique<Body>();
    ir::Graph& g = body->adaptation.graph;
    g = source->clone();
    const std::string where = "node " + n.describe() + ", body '" + attr + "'";
    if (g.inputs().size() != inputs.size())
        return makeError(ErrorKind::InvalidInput, where + " takes " + str(g.inputs().size()) +
                                                      " inputs, but the node gives it " + str(inputs.size()));
    for (size_t i = 0; i < inputs.size(); ++i) {
        ir::Value* v = g.inputs()[i];
        v->dtype = inputs[i].dtype;
        v->shape = inputs[i].shape;
    }
    // Outer-scope values: a constant becomes the body's constant; a value computed at run time
    // becomes an input of the clone (so that the shapes can be found) read where the enclosing
    // graph keeps it.
    std::vector<std::pair<std::string, const ir::Value*>> bound;
    for (size_t j = 0; j < n.outerNames.size(); ++j) {
        ir::Value* v = g.findValue(n.outerNames[j]);
        const ir::Value* o = n.input(n.explicitInputCount() + j);
        if (!v || !v->isOuterScope() || !o) continue;
        v->dtype = o->dtype;
        v->shape = o->shape;
        if (o->isConstant()) {
            v->constant = o->constant;
        } else {
            g.addInput(v);
            bound.push_back({v->name, o});
        }
    }
    if (Status s = reference::propagateShapes(g); !s) {
        if (unrunnable) *unrunnable = s.error().message;
        return makeError(ErrorKind::Unsupported, where + ": its shapes cannot be fixed by running it once on zeros (" +
                                                     s.error().message + "); exports need fixed shapes");
    }
    for (const ir::Value* v : g.values())
        if (!v->isConstant() && !v->shape.checkedNumel())
            return makeError(ErrorKind::Unsupported,
                             where + ": value '" + v->name + "' has no fixed shape; exports need fixed shapes");
    // With the shapes fixed, shape arithmetic (Shape -> Gather -> Concat -> Reshape, a rank test
    // choosing a nested If's branch) is constant, as at the top level after the recipe's folding.
    auto fold = passes::makePass("constant_folding");
    passes::PassContext foldLog;
    for (int sweep = 0; sweep < 64; ++sweep) {
        auto folded = fold->run(g, foldLog);
        if (!folded) return makeError(folded.error().kind, "in " + where + ": " + folded.error().message);
        if (*folded == 0) break;
    }
    g.removeDeadValues();
    EMBARK_TRY(g.topoSort());
    for (ir::Node* b : g.nodes()) {
        NodeAssignment as;
        as.library = portableLibrary().id;
        as.reason = "control-flow body of " + n.name + ": portable and generic kernels";
        body->adaptation.nodes[b->name] = as;
    }
    body->adaptation.librariesUsed = {portableLibrary().id};
    MemoryPlanOptions mo;
    // A body's inputs may be read where the enclosing graph keeps them (outer-scope values):
    // no value of the body may alias another's memory.
    mo.inPlace = false;
    mo.aliasReshapes = false;
    auto plan = planMemory(g, mo);
    if (!plan) return plan.error();
    EMBARK_TRY(checkMemoryPlan(*plan));
    body->plan = std::move(*plan);
    body->ctx = std::make_unique<EmitContext>(body->adaptation, body->plan, outer.blob());
    body->ctx->setScope(arena, identPrefix);
    for (const auto& [name, o] : bound) body->ctx->bind(name, outer.ptr(o));
    for (const ir::Node* b : g.nodes()) {
        Status s = emitNodeCode(*body->ctx, *b);
        if (!s) return makeError(s.error().kind, "in " + where + ": " + s.error().message);
        body->code += "    // " + b->describe() + "\n" + body->ctx->forward;
    }
    outer.decls += body->ctx->decls;
    outer.init += body->ctx->init;
    return body;
}

// Declares an arena of `bytes` bytes for bodies and its accessor `name`.
void declareArena(EmitContext& ctx, const std::string& name, size_t bytes) {
    ctx.decls += "alignas(64) unsigned char " + name + "_bytes[" + str(bytes + 64) + "];\n";
    ctx.decls +=
        "inline float* " + name + "(size_t offset) { return reinterpret_cast<float*>(" + name + "_bytes + offset); }\n";
}

// Where node output v is written: its place in the arena, or a buffer of its own when the
// plan gave it none (an output nothing reads still holds a loop-carried value).
std::string outputPtr(EmitContext& ctx, const ir::Node& n, const ir::Value* v) {
    if (v->isConstant() || ctx.arenaOffset(v) >= 0 || ctx.plan().bufferFor(v->name)) return ctx.ptr(v);
    const std::string name = ctx.ident(n, "_out");
    ctx.decls += "alignas(64) unsigned char " + name + "[" + str(std::max<size_t>(v->byteSize(), 1)) + "];\n";
    return "reinterpret_cast<float*>(" + name + ")";
}

// Expression reading element 0 of v as an int64 / a truth value.
std::string scalarInt(EmitContext& ctx, const ir::Value* v) {
    if (v->dtype == DType::Int64) return "*static_cast<const int64_t*>(" + bytesOf(ctx, v) + ")";
    return "static_cast<int64_t>(embark::generic::elementAsDouble(" + bytesOf(ctx, v) + ", " + elemTypeExpr(v->dtype) +
           ", 0))";
}
std::string scalarTruth(EmitContext& ctx, const ir::Value* v) {
    if (v->dtype == DType::Bool || v->dtype == DType::UInt8)
        return "(*static_cast<const uint8_t*>(" + bytesOf(ctx, v) + ") != 0)";
    return "(embark::generic::elementAsDouble(" + bytesOf(ctx, v) + ", " + elemTypeExpr(v->dtype) + ", 0) != 0)";
}

std::string memmove(const std::string& dst, const std::string& src, size_t bytes) {
    return "std::memmove(" + dst + ", " + src + ", " + str(bytes) + ");\n";
}

Status checkTyped(const ir::Node& n, const ir::Value* v, const std::string& what) {
    if (elemTypeExpr(v->dtype).empty())
        return makeError(ErrorKind::Unsupported, "node " + n.describe() + ": " + what + " '" + v->name + "' has type " +
                                                     std::string(ir::dtypeName(v->dtype)) +
                                                     ", which exports do not compute");
    return {};
}

// A body output's type must be the node output's, its shape `want`.
Status checkSame(const ir::Node& n, const std::string& what, const ir::Value* bodyOut, DType dtype,
                 const ir::Shape& want) {
    if (bodyOut->dtype != dtype || bodyOut->shape != want)
        return makeError(ErrorKind::Unsupported, "node " + n.describe() + ": " + what + " is " +
                                                     describeValue(bodyOut) + " but the node needs " +
                                                     std::string(ir::dtypeName(dtype)) + " " + want.str() +
                                                     "; exports need the same type and shape at every run");
    return {};
}

// An If that runs one branch only (`runsThen`), inline after `guard` (code run first): the
// branch its condition takes when that is known at export time, or the only branch that can run
// with the export's shapes.
Status emitSingleBranchIf(EmitContext& ctx, const ir::Node& n, const std::string& arena, const Body& body,
                          bool runsThen, const std::string& guard) {
    const char* attr = runsThen ? "then_branch" : "else_branch";
    const ir::Graph& bg = body.adaptation.graph;
    if (bg.outputs().size() != n.outputs().size())
        return makeError(ErrorKind::InvalidInput, "node " + n.describe() + ": its " + attr + " gives " +
                                                      str(bg.outputs().size()) + " outputs, the node has " +
                                                      str(n.outputs().size()));
    for (size_t k = 0; k < n.outputs().size(); ++k) {
        EMBARK_TRY(checkTyped(n, n.output(k), "output"));
        EMBARK_TRY(
            checkSame(n, "output " + str(k) + " of " + attr, bg.outputs()[k], n.output(k)->dtype, n.output(k)->shape));
    }
    declareArena(ctx, arena, body.plan.arenaBytes);
    std::string code = guard + body.code;
    for (size_t k = 0; k < n.outputs().size(); ++k)
        code += "    " +
                memmove(outputPtr(ctx, n, n.output(k)), bytesOf(*body.ctx, bg.outputs()[k]), n.output(k)->byteSize());
    ctx.forward += code;
    return {};
}

// An If whose condition is known at export time (folded from shapes inside a body): only the
// branch it takes.
Status emitConstantIf(EmitContext& ctx, const ir::Node& n, bool taken) {
    const std::string arena = ctx.ident(n, "_arena");
    const char* attr = taken ? "then_branch" : "else_branch";
    auto body = buildBody(ctx, n, attr, {}, arena, ctx.ident(n, taken ? "t" : "e"));
    if (!body) return body.error();
    return emitSingleBranchIf(ctx, n, arena, **body, taken,
                              "    // condition known at export time: " + std::string(attr) + " only\n");
}

// An If one of whose branches cannot run with the export's shapes (`why`): the other branch,
// and an error naming the node when the condition takes the one that cannot run.
Status emitOneSidedIf(EmitContext& ctx, const ir::Node& n, const std::string& arena, const Body& body, bool runsThen,
                      const std::string& why) {
    const char* other = runsThen ? "else_branch" : "then_branch";
    const std::string guard =
        "    if (" + std::string(runsThen ? "!" : "") + scalarTruth(ctx, n.input(0)) + ")\n" +
        "        throw std::runtime_error(" +
        cppString("If '" + n.name + "' takes its " + other + ", which cannot run with the shapes this export " +
                  "was made for (" + why + ")") +
        ");\n";
    return emitSingleBranchIf(ctx, n, arena, body, runsThen, guard);
}

Status emitIf(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* cond = n.input(0);
    if (!cond) return makeError(ErrorKind::InvalidInput, "node " + n.describe() + " has no condition");
    EMBARK_TRY(checkTyped(n, cond, "condition"));
    if (cond->isConstant() && cond->constant.numel() == 1) return emitConstantIf(ctx, n, cond->constant.at(0) != 0);
    const std::string arena = ctx.ident(n, "_arena");
    std::string thenFails, elseFails;
    auto thenBody = buildBody(ctx, n, "then_branch", {}, arena, ctx.ident(n, "t"), &thenFails);
    auto elseBody = buildBody(ctx, n, "else_branch", {}, arena, ctx.ident(n, "e"), &elseFails);
    // A branch that cannot run with the export's shapes (a 8 kHz branch given 16 kHz frames)
    // fails at run time when the condition takes it, as it does in ONNX Runtime.
    if (thenBody && !elseBody && !elseFails.empty()) return emitOneSidedIf(ctx, n, arena, **thenBody, true, elseFails);
    if (elseBody && !thenBody && !thenFails.empty()) return emitOneSidedIf(ctx, n, arena, **elseBody, false, thenFails);
    if (!thenBody) return thenBody.error();
    if (!elseBody) return elseBody.error();
    const ir::Graph& tg = (*thenBody)->adaptation.graph;
    const ir::Graph& eg = (*elseBody)->adaptation.graph;
    if (tg.outputs().size() != n.outputs().size() || eg.outputs().size() != n.outputs().size())
        return makeError(ErrorKind::InvalidInput, "node " + n.describe() + ": its branches give " +
                                                      str(tg.outputs().size()) + " and " + str(eg.outputs().size()) +
                                                      " outputs, the node has " + str(n.outputs().size()));
    for (size_t k = 0; k < n.outputs().size(); ++k) {
        const ir::Value *t = tg.outputs()[k], *e = eg.outputs()[k], *y = n.output(k);
        if (t->shape != e->shape || t->dtype != e->dtype)
            return makeError(ErrorKind::Unsupported,
                             "node " + n.describe() + ": output " + str(k) + " is " + describeValue(t) +
                                 " in then_branch but " + describeValue(e) +
                                 " in else_branch; exports have fixed shapes, so both branches must give the same "
                                 "shape and type");
        EMBARK_TRY(checkTyped(n, y, "output"));
        EMBARK_TRY(checkSame(n, "output " + str(k) + " of then_branch", t, y->dtype, y->shape));
    }
    declareArena(ctx, arena, std::max((*thenBody)->plan.arenaBytes, (*elseBody)->plan.arenaBytes));
    std::vector<std::string> outs;
    for (size_t k = 0; k < n.outputs().size(); ++k) outs.push_back(outputPtr(ctx, n, n.output(k)));
    std::string code = "    if (" + scalarTruth(ctx, cond) + ") {\n";
    code += (*thenBody)->code;
    for (size_t k = 0; k < n.outputs().size(); ++k)
        code += "    " + memmove(outs[k], bytesOf(*(*thenBody)->ctx, tg.outputs()[k]), n.output(k)->byteSize());
    code += "    } else {\n";
    code += (*elseBody)->code;
    for (size_t k = 0; k < n.outputs().size(); ++k)
        code += "    " + memmove(outs[k], bytesOf(*(*elseBody)->ctx, eg.outputs()[k]), n.output(k)->byteSize());
    code += "    }\n";
    ctx.forward += code;
    return {};
}

// A body input's slot: written before each iteration when the body reads it.
bool hasSlot(EmitContext& body, const ir::Value* v) { return body.arenaOffset(v) >= 0; }

Status emitLoop(EmitContext& ctx, const ir::Node& n) {
    const size_t own = n.explicitInputCount();
    const ir::Value* trip = n.input(0);
    const ir::Value* condIn = n.input(1);
    if (!trip && !condIn)
        return makeError(ErrorKind::InvalidInput,
                         "node " + n.describe() + " has neither a trip count nor a condition, so it would never end");
    const size_t carried = own > 2 ? own - 2 : 0;
    if (n.outputs().size() < carried)
        return makeError(ErrorKind::InvalidInput,
                         "node " + n.describe() + " has fewer outputs than loop-carried values");
    const size_t scans = n.outputs().size() - carried;
    std::vector<ValueType> types{{DType::Int64, ir::Shape{}}, {DType::Bool, ir::Shape{}}};
    for (size_t c = 0; c < carried; ++c) {
        const ir::Value* v = n.input(2 + c);
        if (!v)
            return makeError(ErrorKind::InvalidInput,
                             "node " + n.describe() + ": loop-carried input " + str(c) + " is absent");
        EMBARK_TRY(checkTyped(n, v, "loop-carried value"));
        types.push_back({v->dtype, v->shape});
    }
    if (trip) EMBARK_TRY(checkTyped(n, trip, "trip count"));
    if (condIn) EMBARK_TRY(checkTyped(n, condIn, "condition"));
    const std::string arena = ctx.ident(n, "_arena");
    auto built = buildBody(ctx, n, "body", types, arena, ctx.ident(n, "b"));
    if (!built) return built.error();
    Body& body = **built;
    const ir::Graph& g = body.adaptation.graph;
    if (g.outputs().size() != 1 + carried + scans)
        return makeError(ErrorKind::InvalidInput, "node " + n.describe() + ": its body gives " +
                                                      str(g.outputs().size()) + " outputs; expected " +
                                                      str(1 + carried + scans));
    for (size_t c = 0; c < carried; ++c)
        EMBARK_TRY(checkSame(n, "loop-carried value " + str(c) + " of the body", g.outputs()[1 + c],
                             n.input(2 + c)->dtype, n.input(2 + c)->shape));
    // Scan outputs: [iterations, ...] with the iteration count fixed by the export.
    int64_t iterations = -1;
    for (size_t s = 0; s < scans; ++s) {
        const ir::Value* y = n.output(carried + s);
        const ir::Value* part = g.outputs()[1 + carried + s];
        EMBARK_TRY(checkTyped(n, y, "scan output"));
        if (y->shape.rank() < 1)
            return makeError(ErrorKind::Unsupported,
                             "node " + n.describe() + ": scan output " + describeValue(y) + " has no iteration axis");
        std::vector<int64_t> step(y->shape.dims().begin() + 1, y->shape.dims().end());
        EMBARK_TRY(checkSame(n, "scan output " + str(s) + " of the body", part, y->dtype, ir::Shape(step)));
        if (iterations >= 0 && y->shape[0] != iterations)
            return makeError(ErrorKind::Unsupported, "node " + n.describe() + ": its scan outputs have " +
                                                         str(iterations) + " and " + str(y->shape[0]) + " iterations");
        iterations = y->shape[0];
    }
    const ir::Value* condOut = g.outputs()[0];
    EMBARK_TRY(checkTyped(n, condOut, "body condition"));
    declareArena(ctx, arena, body.plan.arenaBytes);
    EmitContext& b = *body.ctx;
    // Names of this loop's variables (unique: a body may hold another loop).
    const std::string it = arena + "_i", tripName = arena + "_trip", go = arena + "_go", next = arena + "_next";
    std::string code = "    {\n";
    code += "    const int64_t " + tripName + " = " +
            (trip ? scalarInt(ctx, trip) : std::string("std::numeric_limits<int64_t>::max()")) + ";\n";
    code += "    bool " + go + " = " + (condIn ? scalarTruth(ctx, condIn) : std::string("true")) + ";\n";
    std::vector<std::string> outs;
    for (size_t k = 0; k < n.outputs().size(); ++k) outs.push_back(outputPtr(ctx, n, n.output(k)));
    for (size_t c = 0; c < carried; ++c)
        code += "    " + memmove(outs[c], bytesOf(ctx, n.input(2 + c)), n.input(2 + c)->byteSize());
    code += "    int64_t " + it + " = 0;\n";
    code += "    for (; " + it + " < " + tripName + " && " + go + "; ++" + it + ") {\n";
    if (scans)
        code += "    if (" + it + " >= " + str(iterations) + ") throw std::runtime_error(" +
                cppString("Loop '" + n.name + "' runs more than the " + str(iterations) +
                          " iterations its scan outputs were exported for (exports have fixed shapes)") +
                ");\n";
    if (hasSlot(b, g.inputs()[0]))
        code += "    *reinterpret_cast<int64_t*>(" + b.ptr(g.inputs()[0]) + ") = " + it + ";\n";
    if (hasSlot(b, g.inputs()[1]))
        code += "    *reinterpret_cast<uint8_t*>(" + b.ptr(g.inputs()[1]) + ") = " + go + " ? 1 : 0;\n";
    for (size_t c = 0; c < carried; ++c)
        if (hasSlot(b, g.inputs()[2 + c]))
            code += "    " + memmove(b.ptr(g.inputs()[2 + c]), outs[c], n.input(2 + c)->byteSize());
    code += body.code;
    // The next condition is read before the carried values are copied out: it may be one of them.
    if (condIn) code += "    const bool " + next + " = " + scalarTruth(b, condOut) + ";\n";
    for (size_t c = 0; c < carried; ++c)
        code += "    " + memmove(outs[c], bytesOf(b, g.outputs()[1 + c]), n.input(2 + c)->byteSize());
    for (size_t s = 0; s < scans; ++s) {
        const ir::Value* part = g.outputs()[1 + carried + s];
        code += "    " +
                memmove("Bytes(" + outs[carried + s] + ") + static_cast<size_t>(" + it + ") * " + str(part->byteSize()),
                        bytesOf(b, part), part->byteSize());
    }
    if (condIn) code += "    " + go + " = " + next + ";\n";
    code += "    }\n";
    if (scans)
        code += "    if (" + it + " != " + str(iterations) + ") throw std::runtime_error(" +
                cppString("Loop '" + n.name + "' ran fewer than the " + str(iterations) +
                          " iterations its scan outputs were exported for (exports have fixed shapes)") +
                ");\n";
    code += "    }\n";
    ctx.forward += code;
    return {};
}

// Copies slice `index` of a tensor [outer, length, inner] (elements of `es` bytes) to or from
// a contiguous [outer, inner] buffer.
std::string sliceCopy(const std::string& tensor, const std::string& slice, int64_t outer, int64_t length, int64_t inner,
                      size_t es, const std::string& index, bool toSlice) {
    const std::string row = str(static_cast<size_t>(inner) * es);
    const std::string at = "Bytes(" + tensor + ") + (static_cast<size_t>(o) * " + str(length) +
                           " + static_cast<size_t>(" + index + ")) * " + row;
    const std::string part = "Bytes(" + slice + ") + static_cast<size_t>(o) * " + row;
    return "    for (int64_t o = 0; o < " + str(outer) + "; ++o) std::memmove(" + (toSlice ? part : at) + ", " +
           (toSlice ? at : part) + ", " + row + ");\n";
}

Status emitScan(EmitContext& ctx, const ir::Node& n) {
    const bool scan8 = n.attrInt("embark_scan8", 0) != 0;
    const size_t own = n.explicitInputCount();
    const size_t first = scan8 ? 1 : 0;
    const int64_t m = n.attrInt("num_scan_inputs", -1);
    if (m < 1 || static_cast<size_t>(m) + first > own)
        return makeError(ErrorKind::InvalidInput, "node " + n.describe() + ": num_scan_inputs is " + str(m) + " for " +
                                                      str(own - first) + " inputs");
    if (scan8 && n.input(0))
        return makeError(ErrorKind::Unsupported,
                         "node " + n.describe() +
                             ": Scan-8's sequence_lens (rows of different lengths) is not exported; drop the input or "
                             "use opset 9 or later");
    const size_t states = own - first - static_cast<size_t>(m);
    if (n.outputs().size() < states)
        return makeError(ErrorKind::InvalidInput, "node " + n.describe() + " has fewer outputs than states");
    const size_t scanOuts = n.outputs().size() - states;
    std::vector<int64_t> dirs = n.attrInts("scan_input_directions", std::vector<int64_t>(static_cast<size_t>(m), 0));
    std::vector<int64_t> axes = n.attrInts("scan_input_axes", std::vector<int64_t>(static_cast<size_t>(m), 0));
    std::vector<int64_t> outDirs = n.attrInts("scan_output_directions", std::vector<int64_t>(scanOuts, 0));
    std::vector<int64_t> outAxes = n.attrInts("scan_output_axes", std::vector<int64_t>(scanOuts, 0));
    if (dirs.size() != static_cast<size_t>(m) || axes.size() != static_cast<size_t>(m) || outDirs.size() != scanOuts ||
        outAxes.size() != scanOuts)
        return makeError(ErrorKind::InvalidInput,
                         "node " + n.describe() +
                             ": scan directions and axes must have one entry per scan input/output");
    // Scan-8: axis 0 of every input and output is the batch; each row is scanned along its
    // axis 0 (the tensor's axis 1).
    int64_t batch = 1;
    const size_t lead = scan8 ? 1 : 0;
    if (scan8) {
        const ir::Value* x = n.input(first + states);
        if (!x || x->shape.rank() < 2)
            return makeError(ErrorKind::InvalidInput,
                             "node " + n.describe() + ": a Scan-8 input has no batch and sequence axes");
        batch = x->shape[0];
    }
    auto rowDims = [&](const ir::Value* v) {
        return std::vector<int64_t>(v->shape.dims().begin() + static_cast<std::ptrdiff_t>(lead), v->shape.dims().end());
    };
    std::vector<ValueType> types;
    for (size_t s = 0; s < states; ++s) {
        const ir::Value* v = n.input(first + s);
        if (!v) return makeError(ErrorKind::InvalidInput, "node " + n.describe() + ": a state input is absent");
        EMBARK_TRY(checkTyped(n, v, "state"));
        if (scan8 && (v->shape.rank() < 1 || v->shape[0] != batch))
            return makeError(ErrorKind::InvalidInput, "node " + n.describe() + ": state " + describeValue(v) +
                                                          " has no batch axis of " + str(batch));
        types.push_back({v->dtype, ir::Shape(rowDims(v))});
    }
    int64_t length = -1;
    struct Axis {
        int64_t outer = 1, length = 1, inner = 1;
    };
    std::vector<Axis> inAxes;
    for (size_t j = 0; j < static_cast<size_t>(m); ++j) {
        const ir::Value* v = n.input(first + states + j);
        if (!v) return makeError(ErrorKind::InvalidInput, "node " + n.describe() + ": a scan input is absent");
        EMBARK_TRY(checkTyped(n, v, "scan input"));
        const ir::Shape row(rowDims(v));
        const int64_t axis = row.normAxis(scan8 ? 0 : axes[j]);
        if (axis < 0)
            return makeError(ErrorKind::InvalidInput, "node " + n.describe() + ": scan axis " + str(axes[j]) +
                                                          " is outside " + describeValue(v));
        Axis a;
        std::vector<int64_t> slice;
        for (size_t d = 0; d < row.rank(); ++d) {
            const int64_t extent = row[d];
            if (static_cast<int64_t>(d) < axis) a.outer *= extent;
            if (static_cast<int64_t>(d) > axis) a.inner *= extent;
            if (static_cast<int64_t>(d) != axis) slice.push_back(extent);
        }
        a.length = row[static_cast<size_t>(axis)];
        if (length >= 0 && a.length != length)
            return makeError(ErrorKind::InvalidInput, "node " + n.describe() + ": its scan inputs have lengths " +
                                                          str(length) + " and " + str(a.length));
        length = a.length;
        inAxes.push_back(a);
        types.push_back({v->dtype, ir::Shape(slice)});
    }
    const std::string arena = ctx.ident(n, "_arena");
    auto built = buildBody(ctx, n, "body", types, arena, ctx.ident(n, "b"));
    if (!built) return built.error();
    Body& body = **built;
    const ir::Graph& g = body.adaptation.graph;
    if (g.outputs().size() != states + scanOuts)
        return makeError(ErrorKind::InvalidInput, "node " + n.describe() + ": its body gives " +
                                                      str(g.outputs().size()) + " outputs; expected " +
                                                      str(states + scanOuts));
    for (size_t s = 0; s < states; ++s)
        EMBARK_TRY(checkSame(n, "state " + str(s) + " of the body", g.outputs()[s], n.input(first + s)->dtype,
                             ir::Shape(rowDims(n.input(first + s)))));
    // Scan outputs: the body's parts stacked along their output axis.
    std::vector<Axis> outAxesOf;
    for (size_t k = 0; k < scanOuts; ++k) {
        const ir::Value* y = n.output(states + k);
        const ir::Value* part = g.outputs()[states + k];
        EMBARK_TRY(checkTyped(n, y, "scan output"));
        const int64_t rank = static_cast<int64_t>(part->shape.rank()) + 1;
        const int64_t axis = scan8 ? 0 : (outAxes[k] < 0 ? outAxes[k] + rank : outAxes[k]);
        if (axis < 0 || axis >= rank)
            return makeError(ErrorKind::InvalidInput,
                             "node " + n.describe() + ": scan output axis " + str(outAxes[k]) + " is out of range");
        std::vector<int64_t> want = part->shape.dims();
        want.insert(want.begin() + axis, length);
        if (scan8) want.insert(want.begin(), batch);
        if (y->shape != ir::Shape(want) || y->dtype != part->dtype)
            return makeError(ErrorKind::Unsupported, "node " + n.describe() + ": scan output " + describeValue(y) +
                                                         " should be " + std::string(ir::dtypeName(part->dtype)) + " " +
                                                         ir::Shape(want).str() + " from its body's " +
                                                         describeValue(part));
        Axis a;
        for (int64_t d = 0; d < axis; ++d) a.outer *= part->shape[static_cast<size_t>(d)];
        for (size_t d = static_cast<size_t>(axis); d < part->shape.rank(); ++d) a.inner *= part->shape[d];
        a.length = length;
        outAxesOf.push_back(a);
    }
    declareArena(ctx, arena, body.plan.arenaBytes);
    EmitContext& b = *body.ctx;
    std::vector<std::string> outs;
    for (size_t k = 0; k < n.outputs().size(); ++k) outs.push_back(outputPtr(ctx, n, n.output(k)));
    // Names of this scan's variables (unique: a body may hold another scan).
    const std::string row = arena + "_row", step = arena + "_step";
    // Batch row `row` of v.
    auto rowAt = [&](const std::string& p, const ir::Value* v) {
        if (!scan8) return p;
        return "(Bytes(" + p + ") + static_cast<size_t>(" + row + ") * " +
               str(v->byteSize() / static_cast<size_t>(batch)) + ")";
    };
    std::string code = "    for (int64_t " + row + " = 0; " + row + " < " + str(batch) + "; ++" + row + ") {\n";
    for (size_t s = 0; s < states; ++s) {
        const ir::Value* v = n.input(first + s);
        code += "    " + memmove(rowAt(outs[s], v), rowAt(bytesOf(ctx, v), v), g.outputs()[s]->byteSize());
    }
    code += "    for (int64_t " + step + " = 0; " + step + " < " + str(length) + "; ++" + step + ") {\n";
    for (size_t s = 0; s < states; ++s)
        if (hasSlot(b, g.inputs()[s]))
            code +=
                "    " + memmove(b.ptr(g.inputs()[s]), rowAt(outs[s], n.input(first + s)), g.outputs()[s]->byteSize());
    for (size_t j = 0; j < static_cast<size_t>(m); ++j) {
        const ir::Value* in = g.inputs()[states + j];
        if (!hasSlot(b, in)) continue;
        const ir::Value* x = n.input(first + states + j);
        const std::string index = dirs[j] ? str(length - 1) + " - " + step : step;
        code += sliceCopy(rowAt(bytesOf(ctx, x), x), b.ptr(in), inAxes[j].outer, inAxes[j].length, inAxes[j].inner,
                          ir::dtypeSize(x->dtype), index, true);
    }
    code += body.code;
    for (size_t s = 0; s < states; ++s)
        code += "    " +
                memmove(rowAt(outs[s], n.input(first + s)), bytesOf(b, g.outputs()[s]), g.outputs()[s]->byteSize());
    for (size_t k = 0; k < scanOuts; ++k) {
        const ir::Value* y = n.output(states + k);
        const ir::Value* part = g.outputs()[states + k];
        const std::string index = outDirs[k] ? str(length - 1) + " - " + step : step;
        code += sliceCopy(rowAt(outs[states + k], y), bytesOf(b, part), outAxesOf[k].outer, outAxesOf[k].length,
                          outAxesOf[k].inner, ir::dtypeSize(y->dtype), index, false);
    }
    code += "    }\n    }\n";
    ctx.forward += code;
    return {};
}

} // namespace

Status emitControlFlow(EmitContext& ctx, const ir::Node& n) {
    switch (n.op) {
    case OpKind::If: return emitIf(ctx, n);
    case OpKind::Loop: return emitLoop(ctx, n);
    case OpKind::Scan: return emitScan(ctx, n);
    default:
        return makeError(ErrorKind::Unsupported,
                         "node " + n.describe() + " has bodies, which exports generate only for If, Loop and Scan");
    }
}

} // namespace embark::exporter
