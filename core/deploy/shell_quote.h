// The one place that turns data (paths, names, arguments) into POSIX shell words for a
// remote command line: every value goes through shellQuote, so it is never shell syntax.
#pragma once

#include <QString>
#include <QStringList>

namespace embark::deploy {

// 'text' with each ' written as '\'' : the shell reads the exact bytes back, whatever they
// are (spaces, ;, $, `, quotes, newlines). The empty string becomes ''.
QString shellQuote(const QString& text);

// Each word quoted and joined by spaces.
QString shellJoin(const QStringList& words);

} // namespace embark::deploy
