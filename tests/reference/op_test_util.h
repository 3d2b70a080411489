// Helpers of the reference-interpreter unit tests: evaluate one op on given tensors and
// compare float results with hand-computed values.
#pragma once

#include "reference/interpreter.h"
#include "support/graph_builder.h"

#include <QTest>

#include <cmath>
#include <string>
#include <vector>

namespace embark::test {

inline ir::Tensor F(ir::Shape shape, std::vector<float> values) {
    return ir::Tensor::fromFloats(std::move(shape), values);
}
inline ir::Tensor I(ir::Shape shape, std::vector<int64_t> values) {
    return ir::Tensor::fromInt64s(std::move(shape), values);
}
inline ir::Tensor I1(std::vector<int64_t> values) {
    const auto n = static_cast<int64_t>(values.size());
    return ir::Tensor::fromInt64s(ir::Shape{n}, values);
}

// Evaluates a single `op` node (with `outputs` outputs) on `inputs`; null tensors are
// absent optional inputs.
inline Expected<std::vector<ir::Tensor>> evalOp(ir::OpKind op, const std::vector<ir::Tensor>& inputs,
                                                ir::Attributes attrs = {}, size_t outputs = 1) {
    GraphBuilder b;
    std::vector<ir::Value*> ins;
    for (size_t i = 0; i < inputs.size(); ++i)
        ins.push_back(inputs[i].isNull() ? nullptr : b.constant("in" + std::to_string(i), inputs[i]));
    b.opN(op, ins, outputs, std::move(attrs), "node");
    return reference::evalNode(*b.graph().findNode("node"), inputs);
}

// True when t has `shape` and every element is within tol of `expected`; logs the first miss.
inline bool closeTo(const ir::Tensor& t, const ir::Shape& shape, const std::vector<double>& expected,
                    double tol = 1e-5) {
    if (t.shape() != shape) {
        qWarning("shape %s, expected %s", t.shape().str().c_str(), shape.str().c_str());
        return false;
    }
    for (size_t i = 0; i < expected.size(); ++i) {
        const double a = t.at(static_cast<int64_t>(i));
        if (!(std::fabs(a - expected[i]) <= tol) && !(std::isnan(a) && std::isnan(expected[i]))) {
            qWarning("element %zu is %.7g, expected %.7g", i, a, expected[i]);
            return false;
        }
    }
    return static_cast<int64_t>(expected.size()) == t.numel();
}

} // namespace embark::test

Q_DECLARE_METATYPE(embark::ir::Tensor)
Q_DECLARE_METATYPE(embark::ir::Shape)
Q_DECLARE_METATYPE(embark::ir::Attributes)
Q_DECLARE_METATYPE(embark::ir::OpKind)
Q_DECLARE_METATYPE(std::vector<double>)
Q_DECLARE_METATYPE(std::vector<embark::ir::Tensor>)

// Evaluates and fails the test on an error, yielding the output tensors.
#define EVAL_OK(result)                                                                                                \
  do {                                                                                                                 \
    if (!(result).ok()) QFAIL((result).error().message.c_str());                                                       \
  } while (0)
