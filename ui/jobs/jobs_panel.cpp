#include "jobs_panel.h"

#include "source_viewer.h"

#include "session/engine_text.h"

#include "compile/export_builder.h"
#include "export/exporter.h"
#include "jobs/bench_pipeline.h"

#include <QDateTime>
#include <QDesktopServices>
#include <QDir>
#include <QMouseEvent>
#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextBlock>
#include <QFileInfo>
#include <QUrl>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace embark::ui {

namespace {

enum Column { Title, State, Progress, Elapsed, Started };
constexpr int kIdRole = Qt::UserRole;
constexpr int kMaxLogLines = 20000; // the view's cap; the job keeps every line

QString elapsedText(qint64 ms) {
    const qint64 s = ms / 1000;
    return s >= 60 ? QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'))
                   : JobsPanel::tr("%1 s").arg(QLocale().toString(double(ms) / 1000.0, 'f', 1));
}

// The recipe steps core reports (jobs/pipeline.cpp), in the user's language.
QString stepText(const QString& step) {
    static const QHash<QString, const char*> names{
        {QStringLiteral("resolve"), QT_TRANSLATE_NOOP("embark::ui::JobsPanel", "resolve")},
        {QStringLiteral("tools"), QT_TRANSLATE_NOOP("embark::ui::JobsPanel", "tools")},
        {QStringLiteral("import"), QT_TRANSLATE_NOOP("embark::ui::JobsPanel", "import")},
        {QStringLiteral("plan"), QT_TRANSLATE_NOOP("embark::ui::JobsPanel", "plan")},
        {QStringLiteral("export"), QT_TRANSLATE_NOOP("embark::ui::JobsPanel", "export")},
        {QStringLiteral("fits"), QT_TRANSLATE_NOOP("embark::ui::JobsPanel", "fits")},
        {QStringLiteral("build"), QT_TRANSLATE_NOOP("embark::ui::JobsPanel", "build")},
        {QStringLiteral("deploy"), QT_TRANSLATE_NOOP("embark::ui::JobsPanel", "deploy")},
        {QStringLiteral("run"), QT_TRANSLATE_NOOP("embark::ui::JobsPanel", "run")},
        {QStringLiteral("compare"), QT_TRANSLATE_NOOP("embark::ui::JobsPanel", "compare")},
        {QStringLiteral("store"), QT_TRANSLATE_NOOP("embark::ui::JobsPanel", "store")},
        {QStringLiteral("build XNNPACK"), QT_TRANSLATE_NOOP("embark::ui::JobsPanel", "build XNNPACK")},
    };
    const auto it = names.find(step);
    return it == names.end() ? step : JobsPanel::tr(it.value());
}

QString numberList(const QJsonArray& a) {
    QStringList parts;
    for (const QJsonValue& v : a) parts << QLocale().toString(v.toDouble(), 'g', 6);
    return parts.join(QStringLiteral(" x "));
}

} // namespace

QString JobsPanel::predictionText(const QString& outputLine) {
    const QJsonObject o = QJsonDocument::fromJson(outputLine.toUtf8()).object();
    if (o.value(QLatin1String("type")).toString() != QLatin1String("output")) return {};
    // A classifier's scores: [N] or [1, N] with N > 1, every value in the line's head.
    qint64 numel = 1;
    const QJsonArray shape = o.value(QLatin1String("shape")).toArray();
    for (const QJsonValue& d : shape) numel *= d.toInteger();
    const QJsonArray head = o.value(QLatin1String("head")).toArray();
    if (shape.isEmpty() || shape.size() > 2 || (shape.size() == 2 && shape.at(0).toInteger() != 1) || numel < 2 ||
        numel != head.size())
        return {};
    std::vector<int> order(size_t(head.size()));
    for (size_t i = 0; i < order.size(); ++i) order[i] = int(i);
    std::stable_sort(order.begin(), order.end(),
                     [&head](int a, int b) { return head.at(a).toDouble() > head.at(b).toDouble(); });
    QStringList top;
    for (size_t i = 0; i < std::min<size_t>(5, order.size()); ++i) top << QString::number(order[i]);
    const QLocale locale;
    return tr("predicted class %1 (score %2); top %3: %4")
        .arg(order[0])
        .arg(locale.toString(head.at(order[0]).toDouble(), 'g', 4))
        .arg(top.size())
        .arg(top.join(QStringLiteral(", ")));
}

