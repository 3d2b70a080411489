#include "host_key_dialog.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace embark::ui {

HostKeyDialog::HostKeyDialog(const deploy::HostKeyInfo& info, QWidget* parent) : QDialog(parent), m_info(info) {
    setWindowTitle(tr("Unknown SSH host key"));
    auto* intro =
        new QLabel(tr("<b>%1</b> is not in your known hosts yet. Compare this fingerprint with the "
                      "board's own (on the board: <tt>ssh-keygen -lf /etc/ssh/ssh_host_%2_key.pub</tt>) "
                      "before you trust it. A wrong fingerprint means you may not be talking to "
                      "your board.")
                       .arg(info.host.toHtmlEscaped(), info.keyType.section(QLatin1Char('-'), -1).toHtmlEscaped()),
                   this);
    intro->setWordWrap(true);
    m_fingerprint = new QLabel(info.fingerprint, this);
    m_fingerprint->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_fingerprint->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* form = new QFormLayout;
    form->addRow(tr("Host:"), new QLabel(info.host, this));
    form->addRow(tr("Port:"), new QLabel(QString::number(info.port), this));
    form->addRow(tr("Key type:"), new QLabel(info.keyType, this));
    form->addRow(tr("Fingerprint:"), m_fingerprint);
    form->addRow(
        tr("Recorded in:"),
        new QLabel(info.knownHostsFile.isEmpty() ? tr("(the default known_hosts)") : info.knownHostsFile, this));

    auto* buttons = new QDialogButtonBox(this);
    QPushButton* accept = buttons->addButton(tr("Trust and remember"), QDialogButtonBox::AcceptRole);
    QPushButton* reject = buttons->addButton(tr("Reject"), QDialogButtonBox::RejectRole);
    accept->setAutoDefault(false);
    reject->setDefault(true); // Enter never trusts a key by accident
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(buttons);
}

QString HostKeyDialog::fingerprintShown() const { return m_fingerprint->text(); }

} // namespace embark::ui
