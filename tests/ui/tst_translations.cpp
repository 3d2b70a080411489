// The translation files are complete: every message of translations/*.ts has a finished,
// non-empty translation (every plural form too) that keeps the source's %1..%9 and %n
// placeholders, and both languages translate the same set of messages.
#include "support/test_paths.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTest>
#include <QXmlStreamReader>

namespace {

struct Message {
    QString context, source, translation;
    QStringList forms; // numerus forms
    QString type;
    bool numerus = false;
};

QList<Message> readTs(const QString& path, QString* error) {
    QList<Message> messages;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot open %1").arg(path);
        return messages;
    }
    QXmlStreamReader xml(&file);
    QString context;
    Message current;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isEndElement() && xml.name() == QLatin1String("message")) messages << current;
        if (!xml.isStartElement()) continue;
        const auto name = xml.name();
        if (name == QLatin1String("name"))
            context = xml.readElementText();
        else if (name == QLatin1String("message"))
            current = Message{context, {}, {}, {}, {}, xml.attributes().value("numerus") == QLatin1String("yes")};
        else if (name == QLatin1String("source"))
            current.source = xml.readElementText();
        else if (name == QLatin1String("translation")) {
            current.type = xml.attributes().value("type").toString();
            if (!current.numerus) current.translation = xml.readElementText();
        } else if (name == QLatin1String("numerusform"))
            current.forms << xml.readElementText();
    }
    if (xml.hasError()) *error = QStringLiteral("%1: %2 at line %3").arg(path, xml.errorString()).arg(xml.lineNumber());
    return messages;
}

QSet<QString> placeholders(const QString& text) {
    static const QRegularExpression re(QStringLiteral("%(\\d|n)"));
    QSet<QString> found;
    for (auto it = re.globalMatch(text); it.hasNext();) found << it.next().captured(0);
    return found;
}

} // namespace

class TestTranslations : public QObject {
    Q_OBJECT
private slots:
    void complete_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("fr") << "embark_fr.ts";
        QTest::newRow("zh_CN") << "embark_zh_CN.ts";
    }
    void complete() {
        QFETCH(QString, file);
        QString error;
        const QList<Message> messages = readTs(embark::test::sourceDir() + "/translations/" + file, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(messages.size() > 100, "the .ts file looks empty: run `ninja update_translations`");
        QStringList problems;
        for (const Message& m : messages) {
            const QString where = QStringLiteral("%1: \"%2\"").arg(m.context, m.source);
            if (m.type == QLatin1String("unfinished")) problems << where + " is unfinished";
            const QStringList texts = m.numerus ? m.forms : QStringList{m.translation};
            for (const QString& t : texts) {
                if (t.trimmed().isEmpty())
                    problems << where + " has an empty translation";
                else if (m.type != QLatin1String("vanished") && m.type != QLatin1String("obsolete") &&
                         placeholders(t) != placeholders(m.source))
                    problems << where + " loses or adds a placeholder: \"" + t + "\"";
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    }

    void sameMessagesInEveryLanguage() {
        QString error;
        QSet<QString> fr, zh;
        for (const Message& m : readTs(embark::test::sourceDir() + "/translations/embark_fr.ts", &error))
            fr << m.context + "|" + m.source;
        for (const Message& m : readTs(embark::test::sourceDir() + "/translations/embark_zh_CN.ts", &error))
            zh << m.context + "|" + m.source;
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(fr, zh);
    }
};

QTEST_GUILESS_MAIN(TestTranslations)
#include "tst_translations.moc"
