// The studio's settings file (ui/settings/settings_file): values of every kind the studio keeps
// round-trip; a write that fails half-way (RLIMIT_FSIZE, as a full disk) keeps the old file and
// says so through status(), which Qt 6.4's own INI format does not; an unreadable file gives the
// defaults and is replaced on the next save; an older INI settings file is imported once.
#include "settings/settings_file.h"
#include "support/file_size_limit.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QRect>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace embark;

namespace {

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeAll(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

} // namespace

class TestSettingsFile : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;

    QString path(const QString& name) const { return m_tmp.path() + "/" + name; }

private slots:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }

    void valuesRoundTrip() {
        const QString file = path("roundtrip.json");
        const QByteArray geometry("\x01\xd9\xd0\xcb\x00\x03\x00\x00", 8);
        {
            QSettings s(file, ui::settingsFormat());
            s.setValue("recentFiles", QStringList{"/models/a b.onnx", "/models/é.onnx"});
            s.setValue("bench/iterations", 25);
            s.setValue("bench/big", qint64(1) << 40);
            s.setValue("ratio", 0.25);
            s.setValue("flag", true);
            s.setValue("language", "zh_CN");
            s.setValue("geometry", geometry);
            s.setValue("rect", QRect(1, 2, 3, 4));
            s.sync();
            QCOMPARE(s.status(), QSettings::NoError);
        }
        const QByteArray text = readAll(file);
        QVERIFY2(text.contains("\"bench/iterations\": 25") && text.contains("\"language\": \"zh_CN\""),
                 text.constData());
        QSettings s(file, ui::settingsFormat());
        QCOMPARE(s.status(), QSettings::NoError);
        QCOMPARE(s.value("recentFiles").toStringList(), (QStringList{"/models/a b.onnx", "/models/é.onnx"}));
        QCOMPARE(s.value("bench/iterations").toInt(), 25);
        QCOMPARE(s.value("bench/big").toLongLong(), qint64(1) << 40);
        QCOMPARE(s.value("ratio").toDouble(), 0.25);
        QCOMPARE(s.value("flag").toBool(), true);
        QCOMPARE(s.value("language").toString(), QStringLiteral("zh_CN"));
        QCOMPARE(s.value("geometry").toByteArray(), geometry);
        QCOMPARE(s.value("rect").toRect(), QRect(1, 2, 3, 4));
        s.beginGroup("bench");
        QCOMPARE(s.childKeys(), (QStringList{"big", "iterations"}));
    }

    // A full disk while saving: the old file stays, nothing temporary is left, status() says so.
    void failedWriteKeepsTheOldFile() {
        QVERIFY(QDir().mkpath(path("full")));
        const QString file = path("full/embark.json");
        {
            QSettings s(file, ui::settingsFormat());
            s.setValue("recentFiles", QStringList{"/models/a.onnx"});
            s.sync();
            QCOMPARE(s.status(), QSettings::NoError);
        }
        const QByteArray before = readAll(file);
        QVERIFY(before.contains("a.onnx"));
        {
            test::FileSizeLimit limit(200); // room for QSettings' lock file, not for the new settings
            QVERIFY(limit.ok());
            QSettings s(file, ui::settingsFormat());
            s.setValue("recentFiles", QStringList{"/models/" + QString(500, 'b') + ".onnx"});
            s.sync();
            QCOMPARE(s.status(), QSettings::AccessError);
        }
        QCOMPARE(readAll(file), before);
        QCOMPARE(QDir(path("full")).entryList(QDir::Files | QDir::Hidden), QStringList{"embark.json"});
        // Room again: the next save goes through.
        QSettings s(file, ui::settingsFormat());
        s.setValue("recentFiles", QStringList{"/models/c.onnx"});
        s.sync();
        QCOMPARE(s.status(), QSettings::NoError);
        QVERIFY(readAll(file).contains("c.onnx"));
    }

    void unreadableFileGivesDefaults_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::newRow("truncated") << QByteArray("{\"recentFiles\": [\"/models/a.on");
        QTest::newRow("not an object") << QByteArray("[1, 2]");
        QTest::newRow("binary") << QByteArray("\x00\xff\xfe garbage", 11);
        QTest::newRow("bad variant") << QByteArray("{\"geometry\": {\"qvariant\": \"!!!\"}, \"language\": \"fr\"}");
    }

    void unreadableFileGivesDefaults() {
        QFETCH(QByteArray, content);
        const QString file = path(QStringLiteral("bad-%1.json").arg(QTest::currentDataTag()).replace(' ', '-'));
        QVERIFY(writeAll(file, content));
        {
            QSettings s(file, ui::settingsFormat());
            QCOMPARE(s.value("bench/iterations", 10).toInt(), 10);
            QVERIFY(!s.value("geometry").isValid());
            s.setValue("bench/iterations", 12);
            s.sync();
        }
        QSettings s(file, ui::settingsFormat());
        QCOMPARE(s.status(), QSettings::NoError);
        QCOMPARE(s.value("bench/iterations").toInt(), 12);
    }

    // Numbers beyond int64 (hand-edited files) stay doubles; integers come back as int.
    void numbersOfEverySize() {
        const QString file = path("numbers.json");
        QVERIFY(writeAll(file, "{\"huge\": 1e300, \"big\": 4294967296, \"small\": -7, \"half\": 0.5}"));
        QSettings s(file, ui::settingsFormat());
        QCOMPARE(s.status(), QSettings::NoError);
        QCOMPARE(s.value("huge").typeId(), int(QMetaType::Double));
        QCOMPARE(s.value("huge").toDouble(), 1e300);
        QCOMPARE(s.value("big").toLongLong(), qint64(4294967296));
        QCOMPARE(s.value("small").typeId(), int(QMetaType::Int));
        QCOMPARE(s.value("small").toInt(), -7);
        QCOMPARE(s.value("half").toDouble(), 0.5);
    }

    // The studio's start-up: QSettings() uses the format, and an older INI file is imported once.
    void installImportsTheOldIniFile() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("EmbarkTest");
        QCoreApplication::setApplicationName("embark-settings-test");
        const QString dir = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) + "/EmbarkTest";
        QDir(dir).removeRecursively();
        {
            QSettings ini(dir + "/embark-settings-test.conf", QSettings::IniFormat);
            ini.setValue("language", "fr");
            ini.setValue("recentFiles", QStringList{"/models/old.onnx"});
        }
        ui::installSettingsFormat();
        QSettings s;
        QCOMPARE(s.format(), ui::settingsFormat());
        QCOMPARE(s.fileName(), dir + "/embark-settings-test.json");
        QCOMPARE(s.value("language").toString(), QStringLiteral("fr"));
        QCOMPARE(s.value("recentFiles").toStringList(), QStringList{"/models/old.onnx"});
        s.setValue("language", "zh_CN");
        s.sync();
        ui::installSettingsFormat(); // a second start does not import again
        QCOMPARE(QSettings().value("language").toString(), QStringLiteral("zh_CN"));
        QDir(dir).removeRecursively();
    }
};

QTEST_GUILESS_MAIN(TestSettingsFile)
#include "tst_settings_file.moc"
