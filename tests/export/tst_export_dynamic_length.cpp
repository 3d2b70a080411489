// Outputs whose length depends on the data, through the portable export on the host (issue
// 31): a detector's post-processing (NonMaxSuppression -> output, NonMaxSuppression -> Gather
// and GatherND of the kept boxes and scores), NonZero, TopK with K computed at run time and
// Unique (flattened and along an axis, its four outputs). The export plans such a value at its
// upper bound and the run reports its actual length (model_api.h outputDims); before, every
// such model was refused ("its shape depends on input values"). Each model is exported, built
// into one harness binary and run on its sample input; every output must have the reference
// interpreter's shape, smaller than the capacity, and its values: also through the readers that
// move the data-dependent axis (Transpose, Unsqueeze, Squeeze; torch's x[mask] is NonZero ->
// Transpose -> GatherND) or work along another axis (Slice, Concat, Softmax, ArgMax,
// ReduceMax). A reader that does not keep rows apart (a ReduceSum over the kept boxes, a Softmax
// or Concat along them) is refused naming the node.
#include "export/exporter.h"
#include "reference/interpreter.h"
#include "support/export_harness.h"
#include "support/test_paths.h"
#include "support/graph_builder.h"

#include <QTest>

using namespace embark;
using ir::DType;
using ir::OpKind;

