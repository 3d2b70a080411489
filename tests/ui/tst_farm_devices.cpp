// The studio's Farm dock (issue 35): each farm device's state as a team reads it, polled on a
// worker thread so the window never waits for LAVA; a server that cannot be reached is an
// "offline" row naming it. The devices of a real LAVA instance are tests/jobs/tst_farm's.
#include "farm/farm_devices_panel.h"

#include <QSignalSpy>
#include <QTableWidget>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <map>

using namespace embark;

namespace {

// A LAVA server reduced to recorded REST replies (LAVA 2023.01's v0.2 serializers): GET of a
// known path answers its JSON, anything else 404. It runs on the test's thread; the panel's
// worker thread asks it.
class RecordedLava : public QTcpServer {
public:
    std::map<QByteArray, QByteArray> replies; // path without the query -> JSON body
    QList<QByteArray> asked;

    RecordedLava() {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* socket = nextPendingConnection()) {
                connect(socket, &QTcpSocket::readyRead, socket, [this, socket] {
                    const QByteArray request = socket->peek(socket->bytesAvailable());
                    if (!request.contains("\r\n\r\n")) return; // the headers are not all in yet
                    socket->readAll();
                    QByteArray path = request.split(' ').value(1);
                    path = path.left(path.indexOf('?') < 0 ? path.size() : path.indexOf('?'));
                    asked << path;
                    const auto it = replies.find(path);
                    const QByteArray body =
                        it == replies.end() ? QByteArray("{\"detail\":\"Not found.\"}") : it->second;
                    socket->write(
                        (it == replies.end() ? "HTTP/1.1 404 Not Found\r\n" : "HTTP/1.1 200 OK\r\n") +
                        QByteArray("Content-Type: application/json\r\nConnection: close\r\nContent-Length: ") +
                        QByteArray::number(body.size()) + "\r\n\r\n" + body);
                    socket->disconnectFromHost();
                });
                connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
    }
};

// GET /api/v0.2/jobs/42/ as LAVA 2023.01 answers it (definition shortened).
const char* kRecordedJob42 =
    R"({"id":42,"submitter":"alice","viewing_groups":[],"description":"embark digits_cnn on k1",
"health_check":false,"requested_device_type":"spacemit-k1","tags":[],"actual_device":"k1-a",
"submit_time":"2026-12-06T14:02:11.514208Z","start_time":"2026-12-06T14:02:13.090112Z","end_time":null,
"state":"Running","health":"Unknown","priority":50,"definition":"job_name: embark digits_cnn on k1\n",
"original_definition":"job_name: embark digits_cnn on k1\n","multinode_definition":"","failure_tags":[],
"failure_comment":null})";

} // namespace

class TestFarmDevices : public QObject {
    Q_OBJECT

private slots:
    void deviceStatus_data() {
        QTest::addColumn<QString>("health");
        QTest::addColumn<QString>("state");
        QTest::addColumn<qint64>("job");
        QTest::addColumn<QString>("status");
        QTest::newRow("idle") << "Good"
                              << "Idle" << qint64(0) << "idle";
        QTest::newRow("running") << "Good"
                                 << "Running" << qint64(42) << "running job 42";
        QTest::newRow("reserved") << "Unknown"
                                  << "Reserved" << qint64(7) << "reserved for job 7";
        QTest::newRow("bad") << "Bad"
                             << "Idle" << qint64(0) << "bad";
        QTest::newRow("looping") << "Looping"
                                 << "Running" << qint64(3) << "bad";
        QTest::newRow("maintenance") << "Maintenance"
                                     << "Idle" << qint64(0) << "offline";
        QTest::newRow("retired") << "Retired"
                                 << "Idle" << qint64(0) << "offline";
    }
    void deviceStatus() {
        QFETCH(QString, health);
        QFETCH(QString, state);
        QFETCH(qint64, job);
        QFETCH(QString, status);
        deploy::LavaDevice d;
        d.hostname = "k1-a";
        d.health = health;
        d.state = state;
        d.currentJob = job;
        QCOMPARE(ui::FarmDevicesPanel::deviceStatus(d), status);
    }

    void deviceStatusNamesTheSubmitter() {
        deploy::LavaDevice d;
        d.health = "Good";
        d.state = "Running";
        d.currentJob = 42;
        QCOMPARE(ui::FarmDevicesPanel::deviceStatus(d, "alice"), QString("running job 42 for alice"));
        d.state = "Reserved";
        QCOMPARE(ui::FarmDevicesPanel::deviceStatus(d, "bob"), QString("reserved for job 42 of bob"));
        d.state = "Idle";
        d.currentJob = 0;
        QCOMPARE(ui::FarmDevicesPanel::deviceStatus(d, "alice"), QString("idle"));
    }

