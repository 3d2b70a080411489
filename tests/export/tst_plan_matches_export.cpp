// One deployment plan: `embark-cli plan --json` and the export.json of `embark-cli export`
// with the same options hold the same plan (memory buffers with their byte offsets, fused
// blocks, the library of every node), for every shared model and both kernel libraries.
#include "support/test_paths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace embark;

namespace {

struct Run {
    int code = -1;
    QByteArray out, err;
};

Run cli(const QStringList& args) {
    QProcess p;
    p.start(test::cliPath(), args);
    Run r;
    if (!p.waitForStarted() || !p.waitForFinished(10 * 60 * 1000)) {
        p.kill();
        r.err = "embark-cli did not start or finish";
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

QJsonObject readJson(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
}

// node name -> library, from plan's "nodes" or export.json's "schedule".
std::map<QString, QString> libraries(const QJsonArray& nodes, const char* nameKey, const char* libKey) {
    std::map<QString, QString> out;
    for (const auto& n : nodes) out[n.toObject()[nameKey].toString()] = n.toObject()[libKey].toString();
    return out;
}

} // namespace

class TestPlanMatchesExport : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;

private slots:
    void planEqualsExportJson_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("library");
        const QString bundled = test::sourceDir() + "/resources/models/digits_cnn.onnx";
        QTest::newRow("digits_cnn portable") << bundled << "portable";
        QTest::newRow("digits_cnn xnnpack") << bundled << "xnnpack";
        // Every shared model (the folder's listing, not a fixed list), with both libraries.
        const QStringList shared = test::sharedModelNames();
        if (shared.isEmpty()) QTest::newRow("shared models") << QString("shared:") << "portable";
        for (const QString& name : shared)
            for (const char* lib : {"portable", "xnnpack"})
                QTest::newRow(qPrintable(QString("%1 %2").arg(name, lib))) << QString("shared:") + name << lib;
    }

    void planEqualsExportJson() {
        QFETCH(QString, model);
        QFETCH(QString, library);
        if (model.startsWith("shared:")) {
            EMBARK_REQUIRE_SHARED_MODELS();
            model = test::sharedModel(model.mid(7));
            QVERIFY(!model.isEmpty());
        }
        Run plan = cli({"plan", model, "--lib", library, "--json"});
        QVERIFY2(plan.code == 0, plan.err.constData());
        const QJsonObject p = QJsonDocument::fromJson(plan.out).object();
        const QString dir = m_tmp.path() + "/" + QFileInfo(model).completeBaseName() + "_" + library;
        Run exp = cli({"export", model, "--lib", library, "-o", dir, "--force"});
        QVERIFY2(exp.code == 0, exp.err.constData());
        const QJsonObject e = readJson(dir + "/export.json");
        QVERIFY(!e.isEmpty());

        const QJsonObject pm = p["memory"].toObject(), em = e["memory"].toObject();
        QCOMPARE(pm["arena_bytes"].toInteger(), em["arena_bytes"].toInteger());
        const QJsonArray pb = pm["buffers"].toArray(), eb = em["buffers"].toArray();
        QCOMPARE(pb.size(), eb.size());
        for (qsizetype i = 0; i < pb.size(); ++i)
            QVERIFY2(pb[i] == eb[i],
                     qPrintable("buffer " + QString::number(i) + ": plan " +
                                QJsonDocument(pb[i].toObject()).toJson(QJsonDocument::Compact) + " vs export " +
                                QJsonDocument(eb[i].toObject()).toJson(QJsonDocument::Compact)));
        QCOMPARE(pm, em); // the rest of the plan too (schedule, lower bound, alignment)
        QCOMPARE(p["fused_blocks"].toArray(), e["fused_blocks"].toArray());
        QCOMPARE(p["libraries"].toArray(), e["libraries"].toArray());
        const auto planLibs = libraries(p["nodes"].toArray(), "name", "lib");
        for (const auto& [node, lib] : libraries(e["schedule"].toArray(), "name", "lib")) {
            auto it = planLibs.find(node);
            QVERIFY2(it != planLibs.end(), qPrintable("export node " + node + " is not in the plan"));
            QCOMPARE(it->second, lib);
        }
    }
};

QTEST_GUILESS_MAIN(TestPlanMatchesExport)
#include "tst_plan_matches_export.moc"
