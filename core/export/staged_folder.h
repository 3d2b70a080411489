// Writes a folder atomically: everything goes into a hidden staging folder beside the target,
// which is renamed into place only when complete, so a failure never leaves a half export.
#pragma once

#include "ir/error.h"

#include <QByteArray>
#include <QString>

namespace embark::exporter {

class StagedFolder {
public:
    // Refuses a non-empty existing target unless `force`, and a target whose parent cannot be
    // created or written, with messages naming the folder and what to do.
    static Expected<StagedFolder*> create(const QString& target, bool force);
    ~StagedFolder(); // removes the staging folder unless committed
    StagedFolder(const StagedFolder&) = delete;
    StagedFolder& operator=(const StagedFolder&) = delete;

    const QString& stagingPath() const { return m_staging; }
    const QString& targetPath() const { return m_target; }

    // Writes `relative` (folders created as needed); the path must stay inside the folder.
    Status writeFile(const QString& relative, const QByteArray& data, bool executable = false);
    // Copies a file from disk into `relative`.
    Status copyFile(const QString& source, const QString& relative);

    // Renames the staging folder into place (replacing an existing target when forced).
    Status commit();

private:
    StagedFolder(QString target, QString staging, bool force);
    QString m_target;
    QString m_staging;
    bool m_force = false;
    bool m_committed = false;
};

} // namespace embark::exporter
