#include "screenshot_tour.h"

#include "mainwindow.h"

#include "graph/graph_folding.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "graph/properties_panel.h"
#include "charts/charts_panel.h"
#include "jobs/studio_jobs.h"
#include "session/studio_session.h"
#include "stages/stages_view.h"
#include "targetpanel/target_panel.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QMap>
#include <QPixmap>
#include <QScreen>
#include <QTimer>

#include <cstdio>

namespace embark::ui {

namespace {

void save(QWidget* widget, const QString& path) {
    const bool ok = widget->grab().save(path);
    std::fprintf(stderr, "%s %s\n", ok ? "wrote" : "FAILED to write", qPrintable(path));
}

// The whole screen the window is on (the root window under X11), so what does not fit on a
// small screen shows. Grabbed by the studio itself while it shows its graph: an outside grab
// raced the tour's quit.
void saveScreen(QWidget* window, const QString& path) {
    QScreen* screen = window->screen();
    const bool ok = screen && screen->grabWindow(0).save(path);
    std::fprintf(stderr, "%s %s\n", ok ? "wrote" : "FAILED to write", qPrintable(path));
}

// A node of the fused graph standing for several original nodes: the best showcase of
// linked selection.
QString showcaseNode(const StudioSession& session) {
    auto fused = session.stageGraph(session.lastStage());
    if (!fused) return {};
    QString best;
    size_t most = 0;
    for (const ir::Node* n : fused->nodes())
        if (n->provenance.size() > most) {
            most = n->provenance.size();
            best = QString::fromStdString(n->name);
        }
    return best;
}

// With EMBARK_SCREENSHOT_BENCHMARK=1: the one-button benchmark on the chosen board, then
// the jobs dock and the charts of that real run.
void benchmarkShots(MainWindow* window, const QString& dir) {
    StudioJobs* studioJobs = window->jobs();
    if (studioJobs->runBenchmark() < 0) return QApplication::quit();
    QObject::connect(studioJobs->queue(), &jobs::JobQueue::idle, window, [window, dir] {
        QTimer::singleShot(500, window, [window, dir] {
            ChartsPanel* charts = window->charts();
            QDockWidget* chartsDock = window->jobs()->chartsDock();
            window->resizeDocks({chartsDock}, {380}, Qt::Vertical);
            chartsDock->raise();
            QApplication::processEvents();
            save(window, QDir(dir).filePath(QStringLiteral("studio-run.png")));
            charts->tabs()->setCurrentIndex(0);
            save(charts, QDir(dir).filePath(QStringLiteral("charts-timing.png")));
            charts->tabs()->setCurrentIndex(1);
            save(charts, QDir(dir).filePath(QStringLiteral("charts-accuracy.png")));
            charts->tabs()->setCurrentIndex(2);
            save(charts, QDir(dir).filePath(QStringLiteral("charts-latency.png")));
            window->jobs()->dock()->raise();
            QApplication::processEvents();
            save(window->jobs()->dock(), QDir(dir).filePath(QStringLiteral("jobs.png")));
            QApplication::quit();
        });
    });
}

// The shallowest module prefixes that split the imported graph into three or more modules
// of four or more nodes each (resnet18's layers, densenet121's dense blocks).
QStringList foldableModules(const StudioSession& session) {
    auto graph = session.stageGraph(0);
    if (!graph) return {};
    for (int depth = 0; depth < 4; ++depth) {
        QMap<QString, int> count;
        for (const ir::Node* n : graph->nodes()) {
            const QStringList prefixes = modulePrefixes(QString::fromStdString(n->name));
            if (prefixes.size() > depth) ++count[prefixes.at(depth)];
        }
        QStringList big;
        for (auto it = count.constBegin(); it != count.constEnd(); ++it)
            if (it.value() >= 4) big << it.key();
        if (big.size() >= 3) return big;
    }
    return {};
}

void foldedShot(MainWindow* window, const QString& dir) {
    StagesView* stages = window->stages();
    auto* poll = new QTimer(window);
    poll->setInterval(100);
    QObject::connect(poll, &QTimer::timeout, window, [window, dir, poll, stages] {
        if (stages->beforePanel()->scene()->isLayoutPending() || stages->afterPanel()->scene()->isLayoutPending())
            return;
        poll->stop();
        stages->beforePanel()->view()->fitAll();
        stages->afterPanel()->view()->fitAll();
        QTimer::singleShot(300, window, [window, dir] {
            save(window, QDir(dir).filePath(QStringLiteral("studio-folded.png")));
            if (qEnvironmentVariableIntValue("EMBARK_SCREENSHOT_BENCHMARK") == 1)
                benchmarkShots(window, dir);
            else
                QApplication::quit();
        });
    });
    poll->start();
}

} // namespace

void runScreenshotTour(MainWindow* window, const QString& dir) {
    QDir().mkpath(dir);
    auto* poll = new QTimer(window);
    poll->setInterval(100);
    QObject::connect(poll, &QTimer::timeout, window, [window, dir, poll] {
        StagesView* stages = window->stages();
        if (stages->beforePanel()->scene()->isLayoutPending() || stages->afterPanel()->scene()->isLayoutPending())
            return;
        poll->stop();
        StudioSession* session = window->session();
        session->select(session->lastStage(), showcaseNode(*session));
        stages->beforePanel()->view()->fitAll();
        stages->afterPanel()->view()->fitAll();
        // Let the views repaint before grabbing.
        QTimer::singleShot(300, window, [window, dir] {
            save(window, QDir(dir).filePath(QStringLiteral("studio.png")));
            saveScreen(window, QDir(dir).filePath(QStringLiteral("screen.png")));
            save(window->target(), QDir(dir).filePath(QStringLiteral("target.png")));
            save(window->properties(), QDir(dir).filePath(QStringLiteral("properties.png")));
            // At a readable zoom around the showcase node: the graphs coloured by the memory
            // plan's bytes in use (with the legend's scale), then by the changes fusion made.
            StagesView* stages = window->stages();
            const QString node = window->session()->selectedNode();
            for (GraphPanel* panel : {stages->beforePanel(), stages->afterPanel()}) panel->view()->showInitial();
            if (!node.isEmpty()) stages->revealNode(node);
            stages->setColouring(StagesView::Colouring::Memory);
            QApplication::processEvents();
            save(window, QDir(dir).filePath(QStringLiteral("studio-memory.png")));
            stages->setColouring(StagesView::Colouring::Diff);
            QApplication::processEvents();
            save(window, QDir(dir).filePath(QStringLiteral("studio-diff.png")));
            stages->setColouring(StagesView::Colouring::Default);
            // Both panes folded by module ("/layer1", "/features/denseblock1"), fitted.
            const QStringList modules = foldableModules(*window->session());
            for (GraphPanel* panel : {stages->beforePanel(), stages->afterPanel()})
                for (const QString& m : modules) stages->foldModule(panel, m);
            QTimer::singleShot(0, window, [window, dir] { foldedShot(window, dir); });
        });
    });
    poll->start();
}

} // namespace embark::ui
