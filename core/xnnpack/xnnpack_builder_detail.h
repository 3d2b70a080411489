// Internal to XNNPACK's provisioning (xnnpack_builder.cpp: configure, build, stage, cache;
// xnnpack_sources.cpp: the sources from a checkout or tarballs and their pinned commits): the
// build log, the sources found and the helpers both use.
#pragma once

#include "xnnpack_builder.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

namespace embark::xnnpack::detail {

inline constexpr const char* kDeps[] = {"cpuinfo", "pthreadpool", "FXdiv"};

// Every line goes to the log file and the caller; remembers the last error-looking line.
class BuildLog {
public:
    BuildLog(const QString& path, const XnnpackBuildOptions& o) : m_file(path), m_o(o) {
        QDir().mkpath(QFileInfo(path).absolutePath());
        m_file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text);
    }
    void operator()(const QString& line) {
        if (m_file.isOpen()) {
            m_file.write(line.toUtf8() + '\n');
            m_file.flush();
        }
        static const QRegularExpression progress(QStringLiteral("^\\[\\s*(\\d+)\\s*/\\s*(\\d+)\\]"));
        if (auto m = progress.match(line); m.hasMatch() && m_o.progress)
            m_o.progress(m.captured(1).toInt(), m.captured(2).toInt());
        if (line.contains(": error:") || line.contains("CMake Error") || line.contains("fatal error") ||
            line.startsWith("tar:") || line.startsWith("gzip:") || line.startsWith("ninja: error"))
            m_lastError = line.trimmed();
        if (m_o.log) m_o.log(line);
    }
    QString path() const { return m_file.fileName(); }
    QString lastError() const { return m_lastError; }

private:
    QFile m_file;
    const XnnpackBuildOptions& m_o;
    QString m_lastError;
};

struct Sources {
    QString xnnpack;       // source folder
    QString xnnpackCommit; // full or short sha
    QString dep[3];        // source folders (empty: XNNPACK downloads them)
    QString depCommit[3];  // what the source says it is (empty: unknown)
    QString description;
};

bool sameCommit(const QString& a, const QString& b);

// A program's output (trimmed), or an error naming it.
Expected<QString> runText(const QString& program, const QStringList& args, const QString& workDir);

// The XNNPACK commit the sources name without unpacking anything (the tarball's file name, or
// the checkout's HEAD); empty when it cannot be told that way.
QString xnnpackCommitOfSources(const XnnpackBuildOptions& o);

Expected<Sources> sourcesFromTarballs(const XnnpackBuildOptions& o, const QString& work, BuildLog& log);
Expected<Sources> sourcesFromCheckout(const XnnpackBuildOptions& o, const QString& work, BuildLog& log);

// The known trap: XNNPACK builds and links against other dependency commits silently, then
// crashes at start-up. Refuse them; warn when a folder's commit cannot be told.
Status checkPins(const Sources& s, const PinnedCommits& pins, QStringList& warnings);

} // namespace embark::xnnpack::detail
