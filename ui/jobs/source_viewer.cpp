#include "source_viewer.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QVBoxLayout>

#include <algorithm>

namespace embark::ui {

SourceViewer::SourceViewer(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Source"));
    m_header = new QLabel(this);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_header->setWordWrap(true);
    m_text = new QPlainTextEdit(this);
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_header);
    layout->addWidget(m_text, 1);
    layout->addWidget(buttons);
    resize(820, 560);
}

bool SourceViewer::showFile(const QString& path, int line, int column) {
    m_path = path;
    m_line = 0;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        m_text->clear();
        m_header->setText(tr("Cannot read '%1': %2").arg(path, file.errorString()));
        return false;
    }
    m_text->setPlainText(QString::fromUtf8(file.readAll()));
    setWindowTitle(tr("%1:%2 (read-only)").arg(QFileInfo(path).fileName()).arg(line));
    m_header->setText(QDir::toNativeSeparators(path));
    const QTextBlock block = m_text->document()->findBlockByNumber(line - 1);
    if (!block.isValid()) {
        m_header->setText(tr("%1 has no line %2 (it has %3).").arg(path).arg(line).arg(m_text->blockCount()));
        return true;
    }
    m_line = line;
    QTextCursor cursor(block);
    cursor.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor,
                        std::clamp(column - 1, 0, std::max(0, block.length() - 1)));
    m_text->setTextCursor(cursor);
    QTextEdit::ExtraSelection highlight;
    highlight.cursor = QTextCursor(block);
    highlight.format.setBackground(palette().color(QPalette::Highlight).lighter(160));
    highlight.format.setProperty(QTextFormat::FullWidthSelection, true);
    m_text->setExtraSelections({highlight});
    m_text->centerCursor();
    return true;
}

} // namespace embark::ui
