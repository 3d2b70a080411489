// A Transport to a board in a farm (the board file's "farm" object): every exec is one LAVA
// test job that Embark generates. Uploads are staged in a local folder; exec packs them with a
// test definition and a run script into a tarball the LAVA worker downloads (`from: url`:
// file:// when the worker runs on this computer, or the farm's share_dir/share_url), LAVA
// deploys it to a free device of the type over SSH (`deploy: to: ssh`, `boot: method: ssh`),
// the script runs the command and prints its stdout, stderr, exit status and result files
// (base64) as marked lines; Embark waits in LAVA's queue, follows the job, fetches its log and
// reads them back. Cancel and timeouts cancel the LAVA job; a device that goes bad mid-run
// fails the run with the device and the job named.
#pragma once

#include "lava_client.h"
#include "transport.h"

#include "targets/board.h"

#include <QJsonObject>
#include <QTemporaryDir>

#include <map>
#include <memory>
#include <optional>

namespace embark::deploy {

class LavaTransport : public Transport {
public:
    explicit LavaTransport(targets::Board board);
    ~LavaTransport() override;

    Status connect() override;
    Expected<QString> makeRunDir(const QString& label) override;
    Status removeRunDir(const QString& dir) override;
    Status upload(const QString& localPath, const QString& remotePath, const ProgressFn& progress = {}) override;
    Status download(const QString& remotePath, const QString& localPath) override;
    Expected<ExecResult> exec(const ExecRequest& request) override;
    QString describe() const override;
    QJsonObject runInfo() const override;

    // The job definition exec submits for `command` (a shell line run in the run folder) with
    // the payload at `payloadUrl`; public for the tests.
    QByteArray jobDefinition(const QString& payloadUrl, const QString& label, int timeoutSeconds) const;
    // How often the job's state is polled (the tests poll fast).
    void setPollIntervalMs(int ms) { m_pollMs = ms; }

private:
    Expected<ExecResult> follow(qint64 jobId, const ExecRequest& request);
    Status cancelAndWait(qint64 jobId);
    Status readLog(qint64 jobId, ExecResult& result, bool* sawExit);

    targets::Board m_board;
    LavaClient m_client;
    std::unique_ptr<QTemporaryDir> m_stage; // payload/ and the tarball
    QString m_label;
    int m_pollMs = 1000;
    qint64 m_jobId = 0;
    QString m_device;
    std::map<QString, QByteArray> m_files; // result files of the last exec, by run-folder path
};

} // namespace embark::deploy
