// `embark-cli farm token|devices`: store the user's API token for a LAVA instance (in the
// user's settings, never in a board file) and list a farm board's devices with their health
// and state.
#include "commands.h"
#include "model_args.h"

#include "deploy/lava_client.h"
#include "targets/board.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>

#include <cstdio>

namespace embark::cli {
namespace {

int farmToken(const QStringList& args, Io& io) {
    QCommandLineParser parser;
    parser.setApplicationDescription("Store the API token for a LAVA server in the user's settings (read from "
                                     "--token-file, else the first line of standard input).");
    parser.addPositionalArgument("URL", "The LAVA server, as the board files' farm.lava names it.");
    parser.addOption({"token-file", "Read the token from this file.", "FILE"});
    if (int rc = parseOrExit(parser, args, io, "farm token URL [--token-file FILE]", 1, 1); rc >= 0) return rc;
    const QUrl url(parser.positionalArguments().first(), QUrl::StrictMode);
    if (!url.isValid() || (url.scheme() != "http" && url.scheme() != "https"))
        return usage(io, "farm token needs the LAVA server's http:// or https:// URL");
    QByteArray token;
    if (parser.isSet("token-file")) {
        QFile f(parser.value("token-file"));
        if (!f.open(QIODevice::ReadOnly))
            return fail(io, makeError(ErrorKind::Usage,
                                      ("cannot read " + f.fileName() + ": " + f.errorString()).toStdString()));
        token = f.readLine().trimmed();
    } else {
        QFile in;
        if (in.open(stdin, QIODevice::ReadOnly)) token = in.readLine().trimmed();
    }
    if (token.isEmpty()) return usage(io, "farm token read an empty token");
    QString server = url.toString();
    while (server.endsWith('/')) server.chop(1);
    if (Status s = deploy::saveLavaToken(QUrl(server), token); !s) return fail(io, s.error());
    io.out << "Stored the token for " << server << " in " << deploy::lavaSettingsPath() << "\n";
    return 0;
}

int farmDevices(const QStringList& args, Io& io) {
    QCommandLineParser parser;
    parser.setApplicationDescription("List the LAVA devices of a farm board with their health and state.");
    parser.addPositionalArgument("BOARD", "A board whose file has a \"farm\" object.");
    parser.addOption({"json", "Print one JSON object."});
    if (int rc = parseOrExit(parser, args, io, "farm devices BOARD [--json]", 1, 1); rc >= 0) return rc;
    auto board = targets::findBoard(parser.positionalArguments().first());
    if (!board) return fail(io, board.error());
    if (!board->farm) return usage(io, "board '" + board->id + "' is not in a farm (its file has no \"farm\" object)");
    const QUrl server(board->farm->lava);
    const QByteArray token = deploy::lavaToken(server);
    if (token.isEmpty())
        return fail(io,
                    makeError(ErrorKind::Usage, ("no API token for " + board->farm->lava +
                                                 ": store one with `embark-cli farm token " + board->farm->lava + "`")
                                                    .toStdString()));
    deploy::LavaClient client(server, token);
    auto devices = client.devices(board->farm->deviceType);
    if (!devices) return fail(io, devices.error());
    QJsonArray rows;
    for (const deploy::LavaDevice& d : *devices) {
        bool tagged = true;
        for (const QString& t : board->farm->tags) tagged = tagged && d.tags.contains(t);
        if (!tagged) continue;
        rows.append(QJsonObject{{"device", d.hostname},
                                {"health", d.health},
                                {"state", d.state},
                                {"job", d.currentJob ? QJsonValue(d.currentJob) : QJsonValue()}});
    }
    if (parser.isSet("json")) {
        io.out << QJsonDocument(QJsonObject{{"board", board->id},
                                            {"lava", board->farm->lava},
                                            {"device_type", board->farm->deviceType},
                                            {"devices", rows}})
                      .toJson(QJsonDocument::Indented);
        return 0;
    }
    io.out << board->id << ": " << rows.size() << " device(s) of type " << board->farm->deviceType << " on "
           << board->farm->lava << "\n";
    for (const QJsonValue& v : rows) {
        const QJsonObject o = v.toObject();
        io.out << "  " << o["device"].toString().leftJustified(20) << " " << o["health"].toString().leftJustified(12)
               << " " << o["state"].toString();
        if (!o["job"].isNull()) io.out << " job " << QString::number(static_cast<qint64>(o["job"].toDouble()));
        io.out << "\n";
    }
    return 0;
}

} // namespace

int cmdFarm(const QStringList& args, Io& io) {
    const QString sub = args.value(0);
    if (sub == "token") return farmToken(args.mid(1), io);
    if (sub == "devices") return farmDevices(args.mid(1), io);
    if (sub == "--help" || sub == "-h") {
        io.out << "Usage: embark-cli farm token URL [--token-file FILE]   (the token on standard input otherwise)\n"
               << "       embark-cli farm devices BOARD [--json]\n\n"
               << exitStatusHelp();
        return 0;
    }
    return usage(io, sub.isEmpty() ? QStringLiteral("farm needs a subcommand: token or devices")
                                   : QStringLiteral("unknown farm subcommand '%1' (token or devices)").arg(sub));
}

} // namespace embark::cli
