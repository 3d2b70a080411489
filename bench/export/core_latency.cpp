// Round trip of a cache line between two cores (CPU 0 and CPU 1, pinned), in nanoseconds:
// the median of 5 runs of 20,000 ping-pongs. bench_export.sh prints it beside the 2-thread
// gains: on a virtual machine whose two vCPUs move between dies (a round trip across dies
// takes several times as long as on one), every layer that hands data from one thread to the
// other pays for it, and the 2-thread gain of memory-bound models drops with it.
// Standalone: c++ -O2 -pthread core_latency.cpp -o core_latency
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

namespace {

bool pin(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

alignas(64) std::atomic<int> g_flag{0};

double round_trip_ns(int trips) {
    g_flag.store(0);
    std::thread other([trips] {
        pin(1);
        for (int i = 0; i < trips; ++i) {
            while (g_flag.load(std::memory_order_acquire) != 2 * i + 1) {}
            g_flag.store(2 * i + 2, std::memory_order_release);
        }
    });
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < trips; ++i) {
        g_flag.store(2 * i + 1, std::memory_order_release);
        while (g_flag.load(std::memory_order_acquire) != 2 * i + 2) {}
    }
    const auto t1 = std::chrono::steady_clock::now();
    other.join();
    return std::chrono::duration<double, std::nano>(t1 - t0).count() / trips;
}

} // namespace

int main() {
    if (std::thread::hardware_concurrency() < 2 || !pin(0)) {
        std::puts("n/a");
        return 0;
    }
    std::vector<double> runs;
    for (int r = 0; r < 5; ++r) runs.push_back(round_trip_ns(20000));
    std::sort(runs.begin(), runs.end());
    std::printf("%.0f\n", runs[runs.size() / 2]);
    return 0;
}
