#include "lava_fixture.h"
#include "test_paths.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

namespace embark::test {

namespace {

QString fixtureScript() { return sourceDir() + "/scripts/lava-fixture.sh"; }

} // namespace

LavaFixture::LavaFixture() = default;

LavaFixture::~LavaFixture() { stop(); }

QStringList LavaFixture::deviceNames() const {
    QStringList names;
    for (size_t i = 0; i < m_sshd.size(); ++i) names << QStringLiteral("embark-dev%1").arg(i + 1);
    return names;
}

bool LavaFixture::start(int devices, QString* error, bool* skipped) {
    *skipped = false;
    QElapsedTimer timer;
    timer.start();
    QStringList args{"start", dir() + "/lava", "--parent", QString::number(QCoreApplication::applicationPid())};
    for (int i = 0; i < devices; ++i) {
        auto sshd = std::make_unique<SshdFixture>();
        if (!sshd->start(error)) {
            *skipped = true;
            return false;
        }
        args << "--device"
             << QStringLiteral("embark-dev%1:%2:%3:%4")
                    .arg(i + 1)
                    .arg(sshd->port())
                    .arg(sshd->user(), sshd->clientKey());
        m_sshd.push_back(std::move(sshd));
    }
    QProcess p;
    p.start("bash", QStringList{fixtureScript()} + args);
    if (!p.waitForFinished(300000)) {
        p.kill();
        *error = "scripts/lava-fixture.sh did not finish within 300 s";
        return false;
    }
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    const QString err = QString::fromUtf8(p.readAllStandardError()).trimmed();
    if (p.exitCode() == 77) {
        *skipped = true;
        *error = err;
        return false;
    }
    m_started = true; // something may be running: stop() cleans up
    for (const QString& line : out.split('\n')) {
        if (line.startsWith("URL=")) m_url = line.mid(4);
        if (line.startsWith("TOKEN=")) m_token = line.mid(6).toUtf8();
    }
    if (p.exitCode() != 0 || m_url.isEmpty() || m_token.isEmpty()) {
        *error = "scripts/lava-fixture.sh failed (exit " + QString::number(p.exitCode()) + "): " + err;
        return false;
    }
    m_startMs = timer.elapsed();
    return true;
}

void LavaFixture::stop() {
    if (!m_started) return;
    QProcess::execute("bash", {fixtureScript(), "stop", dir() + "/lava"});
    m_started = false;
    for (auto& s : m_sshd) s->stop();
}

bool LavaFixture::setDeviceHealth(const QString& device, const QString& health, QString* error) {
    QProcess p;
    const QByteArray body = QJsonDocument(QJsonObject{{"health", health}}).toJson(QJsonDocument::Compact);
    p.start("curl", {"-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "PATCH", "-H",
                     "Authorization: Token " + m_token, "-H", "Content-Type: application/json", "--data",
                     QString::fromUtf8(body), m_url + "/api/v0.2/devices/" + device + "/"});
    p.waitForFinished(60000);
    const QString code = QString::fromLatin1(p.readAllStandardOutput()).trimmed();
    if (code != "200") {
        *error = "setting the health of " + device + " answered HTTP " + code;
        return false;
    }
    return true;
}

void LavaFixture::removeJobLeftovers(qint64 jobId) {
    if (jobId <= 0) return;
    QDir(QStringLiteral("/lava-%1").arg(jobId)).removeRecursively();
    const QStringList tars = QDir("/").entryList({QStringLiteral("lava-%1-overlay*").arg(jobId)}, QDir::Files);
    for (const QString& t : tars) QFile::remove("/" + t);
}

} // namespace embark::test
