// The export's generated text files come from templates under runtime/common/ (*.in) with named
// slots, {{NAME}} (upper-case letters, digits and '_'), filled in one pass: a value is never
// scanned for slots itself.
//
// A slot alone on its line is a block slot: its value is whole lines (each ending in '\n', or
// empty), and it replaces the line together with the line's end, so an empty block leaves no
// blank line behind. Any other slot is replaced in place.
#pragma once

#include "ir/error.h"

#include <QString>

#include <map>
#include <string>

namespace embark::exporter {

class SlotTemplate {
public:
    // `name` names the template in errors (its file, e.g. "runtime/common/model.cpp.in").
    SlotTemplate(std::string text, std::string name);
    // The template file at `path`; an error names the file and EMBARK_RUNTIME_DIR.
    static Expected<SlotTemplate> load(const QString& path);

    // Sets a slot's value (a later call replaces it).
    SlotTemplate& set(const std::string& slot, std::string value);

    // The filled text. Every slot of the template must be set and every value set must have a
    // slot: either is a runtime that does not match this Embark, and the error names both.
    Expected<std::string> render() const;

private:
    std::string m_text;
    std::string m_name;
    std::map<std::string, std::string> m_values;
};

} // namespace embark::exporter
