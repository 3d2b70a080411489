#include "engine_text.h"

#include <QCoreApplication>
#include <QLocale>
#include <QRegularExpression>

namespace embark::ui {

namespace {

class EngineText {
    Q_DECLARE_TR_FUNCTIONS(EngineText)
public:
    static QString rule(const QString& english) {
        if (english == QLatin1String("node override")) return tr("node override");
        if (english == QLatin1String("op override")) return tr("op override");
        if (english == QLatin1String("chosen library")) return tr("chosen library");
        return english;
    }
    static QString status(const QString& english) {
        if (english == QLatin1String("ok")) return tr("ok");
        if (english == QLatin1String("failed")) return tr("failed");
        if (english == QLatin1String("cancelled")) return tr("cancelled");
        return english;
    }
    static QString translate(const QString& s) {
        if (s == QLatin1String("This computer")) return tr("This computer");
        static const QRegularExpression runs(
            QStringLiteral("^(node override|op override|chosen library): (\\S+) runs (.+)$"));
        static const QRegularExpression fallback(
            QStringLiteral("^portable fallback after (node override|op override|chosen library): (.+)$"));
        static const QRegularExpression connected(QStringLiteral("^connected to (.+)$"));
        static const QRegularExpression importing(QStringLiteral("^importing (.+)$"));
        static const QRegularExpression reused(QStringLiteral("^using the model already imported from (.+)$"));
        static const QRegularExpression plan(QStringLiteral("^plan: (\\d+) nodes after fusion, arena (\\d+) bytes$"));
        static const QRegularExpression built(QStringLiteral("^built (.+) \\(([^,]+), (\\d+) bytes\\)$"));
        static const QRegularExpression run(QStringLiteral("^run (ok|failed|cancelled): (.*)$"));
        const QLocale locale;
        QRegularExpressionMatch m;
        if ((m = runs.match(s)).hasMatch())
            return tr("%1: %2 runs %3").arg(rule(m.captured(1)), m.captured(2), m.captured(3));
        if ((m = fallback.match(s)).hasMatch())
            return tr("portable fallback after %1: %2").arg(rule(m.captured(1)), m.captured(2));
        if ((m = connected.match(s)).hasMatch()) return tr("connected to %1").arg(m.captured(1));
        if ((m = importing.match(s)).hasMatch()) return tr("importing %1").arg(m.captured(1));
        if ((m = reused.match(s)).hasMatch()) return tr("using the model already imported from %1").arg(m.captured(1));
        if ((m = plan.match(s)).hasMatch())
            return tr("plan: %1 nodes after fusion, arena %2")
                .arg(m.captured(1), locale.formattedDataSize(m.captured(2).toLongLong()));
        if ((m = built.match(s)).hasMatch())
            return tr("built %1 (%2, %3)")
                .arg(m.captured(1), m.captured(2), locale.formattedDataSize(m.captured(3).toLongLong()));
        if ((m = run.match(s)).hasMatch()) return tr("run %1: %2").arg(status(m.captured(1)), m.captured(2));
        return s;
    }
};

} // namespace

QString engineText(const QString& english) { return EngineText::translate(english); }

} // namespace embark::ui
