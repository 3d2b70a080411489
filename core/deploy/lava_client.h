// A client of a LAVA instance's REST API (v0.2) for boards in a farm: submit a job, follow its
// state, cancel it, fetch its log, list devices with their health and state. Calls block on
// the caller's (job) thread with a local event loop; the token goes in the "Authorization:
// Token ..." header and never into messages or logs.
#pragma once

#include "ir/error.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <vector>

namespace embark::deploy {

struct LavaDevice {
    QString hostname;
    QString deviceType;
    QString health; // Good, Unknown, Looping, Bad, Maintenance, Retired
    QString state;  // Idle, Reserved, Running
    qint64 currentJob = 0;
    QStringList tags;
    bool usable() const { return health == QLatin1String("Good") || health == QLatin1String("Unknown"); }
};

struct LavaJob {
    qint64 id = 0;
    QString state;     // Submitted, Scheduling, Scheduled, Running, Canceling, Finished
    QString health;    // Unknown, Complete, Incomplete, Canceled
    QString device;    // the device it runs or ran on (empty while queued)
    QString submitter; // the LAVA user who submitted it
    QString failureComment;
    bool finished() const { return state == QLatin1String("Finished"); }
    bool queued() const {
        return state == QLatin1String("Submitted") || state == QLatin1String("Scheduling") ||
               state == QLatin1String("Scheduled");
    }
};

// One line of a job's log (the YAML list LAVA stores): level ("target", "info", "results", ...)
// and message (a string; a results entry's message is kept as its JSON text).
struct LavaLogLine {
    QString level;
    QString message;
};

class LavaClient {
public:
    // `server`: the instance's root ("http://lab:8000"); `token`: the user's API token.
    LavaClient(QUrl server, QByteArray token, int timeoutMs = 30000);

    Expected<qint64> submit(const QByteArray& definition) const;
    Expected<LavaJob> job(qint64 id) const;
    Status cancel(qint64 id) const;
    Expected<QByteArray> log(qint64 id) const; // the raw YAML log
    Expected<std::vector<LavaDevice>> devices(const QString& deviceType = {}) const;

    // The job's page in LAVA's web interface.
    QUrl jobPage(qint64 id) const;
    const QUrl& server() const { return m_server; }

private:
    struct Reply {
        int status = 0;
        QByteArray body;
    };
    Expected<Reply> request(const QByteArray& verb, const QString& path, const QByteArray& body = {}) const;
    Error httpError(const QString& what, const Reply& reply) const;

    QUrl m_server;
    QByteArray m_token;
    int m_timeoutMs;
};

// A job as LAVA's REST API (v0.2, GET /api/v0.2/jobs/ID/) describes it; `id` when the reply
// has none.
LavaJob parseLavaJob(const QByteArray& json, qint64 id);

// The lines of a LAVA YAML log; malformed lines are skipped.
std::vector<LavaLogLine> parseLavaLog(const QByteArray& yaml);

// The user's token for a LAVA instance: $EMBARK_LAVA_TOKEN, else the user's settings
// (<config>/farm.ini, [tokens], keyed by the server URL; written with mode 0600). Empty
// when there is none.
QByteArray lavaToken(const QUrl& server);
Status saveLavaToken(const QUrl& server, const QByteArray& token);
QString lavaSettingsPath();

} // namespace embark::deploy