namespace {

// Six boxes in corner format, two classes; boxes 0/1 and 3/4 overlap heavily.
ir::Tensor sampleBoxes() {
    return ir::Tensor::fromFloats({1, 6, 4}, {0.f, 0.f, 1.f, 1.f, 0.f,   0.05f, 1.f,   1.05f, 2.f, 2.f, 3.f, 3.f,
                                              5.f, 5.f, 6.f, 6.f, 5.05f, 5.f,   6.05f, 6.f,   8.f, 8.f, 9.f, 9.f});
}

ir::Tensor sampleScores() {
    return ir::Tensor::fromFloats({1, 2, 6},
                                  {0.9f, 0.8f, 0.1f, 0.7f, 0.75f, 0.3f, 0.2f, 0.1f, 0.95f, 0.1f, 0.1f, 0.6f});
}

// The inputs "boxes" [1, 6, 4] and "scores" [1, 2, 6], NonMaxSuppression of them (at most 3 per
// class) and the boxes it keeps, gathered into a value named `keptName`.
struct KeptBoxes {
    ir::Value *scores, *selected, *kept;
};
KeptBoxes keptBoxes(test::GraphBuilder& b, const std::string& keptName) {
    ir::Value* boxes = b.input("boxes", {1, 6, 4});
    ir::Value* scores = b.input("scores", {1, 2, 6});
    ir::Value* sel = b.op(
        OpKind::NonMaxSuppression,
        {boxes, scores, b.ints("max_boxes", {3}), b.floats("iou", {0.5f}), b.floats("min_score", {0.25f})}, {}, "nms");
    ir::Value* boxIdx =
        b.op(OpKind::Gather, {sel, b.constant("two", ir::Tensor::scalarInt64(2))}, {{"axis", int64_t{1}}}, "box_idx");
    ir::Value* flat = b.op(OpKind::Squeeze, {boxes, b.ints("axis0", {0})}, {}, "flat_boxes");
    return {scores, sel, b.op(OpKind::Gather, {flat, boxIdx}, {{"axis", int64_t{0}}}, keptName)};
}

// The kept boxes read by `reader` along their data-dependent axis 0: a Softmax over the boxes,
// or a Concat of the boxes with themselves along it.
ir::Graph keptBoxesAlongTheirAxis(OpKind reader) {
    test::GraphBuilder b("kept_along_axis");
    ir::Value* kept = keptBoxes(b, "kept").kept;
    if (reader == OpKind::Concat)
        b.output(b.op(OpKind::Concat, {kept, kept}, {{"axis", int64_t{0}}}, "along_boxes"));
    else
        b.output(b.op(reader, {kept}, {{"axis", int64_t{0}}}, "along_boxes"));
    return b.build();
}

// NonMaxSuppression with its common layout: the triples, the kept boxes and their scores.
ir::Graph detectionTail(bool reduceAfter) {
    test::GraphBuilder b(reduceAfter ? "nms_reduced" : "nms_tail");
    const KeptBoxes det = keptBoxes(b, "det_boxes");
    ir::Value *scores = det.scores, *sel = det.selected, *kept = det.kept;
    if (reduceAfter) {
        b.output(b.op(OpKind::ReduceSum, {kept, b.ints("axes", {0})}, {}, "box_sum"));
        return b.build();
    }
    b.output(sel);
    b.output(kept);
    b.output(b.op(OpKind::GatherND, {scores, sel}, {}, "det_scores"));
    return b.build();
}

// The kept boxes through the readers that move their data-dependent axis or work along
// another one: Transpose (the count on axis 1 of an output), Softmax then ReduceMax over a box's
// coordinates, ArgMax, Slice of two columns joined by Concat to the box, Unsqueeze (the count
// on axis 1) and Squeeze back.
ir::Graph keptBoxRows() {
    test::GraphBuilder b("kept_box_rows");
    ir::Value* kept = keptBoxes(b, "kept").kept;
    b.output(b.op(OpKind::Transpose, {kept}, {{"perm", std::vector<int64_t>{1, 0}}}, "kept_t"));
    ir::Value* soft = b.op(OpKind::Softmax, {kept}, {{"axis", int64_t{-1}}}, "soft");
    b.output(b.op(OpKind::ReduceMax, {soft, b.ints("axes1", {1})}, {{"keepdims", int64_t{0}}}, "soft_max"));
    b.output(b.op(OpKind::ArgMax, {kept}, {{"axis", int64_t{1}}, {"keepdims", int64_t{0}}}, "arg_max"));
    ir::Value* head =
        b.op(OpKind::Slice, {kept, b.ints("s0", {0}), b.ints("s2", {2}), b.ints("ax1", {1})}, {}, "head_cols");
    ir::Value* joined = b.op(OpKind::Concat, {head, kept}, {{"axis", int64_t{1}}}, "joined");
    ir::Value* batched = b.op(OpKind::Unsqueeze, {joined, b.ints("ax0", {0})}, {}, "batched");
    b.output(batched);
    b.output(b.op(OpKind::Squeeze, {batched, b.ints("ax0b", {0})}, {}, "unbatched"));
    return b.build();
}

// torch's boolean-mask indexing x[x > 0.5] * 2: NonZero, Transpose to [count, rank] rows,
// GatherND of the values.
ir::Graph maskedValues() {
    test::GraphBuilder b("masked_values");
    ir::Value* x = b.input("x", {3, 4});
    ir::Value* hot = b.op(OpKind::Greater, {x, b.floats("half", {0.5f})}, {}, "hot");
    ir::Value* where = b.op(OpKind::NonZero, {hot}, {}, "where_hot");
    ir::Value* rows = b.op(OpKind::Transpose, {where}, {{"perm", std::vector<int64_t>{1, 0}}}, "where_rows");
    ir::Value* picked = b.op(OpKind::GatherND, {x, rows}, {}, "picked");
    b.output(b.op(OpKind::Mul, {picked, b.floats("two", {2.f})}, {}, "picked_x2"));
    return b.build();
}

// NonZero of a thresholded map: [rank, count] indices, the count on axis 1.
ir::Graph nonZeroMap() {
    test::GraphBuilder b("nonzero_map");
    ir::Value* x = b.input("x", {3, 4});
    ir::Value* hot = b.op(OpKind::Greater, {x, b.floats("half", {0.5f})}, {}, "hot");
    b.output(b.op(OpKind::NonZero, {hot}, {}, "where_hot"));
    return b.build();
}

// TopK with K computed at run time (the number of scores above 0.5): values and indices are
// planned at the whole axis and the run's K is their length.
ir::Graph topKByThreshold() {
    test::GraphBuilder b("topk_runtime_k");
    ir::Value* x = b.input("scores", {2, 6});
    ir::Value* hot = b.op(OpKind::Cast, {b.op(OpKind::Greater, {x, b.floats("half", {0.5f})}, {}, "hot")},
                          {{"to", int64_t{1}}}, "hot_f");
    ir::Value* k = b.op(OpKind::ReduceSum, {hot, b.ints("all", {0, 1})}, {{"keepdims", int64_t{0}}}, "k_sum");
    k = b.op(OpKind::Cast, {b.op(OpKind::Reshape, {k, b.ints("one", {1})}, {}, "k_f")}, {{"to", int64_t{7}}}, "k");
    auto outs = b.opN(OpKind::TopK, {x, k}, 2, {{"axis", int64_t{1}}}, "topk");
    b.output(outs[0]);
    b.output(outs[1]);
    return b.build();
}

// Unique of int64 labels (sorted, flattened) with all four outputs, and of the rows of a float
// matrix (axis 0, in order of appearance) with the unique rows scaled.
ir::Graph uniqueLabels() {
    test::GraphBuilder b("unique_labels");
    ir::Value* ids = b.input("ids", {2, 4}, DType::Int64);
    auto outs = b.opN(OpKind::Unique, {ids}, 4, {}, "unique_ids");
    for (ir::Value* v : outs) b.output(v);
    ir::Value* m = b.input("rows", {5, 2});
    auto rows = b.opN(OpKind::Unique, {m}, 4, {{"axis", int64_t{0}}, {"sorted", int64_t{0}}}, "unique_rows");
    b.output(b.op(OpKind::Mul, {rows[0], b.floats("two", {2.f})}, {}, "rows_x2"));
    b.output(rows[2]);
    b.output(rows[3]);
    return b.build();
}

} // namespace

