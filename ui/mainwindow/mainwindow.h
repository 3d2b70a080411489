// The studio's main window: assembles docks and actions; each panel is its own widget.
#pragma once

#include <QMainWindow>

class QLabel;

namespace embark::ui {

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    // Opens a model and shows its summary; returns false (with a message box) on error.
    bool openModel(const QString& path);

private:
    QLabel* m_summary = nullptr;
};

} // namespace embark::ui
