#include "input_shapes_dialog.h"

#include <QCryptographicHash>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

namespace embark::ui {

namespace {

constexpr int kMaxDim = 1 << 20;

// "1x3x224x224" -> dims, or empty when malformed.
std::vector<int64_t> parseDims(const QString& text) {
    std::vector<int64_t> dims;
    for (const QString& part : text.split(QLatin1Char('x'), Qt::SkipEmptyParts)) {
        bool ok = false;
        const qlonglong d = part.trimmed().toLongLong(&ok);
        if (!ok || d <= 0 || d > kMaxDim) return {};
        dims.push_back(d);
    }
    return dims;
}

QString declared(const onnx::DeclaredInput& in) {
    if (!in.hasShape) return InputShapesDialog::tr("no shape declared");
    QStringList dims;
    for (const onnx::DeclaredDim& d : in.dims)
        dims << (!d.isFree()       ? QString::number(d.value)
                 : d.param.empty() ? QStringLiteral("?")
                                   : QString::fromStdString(d.param));
    return dims.isEmpty() ? InputShapesDialog::tr("scalar") : dims.join(QStringLiteral(" x "));
}

// The settings key of a model file (its absolute path) and the hash of what it holds.
QString settingsKey(const QString& path) {
    const QByteArray abs = QFileInfo(path).absoluteFilePath().toUtf8();
    return QStringLiteral("inputShapes/") +
           QString::fromLatin1(QCryptographicHash::hash(abs, QCryptographicHash::Sha1).toHex());
}

QString contentHash(const QString& path) {
    QFile file(path);
    QCryptographicHash hash(QCryptographicHash::Sha1);
    if (!file.open(QIODevice::ReadOnly) || !hash.addData(&file)) return {};
    return QString::fromLatin1(hash.result().toHex());
}

} // namespace

std::map<std::string, ir::Shape> InputShapesDialog::rememberedShapes(const QString& path) {
    QSettings settings;
    settings.beginGroup(settingsKey(path));
    std::map<std::string, ir::Shape> out;
    const QString hash = settings.value(QStringLiteral("hash")).toString();
    if (hash.isEmpty() || hash != contentHash(path)) return out;
    const QVariantMap shapes = settings.value(QStringLiteral("shapes")).toMap();
    for (auto it = shapes.begin(); it != shapes.end(); ++it) {
        const std::vector<int64_t> dims = parseDims(it.value().toString());
        if (dims.empty()) return {};
        out[it.key().toStdString()] = ir::Shape(dims);
    }
    return out;
}

void InputShapesDialog::rememberShapes(const QString& path, const std::map<std::string, ir::Shape>& shapes) {
    QVariantMap values;
    for (const auto& [name, shape] : shapes) {
        QStringList dims;
        for (int64_t d : shape.dims()) dims << QString::number(d);
        values.insert(QString::fromStdString(name), dims.join(QLatin1Char('x')));
    }
    QSettings settings;
    settings.beginGroup(settingsKey(path));
    settings.setValue(QStringLiteral("path"), QFileInfo(path).absoluteFilePath());
    settings.setValue(QStringLiteral("hash"), contentHash(path));
    settings.setValue(QStringLiteral("shapes"), values);
}

bool InputShapesDialog::needsShapes(const QString& path, std::vector<onnx::DeclaredInput>* inputs) {
    auto declaredInputs = onnx::declaredInputs(path.toStdString());
    if (!declaredInputs.ok()) return false;
    bool free = false;
    for (const onnx::DeclaredInput& in : *declaredInputs) free = free || in.hasFreeDims();
    if (inputs) *inputs = std::move(*declaredInputs);
    return free;
}

InputShapesDialog::InputShapesDialog(const QString& modelPath, std::vector<onnx::DeclaredInput> inputs, QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Input shapes of %1").arg(QFileInfo(modelPath).fileName()));
    auto* intro = new QLabel(tr("Some inputs of this model have free dimensions (a batch size, an image size, ...). "
                                "Embark plans memory and generates code for fixed shapes: choose the size of each "
                                "free dimension."),
                             this);
    intro->setWordWrap(true);
    auto* form = new QFormLayout;
    for (onnx::DeclaredInput& in : inputs) {
        Row row;
        row.input = in;
        auto* line = new QHBoxLayout;
        if (!in.hasShape) {
            row.whole = new QLineEdit(this);
            row.whole->setObjectName(QString::fromStdString(in.name));
            row.whole->setPlaceholderText(tr("e.g. 1x3x224x224"));
            row.whole->setValidator(
                new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9x]*")), row.whole));
            connect(row.whole, &QLineEdit::textChanged, this, &InputShapesDialog::validate);
            line->addWidget(row.whole, 1);
        } else {
            for (size_t i = 0; i < in.dims.size(); ++i) {
                const onnx::DeclaredDim& d = in.dims[i];
                if (i > 0) line->addWidget(new QLabel(QStringLiteral("x"), this));
                if (!d.isFree()) {
                    line->addWidget(new QLabel(QString::number(d.value), this));
                    row.dims << nullptr;
                    continue;
                }
                auto* spin = new QSpinBox(this);
                spin->setRange(1, kMaxDim);
                spin->setValue(1);
                const QString name = d.param.empty() ? tr("dimension %1").arg(i) : QString::fromStdString(d.param);
                spin->setPrefix(name + QStringLiteral(" = "));
                spin->setToolTip(tr("Free dimension %1 of input %2").arg(name, QString::fromStdString(in.name)));
                line->addWidget(spin);
                row.dims << spin;
            }
            line->addStretch(1);
        }
        auto* label = new QLabel(tr("<b>%1</b> (%2)<br><small>declared: %3</small>")
                                     .arg(QString::fromStdString(in.name).toHtmlEscaped(),
                                          QString::fromStdString(in.elementType), declared(in).toHtmlEscaped()),
                                 this);
        form->addRow(label, line);
        m_rows.push_back(std::move(row));
    }
    m_problem = new QLabel(this);
    m_problem->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("&Open"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);
    validate();
}

QList<QSpinBox*> InputShapesDialog::freeDims(const QString& input) const {
    QList<QSpinBox*> out;
    for (const Row& r : m_rows)
        if (QString::fromStdString(r.input.name) == input)
            for (QSpinBox* s : r.dims)
                if (s) out << s;
    return out;
}

QLineEdit* InputShapesDialog::shapeEdit(const QString& input) const {
    for (const Row& r : m_rows)
        if (QString::fromStdString(r.input.name) == input) return r.whole;
    return nullptr;
}

std::map<std::string, ir::Shape> InputShapesDialog::shapes() const {
    std::map<std::string, ir::Shape> out;
    for (const Row& r : m_rows) {
        if (!r.input.hasFreeDims()) continue;
        if (r.whole) {
            const std::vector<int64_t> dims = parseDims(r.whole->text());
            if (!dims.empty()) out[r.input.name] = ir::Shape(dims);
            continue;
        }
        std::vector<int64_t> dims;
        for (int i = 0; i < int(r.input.dims.size()); ++i)
            dims.push_back(r.dims.at(i) ? r.dims.at(i)->value() : r.input.dims[size_t(i)].value);
        out[r.input.name] = ir::Shape(dims);
    }
    return out;
}

void InputShapesDialog::validate() {
    QStringList missing;
    for (const Row& r : m_rows)
        if (r.whole && parseDims(r.whole->text()).empty()) missing << QString::fromStdString(r.input.name);
    m_problem->setText(missing.isEmpty() ? QString()
                                         : tr("Enter the shape of %1 as sizes joined by x, e.g. 1x3x224x224.")
                                               .arg(missing.join(QStringLiteral(", "))));
    m_ok->setEnabled(missing.isEmpty());
}

} // namespace embark::ui
