// A real LAVA instance for the farm tests (scripts/lava-fixture.sh): PostgreSQL, lava-server,
// the scheduler and one lava-worker on 127.0.0.1, with `count` devices of type `ssh`, each a
// local sshd (SshdFixture) on its own port. Started once per suite, stopped on destruction
// (and by the script's watchdog when the test process dies).
#pragma once

#include "sshd_fixture.h"

#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>
#include <vector>

namespace embark::test {

class LavaFixture {
public:
    LavaFixture();
    ~LavaFixture();
    LavaFixture(const LavaFixture&) = delete;
    LavaFixture& operator=(const LavaFixture&) = delete;

    // Starts everything; false with `error` set on failure, and `skipped` true when the
    // packages are not installed (the caller QSKIPs with `error`).
    bool start(int devices, QString* error, bool* skipped);
    void stop();

    QString url() const { return m_url; }
    QByteArray token() const { return m_token; }
    QString dir() const { return m_dir.path(); }
    QStringList deviceNames() const;
    SshdFixture& sshd(int device) { return *m_sshd[static_cast<size_t>(device)]; }
    qint64 startMs() const { return m_startMs; }

    // Admin operations through the REST API with the fixture's (superuser) token.
    bool setDeviceHealth(const QString& device, const QString& health, QString* error);
    // Removes what LAVA's jobs left on this computer (the test devices are this computer):
    // /lava-<job id> and its overlay tarball.
    static void removeJobLeftovers(qint64 jobId);

private:
    QTemporaryDir m_dir;
    std::vector<std::unique_ptr<SshdFixture>> m_sshd;
    QString m_url;
    QByteArray m_token;
    bool m_started = false;
    qint64 m_startMs = 0;
};

} // namespace embark::test
