// The studio's export job writes the plan the studio shows: after library and override edits
// and their undo/redo, export.json's schedule (library, rule, reason and layout per node),
// memory plan and fused blocks are those of the session's deployment plan, and the job writes
// that plan as it is instead of planning again.
#include "export/deployment_plan.h"
#include "jobs/studio_jobs.h"
#include "mainwindow/mainwindow.h"
#include "session/session_commands.h"
#include "session/studio_session.h"
#include "support/test_paths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace embark;

class TestExportPlan : public QObject {
    Q_OBJECT
    QTemporaryDir m_config;
    QTemporaryDir m_out;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("EMBARK_CONFIG_DIR", m_config.path().toUtf8());
    }

    void exportWritesTheShownPlan() {
        ui::MainWindow window;
        QVERIFY(window.openModel(test::sourceDir() + QStringLiteral("/resources/models/digits_cnn.onnx"), true));
        ui::StudioSession* session = window.session();
        session->setBoard(QStringLiteral("host"));
        QVERIFY(session->hasModel() && session->deploymentPlan());

        // Edits, then undo and redo: the library, a node override, an op override.
        QString conv;
        for (const ir::Node* n : session->stageGraph(session->lastStage())->nodes())
            if (conv.isEmpty() && n->op == ir::OpKind::Conv) conv = QString::fromStdString(n->name);
        QVERIFY(!conv.isEmpty());
        QVERIFY(ui::pushEdit(session, std::make_unique<ui::SetLibraryCommand>(session, "xnnpack")));
        QVERIFY(ui::pushEdit(session, std::make_unique<ui::SetNodeOverrideCommand>(session, conv, "portable")));
        QVERIFY(ui::pushEdit(session, std::make_unique<ui::SetOpOverrideCommand>(session, "MaxPool", "portable")));
        session->undoStack()->undo();
        session->undoStack()->undo();
        session->undoStack()->redo();
        QCOMPARE(session->library(), QStringLiteral("xnnpack"));
        QCOMPARE(session->request().nodeOverrides.count(conv.toStdString()), size_t(1));
        QVERIFY(session->request().opOverrides.empty());
        QVERIFY(!session->isPlanning());
        const std::shared_ptr<const exporter::DeploymentPlan> shown = session->deploymentPlan();
        QVERIFY2(shown, qPrintable(session->memoryPlanError()));

        const QString dir = m_out.filePath(QStringLiteral("digits-host"));
        const int id = window.jobs()->exportTo(dir, false);
        QVERIFY(id >= 0);
        QVERIFY(window.jobs()->queue()->waitForIdle(120000));
        const auto job = window.jobs()->queue()->job(id);
        QVERIFY2(job->state() == jobs::JobState::Succeeded, qPrintable(job->log().join('\n')));
        // The job took the session's plan; it did not plan again.
        QVERIFY2(job->log().join('\n').contains(QStringLiteral("written as it is")), qPrintable(job->log().join('\n')));

        QFile f(dir + QStringLiteral("/export.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject manifest = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(manifest["memory"].toObject(), exporter::memoryPlanJson(shown->memory));
        QCOMPARE(manifest["fused_blocks"].toArray(), exporter::fusedBlocksJson(shown->fusedBlocks));
        const QJsonArray schedule = manifest["schedule"].toArray();
        QStringList written, planned;
        for (const QJsonValue& v : schedule) {
            const QJsonObject n = v.toObject();
            written << n["name"].toString() + " " + n["lib"].toString() + " " + n["rule"].toString() + " " +
                           n["layout"].toString() + " " + n["reason"].toString();
        }
        for (const ir::Node* n : shown->adaptation.graph.nodes()) {
            if (!n->output(0)) continue;
            const auto& a = shown->adaptation.nodes.at(n->name);
            planned << QString::fromStdString(n->name + " " + a.library + " " +
                                              std::string(exporter::assignmentRuleName(a.rule)) + " " +
                                              std::string(targets::layoutName(a.format)) + " " + a.reason);
        }
        QCOMPARE(written, planned);
        QVERIFY(written.join('\n').contains(conv + QStringLiteral(" portable node override")));
        // What the studio's views show per node.
        for (const auto& [node, lib] : session->assignments())
            QVERIFY(written.join('\n').contains(QString::fromStdString(node) + " " + lib.library + " "));
    }
};

QTEST_MAIN(TestExportPlan)
#include "tst_export_plan.moc"
