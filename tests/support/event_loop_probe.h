// Measures how late the GUI event loop runs a 10 ms timer while the studio works in the
// background: the worst gap between two ticks is the loop's worst latency. On a machine shared
// with builds the kernel may also keep the GUI thread waiting for a CPU; /proc/thread-self/
// schedstat says how long, and that part is not the studio's making, so it is reported apart,
// with how much of the worst gap the thread spent on a CPU (handlers computing) rather than
// blocked.
// The thread must wait in its event loop (runEventLoopUntil below), as the studio does, not in
// QTest::qWait: that sleeps between rounds of events, and on a loaded machine a sleep of 10 ms
// can end 100 ms late, which the probe would charge to the studio.
#pragma once

#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QList>
#include <QObject>
#include <QTimer>

#include <functional>

namespace embark::test {

// The calling thread's schedstat: time on a CPU and time waiting for one while runnable, in
// microseconds (0 without schedstat).
struct SchedTimes {
    qint64 onCpuUs = 0, waitUs = 0;
};
inline SchedTimes schedTimes() {
    QFile f(QStringLiteral("/proc/thread-self/schedstat")); // "<on cpu ns> <run queue wait ns> <slices>"
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QList<QByteArray> fields = f.readAll().split(' ');
    if (fields.size() < 2) return {};
    return {fields[0].toLongLong() / 1000, fields[1].toLongLong() / 1000};
}

// Runs the calling thread's event loop until done() or timeoutMs, checking done() (and calling
// each()) every 20 ms; between events the thread blocks in the dispatcher, as the studio's own
// loop does. Returns done().
inline bool runEventLoopUntil(const std::function<bool()>& done, qint64 timeoutMs,
                              const std::function<void()>& each = {}) {
    if (each) each();
    if (done()) return true;
    QEventLoop loop;
    QTimer poll;
    poll.setInterval(20);
    QElapsedTimer clock;
    clock.start();
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (each) each();
        if (done() || clock.elapsed() >= timeoutMs) loop.quit();
    });
    poll.start();
    loop.exec();
    return done();
}

class EventLoopProbe {
public:
    EventLoopProbe() {
        m_timer.setInterval(10);
        QObject::connect(&m_timer, &QTimer::timeout, [this] { tick(); });
    }
    void start() {
        m_clock.start();
        m_timer.start();
    }
    void stop() { m_timer.stop(); }

    // Runs f, the test's own work on this thread between two ticks (a fault it injects, such as
    // killing a server and waiting for it, or a check it makes): that time is not the studio's
    // and is left out of the gap it falls in.
    template <class F>
    void excluding(F&& f) {
        const qint64 start = m_clock.elapsed();
        const SchedTimes before = schedTimes();
        f();
        const SchedTimes after = schedTimes();
        m_excludedMs += m_clock.elapsed() - start;
        m_excludedWaitMs += (after.waitUs - before.waitUs) / 1000;
    }

    int ticks() const { return m_ticks; }
    qint64 worstMs() const { return m_worst; }           // of the studio's own making
    qint64 worstOnCpuMs() const { return m_worstOnCpu; } // of that gap, the thread on a CPU
    qint64 worstWallMs() const { return m_worstWall; }   // including waiting for a CPU
    qint64 worstWallWaitMs() const { return m_worstWallWait; }

private:
    void tick() {
        const qint64 now = m_clock.elapsed();
        const SchedTimes sched = schedTimes();
        if (m_ticks++ > 0) {
            const qint64 late = now - m_last - 10 - m_excludedMs,
                         waited = (sched.waitUs - m_lastSched.waitUs) / 1000 - m_excludedWaitMs;
            if (late - waited > m_worst) {
                m_worst = late - waited;
                m_worstOnCpu = (sched.onCpuUs - m_lastSched.onCpuUs) / 1000;
            }
            if (late > m_worstWall) {
                m_worstWall = late;
                m_worstWallWait = waited;
            }
        }
        m_last = now;
        m_lastSched = sched;
        m_excludedMs = m_excludedWaitMs = 0;
    }

    QTimer m_timer;
    QElapsedTimer m_clock;
    SchedTimes m_lastSched;
    int m_ticks = 0;
    qint64 m_last = 0, m_worst = 0, m_worstOnCpu = 0, m_worstWall = 0, m_worstWallWait = 0;
    qint64 m_excludedMs = 0, m_excludedWaitMs = 0;
};

} // namespace embark::test
