#include "graph_colors.h"

#include "export/kernel_libraries.h"

#include <QHash>

#include <algorithm>
#include <cmath>

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
    // Not the category pastels: saturated, darker tones, so the "after" pane coloured by
    // library never reads as the "before" pane coloured by category.
    const bool dark = isDarkPalette(palette);
    auto strong = [dark](int hue) { return dark ? QColor::fromHsl(hue, 200, 55) : QColor::fromHsl(hue, 210, 165); };
    if (const targets::KernelLibrary* lib = exporter::findKernelLibrary(library.toStdString())) return strong(lib->hue);
    return strong(static_cast<int>(qHash(library) % 360));
}

QColor metricColor(double t, const QPalette& palette) {
    // Pale yellow (low) to deep red (high): one hue ramp, readable with dark or light text.
    t = std::clamp(t, 0.0, 1.0);
    const int hue = int(std::lround(55 - 55 * t));
    if (isDarkPalette(palette)) return QColor::fromHsl(hue, 170, int(std::lround(60 + 60 * t)));
    return QColor::fromHsl(hue, 220, int(std::lround(225 - 95 * t)));
}

QColor noFigureColor(const QPalette& palette) {
    const QColor a = palette.color(QPalette::Base), b = palette.color(QPalette::Text);
    return QColor((a.red() * 7 + b.red() * 2) / 9, (a.green() * 7 + b.green() * 2) / 9,
                  (a.blue() * 7 + b.blue() * 2) / 9);
}

QColor foldedColor(const QPalette& palette) {
    const QColor a = palette.color(QPalette::Base), b = palette.color(QPalette::Text);
    return QColor((a.red() * 11 + b.red()) / 12, (a.green() * 11 + b.green()) / 12, (a.blue() * 11 + b.blue()) / 12);
}

QColor terminalColor(const QPalette& palette) {
    const QColor a = palette.color(QPalette::Base), b = palette.color(QPalette::Text);
    return QColor((a.red() * 4 + b.red()) / 5, (a.green() * 4 + b.green()) / 5, (a.blue() * 4 + b.blue()) / 5);
}

} // namespace embark::ui
