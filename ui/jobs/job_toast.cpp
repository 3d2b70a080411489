#include "job_toast.h"

#include <QEvent>
#include <QTimer>

namespace embark::ui {

JobToast::JobToast(QWidget* window) : QLabel(window) {
    setObjectName(QStringLiteral("jobToast"));
    setWordWrap(true);
    setMaximumWidth(460);
    setMargin(10);
    setAutoFillBackground(true);
    setFrameShape(QFrame::StyledPanel);
    hide();
    m_hide = new QTimer(this);
    m_hide->setSingleShot(true);
    connect(m_hide, &QTimer::timeout, this, &QWidget::hide);
    window->installEventFilter(this); // follow the window's size
}

void JobToast::showMessage(const QString& text, bool error, int ms) {
    setText(text);
    QPalette p = parentWidget()->palette();
    p.setColor(QPalette::Window, error ? QColor(170, 40, 40) : p.color(QPalette::ToolTipBase));
    p.setColor(QPalette::WindowText, error ? QColor(Qt::white) : p.color(QPalette::ToolTipText));
    setPalette(p);
    adjustSize();
    place();
    show();
    raise();
    m_hide->start(ms);
}

bool JobToast::eventFilter(QObject* watched, QEvent* event) {
    if (watched == parentWidget() && event->type() == QEvent::Resize && isVisible()) place();
    return QLabel::eventFilter(watched, event);
}

void JobToast::mousePressEvent(QMouseEvent*) { hide(); }

void JobToast::place() {
    const QRect r = parentWidget()->rect();
    move(r.right() - width() - 16, r.bottom() - height() - 40);
}

} // namespace embark::ui
