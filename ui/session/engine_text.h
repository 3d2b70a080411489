// The engine (core/) writes its names, reasons and job log lines in English, for the CLI and
// the logs. The studio shows the ones a user meets in the interface language: engineText()
// recognises them by their fixed wording and returns the translation (anything else as is).
#pragma once

#include <QString>

namespace embark::ui {

QString engineText(const QString& english);

} // namespace embark::ui
