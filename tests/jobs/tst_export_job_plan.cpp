// The export job writes the plan it is given (the studio's current plan) as it is, instead of
// planning again: a plan made with a node override, handed to a job whose request has no
// override, is what export.json records (schedule, memory plan, fused blocks); without a plan
// the job plans from its request.
#include "export/deployment_target.h"
#include "jobs/job_queue.h"
#include "jobs/job_recipes.h"
#include "jobs/resolve_target.h"
#include "onnx/importer.h"
#include "support/test_paths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace embark;

namespace {

QJsonObject readManifest(const QString& dir) {
    QFile f(dir + QStringLiteral("/export.json"));
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
}

QString libraryOf(const QJsonObject& manifest, const QString& node) {
    for (const QJsonValue& v : manifest["schedule"].toArray())
        if (v.toObject()["name"].toString() == node) return v.toObject()["lib"].toString();
    return {};
}

} // namespace

class TestExportJobPlan : public QObject {
    Q_OBJECT
    QTemporaryDir m_config;
    QTemporaryDir m_tmp;

    // Runs an export job to the end; its log.
    QStringList runExport(const jobs::ExportRequest& r) {
        jobs::JobQueue queue;
        auto job = jobs::makeExportJob(r);
        queue.enqueue(job);
        if (!queue.waitForIdle(120000)) return {"did not finish"};
        return job->state() == jobs::JobState::Succeeded ? job->log() : QStringList{"failed: " + job->message()};
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("EMBARK_CONFIG_DIR", m_config.path().toUtf8());
    }

    void writesTheGivenPlan() {
        const QString path = test::sourceDir() + QStringLiteral("/resources/models/digits_cnn.onnx");
        auto model = onnx::importModel(path.toStdString());
        QVERIFY2(model, model ? "" : model.error().message.c_str());
        auto graph = std::make_shared<const ir::Graph>(std::move(*model));

        // The plan shown: host, xnnpack, the first Conv overridden to portable.
        jobs::TargetRequest shownRequest;
        shownRequest.board = "host";
        shownRequest.library = "xnnpack";
        auto shownTarget = jobs::resolveTarget(shownRequest);
        QVERIFY2(shownTarget, shownTarget ? "" : shownTarget.error().message.c_str());
        auto plain = exporter::buildDeploymentPlan(*graph, exporter::planOptions(*shownTarget));
        QVERIFY2(plain, plain ? "" : plain.error().message.c_str());
        std::string conv;
        for (const ir::Node* n : (*plain)->passes.graph.nodes())
            if (conv.empty() && n->op == ir::OpKind::Conv) conv = n->name;
        QVERIFY(!conv.empty());
        QCOMPARE((*plain)->adaptation.nodes.at(conv).library, std::string("xnnpack"));
        shownTarget->nodeOverrides[conv] = "portable";
        auto shown = exporter::buildDeploymentPlan(*graph, exporter::planOptions(*shownTarget));
        QVERIFY2(shown, shown ? "" : shown.error().message.c_str());
        const std::shared_ptr<const exporter::DeploymentPlan> plan(std::move(*shown));

        // The request names no override: only the given plan has it.
        jobs::ExportRequest r;
        r.modelPath = path;
        r.graph = graph;
        r.boardId = "host";
        r.library = "xnnpack";
        r.plan = plan;
        r.outDir = m_tmp.filePath("given");
        const QStringList log = runExport(r);
        QVERIFY2(log.join('\n').contains("written as it is"), qPrintable(log.join('\n')));
        const QJsonObject written = readManifest(r.outDir);
        QCOMPARE(libraryOf(written, QString::fromStdString(conv)), QStringLiteral("portable"));
        QCOMPARE(written["memory"].toObject(), exporter::memoryPlanJson(plan->memory));
        QCOMPARE(written["fused_blocks"].toArray(), exporter::fusedBlocksJson(plan->fusedBlocks));
        QCOMPARE(written["schedule"].toArray().size(), qsizetype(plan->adaptation.graph.nodes().size()));

        // No plan given: the job plans from its request (no override).
        r.plan = nullptr;
        r.outDir = m_tmp.filePath("planned");
        const QStringList planned = runExport(r);
        QVERIFY2(!planned.join('\n').contains("written as it is") && !planned.join('\n').startsWith("failed"),
                 qPrintable(planned.join('\n')));
        QCOMPARE(libraryOf(readManifest(r.outDir), QString::fromStdString(conv)), QStringLiteral("xnnpack"));
    }
};

QTEST_GUILESS_MAIN(TestExportJobPlan)
#include "tst_export_job_plan.moc"
