// Helper for tst_crash_safety: writes runs to the store in a loop and prints
// "committed <id> <seq>" after each commit, until killed (or after a bounded number of runs).
#include "store/run_store.h"
#include "store_writer_record.h"

#include <QCoreApplication>

#include <cstdio>

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    if (argc < 3) {
        std::fprintf(stderr, "usage: store_writer DB FIRST_SEQ\n");
        return 2;
    }
    auto store = embark::store::RunStore::open(QString::fromLocal8Bit(argv[1]));
    if (!store) {
        std::fprintf(stderr, "store_writer: %s\n", store.error().message.c_str());
        return store.error().exitCode();
    }
    const int first = std::atoi(argv[2]);
    for (int seq = first; seq < first + 5000; ++seq) {
        auto id = (*store)->addRun(crashTestRecord(seq));
        if (!id) {
            std::fprintf(stderr, "store_writer: %s\n", id.error().message.c_str());
            return id.error().exitCode();
        }
        std::printf("committed %lld %d\n", static_cast<long long>(*id), seq);
        std::fflush(stdout);
    }
    return 0;
}
