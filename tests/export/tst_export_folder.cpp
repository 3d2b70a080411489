// The typed export folder: export.json read back into ExportFolder (the one reader), and a
// folder from another Embark version, a broken manifest or a plain folder refused with what to
// do, by the reader and by `embark-cli build`.
#include "export/export_folder.h"
#include "export/exporter.h"
#include "onnx/importer.h"
#include "support/test_paths.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace embark;

class TestExportFolder : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_export;

    void rewriteManifest(const QString& dir, const std::function<void(QJsonObject&)>& edit) {
        QFile f(dir + "/export.json");
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonObject j = QJsonDocument::fromJson(f.readAll()).object();
        f.close();
        edit(j);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QJsonDocument(j).toJson());
    }

    QString copyExport(const QString& name) {
        const QString dir = m_tmp.path() + "/" + name;
        QDir().mkpath(dir);
        for (const char* file : {"export.json", "CMakeLists.txt"}) QFile::copy(m_export + "/" + file, dir + "/" + file);
        return dir;
    }

private slots:
    void initTestCase() {
        auto g = onnx::importModel((test::sourceDir() + "/resources/models/digits_cnn.onnx").toStdString());
        QVERIFY2(g, g ? "" : g.error().message.c_str());
        exporter::ExportOptions o;
        o.library = "portable";
        o.outDir = m_tmp.path() + "/digits";
        auto r = exporter::exportModel(*g, o);
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        m_export = r->dir;
    }

    void readsWhatTheExporterWrote() {
        auto e = exporter::ExportFolder::open(m_export);
        QVERIFY2(e, e ? "" : e.error().message.c_str());
        QCOMPARE(e->library, std::string("portable"));
        QCOMPARE(e->arch, exporter::hostArch());
        QVERIFY2(QString::fromStdString(e->modelPath).endsWith("digits_cnn.onnx"), e->modelPath.c_str());
        QCOMPARE(e->modelSha256.size(), size_t(64));
        QVERIFY(!e->schedule.empty());
        QVERIFY(e->arenaBytes > 0);
        QCOMPARE(e->inputs.size(), size_t(1));
        QCOMPARE(e->outputs.size(), size_t(1));
        QCOMPARE(e->outputs[0].dataFile, QString("data/expected_0.bin"));
        for (size_t i = 0; i < e->schedule.size(); ++i) {
            QCOMPARE(e->schedule[i].index, int(i));
            QVERIFY(!e->schedule[i].lib.empty());
            QVERIFY(!e->layerOutput(int(i)).empty());
        }
        QVERIFY(e->layerOutput(-1).empty());
        QVERIFY(e->layerOutput(int(e->schedule.size())).empty());
        QCOMPARE(e->embarkVersion, QString(EMBARK_VERSION));
    }

    void refusesOtherFormatsAndBrokenManifests_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("errorKind");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("another version") << "format" << int(ErrorKind::InvalidInput) << "Embark 0.0.9";
        QTest::newRow("not json") << "garbage" << int(ErrorKind::InvalidInput) << "not a JSON object";
        QTest::newRow("no schedule") << "schedule" << int(ErrorKind::InvalidInput) << "no 'schedule'";
        QTest::newRow("plain folder") << "plain" << int(ErrorKind::Usage) << "not an Embark export folder";
    }

    void refusesOtherFormatsAndBrokenManifests() {
        QFETCH(QString, kind);
        QFETCH(int, errorKind);
        QFETCH(QString, fragment);
        QString dir = copyExport(kind);
        if (kind == "format") {
            rewriteManifest(dir, [](QJsonObject& j) {
                j["format"] = "embark-export/0";
                j["embark_version"] = "0.0.9";
            });
        } else if (kind == "garbage") {
            QFile f(dir + "/export.json");
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write("{ not json");
        } else if (kind == "schedule") {
            rewriteManifest(dir, [](QJsonObject& j) { j.remove("schedule"); });
        } else {
            QFile::remove(dir + "/export.json");
        }
        auto e = exporter::ExportFolder::open(dir);
        QVERIFY(!e);
        QCOMPARE(int(e.error().kind), errorKind);
        QVERIFY2(QString::fromStdString(e.error().message).contains(fragment), e.error().message.c_str());
        QVERIFY2(QString::fromStdString(e.error().message).contains(dir), e.error().message.c_str());
        if (kind != "format") return;
        QVERIFY(e.error().message.find("export the model again") != std::string::npos);
        // The CLI's build refuses it before running CMake (exit 4, invalid input).
        QProcess p;
        p.start(test::cliPath(), {"build", dir});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 4);
        QVERIFY(p.readAllStandardError().contains("embark-export/0"));
        QVERIFY(!QFileInfo::exists(dir + "/build/CMakeCache.txt"));
    }
};

QTEST_GUILESS_MAIN(TestExportFolder)
#include "tst_export_folder.moc"
