// Layout speed and quality on generated DenseNet-121-, ResNet-50- and chain-with-skips-shaped
// graphs: time (best of several runs), crossings, total edge length; `dot` on the ~430-node
// DenseNet case for comparison when graphviz is installed (with a timeout).
#include "graphdraw/layered_layout.h"
#include "graphdraw/synthetic_graphs.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryFile>

#include <cstdio>

using namespace embark::graphdraw;

namespace {

void measure(const char* name, const LayoutGraph& g, int repeats) {
    double bestMs = 1e300;
    LayoutResult last;
    for (int i = 0; i < repeats; ++i) {
        QElapsedTimer t;
        t.start();
        auto r = computeLayout(g);
        const double ms = t.nsecsElapsed() / 1e6;
        if (!r) {
            std::printf("%-28s error: %s\n", name, r.error().message.c_str());
            return;
        }
        bestMs = std::min(bestMs, ms);
        last = std::move(r.value());
    }
    std::printf("%-28s %5zu nodes %5zu edges %6d dummies %4d layers  %8.1f ms  %7lld crossings  "
                "edge length %.0f\n",
                name, g.nodes.size(), g.edges.size(), last.dummyCount, last.layerCount, bestMs, last.crossings,
                last.totalEdgeLength);
}

void compareWithDot(const LayoutGraph& g, int timeoutSeconds) {
    const QString dot = QStandardPaths::findExecutable("dot");
    if (dot.isEmpty()) {
        std::printf("dot: not installed (graphviz), comparison skipped\n");
        return;
    }
    QTemporaryFile file;
    if (!file.open()) return;
    file.write(QByteArray::fromStdString(toDot(g)));
    file.flush();
    QProcess p;
    QElapsedTimer t;
    t.start();
    p.start(dot, {"-Tplain", file.fileName()});
    if (!p.waitForFinished(timeoutSeconds * 1000)) {
        p.kill();
        p.waitForFinished();
        std::printf("dot on the %zu-node DenseNet-like graph: still running after %d s (killed)\n", g.nodes.size(),
                    timeoutSeconds);
        return;
    }
    std::printf("dot on the %zu-node DenseNet-like graph: %.1f ms\n", g.nodes.size(), t.nsecsElapsed() / 1e6);
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const int repeats = 5;
    const LayoutGraph dense900 = denseNetLike(14);
    const LayoutGraph dense430 = denseNetLike(6);
    measure("densenet121-like (~900)", dense900, repeats);
    measure("densenet121-like (~430)", dense430, repeats);
    measure("resnet50-like", resNet50Like(), repeats);
    measure("chain-with-skips (1000)", chainWithSkips(1000), repeats);
    compareWithDot(dense430, 60);
    return 0;
}
