// The runtime's plumbing: aligned buffers, the thread pool and fused activations.
#include "gemm_ukernel.h"
#include "portable.h"
#include "stream_rvv.h"
#include "vmath.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

namespace embark::portable {

// ----- AlignedBuffer ---------------------------------------------------------------------

AlignedBuffer::AlignedBuffer(size_t count) : size_(count) {
    if (count == 0) return;
    // Rounded up to whole cache lines, as aligned_alloc requires a multiple of the alignment.
    const size_t bytes = (count * sizeof(float) + 63) / 64 * 64;
    data_ = static_cast<float*>(std::aligned_alloc(64, bytes));
    if (!data_) throw std::bad_alloc();
    std::memset(data_, 0, bytes);
}

AlignedBuffer::AlignedBuffer(AlignedBuffer&& other) noexcept : data_(other.data_), size_(other.size_) {
    other.data_ = nullptr;
    other.size_ = 0;
}

AlignedBuffer& AlignedBuffer::operator=(AlignedBuffer&& other) noexcept {
    if (this != &other) {
        std::free(data_);
        data_ = other.data_;
        size_ = other.size_;
        other.data_ = nullptr;
        other.size_ = 0;
    }
    return *this;
}

AlignedBuffer::~AlignedBuffer() { std::free(data_); }

// ----- ThreadPool ------------------------------------------------------------------------

namespace {
// Chunk `index` of `parts` near-equal contiguous chunks of [0, n).
void chunk(int64_t n, int parts, int index, int64_t& begin, int64_t& end) {
    begin = n * index / parts;
    end = n * (index + 1) / parts;
}
} // namespace

// A pause hint for spin loops (no-op where the architecture has none we can name portably).
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

// Spin iterations (a pause is 20-140 cycles) before a worker sleeps between jobs (~50-200 us)
// and before the caller sleeps until a job's last part is done (~25-100 us).
constexpr int kSpinIterations = 5000;
constexpr int kCallerSpinIterations = 2500;

ThreadPool::ThreadPool(int threads) : runs_(new Run[static_cast<size_t>(std::max(1, threads))]) {
    for (int i = 1; i < threads; ++i) workers_.emplace_back([this, i] { worker_loop(i); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_.store(true);
    }
    wake_.notify_all();
    for (auto& worker : workers_) worker.join();
}

// A run word is (generation mod 2^24) << 40 | next << 16 | end: a thread decides from this one
// word whether a part of its job is left there, so it never reads job fields that the caller
// may already be filling in for the next job (the job is only rewritten once all its parts are
// done, and a part is only run after a successful claim in a word of the job's own generation).
namespace {
constexpr uint64_t kGenerationMask = (uint64_t(1) << 24) - 1; // generations wrap within 24 bits
constexpr uint64_t kTagMask = ~((uint64_t(1) << 40) - 1);
uint64_t claim_generation(uint64_t generation) { return generation << 40; }
int run_next(uint64_t word) { return static_cast<int>(word >> 16 & 0xffff); }
int run_end(uint64_t word) { return static_cast<int>(word & 0xffff); }
uint64_t run_word(uint64_t tag, int next, int end) {
    return tag | static_cast<uint64_t>(next) << 16 | static_cast<uint64_t>(end);
}
} // namespace

void ThreadPool::run_parts(uint64_t generation, int self) {
    const uint64_t tag = claim_generation(generation);
    const int threads = this->threads();
    int finished = 0, parts = 0;
    for (;;) {
        // The next part of this thread's own run, else the last part of the longest run left
        // (the far end of another thread's run, away from where its owner works).
        int part = -1;
        std::atomic<uint64_t>& own = runs_[self].word;
        uint64_t w = own.load();
        while ((w & kTagMask) == tag && run_next(w) < run_end(w)) {
            if (own.compare_exchange_weak(w, run_word(tag, run_next(w) + 1, run_end(w)))) {
                part = run_next(w);
                break;
            }
        }
        while (part < 0) {
            int victim = -1, left = 0;
            uint64_t vw = 0;
            for (int t = 0; t < threads; ++t) {
                if (t == self) continue;
                const uint64_t x = runs_[t].word.load();
                if ((x & kTagMask) == tag && run_end(x) - run_next(x) > left) {
                    victim = t;
                    left = run_end(x) - run_next(x);
                    vw = x;
                }
            }
            if (victim < 0) break;
            if (runs_[victim].word.compare_exchange_weak(vw, run_word(tag, run_next(vw), run_end(vw) - 1)))
                part = run_end(vw) - 1;
        }
        if (part < 0) break;
        parts = parts_; // the job is current: one of its parts is claimed and not yet counted
        int64_t begin, end;
        chunk(job_size_, parts, part, begin, end);
        if (begin < end) (*job_)(begin, end);
        ++finished;
    }
    // Nothing of the job may be read after this addition: the caller may be rewriting it.
    if (finished > 0 && done_parts_.fetch_add(finished) + finished == parts && caller_waiting_.load()) {
        std::lock_guard<std::mutex> lock(done_mutex_);
        done_.notify_one();
    }
}

void ThreadPool::worker_loop(int index) {
    uint64_t seen = 0;
    for (;;) {
        uint64_t now = generation_.load(std::memory_order_acquire);
        for (int spin = 0; now == seen && spin < kSpinIterations && !stop_.load(std::memory_order_relaxed); ++spin) {
            cpu_relax();
            now = generation_.load(std::memory_order_acquire);
        }
        if (now == seen) {
            std::unique_lock<std::mutex> lock(mutex_);
            sleepers_.fetch_add(1);
            wake_.wait(lock, [&] { return stop_.load() || generation_.load() != seen; });
            sleepers_.fetch_sub(1);
            now = generation_.load();
        }
        if (stop_.load()) return;
        seen = now;
        run_parts(now, index);
    }
}

void ThreadPool::parallel_for(int64_t n, const std::function<void(int64_t, int64_t)>& fn, int parts_per_thread) {
    if (n <= 0) return;
    if (workers_.empty() || n == 1) {
        fn(0, n);
        return;
    }
    // The previous job is finished (every part done), so nobody reads these now.
    job_ = &fn;
    job_size_ = n;
    parts_ = static_cast<int>(std::min<int64_t>({n, int64_t(threads()) * std::max(1, parts_per_thread), kMaxParts}));
    done_parts_.store(0);
    uint64_t generation = (generation_.load() + 1) & kGenerationMask;
    if (generation == 0) generation = 1; // 0 is the workers' "nothing seen yet"
    const int threads = this->threads();
    for (int t = 0; t < threads; ++t) // publishes job_, job_size_ and parts_ with each run
        runs_[t].word.store(run_word(claim_generation(generation), static_cast<int>(int64_t(parts_) * t / threads),
                                     static_cast<int>(int64_t(parts_) * (t + 1) / threads)));
    generation_.store(generation);
    if (sleepers_.load() > 0) {
        { std::lock_guard<std::mutex> lock(mutex_); }
        wake_.notify_all();
    }
    run_parts(generation, 0);
    for (int spin = 0; done_parts_.load(std::memory_order_acquire) != parts_ && spin < kCallerSpinIterations; ++spin)
        cpu_relax();
    if (done_parts_.load(std::memory_order_acquire) != parts_) {
        // The last part's thread notifies under done_mutex_ when it sees caller_waiting_ after
        // its increment; both are sequentially consistent, so either it sees the flag or the
        // predicate below sees its increment.
        std::unique_lock<std::mutex> lock(done_mutex_);
        caller_waiting_.store(true);
        done_.wait(lock, [&] { return done_parts_.load() == parts_; });
        caller_waiting_.store(false);
    }
}

void parallel_for(ThreadPool* pool, int64_t n, const std::function<void(int64_t, int64_t)>& fn, int parts_per_thread) {
    if (pool && pool->threads() > 1 && n > 1)
        pool->parallel_for(n, fn, parts_per_thread);
    else if (n > 0)
        fn(0, n);
}

namespace detail {
float* thread_scratch(size_t floats) {
    thread_local AlignedBuffer buffer;
    if (buffer.size() < floats) buffer = AlignedBuffer(floats);
    return buffer.data();
}
} // namespace detail

// ----- Activations -----------------------------------------------------------------------

void apply_activation(const Activation& act, float* data, size_t count) {
#if EMBARK_STREAM_RVV
    // The piecewise-linear ones in vector strips (stream_rvv.h); the others take the loops below.
    namespace rv = stream_rvv;
    switch (act.kind) {
    case Act::Relu: rv::map(data, data, count, [](rv::V v, size_t vl) { return rv::relu(v, vl); }); return;
    case Act::Clamp:
        rv::map(data, data, count, [&](rv::V v, size_t vl) { return rv::clamp(v, act.min, act.max, vl); });
        return;
    case Act::LeakyRelu:
        rv::map(data, data, count, [&](rv::V v, size_t vl) { return rv::leaky_relu(v, act.alpha, vl); });
        return;
    case Act::HardSwish: rv::map(data, data, count, [](rv::V v, size_t vl) { return rv::hard_swish(v, vl); }); return;
    default: break;
    }
#endif
    switch (act.kind) {
    case Act::None: return;
    case Act::Relu:
        EMBARK_STREAM_LOOP
        for (size_t i = 0; i < count; ++i) data[i] = data[i] > 0.f ? data[i] : 0.f;
        return;
    case Act::Clamp:
        EMBARK_STREAM_LOOP
        for (size_t i = 0; i < count; ++i) {
            const float v = data[i] < act.min ? act.min : data[i];
            data[i] = v > act.max ? act.max : v;
        }
        return;
    case Act::LeakyRelu:
        EMBARK_STREAM_LOOP
        for (size_t i = 0; i < count; ++i) data[i] = vmath::select(data[i] >= 0.f, data[i], data[i] * act.alpha);
        return;
    case Act::HardSwish:
        for (size_t i = 0; i < count; ++i) data[i] = vmath::hard_swish(data[i]);
        return;
    case Act::Sigmoid:
        EMBARK_STREAM_LOOP_WIDE
        for (size_t i = 0; i < count; ++i) data[i] = vmath::sigmoid(data[i]);
        return;
    case Act::Tanh:
        EMBARK_STREAM_LOOP_WIDE
        for (size_t i = 0; i < count; ++i) data[i] = vmath::tanh(data[i]);
        return;
    case Act::Swish:
        EMBARK_STREAM_LOOP_WIDE
        for (size_t i = 0; i < count; ++i) data[i] = vmath::silu(data[i]);
        return;
    case Act::Gelu:
        EMBARK_STREAM_LOOP_WIDE
        for (size_t i = 0; i < count; ++i) data[i] = vmath::gelu(data[i]);
        return;
    }
}

} // namespace embark::portable