QString JobsPanel::displayLine(const QString& line) {
    if (!line.startsWith(QLatin1String("{\"type\""))) return engineText(line);
    QJsonParseError error;
    const QJsonObject o = QJsonDocument::fromJson(line.toUtf8(), &error).object();
    if (error.error != QJsonParseError::NoError) return line;
    const QString type = o.value(QLatin1String("type")).toString();
    const QLocale locale;
    if (type == QLatin1String("layer") || type == QLatin1String("dump")) return {}; // hundreds; the charts show them
    if (type == QLatin1String("latency"))
        return tr("iteration %1: %2 ms")
            .arg(o.value(QLatin1String("iteration")).toInt() + 1)
            .arg(locale.toString(o.value(QLatin1String("ns")).toDouble() / 1e6, 'f', 3));
    if (type == QLatin1String("meta")) {
        QStringList libs;
        for (const QJsonValue& v : o.value(QLatin1String("libs")).toArray()) libs << v.toString();
        return tr("board run of %1 (%2, %3): %4 layer(s), %5 thread(s), %6 warm-up and %7 timed iteration(s)")
            .arg(o.value(QLatin1String("model")).toString(), o.value(QLatin1String("arch")).toString(),
                 libs.join(QStringLiteral(", ")))
            .arg(o.value(QLatin1String("layers")).toInt())
            .arg(o.value(QLatin1String("threads")).toInt())
            .arg(o.value(QLatin1String("warmup")).toInt())
            .arg(o.value(QLatin1String("iterations")).toInt());
    }
    if (type == QLatin1String("output")) {
        const QString written =
            tr("output %1 (%2) written to %3")
                .arg(o.value(QLatin1String("name")).toString(), numberList(o.value(QLatin1String("shape")).toArray()),
                     o.value(QLatin1String("file")).toString());
        const QString prediction = predictionText(line);
        return prediction.isEmpty() ? written : written + QStringLiteral("; ") + prediction;
    }
    if (type == QLatin1String("check"))
        return tr("check of %1 on the board: max abs %2, max rel %3 (tolerance %4): %5")
            .arg(o.value(QLatin1String("output")).toString(),
                 locale.toString(o.value(QLatin1String("max_abs")).toDouble(), 'g', 3),
                 locale.toString(o.value(QLatin1String("max_rel")).toDouble(), 'g', 3),
                 locale.toString(o.value(QLatin1String("tolerance")).toDouble(), 'g', 3),
                 o.value(QLatin1String("ok")).toBool() ? tr("ok") : tr("NOT OK"));
    if (type == QLatin1String("error"))
        return tr("error on the board (%1): %2")
            .arg(o.value(QLatin1String("stage")).toString(), o.value(QLatin1String("message")).toString());
    return line;
}

namespace {

const QRegularExpression& diagnosticPattern() {
    // file:line[:column]: (fatal error|error|warning|note): ..., as GCC and Clang print them.
    static const QRegularExpression re(
        QStringLiteral("^\\s*([^\\s:][^:]*):(\\d+)(?::(\\d+))?:\\s*(fatal error|error|warning|note)\\b"));
    return re;
}

// Compiler diagnostics in the log read as links: coloured and underlined.
class DiagnosticHighlighter : public QSyntaxHighlighter {
public:
    using QSyntaxHighlighter::QSyntaxHighlighter;

protected:
    void highlightBlock(const QString& text) override {
        const QRegularExpressionMatch m = diagnosticPattern().match(text);
        if (!m.hasMatch()) return;
        QTextCharFormat link;
        link.setFontUnderline(true);
        const QString kind = m.captured(4);
        link.setForeground(kind.endsWith(QLatin1String("error")) ? QColor(0xc6, 0x28, 0x28) : QColor(0x1a, 0x5f, 0xb4));
        setFormat(int(m.capturedStart(1)), int(m.capturedEnd(m.lastCapturedIndex()) - m.capturedStart(1)), link);
    }
};

} // namespace

