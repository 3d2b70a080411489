// The layering the build promises, checked on the sources: a core module includes only the
// core modules it declares in core/CMakeLists.txt (directly or through them), never a module
// above it, never ui/ or app/, and never a QtGui/QtWidgets header (core links QtCore only).
#include "support/test_paths.h"

#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <map>
#include <set>

namespace {

struct Modules {
    QStringList order;                           // EMBARK_MODULES
    std::map<QString, std::set<QString>> direct; // module -> core modules it declares
};

// Reads EMBARK_MODULES and every set(EMBARK_DEPS_<m> ...) (which may span lines).
Modules readModules(const QString& cmakeLists) {
    QFile f(cmakeLists);
    Modules m;
    if (!f.open(QIODevice::ReadOnly)) return m;
    const QString text = QString::fromUtf8(f.readAll());
    static const QRegularExpression modules("set\\(EMBARK_MODULES([^)]*)\\)");
    if (auto match = modules.match(text); match.hasMatch())
        m.order = match.captured(1).simplified().split(' ', Qt::SkipEmptyParts);
    static const QRegularExpression deps("set\\(EMBARK_DEPS_(\\w+)([^)]*)\\)");
    for (auto it = deps.globalMatch(text); it.hasNext();) {
        const auto match = it.next();
        std::set<QString>& d = m.direct[match.captured(1)];
        for (const QString& dep : match.captured(2).simplified().split(' ', Qt::SkipEmptyParts))
            if (dep.startsWith("embark_")) d.insert(dep.mid(7));
    }
    return m;
}

std::set<QString> closure(const Modules& m, const QString& module) {
    std::set<QString> seen;
    std::vector<QString> todo{module};
    while (!todo.empty()) {
        const QString next = todo.back();
        todo.pop_back();
        auto it = m.direct.find(next);
        if (it == m.direct.end()) continue;
        for (const QString& d : it->second)
            if (seen.insert(d).second) todo.push_back(d);
    }
    return seen;
}

} // namespace

class TestLayering : public QObject {
    Q_OBJECT

private slots:
    void coreModulesIncludeOnlyWhatTheyDeclare() {
        const QString core = embark::test::sourceDir() + "/core";
        const Modules m = readModules(core + "/CMakeLists.txt");
        QVERIFY2(m.order.size() >= 10, "could not read EMBARK_MODULES from core/CMakeLists.txt");
        const std::set<QString> known(m.order.begin(), m.order.end());
        static const QRegularExpression include("^\\s*#\\s*include\\s*([<\"])([^>\"]+)[>\"]");
        static const QRegularExpression gui("^(QtGui|QtWidgets|QtPrintSupport|QtSvg|QtCharts)/"
                                            "|^Q(Widget|Painter|Color|Image|Pixmap|Font|Icon|GuiApplication|"
                                            "Application|Brush|Pen|Action|Window|Screen)\\b");
        QStringList problems;
        int files = 0;
        for (const QString& module : m.order) {
            const std::set<QString> allowed = closure(m, module);
            QDirIterator it(core + "/" + module, {"*.h", "*.cpp"}, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString path = it.next();
                QFile f(path);
                QVERIFY(f.open(QIODevice::ReadOnly));
                ++files;
                int line = 0;
                for (const QString& text : QString::fromUtf8(f.readAll()).split('\n')) {
                    ++line;
                    const auto match = include.match(text);
                    if (!match.hasMatch()) continue;
                    const QString target = match.captured(2);
                    const QString where = path.mid(core.size() + 1) + ":" + QString::number(line) + ": ";
                    if (match.captured(1) == "<") {
                        if (gui.match(target).hasMatch()) problems << where + "includes <" + target + ">, a GUI header";
                        continue;
                    }
                    const QString first = target.section('/', 0, 0);
                    if (!target.contains('/')) continue; // a file of the same folder
                    if (first == "ui" || first == "app") {
                        problems << where + "includes \"" + target + "\" from " + first +
                                        "/ (core never depends on it)";
                    } else if (known.count(first) && first != module && !allowed.count(first)) {
                        problems << where + "includes \"" + target +
                                        "\" but core/CMakeLists.txt does not give module '" + module +
                                        "' a dependency on '" + first + "'";
                    }
                }
            }
        }
        QVERIFY(files > 50);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    }

    // The declared dependencies are the ones the code has: every core module a module declares
    // is included by at least one of its files (what it reaches through another module comes
    // with that one and is not declared again).
    void everyDeclaredDependencyIsUsed() {
        const QString core = embark::test::sourceDir() + "/core";
        const Modules m = readModules(core + "/CMakeLists.txt");
        static const QRegularExpression include("^\\s*#\\s*include\\s*\"(\\w+)/");
        QStringList problems;
        for (const auto& [module, declared] : m.direct) {
            std::set<QString> used;
            QDirIterator it(core + "/" + module, {"*.h", "*.cpp"}, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                QFile f(it.next());
                QVERIFY(f.open(QIODevice::ReadOnly));
                for (const QString& text : QString::fromUtf8(f.readAll()).split('\n'))
                    if (const auto match = include.match(text); match.hasMatch()) used.insert(match.captured(1));
            }
            for (const QString& d : declared)
                if (!used.count(d))
                    problems << "core/CMakeLists.txt gives '" + module + "' a dependency on '" + d +
                                    "', but no file of core/" + module + " includes it";
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    }

    // No cycle among the declared dependencies, and every module depends only on modules
    // listed before it (the order the build creates them in).
    void declaredDependenciesPointDown() {
        const Modules m = readModules(embark::test::sourceDir() + "/core/CMakeLists.txt");
        QStringList problems;
        for (int i = 0; i < m.order.size(); ++i) {
            auto it = m.direct.find(m.order[i]);
            if (it == m.direct.end()) continue;
            for (const QString& d : it->second) {
                const int at = static_cast<int>(m.order.indexOf(d));
                if (at < 0)
                    problems << m.order[i] + " depends on unknown module " + d;
                else if (at >= i)
                    problems << m.order[i] + " depends on " + d + ", which comes after it";
            }
            if (closure(m, m.order[i]).count(m.order[i])) problems << m.order[i] + " is in a dependency cycle";
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    }
};

QTEST_GUILESS_MAIN(TestLayering)
#include "tst_layering.moc"
