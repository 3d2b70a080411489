// The job queue: jobs run one at a time in queue order (or several when allowed), go through
// Queued → Running → Succeeded/Failed/Cancelled, deliver progress and log lines on the queue's
// thread, and cancel works for a queued job (never starts) and a running one (stops early).
#include "jobs/job_queue.h"

#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

using namespace embark;

namespace {

// A job that logs `lines` lines, one every `stepMs`, and stops early when cancelled.
std::shared_ptr<jobs::Job> countingJob(const QString& title, int lines, int stepMs,
                                       std::vector<QString>* order = nullptr, std::mutex* orderMutex = nullptr) {
    return std::make_shared<jobs::Job>(title, jobs::JobKind::Build, [=](jobs::JobContext& ctx) -> Status {
        if (order) {
            std::lock_guard lock(*orderMutex);
            order->push_back(title);
        }
        for (int i = 0; i < lines; ++i) {
            if (ctx.cancelled()) return makeError(ErrorKind::External, "cancelled at line " + std::to_string(i));
            ctx.log(QStringLiteral("%1 line %2").arg(title).arg(i));
            ctx.progress(QStringLiteral("count"), i + 1, lines);
            QThread::msleep(stepMs);
        }
        ctx.setResult(lines, QStringLiteral("%1 lines").arg(lines));
        return {};
    });
}

} // namespace

