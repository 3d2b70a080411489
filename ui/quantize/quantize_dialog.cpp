#include "quantize_dialog.h"

#include "onnx/op_table.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

#include <cmath>

namespace embark::ui {

namespace {

QStringList splitList(const QString& text) {
    QStringList out;
    for (const QString& part : text.split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts))
        if (!out.contains(part)) out << part;
    return out;
}

// "a,b,c" or one finite number.
bool parseNumbers(const QString& text, std::vector<double>* out) {
    out->clear();
    for (const QString& part : text.split(QLatin1Char(','))) {
        bool ok = false;
        const double v = part.trimmed().toDouble(&ok);
        if (!ok || !std::isfinite(v)) return false;
        out->push_back(v);
    }
    return !out->empty();
}

QString numbers(const std::vector<double>& values) {
    QStringList parts;
    for (double v : values) parts << QString::number(v);
    return parts.join(QLatin1Char(','));
}

} // namespace

QuantizeDialog::QuantizeDialog(const QString& modelPath, std::shared_ptr<const ir::Graph> graph, QWidget* parent)
    : QDialog(parent), m_modelPath(modelPath), m_graph(std::move(graph)) {
    setWindowTitle(tr("Quantize %1").arg(QFileInfo(modelPath).fileName()));
    m_calib = new QListWidget(this);
    m_calib->setToolTip(tr("test_data_set_N folders (input_K.pb), a folder of them, or .npy/.pb files and PNG/JPEG "
                           "images (one sample each, folders searched with their subfolders)"));
    m_calib->setMinimumHeight(80);
    m_calib->setMaximumHeight(140);
    auto* addFolder = new QPushButton(tr("Add folder..."), this);
    auto* addFiles = new QPushButton(tr("Add files..."), this);
    auto* remove = new QPushButton(tr("Remove"), this);
    connect(addFolder, &QPushButton::clicked, this, &QuantizeDialog::addFolder);
    connect(addFiles, &QPushButton::clicked, this, &QuantizeDialog::addFiles);
    connect(remove, &QPushButton::clicked, this, [this] { qDeleteAll(m_calib->selectedItems()); });
    auto* calibButtons = new QVBoxLayout;
    calibButtons->addWidget(addFolder);
    calibButtons->addWidget(addFiles);
    calibButtons->addWidget(remove);
    calibButtons->addStretch();
    auto* calibRow = new QHBoxLayout;
    calibRow->addWidget(m_calib, 1);
    calibRow->addLayout(calibButtons);

    m_method = new QComboBox(this);
    m_method->addItem(tr("minmax (the full range seen)"), QStringLiteral("minmax"));
    m_method->addItem(tr("percentile (cut the extreme values)"), QStringLiteral("percentile"));
    m_method->addItem(tr("entropy (KL divergence, as TensorRT)"), QStringLiteral("entropy"));
    m_percentile = new QDoubleSpinBox(this);
    m_percentile->setRange(0.001, 100);
    m_percentile->setDecimals(4);
    m_percentile->setValue(99.999);
    m_percentile->setSuffix(QStringLiteral(" %"));
    m_percentile->setToolTip(tr("Share of the values the percentile method keeps"));
    connect(m_method, &QComboBox::currentIndexChanged, this, &QuantizeDialog::updateMethod);

    m_excludeOps = new QLineEdit(this);
    m_excludeOps->setPlaceholderText(tr("e.g. Gemm, MatMul"));
    m_excludeOps->setToolTip(tr("ONNX op types whose nodes stay in float (comma-separated)"));
    m_excludeNodes = new QLineEdit(this);
    m_excludeNodes->setPlaceholderText(tr("node names, comma-separated"));
    m_excludeNodes->setToolTip(tr("Nodes that stay in float; right-click a node in the graph for 'Keep in float'"));
    m_output = new QLineEdit(defaultOutput(modelPath), this);
    auto* browse = new QPushButton(tr("Browse..."), this);
    connect(browse, &QPushButton::clicked, this, &QuantizeDialog::browseOutput);
    auto* outRow = new QHBoxLayout;
    outRow->addWidget(m_output, 1);
    outRow->addWidget(browse);

    m_resize = new QLineEdit(this);
    m_resize->setPlaceholderText(tr("WxH or N"));
    m_mean = new QLineEdit(this);
    m_mean->setPlaceholderText(QStringLiteral("0"));
    m_std = new QLineEdit(this);
    m_std->setPlaceholderText(QStringLiteral("1"));
    m_layout = new QComboBox(this);
    m_layout->addItems({QStringLiteral("NCHW"), QStringLiteral("NHWC")});
    for (QWidget* w : std::initializer_list<QWidget*>{m_resize, m_mean, m_std, m_layout})
        w->setToolTip(tr("Images (PNG, JPEG) only. Resize: WxH stretches, N scales the short side to N and crops the "
                         "centre. Pixels are scaled to [0,1], then (x - mean) / std, one value or one per channel "
                         "(e.g. 0.485,0.456,0.406 and 0.229,0.224,0.225). Layout: the model input's."));
    auto* imageRow = new QHBoxLayout;
    imageRow->addWidget(new QLabel(tr("resize"), this));
    imageRow->addWidget(m_resize, 2);
    imageRow->addWidget(new QLabel(tr("mean"), this));
    imageRow->addWidget(m_mean, 1);
    imageRow->addWidget(new QLabel(tr("std"), this));
    imageRow->addWidget(m_std, 1);
    imageRow->addWidget(m_layout);

    m_error = new QLabel(this);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c03030"));
    m_error->hide();
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Quantize"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QuantizeDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QuantizeDialog::reject);

    auto* form = new QFormLayout;
    form->addRow(tr("Calibration data:"), calibRow);
    form->addRow(tr("Images:"), imageRow);
    form->addRow(tr("Method:"), m_method);
    form->addRow(tr("Percentile:"), m_percentile);
    form->addRow(tr("Keep op types in float:"), m_excludeOps);
    form->addRow(tr("Keep nodes in float:"), m_excludeNodes);
    form->addRow(tr("Output model:"), outRow);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);
    if (const QString calib = defaultCalibration(modelPath); !calib.isEmpty()) m_calib->addItem(calib);
    setMinimumWidth(640);
    updateMethod();
}

