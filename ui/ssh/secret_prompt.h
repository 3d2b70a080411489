// Asks for an SSH password or key passphrase. The typed bytes are returned once and the field
// is cleared; nothing is kept, written to settings or logged.
#pragma once

#include <QByteArray>
#include <QDialog>

#include <optional>

class QLineEdit;

namespace embark::ui {

class SecretPrompt : public QDialog {
    Q_OBJECT
public:
    // `prompt` is core's text ("Password for user@host: "), shown as is.
    explicit SecretPrompt(const QString& prompt, QWidget* parent = nullptr);
    QLineEdit* field() const { return m_field; }

    // Shows the prompt modally: the bytes typed (UTF-8), or nothing when cancelled.
    std::optional<QByteArray> ask();

private:
    QLineEdit* m_field;
};

} // namespace embark::ui
