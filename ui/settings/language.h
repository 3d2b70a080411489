// The interface language: the setting ("" = follow the system), the languages shipped as
// compiled translations, and installing the matching translators at start-up.
#pragma once

#include <QString>
#include <QStringList>

class QCoreApplication;

namespace embark::ui {

struct Language {
    QString code; // "" system, "en", "fr", "zh_CN"
    QString nativeName;
};

QList<Language> availableLanguages();
QString languageSetting();
void setLanguageSetting(const QString& code);
// Loads Embark's and Qt's translations for the setting (or the system locale); returns the
// language code in effect.
QString installTranslators(QCoreApplication& app);
// Qt's standard button texts (OK, Cancel, Save, ... as the platform theme asks for them),
// in the interface language even where Qt's own translations (qtbase_*.qm) are not
// installed: Embark's .ts files carry them.
QStringList standardButtonTexts();

} // namespace embark::ui
