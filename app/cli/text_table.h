// A plain-text table whose columns are as wide as their widest cell: names are never cut, so
// two rows never read the same, and no column runs into the next.
#pragma once

#include <QString>
#include <QStringList>
#include <QTextStream>

#include <vector>

namespace embark::cli {

class TextTable {
public:
    enum class Align { Left, Right };
    struct Column {
        QString header;
        Align align = Align::Left;
    };

    explicit TextTable(std::vector<Column> columns, QString indent = {});
    void addRow(QStringList cells); // missing cells are empty
    // Writes the header and the rows; the last column gets no trailing padding.
    void print(QTextStream& out) const;

private:
    std::vector<Column> m_columns;
    QString m_indent;
    std::vector<QStringList> m_rows;
};

// A time in ns as milliseconds: three decimals, and below 0.1 ms three significant digits
// (0.000412, never 0.000), so that small layers never read the same.
QString msText(double ns);

} // namespace embark::cli
