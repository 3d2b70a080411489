// Asks for the free dimensions of a model's inputs (a symbolic "batch" or "height", or no
// shape at all) before the studio opens it: one row per input with a spin box per free
// dimension (fixed ones shown as they are). The shapes go to the importer as
// ImportOptions::shapeOverrides, what `--shape NAME=DIMS` does on the command line.
#pragma once

#include "ir/shape.h"
#include "onnx/model_inputs.h"

#include <QDialog>

#include <map>
#include <string>
#include <vector>

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace embark::ui {

class InputShapesDialog : public QDialog {
    Q_OBJECT
public:
    InputShapesDialog(const QString& modelPath, std::vector<onnx::DeclaredInput> inputs, QWidget* parent = nullptr);

    // One shape per input with free dimensions, from the entered values.
    std::map<std::string, ir::Shape> shapes() const;
    // The spin boxes of the free dimensions of `input`, in order (empty for a shapeless input).
    QList<QSpinBox*> freeDims(const QString& input) const;
    // The "1x3x224x224" field of an input that declares no shape.
    QLineEdit* shapeEdit(const QString& input) const;

    // True when some input of the model at `path` has free dimensions (so opening it needs
    // this dialog); false too when the file cannot be read.
    static bool needsShapes(const QString& path, std::vector<onnx::DeclaredInput>* inputs = nullptr);

    // The shapes chosen for the model at `path` when it was last opened, kept in the settings
    // under its path and the hash of its contents (a changed file is asked about again).
    // Empty when none are known.
    static std::map<std::string, ir::Shape> rememberedShapes(const QString& path);
    static void rememberShapes(const QString& path, const std::map<std::string, ir::Shape>& shapes);

private:
    void validate();

    struct Row {
        onnx::DeclaredInput input;
        QList<QSpinBox*> dims; // one per dimension; fixed ones are null
        QLineEdit* whole = nullptr;
    };
    std::vector<Row> m_rows;
    QLabel* m_problem;
    QPushButton* m_ok = nullptr;
};

} // namespace embark::ui
