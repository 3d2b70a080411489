// The Quantize dialog: calibration data (test_data_set folders, .npy/.pb files, PNG/JPEG
// images with their resize, mean, std and layout), method (minmax, percentile with its P,
// entropy), the op types and nodes kept in float, and the output file. OK validates and says
// what is missing instead of closing.
#pragma once

#include "jobs/quantize_job.h"

#include <QDialog>

#include <memory>

class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;

namespace embark::ui {

class QuantizeDialog : public QDialog {
    Q_OBJECT
public:
    // `graph`: the float model (to check node names); may be null.
    QuantizeDialog(const QString& modelPath, std::shared_ptr<const ir::Graph> graph, QWidget* parent = nullptr);

    // Fills the fields (a previous request of the same model); the model path is kept.
    void setRequest(const jobs::QuantizeRequest& request);
    jobs::QuantizeRequest request() const;
    // Empty when the fields make a request, else what to fix (also shown in the dialog).
    QString validationError() const;
    // The model's own test_data_set folder (<dir>/<name>/test_data_set_*), or empty.
    static QString defaultCalibration(const QString& modelPath);
    static QString defaultOutput(const QString& modelPath);

    QListWidget* calibrationList() const { return m_calib; }
    QComboBox* methodBox() const { return m_method; }
    QDoubleSpinBox* percentileBox() const { return m_percentile; }
    QLineEdit* excludeOpsEdit() const { return m_excludeOps; }
    QLineEdit* excludeNodesEdit() const { return m_excludeNodes; }
    QLineEdit* outputEdit() const { return m_output; }
    QLineEdit* resizeEdit() const { return m_resize; }
    QLineEdit* meanEdit() const { return m_mean; }
    QLineEdit* stdEdit() const { return m_std; }
    QComboBox* layoutBox() const { return m_layout; }
    QLabel* errorLabel() const { return m_error; }

    void accept() override;

private:
    void addFolder();
    void addFiles();
    void browseOutput();
    void updateMethod();
    // The image options of the fields; empty, or what is wrong with them.
    QString readImageOptions(jobs::ImageOptions* image) const;

    QString m_modelPath;
    std::shared_ptr<const ir::Graph> m_graph;
    QListWidget* m_calib;
    QComboBox* m_method;
    QDoubleSpinBox* m_percentile;
    QLineEdit* m_excludeOps;
    QLineEdit* m_excludeNodes;
    QLineEdit* m_output;
    QLineEdit* m_resize;
    QLineEdit* m_mean;
    QLineEdit* m_std;
    QComboBox* m_layout;
    QLabel* m_error;
    QDialogButtonBox* m_buttons;
};

} // namespace embark::ui