class TestExportDynamicLength : public QObject {
    Q_OBJECT

private slots:
    void dataDependentOutputsHaveTheReferenceShapeAndValues() {
        auto target = test::harnessTarget("host", false);
        QVERIFY2(target, target ? "" : target.error().message.c_str());
        const QString work = (embark::test::binaryDir() + "/tests/export_dynamic_length");
        struct Case {
            std::string name;
            ir::Graph graph;
            std::map<std::string, ir::Tensor> inputs;
        };
        std::vector<Case> cases;
        cases.push_back({"nms_tail", detectionTail(false), {{"boxes", sampleBoxes()}, {"scores", sampleScores()}}});
        cases.push_back({"kept_box_rows", keptBoxRows(), {{"boxes", sampleBoxes()}, {"scores", sampleScores()}}});
        cases.push_back({"masked_values",
                         maskedValues(),
                         {{"x", ir::Tensor::fromFloats(
                                    {3, 4}, {0.9f, 0.1f, 0.f, 0.7f, 0.2f, 0.2f, 0.6f, 0.f, 0.f, 0.f, 0.f, 1.f})}}});
        cases.push_back({"nonzero_map",
                         nonZeroMap(),
                         {{"x", ir::Tensor::fromFloats(
                                    {3, 4}, {0.9f, 0.1f, 0.f, 0.7f, 0.2f, 0.2f, 0.6f, 0.f, 0.f, 0.f, 0.f, 1.f})}}});
        cases.push_back({"topk_runtime_k",
                         topKByThreshold(),
                         {{"scores", ir::Tensor::fromFloats({2, 6}, {0.1f, 0.9f, 0.3f, 0.7f, 0.7f, 0.2f, 0.f, 0.6f,
                                                                     0.4f, 0.2f, 0.8f, 0.3f})}}});
        cases.push_back(
            {"unique_labels",
             uniqueLabels(),
             {{"ids", ir::Tensor::fromInt64s({2, 4}, {7, -3, 7, 0, 12, -3, 7, 5})},
              {"rows", ir::Tensor::fromFloats({5, 2}, {1.f, 2.f, 0.5f, 0.f, 1.f, 2.f, -1.f, 3.f, 0.5f, 0.f})}}});
        std::vector<test::HarnessEntry> entries;
        std::map<std::string, std::vector<ir::Tensor>> expected;
        for (Case& c : cases) {
            auto ref = reference::run(c.graph, c.inputs);
            QVERIFY2(ref, ref ? "" : ref.error().message.c_str());
            expected[c.name] = ref->outputs;
            exporter::ExportOptions o = target->exportOptions;
            o.library = "portable";
            o.outDir = work + "/exports/" + QString::fromStdString(c.name);
            o.sampleInputs = c.inputs;
            auto r = exporter::exportModel(c.graph, o);
            QVERIFY2(r, r ? "" : (c.name + ": " + r.error().message).c_str());
            entries.push_back({c.name, r->dir});
        }
        // The reference keeps 5 of the 6 planned triples (class 0: boxes 0, 4, 5, at most 3;
        // class 1: boxes 2, 5), so the run's count differs from the capacity.
        QCOMPARE(expected["nms_tail"][0].shape(), ir::Shape({5, 3}));
        QCOMPARE(expected["nonzero_map"][0].shape(), ir::Shape({2, 4}));
        QCOMPARE(expected["kept_box_rows"][0].shape(), ir::Shape({4, 5})); // the 5 kept boxes, transposed
        QCOMPARE(expected["kept_box_rows"][3].shape(), ir::Shape({1, 5, 6}));
        QCOMPARE(expected["masked_values"][0].shape(), ir::Shape({4}));     // 4 of 12 above 0.5
        QCOMPARE(expected["topk_runtime_k"][0].shape(), ir::Shape({2, 5})); // K = 5 of 6
        QCOMPARE(expected["unique_labels"][0].shape(), ir::Shape({5}));     // 5 distinct of 8
        QCOMPARE(expected["unique_labels"][4].shape(), ir::Shape({3, 2}));  // 3 distinct rows of 5
        test::HarnessOptions ho = target->harness;
        ho.workDir = work + "/harness";
        auto results = test::runExportHarness(entries, ho);
        QVERIFY2(results, results ? "" : results.error().message.c_str());
        QCOMPARE(results->size(), entries.size());
        for (const test::HarnessResult& r : *results) {
            QVERIFY2(r.status == test::HarnessStatus::Ok, (r.id + ": " + r.message).c_str());
            const std::vector<ir::Tensor>& want = expected[r.id];
            QCOMPARE(r.outputs.size(), want.size());
            for (size_t k = 0; k < want.size(); ++k) {
                const test::HarnessOutput& out = r.outputs[k];
                QVERIFY2(out.data.shape() == want[k].shape(),
                         (r.id + " " + out.name + ": shape " + out.data.shape().str() + ", the reference's " +
                          want[k].shape().str())
                             .c_str());
                for (int64_t i = 0; i < want[k].numel(); ++i)
                    QVERIFY2(out.data.at(i) == want[k].at(i),
                             (r.id + " " + out.name + ": element " + std::to_string(i)).c_str());
            }
        }
    }

