// Element-wise ops on bool and integer tensors computed at run time, through the portable
// export on the host (issue 31, found by bench/zoo/check_families.sh): a CenterNet-like peak
// mask (Equal of two float maps -> Cast -> Mul, on channels-last data after a MaxPool), an
// attention mask from int64 token ids (Equal, Not, Where), integer index arithmetic (Div, Mod
// with negative operands, Less, And). Before, every such model was refused with "exports
// compute in float32". Each model is exported, built into one harness binary and run; its
// outputs must equal the reference interpreter's. A window whose size is fed at run time goes
// through the CLI: its run-time check stops a run asking for another size (exit 5).
#include "export/exporter.h"
#include "onnx/onnx_models.h"
#include "support/cli_process.h"
#include "support/export_harness.h"
#include "support/test_paths.h"
#include "support/graph_builder.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace embark;
using ir::DType;
using ir::OpKind;

namespace {

// Equal(MaxPool(heat), heat) keeps the peaks of a heat map (CenterNet's NMS).
ir::Graph peakMask() {
    test::GraphBuilder b("peak_mask");
    ir::Value* x = b.input("image", {1, 3, 8, 8});
    ir::Value* w = b.weights("conv.weight", {4, 3, 3, 3});
    ir::Value* heat =
        b.op(OpKind::Sigmoid,
             {b.op(OpKind::Conv, {x, w},
                   {{"kernel_shape", std::vector<int64_t>{3, 3}}, {"pads", std::vector<int64_t>{1, 1, 1, 1}}}, "conv")},
             {}, "heat");
    ir::Value* peak = b.op(OpKind::MaxPool, {heat},
                           {{"kernel_shape", std::vector<int64_t>{3, 3}},
                            {"strides", std::vector<int64_t>{1, 1}},
                            {"pads", std::vector<int64_t>{1, 1, 1, 1}}},
                           "peak");
    ir::Value* keep =
        b.op(OpKind::Cast, {b.op(OpKind::Equal, {peak, heat}, {}, "is_peak")}, {{"to", int64_t{1}}}, "keep");
    b.output(b.op(OpKind::Mul, {heat, keep}, {}, "peaks"));
    return b.build();
}

// An additive attention mask from token ids: padding (id 0) gets -10000, the rest 0.
ir::Graph tokenMask() {
    test::GraphBuilder b("token_mask");
    ir::Value* ids = b.input("input_ids", {1, 6}, DType::Int64);
    ir::Value* scores = b.input("scores", {1, 2, 6, 6});
    ir::Value* pad = b.op(OpKind::Equal, {ids, b.ints("pad_id", {0})}, {}, "is_pad");
    ir::Value* real = b.op(OpKind::Not, {pad}, {}, "is_real");
    ir::Value* bias = b.op(OpKind::Where, {real, b.floats("zero", {0.f}), b.floats("minus", {-10000.f})}, {}, "bias");
    bias = b.op(OpKind::Unsqueeze, {bias, b.ints("axes", {1, 2})}, {}, "bias4");
    b.output(
        b.op(OpKind::Softmax, {b.op(OpKind::Add, {scores, bias}, {}, "masked")}, {{"axis", int64_t{-1}}}, "probs"));
    return b.build();
}

// Index arithmetic on int64: row = idx / 5, col = idx mod -3 (the divisor's sign), a range
// test with Less and And, everything cast back to float for the output.
ir::Graph indexMath() {
    test::GraphBuilder b("index_math");
    ir::Value* idx = b.input("idx", {2, 4}, DType::Int64);
    ir::Value* row = b.op(OpKind::Div, {idx, b.ints("five", {5})}, {}, "row");
    ir::Value* col = b.op(OpKind::Mod, {idx, b.ints("minus3", {-3})}, {}, "col");
    ir::Value* lo = b.op(OpKind::Less, {b.ints("minus7", {-7}), idx}, {}, "above");
    ir::Value* hi = b.op(OpKind::Less, {idx, b.ints("nine", {9})}, {}, "below");
    ir::Value* in = b.op(OpKind::And, {lo, hi}, {}, "inside");
    ir::Value* sum = b.op(OpKind::Add, {b.op(OpKind::Mul, {row, b.ints("ten", {10})}, {}, "row10"), col}, {}, "rc");
    ir::Value* picked = b.op(OpKind::Where, {in, sum, b.ints("none", {-1})}, {}, "picked");
    b.output(b.op(OpKind::Cast, {picked}, {{"to", int64_t{1}}}, "picked_f"));
    return b.build();
}

ir::Tensor int64Tensor(ir::Shape shape, const std::vector<int64_t>& values) {
    return ir::Tensor::fromInt64s(std::move(shape), values);
}

ir::Tensor typedTensor(DType t, ir::Shape shape, const std::vector<int64_t>& values) {
    return int64Tensor(std::move(shape), values).castTo(t);
}

// BitwiseAnd/Or/Xor/Not (imported as And/Or/Xor/Not) on run-time int32 values:
// ~((x & 0x0F0F) | 1) ^ x, cast to float.
ir::Graph bitwiseInt32() {
    test::GraphBuilder b("bitwise_int32");
    ir::Value* x = b.input("x", {2, 4}, DType::Int32);
    ir::Value* a = b.op(OpKind::And, {x, b.constant("mask", typedTensor(DType::Int32, {1}, {0x0F0F}))}, {}, "and");
    ir::Value* o = b.op(OpKind::Or, {a, b.constant("one", typedTensor(DType::Int32, {4}, {1, 2, 4, 8}))}, {}, "or");
    ir::Value* n = b.op(OpKind::Not, {o}, {}, "not");
    b.output(b.op(OpKind::Cast, {b.op(OpKind::Xor, {n, x}, {}, "xor")}, {{"to", int64_t{1}}}, "bits_f"));
    return b.build();
}

// BitShift LEFT and RIGHT on run-time uint8 values, shifts of 0 to 9 (8 and more give 0):
// (u << s) + 1000 * ~(u >> s), in float.
ir::Graph bitShiftUInt8() {
    test::GraphBuilder b("bitshift_uint8");
    ir::Value* u = b.input("u", {2, 5}, DType::UInt8);
    ir::Value* s = b.constant("s", typedTensor(DType::UInt8, {5}, {0, 1, 3, 8, 9}));
    ir::Value* l = b.op(OpKind::BitShift, {u, s}, {{"direction", std::string("LEFT")}}, "left");
    ir::Value* r = b.op(OpKind::BitShift, {u, s}, {{"direction", std::string("RIGHT")}}, "right");
    ir::Value* nr = b.op(OpKind::Not, {r}, {}, "not_right");
    ir::Value* lf = b.op(OpKind::Cast, {l}, {{"to", int64_t{1}}}, "left_f");
    ir::Value* nf = b.op(OpKind::Cast, {nr}, {{"to", int64_t{1}}}, "not_right_f");
    b.output(b.op(OpKind::Add, {lf, b.op(OpKind::Mul, {nf, b.floats("k", {1000.f})}, {}, "scaled")}, {}, "shifts"));
    return b.build();
}

// Float ops of a float64 model, computed in double: CumSum, ReduceLogSumExp and a general
// Einsum (lower_einsum keeps float32 ones only): LSE(CumSum(x)) + CumSum(x) x^T. CumSum of
// 1e8, 1, 1, 1 is 1e8 + 3 in double but 1e8 in float32 (spacing 8 there).
ir::Graph float64Math() {
    test::GraphBuilder b("float64_math");
    ir::Value* x = b.input("x", {2, 4}, DType::Float64);
    ir::Value* cs = b.op(OpKind::CumSum, {x, b.ints("axis", {1})}, {}, "cumsum64");
    ir::Value* lse = b.op(OpKind::ReduceLogSumExp, {cs, b.ints("axes", {1})}, {{"keepdims", int64_t{1}}}, "lse64");
    ir::Value* e = b.op(OpKind::Einsum, {cs, x}, {{"equation", std::string("ij,kj->ik")}}, "einsum64");
    b.output(b.op(OpKind::Add, {lse, e}, {}, "sum64"));
    return b.build();
}

} // namespace

