// Issue #33 at 1920x1080: the window opened at ~1500x950, did not remember being maximised and
// did not restore dock sizes. The window's geometry, maximised state, workspace and dock sizes
// are remembered per screen size: a layout made on a 1920x1080 screen comes back there and
// never on a 1366x768 one, which keeps its own. The offscreen platform is given two screens of
// those sizes (its configfile option), so the test needs no display.
#include "mainwindow/mainwindow.h"
#include "mainwindow/workspaces.h"
#include "support/test_paths.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <cstdlib>

using namespace embark;
using Mode = ui::Workspaces::Mode;

namespace {

QScreen* screenOfSize(QSize size) {
    for (QScreen* s : QGuiApplication::screens())
        if (s->size() == size) return s;
    return nullptr;
}

void settle() {
    for (int i = 0; i < 3; ++i) QApplication::processEvents();
    QTest::qWait(20);
}

QString describe(const QWidget& w) {
    return QStringLiteral("%1x%2 at %3,%4 on %5")
        .arg(w.width())
        .arg(w.height())
        .arg(w.x())
        .arg(w.y())
        .arg(w.screen() ? w.screen()->name() : QStringLiteral("no screen"));
}

} // namespace

class TestWindowState : public QObject {
    Q_OBJECT
    QTemporaryDir m_config;
    QScreen* m_large = nullptr;
    QScreen* m_laptop = nullptr;

    // A window on `screen` (restored for it), shown and settled.
    void open(ui::MainWindow& w, QScreen* screen) {
        w.setScreen(screen);
        w.restoreLayout();
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        settle();
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("EMBARK_CONFIG_DIR", m_config.path().toUtf8());
        QCoreApplication::setOrganizationName(QStringLiteral("EmbarkWindowStateTest"));
        QSettings().remove(QStringLiteral("window"));
        m_large = screenOfSize({1920, 1080});
        m_laptop = screenOfSize({1366, 768});
        if (!m_large || !m_laptop) QSKIP("the platform did not take the two screens of the test's configuration");
    }

    void cleanupTestCase() { QSettings().remove(QStringLiteral("window")); }

    // A first start on a large screen takes all of it, not 1500x950 in the middle.
    void firstStartFillsALargeScreen() {
        ui::MainWindow w;
        open(w, m_large);
        QVERIFY2(w.isMaximized(), qPrintable(describe(w)));
        QCOMPARE(w.frameGeometry().size(), m_large->availableGeometry().size()); // the frame fills it
        QCOMPARE(w.workspaces()->mode(), Mode::Inspect);
    }

    // Each start is its own process with one screen, of one size, as the primary: the
    // offscreen platform crashes in setScreen() when a second window moves to another screen,
    // and a real start restores for the screen it opens on anyway.
    void layoutIsRememberedPerScreenSize() {
        QSettings().remove(QStringLiteral("window"));
        QSettings().sync();
        // 1920x1080: maximised, a wider Properties and a taller rewrite list.
        const QJsonObject large = runStep("large-first");
        QVERIFY2(large.value("properties").toInt() >= 540 && large.value("rewrites").toInt() >= 280,
                 qPrintable(QJsonDocument(large).toJson()));
        QVERIFY(large.value("maximized").toBool());
        QSettings().sync();
        QVERIFY(QSettings().contains(QStringLiteral("window/1920x1080/geometry")));
        // 1366x768 has no layout yet: the first-start one, not the 1920x1080 one; then made
        // narrower, not maximised, and left in the Run workspace.
        const QJsonObject laptop = runStep("laptop-first");
        QVERIFY2(laptop.value("width").toInt() <= 1366 && laptop.value("height").toInt() <= 768,
                 qPrintable(QJsonDocument(laptop).toJson()));
        QVERIFY2(laptop.value("firstProperties").toInt() <= 470, qPrintable(QJsonDocument(laptop).toJson()));
        QVERIFY(laptop.value("properties").toInt() > 0);
        // Back on the large screen: maximised, its dock sizes and workspace.
        const QJsonObject again = runStep("large-again");
        QVERIFY2(again.value("maximized").toBool() && again.value("fills").toBool(),
                 qPrintable(QJsonDocument(again).toJson()));
        QCOMPARE(again.value("mode").toInt(), int(Mode::Inspect));
        QVERIFY2(std::abs(again.value("properties").toInt() - large.value("properties").toInt()) <= 2,
                 qPrintable(QJsonDocument(again).toJson()));
        QVERIFY2(std::abs(again.value("rewrites").toInt() - large.value("rewrites").toInt()) <= 2,
                 qPrintable(QJsonDocument(again).toJson()));
        // And on the laptop: its own size, workspace and Properties width.
        const QJsonObject laptopAgain = runStep("laptop-again");
        QVERIFY2(!laptopAgain.value("maximized").toBool() && laptopAgain.value("width").toInt() == 1200 &&
                     laptopAgain.value("height").toInt() == 700,
                 qPrintable(QJsonDocument(laptopAgain).toJson()));
        QCOMPARE(laptopAgain.value("mode").toInt(), int(Mode::Run));
        QVERIFY2(std::abs(laptopAgain.value("properties").toInt() - laptop.value("properties").toInt()) <= 2,
                 qPrintable(QJsonDocument(laptopAgain).toJson()));
    }

private:
    // Runs this binary as one start of the studio (childMain below) and returns what it saw.
    QJsonObject runStep(const QString& step) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("EMBARK_WINDOW_STATE_STEP"), step);
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        p.setProcessEnvironment(env);
        p.start(QCoreApplication::applicationFilePath(), {});
        if (!p.waitForFinished(120000)) {
            p.kill();
            p.waitForFinished();
            QTest::qFail(qPrintable(step + QStringLiteral(" did not finish")), __FILE__, __LINE__);
            return {};
        }
        const QByteArray out = p.readAllStandardOutput();
        const QJsonDocument doc = QJsonDocument::fromJson(out.mid(out.lastIndexOf("\n{") + 1));
        if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0 || !doc.isObject())
            QTest::qFail(qPrintable(QStringLiteral("%1 failed (exit %2): %3 %4")
                                        .arg(step)
                                        .arg(p.exitCode())
                                        .arg(QString::fromUtf8(out), QString::fromUtf8(p.readAllStandardError()))),
                         __FILE__, __LINE__);
        return doc.object();
    }
};

