// The ONNX backend test data (Debian's libonnx-testdata) run through the importer and the
// reference interpreter: every model whose ops and dtypes are supported must match the
// expected outputs within the ONNX backend tolerances (integer outputs exactly); the rest
// are skips, by reason.
#include "onnx/importer.h"
#include "onnx/tensor_io.h"
#include "reference/interpreter.h"
#include "support/test_paths.h"

#include <QDir>
#include <QRegularExpression>
#include <QTest>

#include <cmath>
#include <cstdio>
#include <map>

using namespace embark;

namespace {

constexpr double kRtol = 1e-3;
constexpr double kAtol = 1e-7;

// Empty when `actual` matches `expected` (|a-b| <= atol + rtol*|b|, NaNs equal), else why not.
std::string compareTensors(const ir::Tensor& actual, const ir::Tensor& expected) {
    if (actual.dtype() != expected.dtype())
        return "dtype " + std::string(ir::dtypeName(actual.dtype())) + ", expected " +
               std::string(ir::dtypeName(expected.dtype()));
    if (actual.shape() != expected.shape())
        return "shape " + actual.shape().str() + ", expected " + expected.shape().str();
    // Integer and bool outputs (quantized tensors, indices) have no rounding to allow for.
    const bool exact = !ir::isFloating(expected.dtype());
    for (int64_t i = 0; i < expected.numel(); ++i) {
        const double a = actual.at(i), b = expected.at(i);
        if (exact && actual.intAt(i) != expected.intAt(i))
            return "element " + std::to_string(i) + " is " + std::to_string(actual.intAt(i)) + ", expected exactly " +
                   std::to_string(expected.intAt(i));
        if (std::isnan(a) && std::isnan(b)) continue;
        if (a == b) continue; // also equal infinities
        if (!(std::fabs(a - b) <= kAtol + kRtol * std::fabs(b)))
            return "element " + std::to_string(i) + " is " + std::to_string(a) + ", expected " + std::to_string(b);
    }
    return {};
}

// Groups skip messages by what is missing, without the node or value names.
std::string skipReason(const std::string& message) {
    static const QRegularExpression op("uses op '([^']+)'");
    static const QRegularExpression node("^.*node '[^']*' \\(([^)]+)\\): ");
    static const QRegularExpression quoted("'[^']*'");
    static const QRegularExpression file("^\\S*\\.onnx: ");
    static const QRegularExpression dataSet("^test_data_set_\\d+: ");
    QString m = QString::fromStdString(message);
    m.remove(file);
    m.remove(dataSet);
    if (auto match = op.match(m); match.hasMatch()) return "unsupported op " + match.captured(1).toStdString();
    QString reason = m;
    if (auto match = node.match(m); match.hasMatch()) reason = match.captured(1) + ": " + m.mid(match.capturedEnd());
    reason.replace(quoted, "'…'");
    return reason.left(110).toStdString();
}

enum class Outcome { Passed, Failed, Skipped };

struct Tally {
    int passed = 0, failed = 0, skipped = 0;
    std::map<std::string, int> skipReasons;
};

Outcome runTestCase(const QString& dir, std::string* detail) {
    Expected<ir::Graph> graph = onnx::importModel((dir + "/model.onnx").toStdString());
    if (!graph) {
        *detail = graph.error().message;
        return graph.error().kind == ErrorKind::Unsupported ? Outcome::Skipped : Outcome::Failed;
    }
    const QStringList sets = QDir(dir).entryList({"test_data_set_*"}, QDir::Dirs, QDir::Name);
    if (sets.isEmpty()) {
        *detail = "no test_data_set_N folder";
        return Outcome::Skipped;
    }
    std::vector<const ir::Value*> graphInputs;
    for (const ir::Value* v : graph->inputs())
        if (!v->isConstant()) graphInputs.push_back(v);
    for (const QString& set : sets) {
        Expected<onnx::TestDataSet> data = onnx::readTestDataSet((dir + "/" + set).toStdString());
        if (!data) {
            *detail = set.toStdString() + ": " + data.error().message;
            return data.error().kind == ErrorKind::Unsupported ? Outcome::Skipped : Outcome::Failed;
        }
        std::map<std::string, ir::Tensor> inputs;
        for (size_t i = 0; i < data->inputs.size(); ++i) {
            const onnx::NamedTensor& t = data->inputs[i];
            const ir::Value* byName = t.name.empty() ? nullptr : graph->findValue(t.name);
            const ir::Value* v = byName && byName->isGraphInput() ? byName
                                 : i < graphInputs.size()         ? graphInputs[i]
                                                                  : nullptr;
            if (!v) {
                *detail = set.toStdString() + ": input_" + std::to_string(i) + " matches no model input";
                return Outcome::Failed;
            }
            inputs[v->name] = t.tensor;
        }
        Expected<reference::RunResult> result = reference::run(*graph, inputs);
        if (!result) {
            *detail = set.toStdString() + ": " + result.error().message;
            return result.error().kind == ErrorKind::Unsupported ? Outcome::Skipped : Outcome::Failed;
        }
        if (result->outputs.size() < data->outputs.size()) {
            *detail = set.toStdString() + ": " + std::to_string(result->outputs.size()) + " outputs, expected " +
                      std::to_string(data->outputs.size());
            return Outcome::Failed;
        }
        for (size_t k = 0; k < data->outputs.size(); ++k) {
            const std::string why = compareTensors(result->outputs[k], data->outputs[k].tensor);
            if (!why.empty()) {
                *detail = set.toStdString() + " output '" + result->outputNames[k] + "': " + why;
                return Outcome::Failed;
            }
        }
    }
    return Outcome::Passed;
}

} // namespace

class TestConformance : public QObject {
    Q_OBJECT

private slots:
    void onnxBackendTestData() {
        const QString root = embark::test::onnxTestDataDir();
        if (root.isEmpty())
            QSKIP("/usr/share/libonnx-testdata/data is absent: install the Debian package libonnx-testdata");
        Tally tally;
        for (const QString suite : {"node", "pytorch-converted", "pytorch-operator", "simple"}) {
            const QDir suiteDir(root + "/" + suite);
            for (const QString& name : suiteDir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
                const QString dir = suiteDir.filePath(name);
                if (!QFileInfo::exists(dir + "/model.onnx")) continue;
                std::string detail;
                switch (runTestCase(dir, &detail)) {
                case Outcome::Passed: ++tally.passed; break;
                case Outcome::Failed:
                    ++tally.failed;
                    std::printf("FAIL %s/%s: %s\n", qPrintable(suite), qPrintable(name), detail.c_str());
                    break;
                case Outcome::Skipped:
                    ++tally.skipped;
                    ++tally.skipReasons[skipReason(detail)];
                    if (qEnvironmentVariableIsSet("EMBARK_CONFORMANCE_VERBOSE"))
                        std::printf("SKIP %s/%s: %s\n", qPrintable(suite), qPrintable(name), detail.c_str());
                    break;
                }
            }
        }
        std::printf("skip reasons:\n");
        for (const auto& [reason, count] : tally.skipReasons) std::printf("  %4d  %s\n", count, reason.c_str());
        std::printf("%d passed, %d failed, %d skipped\n", tally.passed, tally.failed, tally.skipped);
        std::fflush(stdout);
        QVERIFY2(tally.failed == 0, "supported ONNX backend tests fail (see the FAIL lines above)");
        QVERIFY(tally.passed > 0);
    }
};

QTEST_GUILESS_MAIN(TestConformance)
#include "tst_conformance.moc"