class TestExportTyped : public QObject {
    Q_OBJECT

private slots:
    void runTimeMasksAndIndexMathMatchTheReference() {
        auto target = test::harnessTarget("host", false);
        QVERIFY2(target, target ? "" : target.error().message.c_str());
        const QString work = (embark::test::binaryDir() + "/tests/export_typed");
        struct Case {
            std::string name;
            ir::Graph graph;
            std::map<std::string, ir::Tensor> inputs;
        };
        std::vector<Case> cases;
        cases.push_back({"peak_mask", peakMask(), {}});
        cases.push_back({"token_mask", tokenMask(), {{"input_ids", int64Tensor({1, 6}, {7, 3, 0, 12, 0, 0})}}});
        cases.push_back({"index_math", indexMath(), {{"idx", int64Tensor({2, 4}, {-8, -7, -6, -1, 0, 4, 8, 9})}}});
        const std::vector<int64_t> xs{0, -1, 0x7FFF1234, -0x10000, 5, 0xF0F0, -77, 1 << 30};
        cases.push_back({"bitwise_int32", bitwiseInt32(), {{"x", typedTensor(DType::Int32, {2, 4}, xs)}}});
        const std::vector<int64_t> us{1, 3, 255, 200, 128, 0, 129, 17, 255, 7};
        cases.push_back({"bitshift_uint8", bitShiftUInt8(), {{"u", typedTensor(DType::UInt8, {2, 5}, us)}}});
        const std::vector<double> x64{1e8, 1, 1, 1, 0.5, 0.25, 3, -2};
        cases.push_back(
            {"float64_math",
             float64Math(),
             {{"x", ir::Tensor::fromBytes(DType::Float64, {2, 4}, x64.data(), x64.size() * sizeof(double))}}});
        std::vector<test::HarnessEntry> entries;
        for (Case& c : cases) {
            exporter::ExportOptions o = target->exportOptions;
            o.library = "portable";
            o.outDir = work + "/exports/" + QString::fromStdString(c.name);
            o.sampleInputs = c.inputs;
            auto r = exporter::exportModel(c.graph, o);
            QVERIFY2(r, r ? "" : (c.name + ": " + r.error().message).c_str());
            entries.push_back({c.name, r->dir});
        }
        test::HarnessOptions ho = target->harness;
        ho.workDir = work + "/harness";
        auto results = test::runExportHarness(entries, ho);
        QVERIFY2(results, results ? "" : results.error().message.c_str());
        QCOMPARE(results->size(), entries.size());
        for (const test::HarnessResult& r : *results) {
            QVERIFY2(r.status == test::HarnessStatus::Ok, (r.id + ": " + r.message).c_str());
            QCOMPARE(r.outputs.size(), size_t{1});
            const test::HarnessOutput& out = r.outputs[0];
            // Masks and integers are exact; the softmax after the mask within float rounding;
            // float64 ops within double rounding.
            const double tolerance = r.id == "float64_math" ? 1e-13 : 1e-6;
            QVERIFY2(out.finite && out.maxAbs <= tolerance * (1 + out.maxRef),
                     (r.id + " " + out.name + ": max |diff| vs the reference " + std::to_string(out.maxAbs)).c_str());
            double largest = 0;
            for (int64_t i = 0; i < out.data.numel(); ++i) largest = std::max(largest, std::fabs(out.data.at(i)));
            QVERIFY2(largest > 0, (r.id + ": an all-zero output checks nothing").c_str());
            if (r.id == "index_math") { // ONNX's integer Div truncates, Mod takes the divisor's sign
                const std::vector<double> want{-1, -1, -10, -1, 0, -2, 9, -1};
                for (size_t i = 0; i < want.size(); ++i) QCOMPARE(out.data.at(static_cast<int64_t>(i)), want[i]);
            }
            if (r.id == "bitwise_int32")
                for (size_t i = 0; i < xs.size(); ++i) {
                    const auto x = static_cast<int32_t>(xs[i]);
                    const int32_t want = ~((x & 0x0F0F) | (1 << (i % 4))) ^ x;
                    // cast to float32 for the output
                    QCOMPARE(out.data.at(static_cast<int64_t>(i)), static_cast<double>(static_cast<float>(want)));
                }
            if (r.id == "bitshift_uint8")
                for (size_t i = 0; i < us.size(); ++i) {
                    const unsigned u = static_cast<unsigned>(us[i]), sh = std::vector<unsigned>{0, 1, 3, 8, 9}[i % 5];
                    const unsigned left = sh >= 8 ? 0 : (u << sh) & 0xFF, right = sh >= 8 ? 0 : u >> sh;
                    QCOMPARE(out.data.at(static_cast<int64_t>(i)), left + 1000.0 * (~right & 0xFF));
                }
        }
    }

