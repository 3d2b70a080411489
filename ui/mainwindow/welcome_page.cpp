#include "welcome_page.h"

#include <QDir>
#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QUrl>
#include <QVBoxLayout>

namespace embark::ui {

namespace {

constexpr int kPathRole = Qt::UserRole;

QLabel* heading(const QString& text, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    QFont font = label->font();
    font.setBold(true);
    font.setPointSizeF(font.pointSizeF() * 1.15);
    label->setFont(font);
    return label;
}

} // namespace

WelcomePage::WelcomePage(const QString& sampleModel, QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("welcomePage"));
    auto* title = new QLabel(tr("<h2>Welcome to Embark</h2>"
                                "<p>From an ONNX model to an embedded board: inspect it, choose a board and a kernel "
                                "library, run it and compare the runs.</p>"),
                             this);
    title->setWordWrap(true);
    m_open = new QPushButton(tr("Open model..."), this);
    m_sample = new QLabel(this);
    m_sample->setText(
        QStringLiteral("<a href=\"%1\">%2</a>")
            .arg(QUrl::fromLocalFile(sampleModel).toString(QUrl::FullyEncoded),
                 tr("Open the sample model (%1)").arg(QFileInfo(sampleModel).fileName()).toHtmlEscaped()));
    m_sample->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    m_sample->setVisible(QFileInfo::exists(sampleModel));
    m_models = new QListWidget(this);
    m_models->setObjectName(QStringLiteral("recentModels"));
    m_runs = new QListWidget(this);
    m_runs->setObjectName(QStringLiteral("recentRuns"));
    for (QListWidget* list : {m_models, m_runs}) list->setTextElideMode(Qt::ElideMiddle);

    auto* grid = new QGridLayout;
    grid->addWidget(heading(tr("Recent models"), this), 0, 0);
    grid->addWidget(heading(tr("Recent runs"), this), 0, 1);
    grid->addWidget(m_models, 1, 0);
    grid->addWidget(m_runs, 1, 1);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    auto* start = new QHBoxLayout;
    start->addWidget(m_open);
    start->addWidget(m_sample);
    start->addStretch();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(32, 24, 32, 24);
    layout->addWidget(title);
    layout->addLayout(start);
    layout->addSpacing(12);
    layout->addLayout(grid, 1);

    connect(m_open, &QPushButton::clicked, this, &WelcomePage::openRequested);
    connect(m_sample, &QLabel::linkActivated, this,
            [this](const QString& link) { emit modelRequested(QUrl(link).toLocalFile()); });
    connect(m_models, &QListWidget::itemClicked, this,
            [this](QListWidgetItem* item) { emit modelRequested(item->data(kPathRole).toString()); });
    connect(m_runs, &QListWidget::itemClicked, this,
            [this](QListWidgetItem* item) { emit runRequested(item->data(kPathRole).toLongLong()); });
}

void WelcomePage::setRecentModels(const QStringList& paths) {
    m_models->clear();
    for (const QString& path : paths) {
        auto* item = new QListWidgetItem(
            QStringLiteral("%1 \u2014 %2")
                .arg(QFileInfo(path).fileName(), QDir::toNativeSeparators(QFileInfo(path).absolutePath())),
            m_models);
        item->setData(kPathRole, path);
        item->setToolTip(QDir::toNativeSeparators(path));
        if (!QFileInfo::exists(path)) item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
    }
    if (paths.isEmpty()) {
        auto* item = new QListWidgetItem(tr("No model opened yet"), m_models);
        item->setFlags(Qt::NoItemFlags);
    }
}

void WelcomePage::setRecentRuns(const QList<RecentRun>& runs) {
    m_runs->clear();
    for (const RecentRun& run : runs) {
        auto* item = new QListWidgetItem(run.text, m_runs);
        item->setData(kPathRole, run.id);
        item->setToolTip(run.text);
    }
    if (runs.isEmpty()) {
        auto* item = new QListWidgetItem(tr("No run yet: open a model and press F5"), m_runs);
        item->setFlags(Qt::NoItemFlags);
    }
}

} // namespace embark::ui
