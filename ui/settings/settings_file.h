// The studio's settings file: a JSON object written through QSettings' custom-format hooks.
//
// Why not QSettings::IniFormat: Qt 6.4 writes it through a QSaveFile but commits even when the
// last buffered write failed, so on a full disk the settings file is replaced by a truncated one
// and status() says NoError. This format flushes inside the write hook and reports the failure,
// so Qt discards the temporary file and keeps the old settings (status() = AccessError).
// JSON keeps the file readable: strings, string lists, numbers and booleans are written as such;
// other values (window geometry, dock state) as {"qvariant": "<base64 of QDataStream>"}.
#pragma once

#include <QSettings>

namespace embark::ui {

// The registered format (registered on first use); its files end in ".json".
QSettings::Format settingsFormat();

// Makes settingsFormat() the default of QSettings() for this process, and imports the values of
// an older INI settings file (<config>/<org>/<app>.conf) the first time. Call after setting the
// organisation and application names, before anything reads a setting.
void installSettingsFormat();

} // namespace embark::ui
