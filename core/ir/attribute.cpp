#include "attribute.h"

#include <sstream>

namespace embark::ir {
namespace {
template <typename T>
std::string listToString(const std::vector<T>& v) {
    std::ostringstream s;
    s << '[';
    for (size_t i = 0; i < v.size(); ++i) s << (i ? ", " : "") << v[i];
    s << ']';
    return s.str();
}
} // namespace

std::string attributeToString(const Attribute& a) {
    struct Visitor {
        std::string operator()(int64_t v) const { return std::to_string(v); }
        std::string operator()(float v) const {
            std::ostringstream s;
            s << v;
            return s.str();
        }
        std::string operator()(const std::string& v) const { return '"' + v + '"'; }
        std::string operator()(const std::vector<int64_t>& v) const { return listToString(v); }
        std::string operator()(const std::vector<float>& v) const { return listToString(v); }
        std::string operator()(const std::vector<std::string>& v) const { return listToString(v); }
        std::string operator()(const Tensor& t) const {
            return "tensor<" + std::string(dtypeName(t.dtype())) + ", " + t.shape().str() + ">";
        }
    };
    return std::visit(Visitor{}, a);
}

} // namespace embark::ir
