#include "run_banner.h"

#include "charts_panel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace embark::ui {

RunBanner::RunBanner(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("runBanner"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    QPalette p = palette();
    p.setColor(QPalette::Window, p.color(QPalette::ToolTipBase));
    p.setColor(QPalette::WindowText, p.color(QPalette::ToolTipText));
    setPalette(p);
    m_label = new QLabel(this);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_back = new QPushButton(tr("Back to the live model"), this);
    m_back->setToolTip(tr("Empty the charts and show the open model's own colours again"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_back);
    connect(m_back, &QPushButton::clicked, this, &RunBanner::backRequested);
    hide();
}

void RunBanner::setRun(const RunCharts* run, bool ofOpenModel) {
    if (!run) {
        m_label->clear();
        hide();
        return;
    }
    m_label->setText(ofOpenModel ? tr("Charts and colours show %1").arg(runBannerText(*run))
                                 : tr("Charts show %1, a model that is not open (the graph keeps its own colours)")
                                       .arg(runBannerText(*run)));
    show();
}

QString RunBanner::text() const { return m_label->text(); }

} // namespace embark::ui