QString QuantizeDialog::defaultCalibration(const QString& modelPath) {
    const QFileInfo info(modelPath);
    const QDir dir(info.absoluteDir().filePath(info.completeBaseName()));
    if (dir.exists() && !dir.entryList({QStringLiteral("test_data_set_*")}, QDir::Dirs).isEmpty())
        return dir.absolutePath();
    return {};
}

QString QuantizeDialog::defaultOutput(const QString& modelPath) {
    const QFileInfo info(modelPath);
    return info.absoluteDir().filePath(info.completeBaseName() + QStringLiteral(".int8.onnx"));
}

void QuantizeDialog::updateMethod() {
    m_percentile->setEnabled(m_method->currentData().toString() == QLatin1String("percentile"));
}

void QuantizeDialog::addFolder() {
    const QString dir =
        QFileDialog::getExistingDirectory(this, tr("Calibration folder"), QFileInfo(m_modelPath).absolutePath());
    if (!dir.isEmpty()) m_calib->addItem(dir);
}

void QuantizeDialog::addFiles() {
    const QStringList files =
        QFileDialog::getOpenFileNames(this, tr("Calibration tensors"), QFileInfo(m_modelPath).absolutePath(),
                                      tr("Tensors and images (*.npy *.pb *.png *.jpg *.jpeg)"));
    m_calib->addItems(files);
}

QString QuantizeDialog::readImageOptions(jobs::ImageOptions* image) const {
    if (const QString resize = m_resize->text().trimmed().toLower(); !resize.isEmpty()) {
        const QStringList parts = resize.split(QLatin1Char('x'));
        bool okW = false, okH = true;
        const int w = parts[0].trimmed().toInt(&okW);
        const int h = parts.size() == 2 ? parts[1].trimmed().toInt(&okH) : 0;
        if (!okW || !okH || parts.size() > 2 || w <= 0 || (parts.size() == 2 && h <= 0))
            return tr("Resize '%1': give WxH (e.g. 224x224) or N (e.g. 256), positive integers.").arg(m_resize->text());
        if (parts.size() == 2) {
            image->resizeWidth = w;
            image->resizeHeight = h;
        } else {
            image->shortSide = w;
        }
    }
    if (!m_mean->text().trimmed().isEmpty() && !parseNumbers(m_mean->text(), &image->mean))
        return tr("Mean '%1': give one number or one per channel, e.g. 0.485,0.456,0.406.").arg(m_mean->text());
    if (!m_std->text().trimmed().isEmpty()) {
        if (!parseNumbers(m_std->text(), &image->std))
            return tr("Std '%1': give one number or one per channel, e.g. 0.229,0.224,0.225.").arg(m_std->text());
        for (double v : image->std)
            if (!(v > 0)) return tr("Std values must be greater than 0.");
    }
    image->layout = m_layout->currentIndex() == 1 ? jobs::ImageLayout::NHWC : jobs::ImageLayout::NCHW;
    return {};
}

