#include "shell_quote.h"

namespace embark::deploy {

QString shellQuote(const QString& text) {
    QString out;
    out.reserve(text.size() + 2);
    out += '\'';
    for (const QChar c : text) {
        if (c == '\'')
            out += QStringLiteral("'\\''");
        else
            out += c;
    }
    out += '\'';
    return out;
}

QString shellJoin(const QStringList& words) {
    QStringList quoted;
    quoted.reserve(words.size());
    for (const QString& w : words) quoted << shellQuote(w);
    return quoted.join(' ');
}

} // namespace embark::deploy
