// Asks the user whether to trust a board's SSH host key the first time Embark meets it: host,
// port, key type and SHA256 fingerprint. Reject is the default button: nothing is trusted silently.
#pragma once

#include "deploy/ssh_connection.h"

#include <QDialog>

class QLabel;

namespace embark::ui {

class HostKeyDialog : public QDialog {
    Q_OBJECT
public:
    explicit HostKeyDialog(const deploy::HostKeyInfo& info, QWidget* parent = nullptr);
    const deploy::HostKeyInfo& info() const { return m_info; }
    QString fingerprintShown() const; // the fingerprint as the dialog displays it

private:
    deploy::HostKeyInfo m_info;
    QLabel* m_fingerprint;
};

} // namespace embark::ui
