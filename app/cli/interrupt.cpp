#include "interrupt.h"

namespace embark::cli {
namespace {

std::atomic_bool g_interrupted{false};
static_assert(std::atomic_bool::is_always_lock_free, "set from a signal handler");

extern "C" void embarkCliOnInterrupt(int) { g_interrupted.store(true); }

} // namespace

InterruptGuard::InterruptGuard() {
    g_interrupted.store(false);
    struct sigaction sa {};
    sa.sa_handler = embarkCliOnInterrupt;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND; // the second signal gets the default action
    sigaction(SIGINT, &sa, &m_oldInt);
    sigaction(SIGTERM, &sa, &m_oldTerm);
}

InterruptGuard::~InterruptGuard() {
    sigaction(SIGINT, &m_oldInt, nullptr);
    sigaction(SIGTERM, &m_oldTerm, nullptr);
}

const std::atomic_bool* InterruptGuard::flag() const { return &g_interrupted; }

} // namespace embark::cli