    void recordedJobReplyNamesItsSubmitter() {
        const deploy::LavaJob job = deploy::parseLavaJob(kRecordedJob42, 0);
        QCOMPARE(job.id, qint64(42));
        QCOMPARE(job.submitter, QString("alice"));
        QCOMPARE(job.device, QString("k1-a"));
        QCOMPARE(job.state, QString("Running"));
        QVERIFY(!job.finished() && !job.queued());
        QVERIFY(deploy::parseLavaJob("{}", 7).submitter.isEmpty());
        QCOMPARE(deploy::parseLavaJob("not json", 7).id, qint64(7));
    }

    // The device list showed "running job 42": whose job it is matters on a shared shelf. The
    // running device's row names the submitter, asked once per job; an idle one asks nothing.
    void runningDeviceShowsWhoSubmittedItsJob() {
        RecordedLava lava;
        lava.replies["/api/v0.2/devices/"] =
            R"({"count":3,"next":null,"previous":null,"results":[)"
            R"({"hostname":"k1-a","device_type":"spacemit-k1","device_version":"","physical_owner":null,)"
            R"("physical_group":null,"description":"","tags":[],"state":"Running","health":"Good","last_health_report_job":null,)"
            R"("worker_host":"worker0","is_synced":true,"current_job":42},)"
            R"({"hostname":"k1-b","device_type":"spacemit-k1","device_version":"","physical_owner":null,)"
            R"("physical_group":null,"description":"","tags":[],"state":"Idle","health":"Good","last_health_report_job":null,)"
            R"("worker_host":"worker0","is_synced":true,"current_job":null},)"
            R"({"hostname":"k1-c","device_type":"spacemit-k1","device_version":"","physical_owner":null,)"
            R"("physical_group":null,"description":"","tags":[],"state":"Running","health":"Good","last_health_report_job":null,)"
            R"("worker_host":"worker0","is_synced":true,"current_job":43}]})";
        lava.replies["/api/v0.2/jobs/42/"] = kRecordedJob42; // job 43 is not visible: 404
        QVERIFY(lava.listen(QHostAddress::LocalHost));
        targets::Board board;
        board.id = "k1-farm";
        board.runner.kind = targets::BoardRunner::Kind::Farm;
        board.farm = targets::BoardFarm{};
        board.farm->lava = QStringLiteral("http://127.0.0.1:%1").arg(lava.serverPort());
        board.farm->deviceType = "spacemit-k1";
        ui::FarmDevicesPanel panel;
        panel.setPollInterval(0);
        panel.setBoards({board});
        QSignalSpy refreshed(&panel, &ui::FarmDevicesPanel::refreshed);
        panel.refresh();
        QVERIFY(refreshed.wait(30000));
        QCOMPARE(int(panel.rows().size()), 3);
        QCOMPARE(panel.rows()[0].submitter, QString("alice"));
        QCOMPARE(panel.rows()[0].status, QString("running job 42 for alice"));
        QCOMPARE(panel.table()->item(0, 2)->text(), QString("running job 42 for alice"));
        QCOMPARE(panel.rows()[1].status, QString("idle"));
        QVERIFY(panel.rows()[1].submitter.isEmpty());
        QCOMPARE(panel.rows()[2].status, QString("running job 43")); // the job could not be read
        QCOMPARE(lava.asked.count("/api/v0.2/jobs/42/"), 1);
        QCOMPARE(lava.asked.count("/api/v0.2/jobs/43/"), 1);
        QCOMPARE(int(lava.asked.size()), 3);
    }

    void unreachableServerIsOffline() {
        // A port nothing listens on: connections are refused.
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        const quint16 port = probe.serverPort();
        probe.close();
        targets::Board board;
        board.id = "k1-farm";
        board.runner.kind = targets::BoardRunner::Kind::Farm;
        board.farm = targets::BoardFarm{};
        board.farm->lava = QStringLiteral("http://127.0.0.1:%1").arg(port);
        board.farm->deviceType = "spacemit-k1";
        targets::Board local;
        local.id = "host"; // not a farm board: not listed
        ui::FarmDevicesPanel panel;
        panel.setPollInterval(0);
        panel.setBoards({board, local});
        QSignalSpy refreshed(&panel, &ui::FarmDevicesPanel::refreshed);
        panel.refresh();
        QVERIFY(panel.rows().empty()); // the answer comes later, never inside refresh()
        QVERIFY(refreshed.wait(30000));
        QCOMPARE(int(panel.rows().size()), 1);
        const ui::FarmDeviceRow& row = panel.rows().front();
        QCOMPARE(row.board, QString("k1-farm"));
        QCOMPARE(row.status, QString("offline"));
        QVERIFY2(row.detail.contains(board.farm->lava), qPrintable(row.detail));
        QCOMPARE(panel.table()->rowCount(), 1);
        QCOMPARE(panel.table()->item(0, 2)->text(), QString("offline"));
    }
};

QTEST_MAIN(TestFarmDevices)
#include "tst_farm_devices.moc"
