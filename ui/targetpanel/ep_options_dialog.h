// The SpacemiT EP options (issue 17) as typed fields: one per option of SpacemiT's guide
// (targets::spacemitEpOptions: counts and levels as spin boxes, switches as 0/1 pickers, lists
// and file names as text), each "(default)" until set, validated by the same parser as the
// CLI's --ep-option, which the result is (KEY=VALUE entries).
#pragma once

#include <QDialog>
#include <QStringList>

#include <vector>

class QDialogButtonBox;
class QLabel;
class QWidget;

namespace embark::ui {

class EpOptionsDialog : public QDialog {
    Q_OBJECT
public:
    // `options`: KEY=VALUE entries to pre-fill; `threads`: the benchmark's thread number (the
    // EP's default thread number, and what an affinity must match).
    EpOptionsDialog(const QStringList& options, int threads, QWidget* parent = nullptr);

    QStringList options() const;              // the options set, KEY=VALUE, in the guide's order
    QString problem() const;                  // empty when valid
    QWidget* field(const QString& key) const; // the editor of one option (tests)

private:
    void validate();

    int m_threads;
    std::vector<std::pair<QString, QWidget*>> m_fields;
    QLabel* m_problem;
    QDialogButtonBox* m_buttons;
};

} // namespace embark::ui
