#include "slot_template.h"

#include <QFile>

#include <set>

namespace embark::exporter {

namespace {

bool slotChar(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

// The slot name at text[pos] ("{{NAME}}"), or empty.
std::string slotAt(const std::string& text, size_t pos) {
    if (text.compare(pos, 2, "{{") != 0 || pos + 2 >= text.size() || !(text[pos + 2] >= 'A' && text[pos + 2] <= 'Z'))
        return {};
    size_t end = pos + 2;
    while (end < text.size() && slotChar(text[end])) ++end;
    if (text.compare(end, 2, "}}") != 0) return {};
    return text.substr(pos + 2, end - pos - 2);
}

} // namespace

SlotTemplate::SlotTemplate(std::string text, std::string name) : m_text(std::move(text)), m_name(std::move(name)) {}

Expected<SlotTemplate> SlotTemplate::load(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly) || f.size() == 0)
        return makeError(ErrorKind::External,
                         "the export runtime's template '" + path.toStdString() +
                             "' cannot be read: set EMBARK_RUNTIME_DIR to Embark's runtime folder");
    return SlotTemplate(f.readAll().toStdString(), path.toStdString());
}

SlotTemplate& SlotTemplate::set(const std::string& slot, std::string value) {
    m_values[slot] = std::move(value);
    return *this;
}

Expected<std::string> SlotTemplate::render() const {
    std::string out;
    out.reserve(m_text.size());
    std::set<std::string> used;
    for (size_t pos = 0; pos < m_text.size();) {
        const std::string slot = slotAt(m_text, pos);
        if (slot.empty()) {
            out += m_text[pos++];
            continue;
        }
        auto value = m_values.find(slot);
        if (value == m_values.end())
            return makeError(ErrorKind::External, "the template '" + m_name + "' has the slot {{" + slot +
                                                      "}}, which this Embark does not fill: EMBARK_RUNTIME_DIR "
                                                      "points at the runtime of another Embark version");
        used.insert(slot);
        out += value->second;
        // A block slot (alone on its line) replaces the line, line end included.
        const size_t end = pos + slot.size() + 4;
        const bool block = (pos == 0 || m_text[pos - 1] == '\n') && end < m_text.size() && m_text[end] == '\n';
        pos = block ? end + 1 : end;
    }
    for (const auto& [slot, value] : m_values)
        if (!used.count(slot))
            return makeError(ErrorKind::External, "the template '" + m_name + "' has no slot {{" + slot +
                                                      "}}: EMBARK_RUNTIME_DIR points at the runtime of another "
                                                      "Embark version");
    return out;
}

} // namespace embark::exporter
