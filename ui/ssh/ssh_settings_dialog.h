// A board's SSH connection: host or ~/.ssh/config alias, user, port and key file, saved as the
// user board's runner fields (atomically, like the board dialog), and "Test connection", which
// connects through core/deploy on a worker thread and shows success or the error.
#pragma once

#include "deploy/ssh_connection.h"
#include "targets/board.h"

#include <QDialog>
#include <QFutureWatcher>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace embark::ui {

struct ConnectionTestResult {
    bool ok = false;
    QString message; // what the board said, or core's error naming the board and what to do
};

class SshSettingsDialog : public QDialog {
    Q_OBJECT
public:
    explicit SshSettingsDialog(const targets::Board& board, QWidget* parent = nullptr);
    ~SshSettingsDialog() override;

    // The board with the entered connection (runner kind ssh), validated by the engine's parser.
    Expected<targets::Board> board() const;

    // Options for the connection test; by default studioSshOptions(this).
    void setSshOptions(const deploy::SshOptions& options) { m_options = options; }

    QLineEdit* hostEdit() const { return m_host; }
    QLineEdit* userEdit() const { return m_user; }
    QSpinBox* portEdit() const { return m_port; }
    QLineEdit* keyEdit() const { return m_key; }
    QPushButton* testButton() const { return m_test; }
    bool isTesting() const { return m_watcher.isRunning(); }
    QString resultText() const;

    void accept() override; // saves to the user boards folder

public slots:
    void testConnection();

signals:
    void testFinished(bool ok, const QString& message);

private:
    void validate();
    void showResult();
    void fitResult();

    targets::Board m_original;
    deploy::SshOptions m_options;
    QLineEdit* m_host;
    QLineEdit* m_user;
    QSpinBox* m_port;
    QLineEdit* m_key;
    QPushButton* m_test;
    QLabel* m_result;
    QDialogButtonBox* m_buttons;
    QFutureWatcher<ConnectionTestResult> m_watcher;
};

// Opens the dialog for `board`; true when the user saved it (the caller reloads the boards).
bool editSshSettings(const targets::Board& board, QWidget* parent);

} // namespace embark::ui
