// docs/cli.md says what the parser does: every command's synopsis in the docs is the one its
// `--help` prints (or, for commands with subcommands, names the same options), options with a
// default are shown as optional, and the target options' table gives the defaults the parser has.
#include "support/cli_process.h"
#include "support/test_paths.h"

#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QtTest>

using namespace embark::test;

namespace {

QString normalized(const QString& s) { return s.simplified(); }

// The "## NAME" sections of docs/cli.md: each synopsis (an indented "embark-cli NAME ..."
// line with its indented continuation lines) and the section's whole text.
struct Section {
    QStringList synopses;
    QString text;
};

std::map<QString, Section> docSections() {
    QFile f(sourceDir() + "/docs/cli.md");
    std::map<QString, Section> out;
    if (!f.open(QIODevice::ReadOnly)) return out;
    const QStringList lines = QString::fromUtf8(f.readAll()).split('\n');
    QString current;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString& line = lines[i];
        if (line.startsWith("## ")) current = line.mid(3).trimmed();
        if (current.isEmpty()) continue;
        out[current].text += line + "\n";
        if (!line.startsWith("    embark-cli " + current)) continue;
        QString synopsis = line;
        // Continuation lines are indented deeper than the synopsis' own four spaces.
        while (i + 1 < lines.size() && lines[i + 1].startsWith("     ") &&
               !lines[i + 1].trimmed().startsWith("embark-cli"))
            synopsis += " " + lines[++i];
        out[current].synopses << normalized(synopsis).mid(QStringLiteral("embark-cli ").size());
    }
    return out;
}

// Short options by their long names, as the help lists them ("-o, --output <DIR>").
std::map<QString, QString> shortOptions(const QString& help) {
    static const QRegularExpression pair("^\\s+-(\\w), --([a-z][a-z0-9-]*)", QRegularExpression::MultilineOption);
    std::map<QString, QString> out;
    for (auto it = pair.globalMatch(help); it.hasNext();) {
        const auto m = it.next();
        out[m.captured(1)] = m.captured(2);
    }
    return out;
}

// Long option names in a synopsis ("--board", not the bare "--"; "-o" by its long name).
QSet<QString> optionNames(const QString& text, const std::map<QString, QString>& shorts = {}) {
    static const QRegularExpression option("(?<![\\w-])--([a-z][a-z0-9-]*)");
    static const QRegularExpression shortOption("(?<![\\w-])-(\\w)(?![\\w-])");
    QSet<QString> names;
    for (auto it = option.globalMatch(text); it.hasNext();) names << it.next().captured(1);
    for (auto it = shortOption.globalMatch(text); it.hasNext();) {
        const QString letter = it.next().captured(1);
        if (auto s = shorts.find(letter); s != shorts.end()) names << s->second;
    }
    names.remove("help");
    return names;
}

// Options shown without brackets: what the synopsis says is required.
QSet<QString> requiredOptions(const QString& synopsis, const std::map<QString, QString>& shorts) {
    QString outside;
    int depth = 0;
    for (QChar c : synopsis) {
        if (c == '[') ++depth;
        if (depth == 0) outside += c;
        if (c == ']') --depth;
    }
    return optionNames(outside, shorts);
}

// The help's option lines: "--name" -> its description (joined over wrapped lines).
std::map<QString, QString> helpOptions(const QString& help) {
    std::map<QString, QString> out;
    // "  -o, --output <DIR>  ...", "  --db, --store <FILE>  ..." (the first long name counts)
    static const QRegularExpression head(
        "^\\s+(?:-\\w, )?--([a-z][a-z0-9-]*)(?:, --[a-z0-9-]+)*(?: <[^>]*>)?\\s{2,}(.*)$");
    QString last;
    for (const QString& line : help.split('\n')) {
        const auto m = head.match(line);
        if (m.hasMatch() && m.captured(1) == QLatin1String("help")) {
            last.clear();
        } else if (m.hasMatch()) {
            last = m.captured(1);
            out[last] = m.captured(2);
        } else if (!last.isEmpty() && line.startsWith("      ") && !line.trimmed().isEmpty()) {
            out[last] += " " + line.trimmed();
        } else {
            last.clear();
        }
    }
    return out;
}

QStringList commandNames() {
    const CliResult r = runCli({"--help"});
    QStringList names;
    bool inCommands = false;
    for (const QString& line : QString::fromUtf8(r.out).split('\n')) {
        if (line.startsWith("Commands:"))
            inCommands = true;
        else if (inCommands && line.trimmed().isEmpty())
            break;
        else if (inCommands)
            names << line.trimmed().section(' ', 0, 0);
    }
    return names;
}