JobsPanel::JobsPanel(jobs::JobQueue* queue, QWidget* parent) : QWidget(parent), m_queue(queue) {
    m_list = new QTreeWidget(this);
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setHeaderLabels({tr("Job"), tr("State"), tr("Progress"), tr("Elapsed"), tr("Started")});
    m_list->header()->setSectionResizeMode(Title, QHeaderView::Stretch);
    m_list->header()->setStretchLastSection(false);
    m_list->setColumnWidth(Progress, 140);
    // Titles share their start ("Benchmark digits_cnn on ..."): keep both ends visible.
    m_list->setTextElideMode(Qt::ElideMiddle);
    m_log = new QPlainTextEdit(this);
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(kMaxLogLines);
    // Long compiler lines wrap instead of scrolling sideways; a diagnostic opens its file.
    m_log->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_log->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    m_log->viewport()->installEventFilter(this);
    m_log->viewport()->setMouseTracking(true);
    new DiagnosticHighlighter(m_log->document());
    m_log->setFont(QFont(QStringLiteral("monospace")));
    m_log->setPlaceholderText(tr("Select a job to see its log."));
    m_cancel = new QPushButton(tr("&Cancel job"), this);
    m_clear = new QPushButton(tr("C&lear finished"), this);
    m_openFolder = new QPushButton(tr("&Open output folder"), this);
    m_openFolder->setToolTip(tr("Open the folder the selected job wrote (the export, the build) in the file manager"));
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_list);
    split->addWidget(m_log);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_clear);
    buttons->addWidget(m_openFolder);
    buttons->addStretch();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(split);
    layout->addLayout(buttons);

    m_tick = new QTimer(this);
    m_tick->setInterval(500);
    connect(m_tick, &QTimer::timeout, this, &JobsPanel::updateElapsed);

    connect(m_queue, &jobs::JobQueue::queued, this, [this](int id) {
        addJob(id);
        followNewJob(id);
    });
    connect(m_queue, &jobs::JobQueue::started, this, [this](int id) {
        if (QTreeWidgetItem* item = itemFor(id))
            item->setText(Started, QLocale().toString(QTime::currentTime(), QLocale::ShortFormat));
        updateRow(id);
        m_tick->start();
        if (selectedJob() < 0) selectJob(id); // a job queued before the panel existed
    });
    connect(m_queue, &jobs::JobQueue::progressChanged, this, [this](int id) { updateRow(id); });
    connect(m_queue, &jobs::JobQueue::finished, this, [this](int id) {
        updateRow(id);
        if (m_queue->runningCount() == 0) m_tick->stop();
    });
    connect(m_queue, &jobs::JobQueue::removed, this, [this](int id) {
        delete itemFor(id);
        if (id == m_shownJob) showSelectedLog();
    });
    connect(m_queue, &jobs::JobQueue::logLine, this, [this](int id) {
        if (id == m_shownJob) appendNewLines();
    });
    connect(m_list, &QTreeWidget::currentItemChanged, this, &JobsPanel::showSelectedLog);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        if (selectedJob() >= 0) m_queue->cancel(selectedJob());
    });
    connect(m_clear, &QPushButton::clicked, m_queue, &jobs::JobQueue::clearFinished);
    connect(m_openFolder, &QPushButton::clicked, this, [this] {
        if (auto job = m_queue->job(selectedJob()))
            if (const QString dir = outputFolder(*job); !dir.isEmpty())
                QDesktopServices::openUrl(QUrl::fromLocalFile(dir));
    });
    for (const auto& job : m_queue->jobs()) addJob(job->id());
    updateButtons();
}

QString JobsPanel::stateText(jobs::JobState state) {
    switch (state) {
    case jobs::JobState::Queued: return tr("Queued");
    case jobs::JobState::Running: return tr("Running");
    case jobs::JobState::Succeeded: return tr("Succeeded");
    case jobs::JobState::Failed: return tr("Failed");
    case jobs::JobState::Cancelled: return tr("Cancelled");
    }
    return {};
}

void JobsPanel::followNewJob(int id) {
    // The job just asked for is the one to watch and cancel, unless the user is watching
    // another one that has not finished. A job that starts later (the next in the queue)
    // does not take the view away from a log being read.
    auto shown = m_queue->job(selectedJob());
    if (!shown || jobs::isFinished(shown->state()) || (shown->state() == jobs::JobState::Queued && shown->id() > id))
        selectJob(id);
}

void JobsPanel::setJobNote(int id, const QString& note) {
    m_notes.insert(id, note);
    updateRow(id);
}

