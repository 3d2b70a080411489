// A Transport to this computer: the host board, or a simulated board whose commands run
// through an exec prefix (qemu-user). Each run gets a fresh folder under a temp directory.
#pragma once

#include "transport.h"

#include "targets/board.h"

#include <QSet>

namespace embark::deploy {

class LocalTransport : public Transport {
public:
    explicit LocalTransport(targets::Board board);
    ~LocalTransport() override;

    Status connect() override;
    Expected<QString> makeRunDir(const QString& label) override;
    Status removeRunDir(const QString& dir) override;
    Status upload(const QString& localPath, const QString& remotePath, const ProgressFn& progress = {}) override;
    Status download(const QString& remotePath, const QString& localPath) override;
    Expected<ExecResult> exec(const ExecRequest& request) override;
    QString describe() const override;

private:
    Status copyTree(const QString& from, const QString& to, const QString& verb, const ProgressFn& progress);

    targets::Board m_board;
    QSet<QString> m_ownDirs; // folders makeRunDir created, the only ones removeRunDir deletes
};

// Copies one file to `to` through a temporary sibling and an atomic rename; the temporary
// is removed on any failure. Used by LocalTransport both ways.
Status copyFileAtomically(const QString& from, const QString& to, const QString& context, const ProgressFn& progress);

// "SEGV" for 11: the signal's abbreviation as in the C library.
QString signalName(int signal);
// 11 for "SEGV" (and "SIGSEGV"), 0 when unknown.
int signalNumber(const QString& name);

} // namespace embark::deploy
