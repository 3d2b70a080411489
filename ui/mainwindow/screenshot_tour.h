// Renders the main views to PNG files once the model's layouts are ready, for the README's
// screenshots (scripts/screenshots.sh runs the studio with --screenshot DIR under Xvfb).
#pragma once

#include <QString>

namespace embark::ui {

class MainWindow;

// Waits for the graph layouts, selects a fused node so linked selection shows, writes
// DIR/studio.png, DIR/target.png and DIR/properties.png, then quits the application.
void runScreenshotTour(MainWindow* window, const QString& dir);

} // namespace embark::ui