    // A window whose size is fed at run time exports at the size of its sample input (as Range
    // with run-time bounds): the run computes it, and a run asking for another size stops with
    // exit 5 naming the node instead of writing a window of the wrong length.
    void runTimeWindowSizeIsChecked() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        // Written as a protobuf: the window's length stays open in the file, as exporters write it.
        test::ProtoModel p(17);
        p.input("size", {}, test::pb::TensorProto::INT64);
        p.node("HannWindow", {"size"}, {"window"}, "hann");
        p.output("window", 1);
        const QString model = tmp.filePath("hann_runtime.onnx");
        QVERIFY(p.save(model));
        // .npy files of one int64 scalar (a 128-byte header, then the value).
        auto npy = [&](const QString& name, int64_t v) {
            QByteArray header = "{'descr': '<i8', 'fortran_order': False, 'shape': (), }";
            header += QByteArray(128 - 10 - header.size() - 1, ' ') + "\n";
            QByteArray bytes = QByteArray("\x93NUMPY\x01\x00", 8);
            bytes += static_cast<char>(header.size() & 0xff);
            bytes += static_cast<char>(header.size() >> 8);
            bytes += header + QByteArray(reinterpret_cast<const char*>(&v), sizeof v);
            QFile f(tmp.filePath(name));
            return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
        };
        QVERIFY(npy("size8.npy", 8) && npy("size9.npy", 9));
        const QString out = tmp.filePath("hann_export");
        auto describe = [](const test::CliResult& r) {
            return QString("exit %1\n%2\n%3").arg(r.code).arg(QString::fromUtf8(r.out), QString::fromUtf8(r.err));
        };
        test::CliResult e = test::runCli(
            {"export", model, "--lib", "portable", "--input", "size=" + tmp.filePath("size8.npy"), "-o", out});
        QVERIFY2(e.code == 0, qPrintable(describe(e)));
        test::CliResult b = test::runCli({"build", out, "--jobs", "2"});
        QVERIFY2(b.code == 0, qPrintable(describe(b)));
        test::CliResult ok = test::runCli({"exec", out, "--", "--check", "1e-6", "--warmup", "0"});
        QVERIFY2(ok.code == 0 && ok.out.contains("\"shape\":[8]") && ok.out.contains("\"ok\":true"),
                 qPrintable(describe(ok)));
        test::CliResult bad = test::runCli({"exec", out, "--", "--input", tmp.filePath("size9.npy"), "--warmup", "0"});
        const QByteArray text = bad.out + bad.err;
        QVERIFY2(bad.code == 5 && text.contains("node HannWindow 'hann'") && text.contains("asks for [9]") &&
                     text.contains("fixed [8]"),
                 qPrintable(describe(bad)));
    }
};

QTEST_GUILESS_MAIN(TestExportTyped)
#include "tst_export_typed.moc"
