#include "lava_client.h"

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSettings>
#include <QStandardPaths>
#include <QTimer>
#include <QUrlQuery>

namespace embark::deploy {

LavaClient::LavaClient(QUrl server, QByteArray token, int timeoutMs)
    : m_server(std::move(server)), m_token(std::move(token)), m_timeoutMs(timeoutMs) {
    QString path = m_server.path();
    while (path.endsWith('/')) path.chop(1);
    m_server.setPath(path);
}

QUrl LavaClient::jobPage(qint64 id) const {
    QUrl u = m_server;
    u.setPath(m_server.path() + QStringLiteral("/scheduler/job/%1").arg(id));
    return u;
}

Expected<LavaClient::Reply> LavaClient::request(const QByteArray& verb, const QString& path,
                                                const QByteArray& body) const {
    QUrl url = m_server;
    const int query = path.indexOf('?');
    url.setPath(m_server.path() + (query < 0 ? path : path.left(query)));
    if (query >= 0) url.setQuery(path.mid(query + 1));
    QNetworkAccessManager manager;
    QNetworkRequest req(url);
    req.setRawHeader("Authorization", "Token " + m_token);
    req.setRawHeader("Accept", "application/json");
    req.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::NoLessSafeRedirectPolicy);
    if (!body.isEmpty()) req.setHeader(QNetworkRequest::ContentTypeHeader, "application/json");
    QNetworkReply* reply = manager.sendCustomRequest(req, verb, body);
    QEventLoop loop;
    QTimer timer;
    timer.setSingleShot(true);
    bool timedOut = false;
    QObject::connect(&timer, &QTimer::timeout, &loop, [&] {
        timedOut = true;
        reply->abort();
    });
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    timer.start(m_timeoutMs);
    if (!reply->isFinished()) loop.exec();
    Reply r;
    r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    r.body = reply->readAll();
    const QNetworkReply::NetworkError netError = reply->error();
    const QString netMessage = reply->errorString();
    reply->deleteLater();
    if (timedOut)
        return makeError(ErrorKind::External, QStringLiteral("LAVA server %1 did not answer %2 %3 within %4 s")
                                                  .arg(m_server.toString(), QString::fromLatin1(verb), url.path())
                                                  .arg(m_timeoutMs / 1000)
                                                  .toStdString());
    if (r.status == 0 && netError != QNetworkReply::NoError)
        return makeError(ErrorKind::External,
                         QStringLiteral("cannot reach the LAVA server %1: %2 (check the board file's farm.lava URL "
                                        "and that the server runs)")
                             .arg(m_server.toString(), netMessage)
                             .toStdString());
    return r;
}

Error LavaClient::httpError(const QString& what, const Reply& reply) const {
    if (reply.status == 401 || reply.status == 403)
        return makeError(
            ErrorKind::External,
            QStringLiteral("LAVA server %1 refused the token (HTTP %2) while trying to %3: set a valid API "
                           "token for it with `embark-cli farm token %1` or $EMBARK_LAVA_TOKEN (LAVA's "
                           "web interface: API > Authentication Tokens)")
                .arg(m_server.toString())
                .arg(reply.status)
                .arg(what)
                .toStdString());
    QString detail = QString::fromUtf8(reply.body.left(400)).simplified();
    const QJsonDocument doc = QJsonDocument::fromJson(reply.body);
    if (doc.isObject()) {
        const QJsonObject o = doc.object();
        for (const char* key : {"message", "detail", "error"})
            if (o.contains(QLatin1String(key))) detail = o.value(QLatin1String(key)).toVariant().toString();
    }
    return makeError(ErrorKind::External, QStringLiteral("LAVA server %1 could not %2 (HTTP %3): %4")
                                              .arg(m_server.toString(), what)
                                              .arg(reply.status)
                                              .arg(detail)
                                              .toStdString());
}

Expected<qint64> LavaClient::submit(const QByteArray& definition) const {
    const QByteArray body =
        QJsonDocument(QJsonObject{{"definition", QString::fromUtf8(definition)}}).toJson(QJsonDocument::Compact);
    auto r = request("POST", "/api/v0.2/jobs/", body);
    if (!r) return r.error();
    if (r->status != 201 && r->status != 200) return httpError("submit a job", *r);
    const QJsonArray ids = QJsonDocument::fromJson(r->body).object().value("job_ids").toArray();
    if (ids.isEmpty())
        return makeError(ErrorKind::External,
                         QStringLiteral("LAVA server %1 accepted the job but returned no job id: %2")
                             .arg(m_server.toString(), QString::fromUtf8(r->body.left(200)))
                             .toStdString());
    return static_cast<qint64>(ids.first().toDouble());
}

Expected<LavaJob> LavaClient::job(qint64 id) const {
    auto r = request("GET", QStringLiteral("/api/v0.2/jobs/%1/").arg(id));
    if (!r) return r.error();
    if (r->status != 200) return httpError(QStringLiteral("read job %1").arg(id), *r);
    return parseLavaJob(r->body, id);
}

