// Add or edit a user board: the fields of boards/<id>.json with validation by the same parser
// the engine uses, saved atomically into the user's boards folder.
#pragma once

#include "targets/board.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QDialogButtonBox;

namespace embark::ui {

// Saves `board` into the user boards folder (atomically, through core/targets); on failure
// shows the error in a message box over `parent` and returns false.
bool saveUserBoard(QWidget* parent, const targets::Board& board);

class BoardDialog : public QDialog {
    Q_OBJECT
public:
    // `board` pre-fills the fields (editing, or a copy of a built-in as a starting point).
    explicit BoardDialog(const targets::Board& board, QWidget* parent = nullptr);

    // The board as entered, or the first problem (naming the field) when it is invalid.
    Expected<targets::Board> board() const;
    QString problem() const; // empty when valid

    void accept() override;

private:
    void validate();

    QLineEdit* m_id;
    QLineEdit* m_name;
    QComboBox* m_arch;
    QLineEdit* m_isa;
    QLineEdit* m_cflags;
    QSpinBox* m_cores;
    QSpinBox* m_memoryMiB;
    QComboBox* m_runner;
    QLineEdit* m_host;
    QLineEdit* m_execPrefix;
    QLabel* m_problem;
    QDialogButtonBox* m_buttons;
    QJsonObject m_onnxruntime; // the board's ONNX Runtime, kept as it was (no field edits it)
};

} // namespace embark::ui
