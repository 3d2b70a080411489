// The run store's schema: its current version and the migration steps that bring an older
// database (PRAGMA user_version) up to it, each step in its own transaction. Internal.
#pragma once

#include "ir/error.h"

#include <QSqlDatabase>
#include <QString>

namespace embark::store::detail {

constexpr int kSchemaVersion = 2;

// Brings the database to kSchemaVersion; refuses one written by a newer Embark.
Status migrate(QSqlDatabase& db, const QString& path);

// Runs one statement; on failure an error naming the database file and the SQL error.
Status exec(QSqlDatabase& db, const QString& sql, const QString& path);

Error sqlError(const QString& path, const QString& what, const QString& sqlMessage);

} // namespace embark::store::detail
