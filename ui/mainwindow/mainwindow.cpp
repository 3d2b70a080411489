#include "mainwindow.h"

#include "onnx/importer.h"

#include <QFileDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>

#include <map>

namespace embark::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("Embark"));
    m_summary = new QLabel(tr("Open an ONNX model to begin (File > Open)."), this);
    m_summary->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_summary->setMargin(12);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    setCentralWidget(m_summary);
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open model..."), QKeySequence::Open, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open ONNX model"), {},
                                                          tr("ONNX models (*.onnx)"));
        if (!path.isEmpty()) openModel(path);
    });
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    resize(900, 600);
}

bool MainWindow::openModel(const QString& path) {
    auto graph = onnx::importModel(path.toStdString());
    if (!graph.ok()) {
        QMessageBox::warning(this, tr("Cannot open model"), QString::fromStdString(graph.error().message));
        return false;
    }
    std::map<std::string, int> histogram;
    for (ir::Node* n : graph->nodes()) ++histogram[std::string(ir::opName(n->op))];
    QString text = tr("<h3>%1</h3>").arg(path.toHtmlEscaped());
    text += tr("<p>%1 nodes</p><ul>").arg(graph->nodeCount());
    for (const auto& [op, count] : histogram)
        text += QStringLiteral("<li>%1: %2</li>").arg(QString::fromStdString(op)).arg(count);
    text += QStringLiteral("</ul>");
    m_summary->setText(text);
    statusBar()->showMessage(tr("Opened %1").arg(path), 5000);
    return true;
}

} // namespace embark::ui