QString usageLine(const QByteArray& help) {
    const QString first = QString::fromUtf8(help).section('\n', 0, 0);
    return first.startsWith("Usage: embark-cli ") ? normalized(first.mid(QStringLiteral("Usage: embark-cli ").size()))
                                                  : QString();
}

} // namespace

class TestHelpDocs : public QObject {
    Q_OBJECT
private slots:
    void synopsesAreTheParsers_data() {
        QTest::addColumn<QString>("command");
        const QStringList names = commandNames();
        QVERIFY2(names.size() >= 10, "embark-cli --help lists its commands");
        for (const QString& c : names) QTest::newRow(qPrintable(c)) << c;
    }

    void synopsesAreTheParsers() {
        QFETCH(QString, command);
        const auto sections = docSections();
        const auto section = sections.find(command);
        QVERIFY2(section != sections.end() && !section->second.synopses.isEmpty(),
                 qPrintable("docs/cli.md has no '## " + command + "' section with a synopsis"));
        const QStringList& synopses = section->second.synopses;
        if (synopses.size() == 1) {
            const CliResult r = runCli({command, "--help"});
            QCOMPARE(r.code, 0);
            // Word for word: the docs' synopsis is the one the parser prints.
            QCOMPARE(synopses.first(), usageLine(r.out));
            const auto options = helpOptions(QString::fromUtf8(r.out));
            QSet<QString> parsed;
            for (const auto& [name, description] : options) parsed << name;
            const auto shorts = shortOptions(QString::fromUtf8(r.out));
            QCOMPARE(optionNames(synopses.first(), shorts), parsed);
            // An option with a default is optional, and a required one has none.
            const QSet<QString> required = requiredOptions(synopses.first(), shorts);
            for (const auto& [name, description] : options)
                if (description.contains("(default") || description.contains("; default"))
                    QVERIFY2(!required.contains(name),
                             qPrintable(command + " --" + name + " has a default but the synopsis requires it"));
            return;
        }
        // Subcommands: each documented form names only options its help knows, and together
        // they name all of them.
        QSet<QString> documented, parsed;
        for (const QString& s : synopses) {
            const QString sub = s.section(' ', 1, 1);
            CliResult r = runCli({command, sub, "--help"});
            QCOMPARE(r.code, 0);
            const QString usage = usageLine(r.out);
            QVERIFY2(!usage.isEmpty(), qPrintable(command + " " + sub + " --help prints no usage line"));
            if (usage.startsWith(command + " " + sub + " ")) QCOMPARE(s, usage);
            QSet<QString> own;
            for (const auto& [name, description] : helpOptions(QString::fromUtf8(r.out))) own << name;
            const auto shorts = shortOptions(QString::fromUtf8(r.out));
            own += optionNames(usage, shorts);
            const QSet<QString> named = optionNames(s, shorts);
            for (const QString& n : named)
                QVERIFY2(own.contains(n), qPrintable("docs: '" + s + "' names --" + n + ", which its --help does not"));
            documented += named;
            parsed += own;
        }
        QCOMPARE(documented, parsed);
    }

    // The target options are documented once, with the defaults every command's parser has.
    void targetOptionDefaults() {
        const auto sections = docSections();
        const auto section = sections.find("Target options");
        QVERIFY2(section != sections.end(), "docs/cli.md has a '## Target options' section");
        static const QRegularExpression row("^\\| `--([a-z-]+)[^`]*` \\| ([^|]+) \\|",
                                            QRegularExpression::MultilineOption);
        std::map<QString, QString> defaults;
        for (auto it = row.globalMatch(section->second.text); it.hasNext();) {
            const auto m = it.next();
            defaults[m.captured(1)] = m.captured(2).trimmed().remove('`');
        }
        QCOMPARE(int(defaults.size()), 10);
        for (const char* command : {"export", "plan", "bench", "quantize"}) {
            const CliResult r = runCli({command, "--help"});
            QCOMPARE(r.code, 0);
            const auto options = helpOptions(QString::fromUtf8(r.out));
            for (const auto& [name, value] : defaults) {
                const auto o = options.find(name);
                QVERIFY2(o != options.end(), qPrintable(QString(command) + " takes no --" + name));
                if (value == "none") continue;
                QVERIFY2(o->second.contains("default " + value) || o->second.contains("default: " + value),
                         qPrintable(QString(command) + " --" + name + ": docs say the default is '" + value +
                                    "', --help: " + o->second));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestHelpDocs)
#include "tst_help_docs.moc"
