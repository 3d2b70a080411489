#include "board_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>

namespace embark::ui {

BoardDialog::BoardDialog(const targets::Board& board, QWidget* parent) : QDialog(parent) {
    if (board.onnxruntime) m_onnxruntime = board.onnxruntime->toJson();
    setWindowTitle(tr("User board"));
    m_id = new QLineEdit(board.id, this);
    m_name = new QLineEdit(board.name, this);
    m_arch = new QComboBox(this);
    m_arch->addItems(targets::knownArchitectures());
    m_arch->setCurrentText(board.arch);
    m_isa = new QLineEdit(board.isa, this);
    m_cflags = new QLineEdit(board.cflags.join(QLatin1Char(' ')), this);
    m_cores = new QSpinBox(this);
    m_cores->setRange(1, 256);
    m_cores->setValue(board.cores);
    m_memoryMiB = new QSpinBox(this);
    m_memoryMiB->setRange(0, 1 << 20);
    m_memoryMiB->setSuffix(tr(" MiB"));
    m_memoryMiB->setValue(int(board.memoryBytes / (1024 * 1024)));
    m_runner = new QComboBox(this);
    m_runner->addItem(tr("SSH"), QStringLiteral("ssh"));
    m_runner->addItem(tr("Local (host or qemu-user)"), QStringLiteral("local"));
    m_runner->setCurrentIndex(board.runner.kind == targets::BoardRunner::Kind::Ssh ? 0 : 1);
    m_host = new QLineEdit(board.runner.host, this);
    m_host->setPlaceholderText(tr("host name or ~/.ssh/config alias"));
    m_execPrefix = new QLineEdit(board.runner.execPrefix.join(QLatin1Char(' ')), this);
    m_execPrefix->setPlaceholderText(tr("e.g. qemu-riscv64-static -cpu rv64,v=true"));
    m_problem = new QLabel(this);
    m_problem->setWordWrap(true);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);

    auto* form = new QFormLayout(this);
    form->addRow(tr("Id:"), m_id);
    form->addRow(tr("Name:"), m_name);
    form->addRow(tr("Architecture:"), m_arch);
    form->addRow(tr("ISA:"), m_isa);
    form->addRow(tr("Compiler flags:"), m_cflags);
    form->addRow(tr("Cores:"), m_cores);
    form->addRow(tr("Memory:"), m_memoryMiB);
    form->addRow(tr("Runner:"), m_runner);
    form->addRow(tr("SSH host:"), m_host);
    form->addRow(tr("Exec prefix:"), m_execPrefix);
    form->addRow(m_problem);
    form->addRow(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &BoardDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &BoardDialog::reject);
    for (QLineEdit* edit : {m_id, m_name, m_isa, m_cflags, m_host, m_execPrefix})
        connect(edit, &QLineEdit::textChanged, this, &BoardDialog::validate);
    connect(m_runner, &QComboBox::currentIndexChanged, this, &BoardDialog::validate);
    connect(m_arch, &QComboBox::currentIndexChanged, this, &BoardDialog::validate);
    validate();
}

Expected<targets::Board> BoardDialog::board() const {
    static const QRegularExpression idPattern(QStringLiteral("^[a-z0-9][a-z0-9._-]*$"));
    if (!idPattern.match(m_id->text()).hasMatch())
        return makeError(ErrorKind::Usage,
                         tr("Id: use lower-case letters, digits, '.', '_' or '-' (it names the file).").toStdString());
    if (m_name->text().trimmed().isEmpty())
        return makeError(ErrorKind::Usage,
                         tr("Name: give the board a name to show in the board picker.").toStdString());
    const bool ssh = m_runner->currentData().toString() == QLatin1String("ssh");
    if (ssh && m_host->text().trimmed().isEmpty())
        return makeError(ErrorKind::Usage,
                         tr("SSH host: an SSH board needs a host name or an ~/.ssh/config alias.").toStdString());
    // Build the JSON the engine reads and let its parser judge it, so the dialog never
    // accepts a board the CLI would refuse.
    QJsonObject runner{{QStringLiteral("kind"), ssh ? QStringLiteral("ssh") : QStringLiteral("local")}};
    if (ssh) runner[QStringLiteral("host")] = m_host->text().trimmed();
    const QStringList prefix = m_execPrefix->text().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (!ssh && !prefix.isEmpty()) runner[QStringLiteral("exec_prefix")] = QJsonArray::fromStringList(prefix);
    QJsonObject json{{QStringLiteral("id"), m_id->text()},
                     {QStringLiteral("name"), m_name->text()},
                     {QStringLiteral("arch"), m_arch->currentText()},
                     {QStringLiteral("isa"), m_isa->text()},
                     {QStringLiteral("cflags"),
                      QJsonArray::fromStringList(m_cflags->text().split(QLatin1Char(' '), Qt::SkipEmptyParts))},
                     {QStringLiteral("cores"), m_cores->value()},
                     {QStringLiteral("memory_bytes"), qint64(m_memoryMiB->value()) * 1024 * 1024},
                     {QStringLiteral("runner"), runner}};
    if (!m_onnxruntime.isEmpty()) json[QStringLiteral("onnxruntime")] = m_onnxruntime;
    return targets::parseBoard(QJsonDocument(json).toJson(), m_id->text() + QStringLiteral(".json"));
}

QString BoardDialog::problem() const {
    auto b = board();
    return b.ok() ? QString() : QString::fromStdString(b.error().message);
}

void BoardDialog::validate() {
    m_host->setEnabled(m_runner->currentData().toString() == QLatin1String("ssh"));
    m_execPrefix->setEnabled(!m_host->isEnabled());
    const QString text = problem();
    m_problem->setText(text);
    m_buttons->button(QDialogButtonBox::Save)->setEnabled(text.isEmpty());
}

bool saveUserBoard(QWidget* parent, const targets::Board& board) {
    const Status saved = targets::saveBoardFile(board, targets::userBoardsDir());
    if (saved.ok()) return true;
    QMessageBox::warning(parent, BoardDialog::tr("Cannot save board"), QString::fromStdString(saved.error().message));
    return false;
}

void BoardDialog::accept() {
    auto b = board();
    if (b.ok() && saveUserBoard(this, *b)) QDialog::accept();
}

} // namespace embark::ui
