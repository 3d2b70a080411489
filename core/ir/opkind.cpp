#include "opkind.h"

#include <array>

namespace embark::ir {
namespace {
struct OpInfo {
    std::string_view name;
    OpCategory category;
};
using C = OpCategory;
constexpr std::array kOps{
#define EMBARK_OP(name, category) OpInfo{#name, C::category},
#include "ops.inc"
#undef EMBARK_OP
};
static_assert(kOps.size() == static_cast<size_t>(OpKind::Count_),
              "the op name table must list every OpKind, in enum order");

constexpr std::array<std::string_view, 9> kCategories{
    "conv", "linear", "normalization", "activation", "elementwise", "pooling", "reduction", "shape", "data"};
} // namespace

bool isFusedQuantized(OpKind op) {
    return op == OpKind::QConv || op == OpKind::QGemm || op == OpKind::QAdd || op == OpKind::QAveragePool ||
           op == OpKind::QLookup;
}

bool isReduceOp(OpKind op) {
    switch (op) {
    case OpKind::ReduceMean:
    case OpKind::ReduceSum:
    case OpKind::ReduceMax:
    case OpKind::ReduceMin:
    case OpKind::ReduceProd:
    case OpKind::ReduceL1:
    case OpKind::ReduceL2:
    case OpKind::ReduceSumSquare:
    case OpKind::ReduceLogSum:
    case OpKind::ReduceLogSumExp: return true;
    default: return false;
    }
}

std::string_view opName(OpKind op) { return kOps[static_cast<size_t>(op)].name; }

std::optional<OpKind> opFromName(std::string_view name) {
    for (size_t i = 0; i < kOps.size(); ++i)
        if (kOps[i].name == name) return static_cast<OpKind>(i);
    return std::nullopt;
}

OpCategory opCategory(OpKind op) { return kOps[static_cast<size_t>(op)].category; }
std::string_view categoryName(OpCategory c) { return kCategories[static_cast<size_t>(c)]; }

std::vector<OpKind> allOps() {
    std::vector<OpKind> v;
    for (size_t i = 0; i < kOps.size(); ++i) v.push_back(static_cast<OpKind>(i));
    return v;
}

} // namespace embark::ir