void QuantizeDialog::browseOutput() {
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Quantized model"), m_output->text(), tr("ONNX models (*.onnx)"));
    if (!path.isEmpty()) m_output->setText(path);
}

void QuantizeDialog::setRequest(const jobs::QuantizeRequest& r) {
    m_calib->clear();
    m_calib->addItems(r.calibration);
    const int method = m_method->findData(QString::fromLatin1(passes::calibrationMethodName(r.options.method)));
    if (method >= 0) m_method->setCurrentIndex(method);
    m_percentile->setValue(r.options.percentile);
    m_excludeOps->setText(r.excludeOps.join(QStringLiteral(", ")));
    m_excludeNodes->setText(r.excludeNodes.join(QStringLiteral(", ")));
    if (!r.outPath.isEmpty()) m_output->setText(r.outPath);
    const jobs::ImageOptions& i = r.image;
    m_resize->setText(i.shortSide > 0     ? QString::number(i.shortSide)
                      : i.resizeWidth > 0 ? QStringLiteral("%1x%2").arg(i.resizeWidth).arg(i.resizeHeight)
                                          : QString());
    m_mean->setText(i.mean == std::vector<double>{0.0} ? QString() : numbers(i.mean));
    m_std->setText(i.std == std::vector<double>{1.0} ? QString() : numbers(i.std));
    m_layout->setCurrentIndex(i.layout == jobs::ImageLayout::NHWC ? 1 : 0);
}

jobs::QuantizeRequest QuantizeDialog::request() const {
    jobs::QuantizeRequest r;
    r.modelPath = m_modelPath;
    for (int i = 0; i < m_calib->count(); ++i) r.calibration << m_calib->item(i)->text();
    passes::calibrationMethodFromName(m_method->currentData().toString().toStdString(), &r.options.method);
    r.options.percentile = m_percentile->value();
    r.excludeOps = splitList(m_excludeOps->text());
    r.excludeNodes = splitList(m_excludeNodes->text());
    r.outPath = m_output->text().trimmed();
    readImageOptions(&r.image);
    return r;
}

QString QuantizeDialog::validationError() const {
    const jobs::QuantizeRequest r = request();
    if (r.calibration.isEmpty())
        return tr("Add calibration data: a test_data_set_N folder, a folder of them, .npy files or images. "
                  "Quantization needs sample inputs to measure each activation's range.");
    for (const QString& c : r.calibration)
        if (!QFileInfo::exists(c)) return tr("The calibration source %1 does not exist.").arg(c);
    jobs::ImageOptions image;
    if (const QString error = readImageOptions(&image); !error.isEmpty()) return error;
    for (const QString& op : r.excludeOps)
        if (!onnx::opFromOnnx(op.toStdString()))
            return tr("'%1' is not an ONNX op type Embark knows (e.g. Conv, Gemm).").arg(op);
    if (m_graph)
        for (const QString& node : r.excludeNodes)
            if (!m_graph->findNode(node.toStdString())) return tr("The model has no node named '%1'.").arg(node);
    if (r.outPath.isEmpty()) return tr("Choose the output file of the quantized model.");
    if (QFileInfo(r.outPath).absoluteFilePath() == QFileInfo(m_modelPath).absoluteFilePath())
        return tr("The output would replace the float model: choose another file.");
    if (!QFileInfo(r.outPath).absoluteDir().exists()) return tr("The folder of %1 does not exist.").arg(r.outPath);
    return {};
}

void QuantizeDialog::accept() {
    const QString error = validationError();
    m_error->setText(error);
    m_error->setVisible(!error.isEmpty());
    if (error.isEmpty()) QDialog::accept();
}

} // namespace embark::ui
