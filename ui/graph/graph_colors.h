// Node fill colours for the graph views, by op category or by kernel library. Hues are fixed
// so a category keeps its colour; lightness follows the palette so dark mode stays readable.
#pragma once

#include "ir/opkind.h"

#include <QColor>
#include <QPalette>
#include <QString>

namespace embark::ui {

bool isDarkPalette(const QPalette& palette);
QColor categoryColor(ir::OpCategory category, const QPalette& palette);
QColor libraryColor(const QString& library, const QPalette& palette);
// The fill of graph input/output nodes: a neutral tone between base and text.
QColor terminalColor(const QPalette& palette);

} // namespace embark::ui
