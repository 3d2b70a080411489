#include "graph_colors.h"

#include <QHash>

namespace embark::ui {

namespace {

QColor tone(int hue, const QPalette& palette) {
    // Pastel fills under dark text in light mode, deep fills under light text in dark mode.
    return isDarkPalette(palette) ? QColor::fromHsl(hue, 90, 70) : QColor::fromHsl(hue, 150, 210);
}

} // namespace

bool isDarkPalette(const QPalette& palette) {
    return palette.color(QPalette::Window).lightness() < palette.color(QPalette::WindowText).lightness();
}

QColor categoryColor(ir::OpCategory category, const QPalette& palette) {
    switch (category) {
    case ir::OpCategory::Conv: return tone(210, palette);
    case ir::OpCategory::Linear: return tone(250, palette);
    case ir::OpCategory::Normalization: return tone(290, palette);
    case ir::OpCategory::Activation: return tone(20, palette);
    case ir::OpCategory::Elementwise: return tone(45, palette);
    case ir::OpCategory::Pooling: return tone(130, palette);
    case ir::OpCategory::Reduction: return tone(170, palette);
    case ir::OpCategory::Shape: return tone(0, palette).toHsl().lighter(110);
    case ir::OpCategory::Data: return tone(60, palette);
    }
    return palette.color(QPalette::Button);
}

QColor libraryColor(const QString& library, const QPalette& palette) {
    if (library == QLatin1String("portable")) return tone(200, palette);
    if (library == QLatin1String("xnnpack")) return tone(100, palette);
    return tone(static_cast<int>(qHash(library) % 360), palette);
}

QColor terminalColor(const QPalette& palette) {
    const QColor a = palette.color(QPalette::Base), b = palette.color(QPalette::Text);
    return QColor((a.red() * 4 + b.red()) / 5, (a.green() * 4 + b.green()) / 5, (a.blue() * 4 + b.blue()) / 5);
}

} // namespace embark::ui
