#include "ssh_settings_dialog.h"

#include "studio_ssh_options.h"
#include "targetpanel/board_dialog.h"

#include "deploy/transport_factory.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QtConcurrent/QtConcurrentRun>

namespace embark::ui {

namespace {

// Runs on a worker thread: connect (host key, authentication), then ask the board what it is.
ConnectionTestResult runConnectionTest(const targets::Board& board, const deploy::SshOptions& options) {
    std::unique_ptr<deploy::Transport> transport = deploy::makeTransport(board, options);
    if (const Status s = transport->connect(); !s.ok()) return {false, QString::fromStdString(s.error().message)};
    deploy::ExecRequest uname;
    uname.argv = {QStringLiteral("uname"), QStringLiteral("-snrm")};
    uname.usePrefix = false;
    uname.timeout = std::chrono::seconds(20);
    auto r = transport->exec(uname);
    if (!r.ok()) return {false, QString::fromStdString(r.error().message)};
    if (!r->succeeded())
        return {false,
                QString::fromStdString(deploy::requireSuccess(*r, board.id, QStringLiteral("uname")).error().message)};
    return {true, QString::fromUtf8(r->stdoutData).trimmed()};
}

} // namespace

SshSettingsDialog::SshSettingsDialog(const targets::Board& board, QWidget* parent)
    : QDialog(parent), m_original(board), m_options(studioSshOptions(this)) {
    setWindowTitle(tr("SSH connection of %1").arg(board.id));
    const targets::BoardRunner& r = board.runner;
    const bool ssh = r.kind == targets::BoardRunner::Kind::Ssh;
    m_host = new QLineEdit(ssh ? r.host : QString(), this);
    m_host->setPlaceholderText(tr("host name, address or ~/.ssh/config alias"));
    m_user = new QLineEdit(r.user, this);
    m_user->setPlaceholderText(tr("from ~/.ssh/config, else your user name"));
    m_port = new QSpinBox(this);
    m_port->setRange(0, 65535);
    m_port->setSpecialValueText(tr("from ~/.ssh/config, else 22"));
    m_port->setValue(r.port);
    m_key = new QLineEdit(r.key, this);
    m_key->setPlaceholderText(tr("SSH agent and default keys"));
    auto* browse = new QPushButton(tr("Browse..."), this);
    auto* keyRow = new QHBoxLayout;
    keyRow->addWidget(m_key, 1);
    keyRow->addWidget(browse);
    m_test = new QPushButton(tr("Test connection"), this);
    m_result = new QLabel(this);
    m_result->setObjectName(QStringLiteral("connectionResult"));
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_result->setMinimumWidth(420); // long errors (an address, what to try) wrap onto lines of a readable width
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);

    auto* form = new QFormLayout(this);
    if (!ssh) {
        auto* note = new QLabel(tr("This board runs locally now. Saving makes it run over SSH (its exec prefix, "
                                   "if any, is kept and runs on the remote machine)."),
                                this);
        note->setWordWrap(true);
        form->addRow(note);
    }
    form->addRow(tr("Host:"), m_host);
    form->addRow(tr("User:"), m_user);
    form->addRow(tr("Port:"), m_port);
    form->addRow(tr("Key file:"), keyRow);
    form->addRow(m_test);
    form->addRow(m_result);
    form->addRow(m_buttons);

    connect(browse, &QPushButton::clicked, this, [this] {
        const QString start = m_key->text().isEmpty() ? QDir::homePath() + QStringLiteral("/.ssh") : m_key->text();
        const QString path = QFileDialog::getOpenFileName(this, tr("Private key"), start);
        if (!path.isEmpty()) m_key->setText(path);
    });
    connect(m_test, &QPushButton::clicked, this, &SshSettingsDialog::testConnection);
    connect(&m_watcher, &QFutureWatcher<ConnectionTestResult>::finished, this, &SshSettingsDialog::showResult);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &SshSettingsDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &SshSettingsDialog::reject);
    for (QLineEdit* edit : {m_host, m_user, m_key})
        connect(edit, &QLineEdit::textChanged, this, &SshSettingsDialog::validate);
    connect(m_port, &QSpinBox::valueChanged, this, &SshSettingsDialog::validate);
    validate();
}

// A running test holds only copies (board, options); its result is dropped with the watcher.
SshSettingsDialog::~SshSettingsDialog() { m_watcher.disconnect(); }

Expected<targets::Board> SshSettingsDialog::board() const {
    if (m_host->text().trimmed().isEmpty())
        return makeError(ErrorKind::Usage,
                         tr("Host: enter a host name, an address or an ~/.ssh/config alias.").toStdString());
    targets::Board b = m_original;
    b.runner.kind = targets::BoardRunner::Kind::Ssh;
    b.runner.host = m_host->text().trimmed();
    b.runner.user = m_user->text().trimmed();
    b.runner.port = m_port->value();
    b.runner.key = m_key->text().trimmed();
    // ONNX Runtime from npm runs on this computer only; over SSH the board needs its own runtime
    // folder ("root"), which the board file names. Keep a board-side runtime, drop the local one.
    if (b.onnxruntime && b.onnxruntime->isNode()) b.onnxruntime.reset();
    // The engine's parser judges the result, so the studio never saves a board the CLI refuses.
    return targets::parseBoard(QJsonDocument(b.toJson()).toJson(), b.id + QStringLiteral(".json"));
}

QString SshSettingsDialog::resultText() const { return m_result->text(); }

void SshSettingsDialog::validate() {
    auto b = board();
    m_test->setEnabled(b.ok() && !isTesting());
    m_buttons->button(QDialogButtonBox::Save)->setEnabled(b.ok());
    if (!isTesting()) m_result->setText(b.ok() ? QString() : QString::fromStdString(b.error().message));
}

void SshSettingsDialog::testConnection() {
    auto b = board();
    if (!b.ok() || isTesting()) return;
    m_test->setEnabled(false);
    m_result->setText(tr("Connecting to %1...").arg(b->runner.host));
    m_watcher.setFuture(QtConcurrent::run(runConnectionTest, *b, m_options));
}

void SshSettingsDialog::showResult() {
    const ConnectionTestResult r = m_watcher.result();
    m_result->setText(r.ok ? tr("Connected: %1").arg(r.message) : tr("Connection failed: %1").arg(r.message));
    m_result->setToolTip(m_result->text());
    fitResult();
    m_test->setEnabled(board().ok());
    emit testFinished(r.ok, r.message);
}

void SshSettingsDialog::fitResult() {
    // A top-level window does not grow for a word-wrapped label's height by itself: the
    // advice at the end of an error ("try ssh -p 2222 ...") was cut off.
    layout()->activate();
    const int needed =
        layout()->hasHeightForWidth() ? layout()->totalHeightForWidth(width()) : layout()->totalSizeHint().height();
    if (needed > height()) resize(width(), needed);
}

void SshSettingsDialog::accept() {
    auto b = board();
    if (b.ok() && saveUserBoard(this, *b)) QDialog::accept();
}

bool editSshSettings(const targets::Board& board, QWidget* parent) {
    SshSettingsDialog dialog(board, parent);
    return dialog.exec() == QDialog::Accepted;
}

} // namespace embark::ui
