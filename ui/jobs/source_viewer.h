// A read-only view of a source file with one line highlighted: where a compiler error line of
// a job's log points (the generated model.cpp, a kernel header of the export).
#pragma once

#include <QDialog>

class QLabel;
class QPlainTextEdit;

namespace embark::ui {

class SourceViewer : public QDialog {
    Q_OBJECT
public:
    explicit SourceViewer(QWidget* parent = nullptr);
    // Shows `path` with line `line` (1-based) highlighted and in view, the cursor at `column`
    // (1-based, 0: the line's start). False with the message shown when it cannot be read.
    bool showFile(const QString& path, int line, int column = 0);
    QString file() const { return m_path; }
    int highlightedLine() const { return m_line; }
    QPlainTextEdit* text() const { return m_text; }

private:
    QLabel* m_header;
    QPlainTextEdit* m_text;
    QString m_path;
    int m_line = 0;
};

} // namespace embark::ui
