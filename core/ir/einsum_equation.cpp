#include "einsum_equation.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace embark::ir {
namespace {

Error bad(const std::string& equation, const std::string& why) {
    return makeError(ErrorKind::InvalidInput, "Einsum equation '" + equation + "': " + why);
}

// The terms of one side: letters, with "..." as '.' (one char).
std::vector<std::string> terms(const std::string& side) {
    std::vector<std::string> out(1);
    for (size_t i = 0; i < side.size(); ++i) {
        const char c = side[i];
        if (c == ' ') continue;
        if (c == ',') {
            out.emplace_back();
            continue;
        }
        if (c == '.') {
            if (side.compare(i, 3, "...") != 0) return {};
            out.back() += '.';
            i += 2;
            continue;
        }
        out.back() += c;
    }
    return out;
}

} // namespace

Expected<EinsumEquation> parseEinsum(const std::string& equation, const std::vector<Shape>& shapes) {
    const size_t arrow = equation.find("->");
    const std::vector<std::string> ins = terms(equation.substr(0, arrow));
    if (ins.size() != shapes.size())
        return bad(equation, "names " + std::to_string(ins.size()) + " operand(s) for " +
                                 std::to_string(shapes.size()) + " input(s)");
    // Ellipsis rank: the most dims any operand leaves to it.
    size_t ellipsis = 0;
    for (size_t i = 0; i < ins.size(); ++i) {
        const size_t letters =
            static_cast<size_t>(std::count_if(ins[i].begin(), ins[i].end(), [](char c) { return c != '.'; }));
        const bool hasDots = ins[i].find('.') != std::string::npos;
        if (letters > shapes[i].rank() || (!hasDots && letters != shapes[i].rank()))
            return bad(equation, "operand " + std::to_string(i) + " '" + ins[i] + "' does not match its shape " +
                                     shapes[i].str());
        if (hasDots) ellipsis = std::max(ellipsis, shapes[i].rank() - letters);
    }
    EinsumEquation eq;
    std::map<char, int> ids;
    const auto idOf = [&](char c) {
        auto it = ids.find(c);
        if (it != ids.end()) return it->second;
        const int id = static_cast<int>(eq.sizes.size());
        ids[c] = id;
        eq.sizes.push_back(1);
        return id;
    };
    std::vector<int> dotIds;
    for (size_t k = 0; k < ellipsis; ++k) {
        dotIds.push_back(static_cast<int>(eq.sizes.size()));
        eq.sizes.push_back(1);
    }
    std::map<char, int> uses;
    for (size_t i = 0; i < ins.size(); ++i) {
        std::vector<int> labels;
        const size_t letters =
            static_cast<size_t>(std::count_if(ins[i].begin(), ins[i].end(), [](char c) { return c != '.'; }));
        for (char c : ins[i]) {
            if (c == '.') {
                const size_t own = shapes[i].rank() - letters;
                for (size_t k = ellipsis - own; k < ellipsis; ++k) labels.push_back(dotIds[k]);
                continue;
            }
            if (!std::isalpha(static_cast<unsigned char>(c)))
                return bad(equation, std::string("'") + c + "' is not a label letter");
            labels.push_back(idOf(c));
            ++uses[c];
        }
        for (size_t d = 0; d < labels.size(); ++d) {
            int64_t& size = eq.sizes[static_cast<size_t>(labels[d])];
            const int64_t dim = shapes[i][d];
            if (dim == size || dim == 1) continue;
            if (size != 1)
                return bad(equation, "a label has sizes " + std::to_string(size) + " and " + std::to_string(dim));
            size = dim;
        }
        eq.operands.push_back(std::move(labels));
    }
    if (arrow == std::string::npos) {
        eq.output = dotIds;
        for (const auto& [c, n] : uses)
            if (n == 1) eq.output.push_back(ids[c]);
        return eq;
    }
    const std::vector<std::string> outs = terms(equation.substr(arrow + 2));
    if (outs.size() != 1) return bad(equation, "has more than one output term");
    for (char c : outs[0]) {
        if (c == '.') {
            eq.output.insert(eq.output.end(), dotIds.begin(), dotIds.end());
            continue;
        }
        auto it = ids.find(c);
        if (it == ids.end()) return bad(equation, std::string("output label '") + c + "' names no input dim");
        if (std::find(eq.output.begin(), eq.output.end(), it->second) != eq.output.end())
            return bad(equation, std::string("output label '") + c + "' repeats");
        eq.output.push_back(it->second);
    }
    return eq;
}

} // namespace embark::ir
