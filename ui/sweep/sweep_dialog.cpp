#include "sweep_dialog.h"

#include "targets/board.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace embark::ui {

SweepDialog::SweepDialog(const QStringList& models, const QString& boardPattern, QWidget* parent)
    : QDialog(parent),
      m_models(new QListWidget(this)),
      m_pattern(new QLineEdit(boardPattern, this)),
      m_matched(new QLabel(this)),
      m_quantized(new QCheckBox(tr("Int8 cells too (each model quantized with its test data)"), this)),
      m_iterations(new QSpinBox(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)) {
    setWindowTitle(tr("Sweep"));
    for (const QString& m : models) {
        auto* item = new QListWidgetItem(QFileInfo(m).fileName(), m_models);
        item->setData(Qt::UserRole, m);
        item->setToolTip(m);
    }
    m_models->setMinimumHeight(80);
    m_models->setSelectionMode(QAbstractItemView::ExtendedSelection);
    auto* add = new QPushButton(tr("Add..."), this);
    auto* remove = new QPushButton(tr("Remove"), this);
    auto* modelButtons = new QVBoxLayout;
    modelButtons->addWidget(add);
    modelButtons->addWidget(remove);
    modelButtons->addStretch();
    auto* modelRow = new QHBoxLayout;
    modelRow->addWidget(m_models, 1);
    modelRow->addLayout(modelButtons);

    m_pattern->setPlaceholderText(tr("sim-*,k1-farm"));
    m_pattern->setToolTip(tr("Board ids or wildcards, comma-separated"));
    m_matched->setWordWrap(true);
    auto* libraries = new QHBoxLayout;
    for (const QString& lib : {QStringLiteral("portable"), QStringLiteral("xnnpack"), QStringLiteral("auto")}) {
        auto* box = new QCheckBox(lib, this);
        box->setObjectName(lib);
        box->setChecked(lib == QLatin1String("portable"));
        if (lib == QLatin1String("auto")) box->setToolTip(tr("Each node on the library measured fastest on the board"));
        m_libraries << box;
        libraries->addWidget(box);
        connect(box, &QCheckBox::toggled, this, &SweepDialog::update);
    }
    libraries->addStretch();
    m_iterations->setRange(1, 100000);
    m_iterations->setValue(10);

    auto* form = new QFormLayout;
    form->addRow(tr("Models:"), modelRow);
    form->addRow(tr("Boards:"), m_pattern);
    form->addRow(QString(), m_matched);
    form->addRow(tr("Libraries:"), libraries);
    form->addRow(QString(), m_quantized);
    form->addRow(tr("Iterations:"), m_iterations);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_buttons);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Run sweep"));
    m_buttons->button(QDialogButtonBox::Cancel)->setText(tr("Cancel"));

    connect(add, &QPushButton::clicked, this, &SweepDialog::addModels);
    connect(remove, &QPushButton::clicked, this, [this] { qDeleteAll(m_models->selectedItems()); });
    connect(m_pattern, &QLineEdit::textChanged, this, &SweepDialog::update);
    connect(m_models->model(), &QAbstractItemModel::rowsRemoved, this, &SweepDialog::update);
    connect(m_models->model(), &QAbstractItemModel::rowsInserted, this, &SweepDialog::update);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    update();
}

QCheckBox* SweepDialog::libraryBox(const QString& library) const {
    for (QCheckBox* b : m_libraries)
        if (b->objectName() == library) return b;
    return nullptr;
}

void SweepDialog::addModels() {
    const QStringList files =
        QFileDialog::getOpenFileNames(this, tr("Models to sweep"), QString(), tr("ONNX models (*.onnx)"));
    for (const QString& f : files) {
        auto* item = new QListWidgetItem(QFileInfo(f).fileName(), m_models);
        item->setData(Qt::UserRole, f);
        item->setToolTip(f);
    }
}

void SweepDialog::update() {
    m_problem.clear();
    const QStringList patterns = m_pattern->text().split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (patterns.isEmpty()) {
        m_problem = tr("Name at least one board (an id or a wildcard such as sim-*).");
        m_matched->setText(m_problem);
    } else {
        QStringList trimmed;
        for (const QString& p : patterns) trimmed << p.trimmed();
        auto boards = jobs::matchBoards(targets::loadBoards(), trimmed);
        if (!boards) {
            m_problem = QString::fromStdString(boards.error().message);
            m_matched->setText(m_problem);
        } else {
            QStringList ids;
            for (const targets::Board& b : *boards) ids << b.id;
            m_matched->setText(tr("%n board(s): %1", nullptr, int(ids.size())).arg(ids.join(QStringLiteral(", "))));
        }
    }
    bool anyLibrary = false;
    for (QCheckBox* b : m_libraries) anyLibrary = anyLibrary || b->isChecked();
    if (m_problem.isEmpty() && !anyLibrary) m_problem = tr("Choose at least one kernel library.");
    if (m_problem.isEmpty() && m_models->count() == 0) m_problem = tr("Add at least one model.");
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(m_problem.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setToolTip(m_problem);
}

QString SweepDialog::problem() const { return m_problem; }

jobs::SweepOptions SweepDialog::options() const {
    jobs::SweepOptions o;
    for (int i = 0; i < m_models->count(); ++i) o.models << m_models->item(i)->data(Qt::UserRole).toString();
    for (const QString& p : m_pattern->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        o.boardPatterns << p.trimmed();
    o.libraries.clear();
    for (QCheckBox* b : m_libraries)
        if (b->isChecked()) o.libraries.push_back(b->objectName().toStdString());
    o.quantized = m_quantized->isChecked();
    o.base.iterations = m_iterations->value();
    return o;
}

} // namespace embark::ui
