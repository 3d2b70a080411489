// Internal to SshTransport's source files: chunk size, random name parts, and the path and
// permission helpers that the SFTP and the exec-channel (no SFTP) file paths share.
#pragma once

#include <QFileDevice>
#include <QString>
#include <QUuid>

#include <sys/types.h>

namespace embark::deploy::detail {

inline constexpr int kChunk = 32 * 1024; // below every SFTP server's packet limit

// A short random name part for temporary files and run folders on the board.
inline QString randomSuffix() { return QUuid::createUuid().toString(QUuid::Id128).left(10); }

inline QString parentOf(const QString& remotePath) {
    const auto slash = remotePath.lastIndexOf('/');
    return slash <= 0 ? QStringLiteral("/") : remotePath.left(slash);
}

inline QFileDevice::Permissions permissionsOf(uint32_t mode) {
    QFileDevice::Permissions p;
    if (mode & 0400) p |= QFileDevice::ReadOwner | QFileDevice::ReadUser;
    if (mode & 0200) p |= QFileDevice::WriteOwner | QFileDevice::WriteUser;
    if (mode & 0100) p |= QFileDevice::ExeOwner | QFileDevice::ExeUser;
    if (mode & 0040) p |= QFileDevice::ReadGroup;
    if (mode & 0010) p |= QFileDevice::ExeGroup;
    if (mode & 0004) p |= QFileDevice::ReadOther;
    if (mode & 0001) p |= QFileDevice::ExeOther;
    return p;
}

inline mode_t modeOf(QFileDevice::Permissions p) {
    mode_t m = 0;
    if (p & QFileDevice::ReadOwner) m |= 0400;
    if (p & QFileDevice::WriteOwner) m |= 0200;
    if (p & QFileDevice::ExeOwner) m |= 0100;
    if (p & QFileDevice::ReadGroup) m |= 0040;
    if (p & QFileDevice::ExeGroup) m |= 0010;
    if (p & QFileDevice::ReadOther) m |= 0004;
    if (p & QFileDevice::ExeOther) m |= 0001;
    return m;
}

} // namespace embark::deploy::detail
