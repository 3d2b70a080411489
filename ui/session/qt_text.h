// Conversions from the engine's std::string / string_view names to QString for display.
#pragma once

#include <QString>

#include <string_view>

namespace embark::ui {

inline QString toQString(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

} // namespace embark::ui
