// Ctrl+C (SIGINT) or SIGTERM while a long command runs (bench, xnnpack build) cancels it the
// way the studio's Cancel does: the command's tools run in their own process groups, so the
// signal reaches only embark-cli, which passes it on as the cancel flag; the running step
// stops its processes and cleans up. A second signal ends embark-cli at once.
#pragma once

#include <atomic>
#include <csignal>

namespace embark::cli {

class InterruptGuard {
public:
    InterruptGuard();  // installs the handlers and clears the flag
    ~InterruptGuard(); // restores the previous handlers
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;

    const std::atomic_bool* flag() const;

private:
    struct sigaction m_oldInt {
    }, m_oldTerm{};
};

} // namespace embark::cli