class TestJobQueue : public QObject {
    Q_OBJECT
private slots:
    void runsInQueueOrderOneAtATime() {
        jobs::JobQueue queue;
        std::vector<QString> order;
        std::mutex m;
        std::atomic_int concurrent{0}, maxConcurrent{0};
        QSignalSpy started(&queue, &jobs::JobQueue::started);
        QSignalSpy finished(&queue, &jobs::JobQueue::finished);
        std::vector<int> ids;
        for (const QString& t : {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}) {
            auto job = std::make_shared<jobs::Job>(t, jobs::JobKind::Export, [&, t](jobs::JobContext&) -> Status {
                const int now = ++concurrent;
                maxConcurrent = std::max(maxConcurrent.load(), now);
                {
                    std::lock_guard lock(m);
                    order.push_back(t);
                }
                QThread::msleep(30);
                --concurrent;
                return {};
            });
            QCOMPARE(job->state(), jobs::JobState::Queued);
            ids.push_back(queue.enqueue(job));
        }
        QVERIFY(queue.waitForIdle(10000));
        QCOMPARE(order, (std::vector<QString>{"a", "b", "c"}));
        QCOMPARE(maxConcurrent.load(), 1);
        QCOMPARE(started.count(), 3);
        QCOMPARE(finished.count(), 3);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(started.at(i).first().toInt(), ids[i]);
            QCOMPARE(finished.at(i).first().toInt(), ids[i]);
            QCOMPARE(finished.at(i).at(1).value<jobs::JobState>(), jobs::JobState::Succeeded);
            QCOMPARE(queue.job(ids[i])->state(), jobs::JobState::Succeeded);
        }
    }

    // Deterministic under load: each job waits (up to 60 s) until two jobs run at once, so the
    // queue must start the second while the first still runs, and no third may join them.
    void severalAtOnceWhenAllowed() {
        jobs::JobQueue queue;
        queue.setMaxConcurrent(2);
        std::mutex m;
        std::condition_variable changed;
        int concurrent = 0, maxConcurrent = 0;
        for (int i = 0; i < 4; ++i)
            queue.enqueue(
                std::make_shared<jobs::Job>(QString::number(i), jobs::JobKind::Build, [&](jobs::JobContext&) -> Status {
                    std::unique_lock lock(m);
                    maxConcurrent = std::max(maxConcurrent, ++concurrent);
                    changed.notify_all();
                    changed.wait_for(lock, std::chrono::seconds(60), [&] { return maxConcurrent >= 2; });
                    --concurrent;
                    return {};
                }));
        QVERIFY(queue.waitForIdle(120000));
        QCOMPARE(maxConcurrent, 2);
    }

    void statesProgressAndResult() {
        jobs::JobQueue queue;
        auto ok = countingJob("ok", 3, 1);
        auto bad = std::make_shared<jobs::Job>("bad", jobs::JobKind::Deploy, [](jobs::JobContext& ctx) -> Status {
            ctx.log("about to fail");
            return makeError(ErrorKind::External, "board 'nowhere' is unreachable");
        });
        QSignalSpy progress(&queue, &jobs::JobQueue::progressChanged);
        QSignalSpy finished(&queue, &jobs::JobQueue::finished);
        queue.enqueue(ok);
        queue.enqueue(bad);
        QVERIFY(queue.waitForIdle(10000));
        QCOMPARE(ok->state(), jobs::JobState::Succeeded);
        QCOMPARE(ok->message(), QStringLiteral("3 lines"));
        QCOMPARE(std::any_cast<int>(ok->result()), 3);
        QCOMPARE(ok->progress().done, 3);
        QCOMPARE(ok->progress().total, 3);
        QCOMPARE(progress.count(), 3);
        QCOMPARE(progress.last().at(2).toInt(), 3);
        QVERIFY(ok->elapsedMs() >= 0);
        QCOMPARE(bad->state(), jobs::JobState::Failed);
        QCOMPARE(bad->message(), QStringLiteral("board 'nowhere' is unreachable"));
        QCOMPARE(finished.last().at(2).toString(), bad->message());
        QVERIFY(!bad->result().has_value());
    }

    void logLinesDeliveredOnTheQueueThread() {
        jobs::JobQueue queue;
        auto job = countingJob("log", 50, 0);
        QStringList received;
        bool allOnOwnThread = true;
        connect(&queue, &jobs::JobQueue::logLine, this, [&](int id, const QString& line) {
            QCOMPARE(id, job->id());
            allOnOwnThread = allOnOwnThread && QThread::currentThread() == queue.thread();
            received << line;
        });
        queue.enqueue(job);
        QVERIFY(queue.waitForIdle(10000));
        QCOMPARE(received.size(), 50);
        QVERIFY(allOnOwnThread);
        QCOMPARE(received, job->log());
        QCOMPARE(received.first(), QStringLiteral("log line 0"));
        QCOMPARE(job->logFrom(48), (QStringList{"log line 48", "log line 49"}));
    }

    void cancelQueuedJobNeverStarts() {
        jobs::JobQueue queue;
        std::vector<QString> order;
        std::mutex m;
        auto first = countingJob("first", 20, 10, &order, &m);
        auto second = countingJob("second", 1, 0, &order, &m);
        auto third = countingJob("third", 1, 0, &order, &m);
        queue.enqueue(first);
        const int secondId = queue.enqueue(second);
        queue.enqueue(third);
        QSignalSpy finished(&queue, &jobs::JobQueue::finished);
        queue.cancel(secondId);
        QCOMPARE(second->state(), jobs::JobState::Cancelled);
        QCOMPARE(finished.count(), 1);
        QVERIFY(queue.waitForIdle(10000));
        QCOMPARE(order, (std::vector<QString>{"first", "third"}));
        QCOMPARE(first->state(), jobs::JobState::Succeeded);
        QCOMPARE(third->state(), jobs::JobState::Succeeded);
        QCOMPARE(second->logLineCount(), 0);
    }

    void cancelRunningJobStopsIt() {
        jobs::JobQueue queue;
        auto slow = countingJob("slow", 10000, 5);
        auto next = countingJob("next", 1, 0);
        QSignalSpy started(&queue, &jobs::JobQueue::started);
        queue.enqueue(slow);
        queue.enqueue(next);
        QTRY_VERIFY_WITH_TIMEOUT(slow->logLineCount() > 3, 10000);
        QCOMPARE(slow->state(), jobs::JobState::Running);
        QCOMPARE(next->state(), jobs::JobState::Queued);
        queue.cancel(slow->id());
        QVERIFY(queue.waitForIdle(10000));
        QCOMPARE(slow->state(), jobs::JobState::Cancelled);
        QVERIFY(slow->logLineCount() < 10000);
        QVERIFY2(slow->message().startsWith("cancelled at line"), qPrintable(slow->message()));
        QCOMPARE(next->state(), jobs::JobState::Succeeded); // the queue goes on
        QCOMPARE(started.count(), 2);
    }

    void clearFinishedKeepsRunningJobs() {
        jobs::JobQueue queue;
        auto done = countingJob("done", 1, 0);
        queue.enqueue(done);
        QVERIFY(queue.waitForIdle(10000));
        auto slow = countingJob("slow", 10000, 5);
        queue.enqueue(slow);
        QTRY_COMPARE_WITH_TIMEOUT(slow->state(), jobs::JobState::Running, 10000);
        QSignalSpy removed(&queue, &jobs::JobQueue::removed);
        QCOMPARE(queue.clearFinished(), 1);
        QCOMPARE(removed.count(), 1);
        QCOMPARE(removed.first().first().toInt(), done->id());
        QCOMPARE(queue.jobs().size(), size_t(1));
        queue.cancelAll();
        QVERIFY(queue.waitForIdle(10000));
        QCOMPARE(slow->state(), jobs::JobState::Cancelled);
    }

    void destroyingTheQueueStopsRunningJobs() {
        auto slow = countingJob("slow", 100000, 5);
        {
            jobs::JobQueue queue;
            queue.enqueue(slow);
            QTRY_VERIFY_WITH_TIMEOUT(slow->logLineCount() > 0, 10000);
        } // must return promptly: the destructor cancels and waits
        QVERIFY(slow->cancelRequested());
        QVERIFY(slow->logLineCount() < 100000);
    }
};

QTEST_GUILESS_MAIN(TestJobQueue)
#include "tst_job_queue.moc"
