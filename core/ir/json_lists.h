// A list of names as a JSON array of strings: export.json, plan --json and the run store write
// node, value and library names this way.
#pragma once

#include <QJsonArray>
#include <QString>

#include <string>
#include <vector>

namespace embark::ir {

inline QJsonArray jsonStrings(const std::vector<std::string>& names) {
    QJsonArray a;
    for (const std::string& s : names) a.append(QString::fromStdString(s));
    return a;
}

} // namespace embark::ir
