// The studio's Farm dock (issue 35): each farm device's state as a team reads it, polled on a
// worker thread so the window never waits for LAVA; a server that cannot be reached is an
// "offline" row naming it. The devices of a real LAVA instance are tests/jobs/tst_farm's.
#include "farm/farm_devices_panel.h"

#include <QSignalSpy>
#include <QTableWidget>
#include <QTcpServer>
#include <QTest>

using namespace embark;

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
