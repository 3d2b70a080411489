// A small notice at the bottom right of the main window that fades after a few seconds:
// "Benchmark finished", "Build failed: ...". No system tray needed.
#pragma once

#include <QLabel>

class QTimer;

namespace embark::ui {

class JobToast : public QLabel {
    Q_OBJECT
public:
    explicit JobToast(QWidget* window);
    void showMessage(const QString& text, bool error, int ms = 6000);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    void place();
    QTimer* m_hide;
};

} // namespace embark::ui
