#include "secret_prompt.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace embark::ui {

SecretPrompt::SecretPrompt(const QString& prompt, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("SSH authentication"));
    auto* label = new QLabel(prompt, this);
    label->setWordWrap(true);
    m_field = new QLineEdit(this);
    m_field->setEchoMode(QLineEdit::Password);
    m_field->setInputMethodHints(Qt::ImhHiddenText | Qt::ImhSensitiveData | Qt::ImhNoPredictiveText);
    auto* note = new QLabel(tr("Embark does not store it. To avoid this question, install your public key "
                               "on the board (ssh-copy-id)."),
                            this);
    note->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(label);
    layout->addWidget(m_field);
    layout->addWidget(note);
    layout->addWidget(buttons);
}

std::optional<QByteArray> SecretPrompt::ask() {
    const bool accepted = exec() == QDialog::Accepted;
    std::optional<QByteArray> secret;
    if (accepted) secret = m_field->text().toUtf8();
    m_field->clear(); // the only copy left is the caller's, which core wipes after use
    return secret;
}

} // namespace embark::ui
