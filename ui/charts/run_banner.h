// The strip above the graphs that says which run the charts and the node colours show
// ("run #7 · resnet18 · sim-k230 · portable · 6 Dec 10:42"), with a way back to the live
// model. Hidden while no run is shown, so results never silently replace what is on screen.
#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace embark::ui {

struct RunCharts;

class RunBanner : public QFrame {
    Q_OBJECT
public:
    explicit RunBanner(QWidget* parent = nullptr);
    // The run shown (null: none, the banner hides); `ofOpenModel` false says the graph is not
    // the run's model (its file is gone), so the graph keeps its own colours.
    void setRun(const RunCharts* run, bool ofOpenModel = true);
    QString text() const;
    QPushButton* backButton() const { return m_back; }

signals:
    // "Back to the live model": the caller empties the charts and the run colours.
    void backRequested();

private:
    QLabel* m_label;
    QPushButton* m_back;
};

} // namespace embark::ui