    void aReaderThatMixesRowsIsRefusedNamingIt() {
        exporter::ExportOptions o;
        o.library = "portable";
        o.outDir = (embark::test::binaryDir() + "/tests/export_dynamic_length/exports/refused");
        o.force = true;
        o.sampleInputs = {{"boxes", sampleBoxes()}, {"scores", sampleScores()}};
        auto r = exporter::exportModel(detectionTail(true), o);
        QVERIFY(!r);
        QCOMPARE(r.error().kind, ErrorKind::Unsupported);
        const std::string& m = r.error().message;
        QVERIFY2(m.find("box_sum") != std::string::npos && m.find("depends on the data") != std::string::npos,
                 m.c_str());
    }

    // Softmax and Concat are carried along another axis (keptBoxRows), refused along it.
    void aReaderAlongTheDataDependentAxisIsRefused() {
        for (OpKind reader : {OpKind::Softmax, OpKind::Concat}) {
            exporter::ExportOptions o;
            o.library = "portable";
            o.outDir = (embark::test::binaryDir() + "/tests/export_dynamic_length/exports/refused_axis");
            o.force = true;
            o.sampleInputs = {{"boxes", sampleBoxes()}, {"scores", sampleScores()}};
            auto r = exporter::exportModel(keptBoxesAlongTheirAxis(reader), o);
            QVERIFY(!r);
            QCOMPARE(r.error().kind, ErrorKind::Unsupported);
            const std::string& m = r.error().message;
            QVERIFY2(m.find("along_boxes") != std::string::npos &&
                         m.find("along the data-dependent axis") != std::string::npos,
                     m.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestExportDynamicLength)
#include "tst_export_dynamic_length.moc"