namespace {

// One start of the studio for layoutIsRememberedPerScreenSize: a window on the only screen,
// restored for its size, one step of the scenario, then closed (which saves the layout).
// Prints what it saw as one JSON line.
int childMain(const QString& step) {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EmbarkWindowStateTest"));
    const QString model = test::sourceDir() + QStringLiteral("/resources/models/digits_cnn.onnx");
    QJsonObject seen;
    {
        ui::MainWindow w;
        w.show();
        if (!QTest::qWaitForWindowExposed(&w)) return 3;
        settle();
        if (!w.openModel(model, true)) return 4;
        settle();
        seen["firstProperties"] = w.propertiesDock()->width();
        if (step == QLatin1String("large-first")) {
            w.resizeDocks({w.propertiesDock()}, {560}, Qt::Horizontal);
            w.resizeDocks({w.rewritesDock()}, {300}, Qt::Vertical);
            settle();
        } else if (step == QLatin1String("laptop-first")) {
            seen["width"] = w.width();
            seen["height"] = w.height();
            w.showNormal();
            w.resize(1200, 700);
            settle();
            w.resizeDocks({w.propertiesDock()}, {360}, Qt::Horizontal);
            settle();
        }
        if (step == QLatin1String("laptop-again")) {
            seen["mode"] = int(w.workspaces()->mode());
            w.workspaces()->setMode(Mode::Inspect);
            settle();
        }
        seen["maximized"] = w.isMaximized();
        seen["fills"] = w.screen() && w.frameGeometry().size() == w.screen()->availableGeometry().size();
        if (!seen.contains("width")) {
            seen["width"] = w.width();
            seen["height"] = w.height();
        }
        if (!seen.contains("mode")) seen["mode"] = int(w.workspaces()->mode());
        seen["properties"] = w.propertiesDock()->width();
        seen["rewrites"] = w.rewritesDock()->height();
        seen["screen"] = w.workspaces()->screenKey();
        if (step == QLatin1String("laptop-first")) w.workspaces()->setMode(Mode::Run);
        if (!w.close()) return 5;
    }
    QSettings().sync();
    std::printf("\n%s\n", QJsonDocument(seen).toJson(QJsonDocument::Compact).constData());
    return 0;
}

} // namespace

// The offscreen platform with a 1920x1080 screen (primary) and a 1366x768 one beside it,
// unless the environment asks for another platform. A child start of
// layoutIsRememberedPerScreenSize gets one screen of its step's size.
int main(int argc, char** argv) {
    QTemporaryDir dir;
    const QString step = qEnvironmentVariable("EMBARK_WINDOW_STATE_STEP");
    if (!step.isEmpty()) {
        const bool laptop = step.startsWith(QLatin1String("laptop"));
        const QString config = dir.path() + QStringLiteral("/screen.json");
        QFile file(config);
        if (!dir.isValid() || !file.open(QIODevice::WriteOnly)) return 2;
        file.write(QStringLiteral(R"({"synthesizedpi": false, "windowframemargins": false, "screens": [
  {"name": "only", "x": 0, "y": 0, "width": %1, "height": %2, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})")
                       .arg(laptop ? 1366 : 1920)
                       .arg(laptop ? 768 : 1080)
                       .toUtf8());
        file.close();
        qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + QDir::toNativeSeparators(config).toUtf8());
        QApplication app(argc, argv);
        return childMain(step);
    }
    const QString config = dir.path() + QStringLiteral("/screens.json");
    QFile file(config);
    if (dir.isValid() && file.open(QIODevice::WriteOnly)) {
        file.write(R"({"synthesizedpi": false, "windowframemargins": false, "screens": [
  {"name": "large", "x": 0, "y": 0, "width": 1920, "height": 1080, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1},
  {"name": "laptop", "x": 1920, "y": 0, "width": 1366, "height": 768, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}
]})");
        file.close();
        const QByteArray platform = qgetenv("QT_QPA_PLATFORM");
        if (platform.isEmpty() || platform == "offscreen")
            qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + QDir::toNativeSeparators(config).toUtf8());
    }
    QApplication app(argc, argv);
    TestWindowState test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_window_state.moc"
