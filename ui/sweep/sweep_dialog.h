// Run > Sweep...: the studio's `embark-cli sweep`. The user picks the models (the open one to
// start with), a board pattern (ids or wildcards, comma-separated; the boards it matches are
// listed as it is typed), the kernel libraries (auto included), int8 cells and iterations.
// OK is only enabled for a request runSweep accepts: a model, a library and a pattern that
// matches a board.
#pragma once

#include "jobs/sweep.h"

#include <QDialog>

class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QSpinBox;

namespace embark::ui {

class SweepDialog : public QDialog {
    Q_OBJECT
public:
    SweepDialog(const QStringList& models, const QString& boardPattern, QWidget* parent = nullptr);

    // The sweep asked for; base options (work folder, store, SSH) are the caller's.
    jobs::SweepOptions options() const;

    QListWidget* modelList() const { return m_models; }
    QLineEdit* boardPattern() const { return m_pattern; }
    QCheckBox* libraryBox(const QString& library) const;
    QCheckBox* quantizedBox() const { return m_quantized; }
    QSpinBox* iterations() const { return m_iterations; }
    QLabel* matchedBoards() const { return m_matched; }
    QDialogButtonBox* buttons() const { return m_buttons; }
    // What is missing for a valid request (empty: OK is enabled).
    QString problem() const;

private:
    void addModels();
    void update();

    QListWidget* m_models;
    QLineEdit* m_pattern;
    QLabel* m_matched;
    QList<QCheckBox*> m_libraries;
    QCheckBox* m_quantized;
    QSpinBox* m_iterations;
    QDialogButtonBox* m_buttons;
    QString m_problem;
};

} // namespace embark::ui
