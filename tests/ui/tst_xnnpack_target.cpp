// The target panel says which XNNPACK an export links; with none for the board, its
// "Build XNNPACK for <arch>..." button asks StudioJobs for a background build job whose log,
// failure and (with a tree in the cache) the session's re-adaptation the studio shows.
#include "jobs/studio_jobs.h"
#include "mainwindow/mainwindow.h"
#include "session/studio_session.h"
#include "support/test_paths.h"
#include "targetpanel/target_panel.h"
#include "xnnpack/xnnpack_resolve.h"

#include "jobs/job_queue.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace embark;

class TestXnnpackTarget : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("EMBARK_CONFIG_DIR", QFile::encodeName(m_tmp.path() + "/config"));
        qputenv("EMBARK_XNNPACK_CACHE", QFile::encodeName(m_tmp.path() + "/cache"));
        qunsetenv("XNNPACK_ROOT");
    }

    void buildButtonWhenTheBoardHasNoXnnpack() {
        ui::MainWindow window;
        ui::StudioSession* session = window.session();
        QVERIFY(window.openModel(test::sourceDir() + "/resources/models/digits_cnn.onnx", true));
        session->setBoard("sim-k230");
        session->setLibrary("xnnpack");
        ui::TargetPanel* panel = window.target();
        QVERIFY(panel->xnnpackLine()->isVisibleTo(panel));
        QVERIFY2(panel->xnnpackLine()->text().contains("embark-cli xnnpack build --arch riscv64"),
                 qPrintable(panel->xnnpackLine()->text()));
        QVERIFY(panel->buildXnnpackButton()->isVisibleTo(panel));
        QCOMPARE(panel->buildXnnpackButton()->text(), QString("Build XNNPACK for riscv64..."));
        QVERIFY(session->assignments().empty());

        QSignalSpy asked(panel, &ui::TargetPanel::buildXnnpackRequested);
        QSignalSpy queued(window.jobs()->queue(), &jobs::JobQueue::queued);
        // The button's own slot opens a folder dialog: the test presses through the signal it
        // emits and queues with a folder whose cpuinfo is at another commit (refused, fast).
        disconnect(panel, &ui::TargetPanel::buildXnnpackRequested, window.jobs(),
                   &ui::StudioJobs::buildXnnpackWithDialog);
        panel->buildXnnpackButton()->click();
        QCOMPARE(asked.count(), 1);
        QCOMPARE(asked.first().first().toString(), QString("riscv64"));

        const QString shared = (embark::test::sharedDir() + "/xnnpack/src");
        if (!QFileInfo::exists(shared + "/XNNPACK-fb000666.tar.gz")) QSKIP("../shared/xnnpack/src is absent");
        const QString wrong = m_tmp.path() + "/wrong";
        QVERIFY(QDir().mkpath(wrong));
        for (const char* t : {"XNNPACK-fb000666.tar.gz", "pthreadpool-0e6ca13.tar.gz", "FXdiv-b408327.tar.gz"})
            QVERIFY(QFile::link(shared + "/" + t, wrong + "/" + t));
        QVERIFY(QFile::link(shared + "/cpuinfo-f9a0324.tar.gz", wrong + "/cpuinfo-d610881.tar.gz"));
        const int id = window.jobs()->buildXnnpack("riscv64", wrong);
        QVERIFY(id > 0);
        QCOMPARE(queued.count(), 1);
        QVERIFY(window.jobs()->queue()->waitForIdle(120000));
        auto job = window.jobs()->queue()->job(id);
        QCOMPARE(job->state(), jobs::JobState::Failed);
        QVERIFY2(job->message().contains("d610881"), qPrintable(job->message()));
        QVERIFY(!job->log().isEmpty()); // the unpack step's lines
        QVERIFY(panel->buildXnnpackButton()->isVisibleTo(panel));
    }

    // A tree in the cache (the shared prebuilt one, with a manifest) is what the panel then
    // shows, and the session assigns XNNPACK again.
    void lineNamesTheCachedTree() {
        const QString prebuilt = (embark::test::sharedDir() + "/xnnpack/prebuilt/riscv64");
        if (!QFileInfo::exists(prebuilt + "/include/xnnpack.h")) QSKIP("../shared/xnnpack/prebuilt is absent");
        ui::MainWindow window;
        ui::StudioSession* session = window.session();
        QVERIFY(window.openModel(test::sourceDir() + "/resources/models/digits_cnn.onnx", true));
        session->setBoard("sim-k230");
        session->setLibrary("xnnpack");
        QVERIFY(session->assignments().empty());
        const QString entry = m_tmp.path() + "/cache/riscv64-fb000666d5c2-0123abcd";
        QVERIFY(QDir().mkpath(m_tmp.path() + "/cache"));
        QCOMPARE(QProcess::execute("cp", {"-r", prebuilt, entry}), 0);
        xnnpack::XnnpackManifest m;
        m.arch = "riscv64";
        m.xnnpackCommit = xnnpack::kPinnedXnnpackCommit;
        m.rvv = true;
        QFile f(entry + "/" + xnnpack::kManifestName);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(m.toJson()).toJson());
        f.close();
        session->setLibrary("portable"); // what StudioJobs does when a build job succeeds
        session->setLibrary("xnnpack");
        ui::TargetPanel* panel = window.target();
        QVERIFY2(panel->xnnpackLine()->text().contains("Embark-built upstream XNNPACK fb000666d5c2"),
                 qPrintable(panel->xnnpackLine()->text()));
        QVERIFY(!panel->buildXnnpackButton()->isVisibleTo(panel));
        QVERIFY(!session->assignments().empty());
        session->setLibrary("portable");
        QVERIFY(!panel->xnnpackLine()->isVisibleTo(panel));
    }
};

QTEST_MAIN(TestXnnpackTarget)
#include "tst_xnnpack_target.moc"
