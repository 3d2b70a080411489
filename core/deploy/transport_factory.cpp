#include "transport_factory.h"

#include "lava_transport.h"
#include "local_transport.h"
#include "ssh_transport.h"

namespace embark::deploy {

std::unique_ptr<Transport> makeTransport(const targets::Board& board, const SshOptions& sshOptions) {
    if (board.isFarm()) return std::make_unique<LavaTransport>(board);
    if (board.runner.kind == targets::BoardRunner::Kind::Ssh) return std::make_unique<SshTransport>(board, sshOptions);
    return std::make_unique<LocalTransport>(board);
}

} // namespace embark::deploy
