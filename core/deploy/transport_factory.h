// Picks the Transport a board's runner asks for: LocalTransport for "local" (the host or a
// qemu-user simulated board), SshTransport for "ssh".
#pragma once

#include "ssh_connection.h"
#include "transport.h"

#include "targets/board.h"

#include <memory>

namespace embark::deploy {

std::unique_ptr<Transport> makeTransport(const targets::Board& board, const SshOptions& sshOptions = {});

} // namespace embark::deploy
