#include "text_table.h"

#include <algorithm>
#include <cmath>

namespace embark::cli {

QString msText(double ns) {
    const double ms = ns / 1e6;
    const double magnitude = std::abs(ms);
    int decimals = 3;
    if (magnitude > 0 && magnitude < 0.1)
        decimals = std::min(6, static_cast<int>(std::ceil(-std::log10(magnitude))) + 2);
    return QString::number(ms, 'f', decimals);
}

TextTable::TextTable(std::vector<Column> columns, QString indent)
    : m_columns(std::move(columns)), m_indent(std::move(indent)) {}

void TextTable::addRow(QStringList cells) {
    while (cells.size() < static_cast<qsizetype>(m_columns.size())) cells << QString();
    m_rows.push_back(std::move(cells));
}

void TextTable::print(QTextStream& out) const {
    std::vector<qsizetype> width(m_columns.size());
    for (size_t c = 0; c < m_columns.size(); ++c) {
        width[c] = m_columns[c].header.size();
        for (const QStringList& row : m_rows) width[c] = std::max(width[c], row[static_cast<qsizetype>(c)].size());
    }
    auto line = [&](auto cell) {
        QString text = m_indent;
        for (size_t c = 0; c < m_columns.size(); ++c) {
            const QString s = cell(c);
            const bool last = c + 1 == m_columns.size();
            if (c > 0) text += "  ";
            if (m_columns[c].align == Align::Right)
                text += s.rightJustified(width[c]);
            else
                text += last ? s : s.leftJustified(width[c]);
        }
        // Trailing spaces of empty last cells are noise.
        while (text.endsWith(' ')) text.chop(1);
        out << text << "\n";
    };
    line([&](size_t c) { return m_columns[c].header; });
    for (const QStringList& row : m_rows) line([&](size_t c) { return row[static_cast<qsizetype>(c)]; });
}

} // namespace embark::cli
