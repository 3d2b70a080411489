// Measures how late the GUI event loop runs a 10 ms timer while the studio works in the
// background: the worst gap between two ticks is the loop's worst latency. On a machine shared
// with builds the kernel may also keep the GUI thread waiting for a CPU; /proc/thread-self/
// schedstat says how long, and that part is not the studio's making, so it is reported apart.
#pragma once

#include <QElapsedTimer>
#include <QFile>
#include <QObject>
#include <QTimer>

#include <algorithm>

namespace embark::test {

// How long the calling thread has waited for a CPU while runnable (0 without schedstat).
inline qint64 runQueueWaitMs() {
    QFile f(QStringLiteral("/proc/thread-self/schedstat")); // "<on cpu ns> <run queue wait ns> <slices>"
    if (!f.open(QIODevice::ReadOnly)) return 0;
    const QList<QByteArray> fields = f.readAll().split(' ');
    return fields.size() >= 2 ? fields[1].toLongLong() / 1000000 : 0;
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

    int ticks() const { return m_ticks; }
    qint64 worstMs() const { return m_worst; }         // of the studio's own making
    qint64 worstWallMs() const { return m_worstWall; } // including waiting for a CPU
    qint64 worstWallWaitMs() const { return m_worstWallWait; }

private:
    void tick() {
        const qint64 now = m_clock.elapsed(), wait = runQueueWaitMs();
        if (m_ticks++ > 0) {
            const qint64 late = now - m_last - 10, waited = wait - m_lastWait;
            m_worst = std::max(m_worst, late - waited);
            if (late > m_worstWall) {
                m_worstWall = late;
                m_worstWallWait = waited;
            }
        }
        m_last = now;
        m_lastWait = wait;
    }

    QTimer m_timer;
    QElapsedTimer m_clock;
    int m_ticks = 0;
    qint64 m_last = 0, m_lastWait = 0, m_worst = 0, m_worstWall = 0, m_worstWallWait = 0;
};

} // namespace embark::test