QString JobsPanel::rowText(int id) const {
    auto job = m_queue->job(id);
    if (!job) return {};
    const QString note = m_notes.value(id);
    return note.isEmpty() ? job->title() : tr("%1, %2").arg(job->title(), note);
}

int JobsPanel::selectedJob() const {
    const QTreeWidgetItem* item = m_list->currentItem();
    return item ? item->data(Title, kIdRole).toInt() : -1;
}

void JobsPanel::selectJob(int id) {
    if (QTreeWidgetItem* item = itemFor(id)) m_list->setCurrentItem(item);
}

QTreeWidgetItem* JobsPanel::itemFor(int id) const {
    for (int i = 0; i < m_list->topLevelItemCount(); ++i)
        if (m_list->topLevelItem(i)->data(Title, kIdRole).toInt() == id) return m_list->topLevelItem(i);
    return nullptr;
}

void JobsPanel::addJob(int id) {
    auto job = m_queue->job(id);
    if (!job || itemFor(id)) return;
    auto* item = new QTreeWidgetItem(m_list);
    item->setData(Title, kIdRole, id);
    item->setText(Title, rowText(id));
    auto* bar = new QProgressBar(m_list);
    bar->setTextVisible(true);
    m_list->setItemWidget(item, Progress, bar);
    updateRow(id);
}

void JobsPanel::updateRow(int id) {
    auto job = m_queue->job(id);
    QTreeWidgetItem* item = itemFor(id);
    if (!job || !item) return;
    const jobs::JobState state = job->state();
    item->setText(State, stateText(state));
    item->setText(Title, rowText(id));
    QString tip = rowText(id);
    if (!item->text(Started).isEmpty()) tip += QLatin1Char('\n') + tr("Started at %1").arg(item->text(Started));
    if (!job->message().isEmpty()) tip += QLatin1Char('\n') + job->message();
    item->setToolTip(Title, tip);
    item->setText(Elapsed, state == jobs::JobState::Queued ? QString() : elapsedText(job->elapsedMs()));
    const QColor failed(200, 50, 50);
    item->setForeground(State, state == jobs::JobState::Failed ? QBrush(failed) : m_list->palette().text());
    if (auto* bar = qobject_cast<QProgressBar*>(m_list->itemWidget(item, Progress))) {
        const jobs::JobProgress p = job->progress();
        if (jobs::isFinished(state)) {
            bar->setRange(0, 1);
            bar->setValue(state == jobs::JobState::Succeeded ? 1 : 0);
            bar->setFormat(stateText(state));
        } else {
            // The bar shows the running step's own figures (the build's [n/m]), named with its
            // place in the recipe: "build (7/11) 91%".
            QString step = stepText(p.step);
            if (p.stepIndex >= 0 && p.stepCount > 1)
                step = tr("%1 (%2/%3)").arg(step).arg(p.stepIndex + 1).arg(p.stepCount);
            if (p.total > 0) {
                bar->setRange(0, p.total);
                bar->setValue(std::min(p.done, p.total));
                bar->setFormat(step.isEmpty() ? QStringLiteral("%p%") : step + QStringLiteral(" %p%"));
            } else {
                bar->setRange(0, state == jobs::JobState::Running ? 0 : 1); // busy indicator while running
                bar->setValue(0);
                bar->setFormat(step);
            }
        }
    }
    if (id == selectedJob()) updateButtons();
}

void JobsPanel::updateElapsed() {
    for (const auto& job : m_queue->jobs())
        if (job->state() == jobs::JobState::Running)
            if (QTreeWidgetItem* item = itemFor(job->id())) item->setText(Elapsed, elapsedText(job->elapsedMs()));
}

void JobsPanel::showSelectedLog() {
    m_shownJob = selectedJob();
    m_shownLines = 0;
    m_log->clear();
    appendNewLines();
    m_log->verticalScrollBar()->setValue(m_log->verticalScrollBar()->maximum());
    updateButtons();
}

