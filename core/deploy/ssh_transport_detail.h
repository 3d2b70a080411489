// Internal to SshTransport's two source files.
#pragma once

#include <QString>
#include <QUuid>

namespace embark::deploy::detail {

inline constexpr int kChunk = 32 * 1024; // below every SFTP server's packet limit

// A short random name part for temporary files and run folders on the board.
inline QString randomSuffix() { return QUuid::createUuid().toString(QUuid::Id128).left(10); }

} // namespace embark::deploy::detail