LavaJob parseLavaJob(const QByteArray& json, qint64 id) {
    const QJsonObject o = QJsonDocument::fromJson(json).object();
    LavaJob j;
    j.id = o.value("id").isDouble() ? static_cast<qint64>(o.value("id").toDouble()) : id;
    j.state = o.value("state").toString();
    j.health = o.value("health").toString();
    j.device = o.value("actual_device").toString();
    j.submitter = o.value("submitter").toString();
    j.failureComment = o.value("failure_comment").toString();
    return j;
}

Status LavaClient::cancel(qint64 id) const {
    auto r = request("GET", QStringLiteral("/api/v0.2/jobs/%1/cancel/").arg(id));
    if (!r) return r.error();
    if (r->status != 200) return httpError(QStringLiteral("cancel job %1").arg(id), *r);
    return {};
}

Expected<QByteArray> LavaClient::log(qint64 id) const {
    auto r = request("GET", QStringLiteral("/api/v0.2/jobs/%1/logs/").arg(id));
    if (!r) return r.error();
    if (r->status == 404) return QByteArray(); // no log yet
    if (r->status != 200) return httpError(QStringLiteral("fetch the log of job %1").arg(id), *r);
    return r->body;
}

Expected<std::vector<LavaDevice>> LavaClient::devices(const QString& deviceType) const {
    std::vector<LavaDevice> out;
    QString path = QStringLiteral("/api/v0.2/devices/?limit=500");
    if (!deviceType.isEmpty()) path += "&device_type=" + QString::fromLatin1(QUrl::toPercentEncoding(deviceType));
    auto r = request("GET", path);
    if (!r) return r.error();
    if (r->status != 200) return httpError("list the devices", *r);
    const QJsonDocument doc = QJsonDocument::fromJson(r->body);
    const QJsonArray rows = doc.isArray() ? doc.array() : doc.object().value("results").toArray();
    for (const QJsonValue& v : rows) {
        const QJsonObject o = v.toObject();
        LavaDevice d;
        d.hostname = o.value("hostname").toString();
        d.deviceType = o.value("device_type").toString();
        d.health = o.value("health").toString();
        d.state = o.value("state").toString();
        d.currentJob = static_cast<qint64>(o.value("current_job").toDouble());
        for (const QJsonValue& t : o.value("tags").toArray()) d.tags << t.toVariant().toString();
        out.push_back(d);
    }
    return out;
}

std::vector<LavaLogLine> parseLavaLog(const QByteArray& yaml) {
    // LAVA writes one flow mapping a line: - {"dt": "...", "lvl": "target", "msg": "..."}, in
    // JSON syntax, so each line is read as JSON.
    std::vector<LavaLogLine> out;
    for (const QByteArray& raw : yaml.split('\n')) {
        if (!raw.startsWith("- {")) continue;
        const QJsonDocument doc = QJsonDocument::fromJson(raw.mid(2));
        if (!doc.isObject()) continue;
        const QJsonObject o = doc.object();
        const QJsonValue msg = o.value("msg");
        LavaLogLine line;
        line.level = o.value("lvl").toString();
        line.message = msg.isString() ? msg.toString()
                                      : QString::fromUtf8(QJsonDocument(msg.toObject()).toJson(QJsonDocument::Compact));
        out.push_back(std::move(line));
    }
    return out;
}

QString lavaSettingsPath() {
    const QString env = qEnvironmentVariable("EMBARK_CONFIG_DIR");
    const QString base = env.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) : env;
    return base + "/farm.ini";
}

namespace {

QString tokenKey(const QUrl& server) {
    QString s = server.toString(QUrl::RemoveUserInfo);
    while (s.endsWith('/')) s.chop(1); // "http://lab:8000/" and "http://lab:8000" are one server
    return "tokens/" + QString::fromLatin1(QUrl::toPercentEncoding(s));
}

} // namespace

QByteArray lavaToken(const QUrl& server) {
    const QByteArray env = qgetenv("EMBARK_LAVA_TOKEN");
    if (!env.isEmpty()) return env;
    if (!QFileInfo::exists(lavaSettingsPath())) return {};
    QSettings settings(lavaSettingsPath(), QSettings::IniFormat);
    return settings.value(tokenKey(server)).toString().toUtf8();
}

Status saveLavaToken(const QUrl& server, const QByteArray& token) {
    const QString path = lavaSettingsPath();
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return makeError(ErrorKind::External, ("cannot create the settings folder of " + path).toStdString());
    {
        // Created private before the token goes in.
        QFile f(path);
        if (!f.exists() && !f.open(QIODevice::WriteOnly))
            return makeError(ErrorKind::External, ("cannot write " + path + ": " + f.errorString()).toStdString());
        f.close();
        f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    }
    QSettings settings(path, QSettings::IniFormat);
    settings.setValue(tokenKey(server), QString::fromUtf8(token));
    settings.sync();
    if (settings.status() != QSettings::NoError)
        return makeError(ErrorKind::External, ("cannot save the token in " + path).toStdString());
    QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return {};
}

} // namespace embark::deploy
