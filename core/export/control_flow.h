// Control flow in exports: an If, Loop or Scan node becomes code in forward(), its bodies
// emitted node by node with the same kernels as the model, each body's values planned in a
// small arena of its own. See control_flow.cpp.
#pragma once

#include "emit_context.h"

namespace embark::exporter {

// Appends the code of control-flow node n (If, Loop, Scan) to ctx.forward. Errors are
// Unsupported and name the node and what cannot be exported (branch shapes that differ, a
// scan output whose length is not fixed, Scan-8's sequence_lens, a body node no kernel runs).
Status emitControlFlow(EmitContext& ctx, const ir::Node& n);

// Emits node n of an adapted graph (or of a body) into ctx.forward, which it clears first:
// its kernel call, a constant node's folded bytes, or a control-flow node's code
// (model_source.cpp).
Status emitNodeCode(EmitContext& ctx, const ir::Node& n);

} // namespace embark::exporter