void JobsPanel::appendNewLines() {
    // Reads the job's own log from the last line shown: a line whose signal is still queued
    // when the view was filled is never shown twice.
    auto job = m_queue->job(m_shownJob);
    if (!job) return;
    const QStringList raw = job->logFrom(m_shownLines);
    if (raw.isEmpty()) return;
    m_shownLines += int(raw.size());
    // Only the lines the view can keep are turned into text: a run that printed a latency line
    // per iteration while the loop was busy elsewhere left a backlog that is not parsed in full.
    QStringList lines;
    for (qsizetype i = std::max<qsizetype>(0, raw.size() - kMaxLogLines); i < raw.size(); ++i)
        if (const QString shown = displayLine(raw[i]); !shown.isNull()) lines << shown;
    if (lines.isEmpty()) return;
    if (lines.size() > kMaxLogLines) lines = lines.mid(lines.size() - kMaxLogLines);
    QScrollBar* scroll = m_log->verticalScrollBar();
    const bool following = scroll->value() >= scroll->maximum() - 1; // the user has not scrolled up
    m_log->appendPlainText(lines.join(QLatin1Char('\n')));
    if (following) scroll->setValue(scroll->maximum());
}

void JobsPanel::updateButtons() {
    auto job = m_queue->job(selectedJob());
    m_cancel->setEnabled(job && !jobs::isFinished(job->state()));
    m_openFolder->setEnabled(job && jobs::isFinished(job->state()) && !outputFolder(*job).isEmpty());
}

JobsPanel::SourceLocation JobsPanel::compilerLocation(const QString& line) {
    const QRegularExpressionMatch m = diagnosticPattern().match(line);
    if (!m.hasMatch()) return {};
    return {m.captured(1).trimmed(), m.captured(2).toInt(), m.captured(3).toInt()};
}

QString JobsPanel::resolveSource(const QString& file) const {
    if (QFileInfo(file).isAbsolute()) return QFileInfo(file).isFile() ? file : QString();
    auto job = m_queue->job(m_shownJob);
    if (!job) return {};
    // Ninja runs the compiler in the build folder, which CMake names in its log.
    QStringList roots;
    static const QRegularExpression written(QStringLiteral("Build files have been written to: (.+)$"));
    for (const QString& line : job->log())
        if (const QRegularExpressionMatch m = written.match(line); m.hasMatch()) roots.prepend(m.captured(1).trimmed());
    if (const QString out = outputFolder(*job); !out.isEmpty()) roots << out + QStringLiteral("/build") << out;
    for (const QString& root : std::as_const(roots)) {
        const QString candidate = QDir::cleanPath(QDir(root).filePath(file));
        if (QFileInfo(candidate).isFile()) return candidate;
    }
    return {};
}

bool JobsPanel::openLogLine(int block) {
    const QTextBlock line = m_log->document()->findBlockByNumber(block);
    if (!line.isValid()) return false;
    const SourceLocation at = compilerLocation(line.text());
    if (at.line <= 0) return false;
    const QString path = resolveSource(at.file);
    if (path.isEmpty()) {
        m_log->setToolTip(tr("'%1' is not on this computer any more (was the export replaced?)").arg(at.file));
        return false;
    }
    if (!m_viewer) m_viewer = new SourceViewer(this);
    m_viewer->showFile(path, at.line, at.column);
    m_viewer->show();
    m_viewer->raise();
    return true;
}

bool JobsPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_log->viewport()) {
        if (event->type() == QEvent::MouseMove) {
            auto* mouse = static_cast<QMouseEvent*>(event);
            const QTextBlock block = m_log->cursorForPosition(mouse->position().toPoint()).block();
            const bool link = compilerLocation(block.text()).line > 0;
            m_log->viewport()->setCursor(link ? Qt::PointingHandCursor : Qt::IBeamCursor);
        } else if (event->type() == QEvent::MouseButtonRelease) {
            auto* mouse = static_cast<QMouseEvent*>(event);
            // A click, not the end of a selection drag.
            if (mouse->button() == Qt::LeftButton && !m_log->textCursor().hasSelection())
                openLogLine(m_log->cursorForPosition(mouse->position().toPoint()).blockNumber());
        }
    }
    return QWidget::eventFilter(watched, event);
}

QString JobsPanel::outputFolder(const jobs::Job& job) {
    const std::any result = job.result();
    QString dir;
    if (auto* r = std::any_cast<exporter::ExportResult>(&result))
        dir = r->dir;
    else if (auto* r = std::any_cast<build::BuildResult>(&result))
        dir = QFileInfo(r->binary).absolutePath();
    else if (auto* r = std::any_cast<jobs::BenchResult>(&result))
        dir = r->exportDir;
    return !dir.isEmpty() && QFileInfo(dir).isDir() ? dir : QString();
}

} // namespace embark::ui
