#include "language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>

namespace embark::ui {

QList<Language> availableLanguages() {
    return {{QString(), QCoreApplication::translate("Language", "System language")},
            {QStringLiteral("en"), QStringLiteral("English")},
            {QStringLiteral("fr"), QStringLiteral("Français")},
            {QStringLiteral("zh_CN"), QStringLiteral("简体中文")}};
}

QString languageSetting() { return QSettings().value(QStringLiteral("language")).toString(); }

void setLanguageSetting(const QString& code) { QSettings().setValue(QStringLiteral("language"), code); }

QString installTranslators(QCoreApplication& app) {
    const QString setting = languageSetting();
    const QLocale locale = setting.isEmpty() ? QLocale::system() : QLocale(setting);
    // Numbers, dates and sizes the views format with QLocale() follow the chosen language too.
    if (!setting.isEmpty()) QLocale::setDefault(locale);
    auto* embark = new QTranslator(&app);
    // The .qm files are compiled at build time and embedded under :/i18n.
    if (embark->load(locale, QStringLiteral("embark"), QStringLiteral("_"), QStringLiteral(":/i18n"))) {
        QCoreApplication::installTranslator(embark);
    } else {
        delete embark;
        return QStringLiteral("en");
    }
    auto* qt = new QTranslator(&app);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    else
        delete qt;
    return locale.name();
}

} // namespace embark::ui
