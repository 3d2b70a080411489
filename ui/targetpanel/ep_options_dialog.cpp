#include "ep_options_dialog.h"

#include "targets/onnxruntime.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include <algorithm>
#include <map>

namespace embark::ui {

EpOptionsDialog::EpOptionsDialog(const QStringList& options, int threads, QWidget* parent)
    : QDialog(parent), m_threads(threads) {
    setWindowTitle(tr("SpacemiT EP options"));
    std::map<QString, QString> given;
    for (const QString& kv : options) {
        const qsizetype eq = kv.indexOf(QLatin1Char('='));
        if (const targets::EpOptionSpec* spec = eq > 0 ? targets::findEpOption(kv.left(eq)) : nullptr)
            given[QLatin1String(spec->key)] = kv.mid(eq + 1);
    }
    auto* form = new QFormLayout(this);
    auto* intro = new QLabel(tr("Options the SpacemiT execution provider runs with on the board (environment variables "
                                "of onnxruntime_perf_test and onnx_test_runner); unset options keep the EP's default."),
                             this);
    intro->setWordWrap(true);
    form->addRow(intro);
    using T = targets::EpOptionSpec::Type;
    for (const targets::EpOptionSpec& spec : targets::spacemitEpOptions()) {
        const QString key = QLatin1String(spec.key);
        const auto it = given.find(key);
        QWidget* editor = nullptr;
        if (spec.type == T::Count || spec.type == T::Level) {
            auto* box = new QSpinBox(this);
            box->setRange(spec.min - 1, spec.max); // the value below the range means "not set"
            box->setSpecialValueText(tr("(default)"));
            box->setValue(it != given.end() ? it->second.toInt() : spec.min - 1);
            connect(box, &QSpinBox::valueChanged, this, &EpOptionsDialog::validate);
            editor = box;
        } else if (spec.type == T::Bool) {
            auto* box = new QComboBox(this);
            box->addItem(tr("(default)"), QString());
            box->addItem(QStringLiteral("0"), QStringLiteral("0"));
            box->addItem(QStringLiteral("1"), QStringLiteral("1"));
            if (it != given.end()) box->setCurrentIndex(std::max(0, box->findData(it->second)));
            connect(box, &QComboBox::currentIndexChanged, this, &EpOptionsDialog::validate);
            editor = box;
        } else {
            auto* edit = new QLineEdit(it != given.end() ? it->second : QString(), this);
            edit->setPlaceholderText(tr("(default)"));
            connect(edit, &QLineEdit::textChanged, this, &EpOptionsDialog::validate);
            editor = edit;
        }
        editor->setToolTip(QString::fromUtf8(spec.help));
        form->addRow(key.mid(QStringLiteral("SPACEMIT_EP_").size()) + QLatin1Char(':'), editor);
        m_fields.emplace_back(key, editor);
    }
    m_problem = new QLabel(this);
    m_problem->setWordWrap(true);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    form->addRow(m_problem);
    form->addRow(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    validate();
}

QStringList EpOptionsDialog::options() const {
    QStringList out;
    for (const auto& [key, editor] : m_fields) {
        QString value;
        if (auto* box = qobject_cast<QSpinBox*>(editor)) {
            if (box->value() >= box->minimum() + 1) value = QString::number(box->value());
        } else if (auto* combo = qobject_cast<QComboBox*>(editor)) {
            value = combo->currentData().toString();
        } else if (auto* edit = qobject_cast<QLineEdit*>(editor)) {
            value = edit->text().trimmed();
        }
        if (!value.isEmpty()) out << key + QLatin1Char('=') + value;
    }
    return out;
}

QString EpOptionsDialog::problem() const {
    auto parsed = targets::parseEpOptions(options(), m_threads);
    return parsed ? QString() : QString::fromStdString(parsed.error().message);
}

QWidget* EpOptionsDialog::field(const QString& key) const {
    for (const auto& [k, editor] : m_fields)
        if (k == key) return editor;
    return nullptr;
}

void EpOptionsDialog::validate() {
    const QString text = problem();
    m_problem->setText(text);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(text.isEmpty());
}

} // namespace embark::ui
