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
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    else
        delete qt;
    return locale.name();
}

QStringList standardButtonTexts() {
    // The contexts and sources of QPlatformTheme::defaultStandardButtonText and of the GNOME
    // theme's own texts; listed here so lupdate keeps them in Embark's .ts files.
    static const char* const generic[][2] = {
        {"QPlatformTheme", QT_TRANSLATE_NOOP("QPlatformTheme", "OK")},
        {"QPlatformTheme", QT_TRANSLATE_NOOP("QPlatformTheme", "Save")},
        {"QPlatformTheme", QT_TRANSLATE_NOOP("QPlatformTheme", "Save All")},
        {"QPlatformTheme", QT_TRANSLATE_NOOP("QPlatformTheme", "Open")},
        {"QPlatformTheme", QT_TRANSLATE_NOOP("QPlatformTheme", "&Yes")},
        {"QPlatformTheme", QT_TRANSLATE_NOOP("QPlatformTheme", "Yes to &All")},
        {"QPlatformTheme", QT_TRANSLATE_NOOP("QPlatformTheme", "&No")},
        {"QPlatformTheme", QT_TRANSLATE_NOOP("QPlatformTheme", "N&o to All")},
        {"QPlatformTheme", QT_TRANSLATE_NOOP("QPlatformTheme", "Abort")},
        {"QPlatformTheme", QT_TRANSLATE_NOOP("QPlatformTheme", "Retry")},
        {"QPlatformTheme", QT_TRANSLATE_NOOP("QPlatformTheme", "Ignore")},
        {"QPlatformTheme", QT_TRANSLATE_NOOP("QPlatformTheme", "Close")},
        {"QPlatformTheme", QT_TRANSLATE_NOOP("QPlatformTheme", "Cancel")},
        {"QPlatformTheme", QT_TRANSLATE_NOOP("QPlatformTheme", "Discard")},
        {"QPlatformTheme", QT_TRANSLATE_NOOP("QPlatformTheme", "Help")},
        {"QPlatformTheme", QT_TRANSLATE_NOOP("QPlatformTheme", "Apply")},
        {"QPlatformTheme", QT_TRANSLATE_NOOP("QPlatformTheme", "Reset")},
        {"QPlatformTheme", QT_TRANSLATE_NOOP("QPlatformTheme", "Restore Defaults")},
        {"QGnomeTheme", QT_TRANSLATE_NOOP("QGnomeTheme", "&OK")},
        {"QGnomeTheme", QT_TRANSLATE_NOOP("QGnomeTheme", "&Save")},
        {"QGnomeTheme", QT_TRANSLATE_NOOP("QGnomeTheme", "&Cancel")},
        {"QGnomeTheme", QT_TRANSLATE_NOOP("QGnomeTheme", "&Close")},
        {"QGnomeTheme", QT_TRANSLATE_NOOP("QGnomeTheme", "Close without Saving")}};
    QStringList texts;
    for (const auto& t : generic) texts << QCoreApplication::translate(t[0], t[1]);
    return texts;
}

} // namespace embark::ui
