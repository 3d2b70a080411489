// The export's generated files come from the runtime's templates (runtime/common/*.in) with
// named slots: SlotTemplate fills them in one pass (in-line and block slots), refuses a slot
// left unfilled or a value with no slot, and exportModel writes src/model.cpp, CMakeLists.txt
// and src/blobs.S.in from the templates of the runtime it is given.
#include "export/exporter.h"
#include "export/slot_template.h"
#include "onnx/importer.h"
#include "support/test_paths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

using namespace embark;
using exporter::SlotTemplate;

namespace {

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A copy of the runtime folder's files an export reads, with runtime/common/model.cpp.in
// rewritten by `edit`.
QString runtimeCopy(const QString& dir, const std::function<QByteArray(QByteArray)>& edit) {
    const QString rt = test::sourceDir() + "/runtime";
    for (const char* sub : {"common", "portable", "generic"}) {
        QDir().mkpath(dir + "/" + sub);
        for (const QString& f : QDir(rt + "/" + sub).entryList(QDir::Files))
            QFile::copy(rt + "/" + sub + "/" + f, dir + "/" + sub + "/" + f);
    }
    QFile model(dir + "/common/model.cpp.in");
    const QByteArray text = edit(readAll(model.fileName()));
    if (!model.open(QIODevice::WriteOnly | QIODevice::Truncate)) return {};
    model.write(text);
    return dir;
}

} // namespace

class TestSlotTemplate : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

    Expected<exporter::ExportResult> exportDigits(const QString& runtimeDir, const QString& name) {
        auto g = onnx::importModel((test::sourceDir() + "/resources/models/digits_cnn.onnx").toStdString());
        if (!g) return g.error();
        exporter::ExportOptions o;
        o.library = "portable";
        o.outDir = m_tmp.filePath(name);
        o.runtimeDir = runtimeDir;
        return exporter::exportModel(*g, o);
    }

private slots:
    void fillsInlineAndBlockSlots() {
        SlotTemplate t("a {{X}} b\n{{LINES}}\nend {{X}}\n", "t.in");
        t.set("X", "1").set("LINES", "l1\nl2\n");
        auto out = t.render();
        QVERIFY2(out, out ? "" : out.error().message.c_str());
        QCOMPARE(*out, std::string("a 1 b\nl1\nl2\nend 1\n"));
        // An empty block leaves no blank line; a value is never scanned for slots.
        t.set("LINES", "").set("X", "{{LINES}}");
        QCOMPARE(*t.render(), std::string("a {{LINES}} b\nend {{LINES}}\n"));
    }

    void leavesOtherBracesAlone() {
        SlotTemplate t("int a[][1] = {{1}}; {{x}} {{ X }}\n{{A_1}}", "t.in");
        t.set("A_1", "v");
        QCOMPARE(*t.render(), std::string("int a[][1] = {{1}}; {{x}} {{ X }}\nv"));
    }

    void refusesMismatchedSlots() {
        SlotTemplate t("{{A}} {{B}}", "runtime/common/x.in");
        t.set("A", "1");
        auto missing = t.render();
        QVERIFY(!missing);
        QVERIFY2(missing.error().message.find("runtime/common/x.in") != std::string::npos &&
                     missing.error().message.find("{{B}}") != std::string::npos &&
                     missing.error().message.find("EMBARK_RUNTIME_DIR") != std::string::npos,
                 missing.error().message.c_str());
        t.set("B", "2").set("C", "3");
        auto unknown = t.render();
        QVERIFY(!unknown);
        QVERIFY2(unknown.error().message.find("no slot {{C}}") != std::string::npos, unknown.error().message.c_str());
        QVERIFY(!SlotTemplate::load(m_tmp.filePath("absent.in")));
    }

    // src/model.cpp is the runtime's model.cpp.in filled: an edit of the template shows in the
    // export, and a template with a slot this Embark does not fill is refused, naming it.
    void modelSourceComesFromTheTemplate() {
        auto plain = exportDigits(QString(), "plain");
        QVERIFY2(plain, plain ? "" : plain.error().message.c_str());
        const QByteArray model = readAll(plain->dir + "/src/model.cpp");
        QVERIFY(model.contains("inline void endLayerQ("));
        QVERIFY(!model.contains("{{"));
        QVERIFY(!readAll(plain->dir + "/CMakeLists.txt").contains("{{"));
        QVERIFY(!readAll(plain->dir + "/src/blobs.S.in").contains("{{"));

        const QString edited = runtimeCopy(m_tmp.filePath("rt-edited"), [](QByteArray t) {
            return t.replace("// Layer bookkeeping:", "// An edited template.\n// Layer bookkeeping:");
        });
        QVERIFY(!edited.isEmpty());
        auto e = exportDigits(edited, "edited");
        QVERIFY2(e, e ? "" : e.error().message.c_str());
        QByteArray expected = model;
        QCOMPARE(readAll(e->dir + "/src/model.cpp"),
                 expected.replace("// Layer bookkeeping:", "// An edited template.\n// Layer bookkeeping:"));

        const QString other =
            runtimeCopy(m_tmp.filePath("rt-other"), [](QByteArray t) { return t + "{{NEW_SLOT}}\n"; });
        auto refused = exportDigits(other, "refused");
        QVERIFY(!refused);
        QVERIFY(refused.error().kind == ErrorKind::External);
        QVERIFY2(refused.error().message.find("model.cpp.in") != std::string::npos &&
                     refused.error().message.find("{{NEW_SLOT}}") != std::string::npos,
                 refused.error().message.c_str());
        QVERIFY(!QFileInfo::exists(m_tmp.filePath("refused")));
    }
};

QTEST_GUILESS_MAIN(TestSlotTemplate)
#include "tst_slot_template.moc"
