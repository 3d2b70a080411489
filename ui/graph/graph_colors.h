// Node fill colours for the graph views, by op category, kernel library or a per-node figure. Hues are fixed
// so a category keeps its colour; lightness follows the palette so dark mode stays readable.
#pragma once

#include "ir/opkind.h"

#include <QColor>
#include <QPalette>
#include <QString>

namespace embark::ui {

bool isDarkPalette(const QPalette& palette);
QColor categoryColor(ir::OpCategory category, const QPalette& palette);
// Saturated tones, distinct from the category pastels.
QColor libraryColor(const QString& library, const QPalette& palette);
// A per-node figure scaled to [0, 1] (0 the smallest in the graph, 1 the largest).
QColor metricColor(double t, const QPalette& palette);
// Nodes without a figure, or without an assigned library: a light grey.
QColor noFigureColor(const QPalette& palette);
// A folded module (several nodes drawn as one): lighter than "no figure".
QColor foldedColor(const QPalette& palette);
// The fill of graph input/output nodes: a neutral tone between base and text.
QColor terminalColor(const QPalette& palette);

} // namespace embark::ui
