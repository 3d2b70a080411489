#include "staged_folder.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QUuid>

namespace embark::exporter {
namespace {
Error fsError(const QString& what) { return makeError(ErrorKind::External, what.toStdString()); }
} // namespace

StagedFolder::StagedFolder(QString target, QString staging, bool force)
    : m_target(std::move(target)), m_staging(std::move(staging)), m_force(force) {}

Expected<StagedFolder*> StagedFolder::create(const QString& targetIn, bool force) {
    if (targetIn.isEmpty()) return makeError(ErrorKind::Usage, "no output folder given (-o DIR)");
    const QString target = QDir::cleanPath(QFileInfo(targetIn).absoluteFilePath());
    const QFileInfo info(target);
    if (info.exists() && !info.isDir())
        return makeError(ErrorKind::Usage, "output '" + target.toStdString() + "' exists and is not a folder");
    if (info.isDir() && !QDir(target).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden) && !force)
        return makeError(ErrorKind::Usage, "output folder '" + target.toStdString() +
                                               "' is not empty: choose another folder or pass --force to replace it");
    const QString parent = info.absolutePath();
    if (!QDir().mkpath(parent))
        return fsError("cannot create folder '" + parent + "': check the path and its permissions");
    const QString staging =
        parent + "/." + info.fileName() + ".embark-" + QUuid::createUuid().toString(QUuid::Id128).left(8);
    if (!QDir().mkpath(staging))
        return fsError("cannot write into '" + parent +
                       "' (read-only or no permission): choose a writable output folder");
    return new StagedFolder(target, staging, force);
}

StagedFolder::~StagedFolder() {
    if (!m_committed) QDir(m_staging).removeRecursively();
}

Status StagedFolder::writeFile(const QString& relative, const QByteArray& data, bool executable) {
    const QString path = QDir::cleanPath(m_staging + "/" + relative);
    if (!path.startsWith(m_staging + "/"))
        return makeError(ErrorKind::InvalidInput,
                         "refusing to write '" + relative.toStdString() + "' outside the export folder");
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size() || !f.flush()) {
        const QString why = f.errorString();
        return fsError("cannot write '" + QDir(m_target).filePath(relative) + "': " + why +
                       " (disk full or read-only?)");
    }
    f.close();
    if (executable)
        f.setPermissions(f.permissions() | QFileDevice::ExeOwner | QFileDevice::ExeGroup | QFileDevice::ExeOther);
    return {};
}

Status StagedFolder::copyFile(const QString& source, const QString& relative) {
    QFile in(source);
    if (!in.open(QIODevice::ReadOnly))
        return fsError("cannot read '" + source + "': " + in.errorString() + " (is Embark installed completely?)");
    return writeFile(relative, in.readAll());
}

Status StagedFolder::commit() {
    QDir dir;
    QString backup;
    if (QFileInfo::exists(m_target)) {
        if (!m_force)
            return makeError(ErrorKind::Usage, "output folder '" + m_target.toStdString() + "' appeared meanwhile");
        backup = m_staging + ".old";
        if (!dir.rename(m_target, backup)) return fsError("cannot replace '" + m_target + "': check its permissions");
    }
    if (!dir.rename(m_staging, m_target)) {
        if (!backup.isEmpty()) dir.rename(backup, m_target);
        return fsError("cannot move the export into '" + m_target + "'");
    }
    m_committed = true;
    if (!backup.isEmpty()) QDir(backup).removeRecursively();
    return {};
}

} // namespace embark::exporter
