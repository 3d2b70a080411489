// Indexing, scatter, selection, einsum, loss and signal kernels of the reference interpreter
// (issue 31), on the cases the ONNX backend tests leave out: reductions max/min, batch dims,
// ties, general einsum forms, bad indices, and the ops' error messages.
#include "op_test_util.h"

using namespace embark;
using namespace embark::test;
using ir::Attributes;
using ir::DType;
using ir::OpKind;
using ir::Shape;

namespace {
ir::Tensor iotaF(Shape shape) {
    std::vector<float> v(static_cast<size_t>(shape.numel()));
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);
    return F(std::move(shape), v);
}
} // namespace

class TestIndexOps : public QObject {
    Q_OBJECT

private slots:
    void kernels_data() {
        QTest::addColumn<OpKind>("op");
        QTest::addColumn<std::vector<ir::Tensor>>("inputs");
        QTest::addColumn<Attributes>("attrs");
        QTest::addColumn<Shape>("shape");
        QTest::addColumn<std::vector<double>>("expected");
        using T = std::vector<ir::Tensor>;
        using D = std::vector<double>;
        QTest::newRow("ScatterElements max")
            << OpKind::ScatterElements << T{F({1, 4}, {1, 5, 3, 0}), I({1, 3}, {1, 1, 3}), F({1, 3}, {7, 2, -1})}
            << Attributes{{"axis", int64_t{1}}, {"reduction", std::string("max")}} << Shape{1, 4} << D{1, 7, 3, 0};
        QTest::newRow("ScatterElements min negative index")
            << OpKind::ScatterElements << T{F({1, 4}, {1, 5, 3, 0}), I({1, 2}, {-1, -1}), F({1, 2}, {-4, -2})}
            << Attributes{{"axis", int64_t{1}}, {"reduction", std::string("min")}} << Shape{1, 4} << D{1, 5, 3, -4};
        QTest::newRow("ScatterND add duplicates")
            << OpKind::ScatterND << T{F({4}, {1, 2, 3, 4}), I({3, 1}, {1, 1, -1}), F({3}, {10, 20, 30})}
            << Attributes{{"reduction", std::string("add")}} << Shape{4} << D{1, 32, 3, 34};
        QTest::newRow("ScatterND rows") << OpKind::ScatterND << T{iotaF({3, 2}), I({1, 1}, {2}), F({1, 2}, {-1, -2})}
                                        << Attributes{} << Shape{3, 2} << D{0, 1, 2, 3, -1, -2};
        QTest::newRow("GatherElements axis 0")
            << OpKind::GatherElements << T{iotaF({2, 3}), I({2, 3}, {1, 0, 1, 0, -1, 0})} << Attributes{} << Shape{2, 3}
            << D{3, 1, 5, 0, 4, 2};
        QTest::newRow("GatherND batch_dims 1")
            << OpKind::GatherND << T{iotaF({2, 2, 2}), I({2, 1}, {1, 0})} << Attributes{{"batch_dims", int64_t{1}}}
            << Shape{2, 2} << D{2, 3, 4, 5};
        QTest::newRow("GatherND scalar picks")
            << OpKind::GatherND << T{iotaF({2, 2}), I({2, 2}, {0, 1, 1, 0})} << Attributes{} << Shape{2} << D{1, 2};
        QTest::newRow("TopK ties keep the lower index")
            << OpKind::TopK << T{F({5}, {1, 3, 3, 2, 3}), I1({2})} << Attributes{} << Shape{2} << D{3, 3};
        QTest::newRow("TopK smallest axis 0")
            << OpKind::TopK << T{F({3, 2}, {5, 1, 2, 4, 9, 0}), I1({2})}
            << Attributes{{"axis", int64_t{0}}, {"largest", int64_t{0}}} << Shape{2, 2} << D{2, 0, 5, 1};
        QTest::newRow("CumSum exclusive reverse")
            << OpKind::CumSum << T{F({4}, {1, 2, 3, 4}), I({}, {0})}
            << Attributes{{"exclusive", int64_t{1}}, {"reverse", int64_t{1}}} << Shape{4} << D{9, 7, 4, 0};
        QTest::newRow("OneHot axis 0 out of range")
            << OpKind::OneHot << T{I1({0, 5, -1}), F({}, {3}), F({2}, {0, 9})} << Attributes{{"axis", int64_t{0}}}
            << Shape{3, 3} << D{9, 0, 0, 0, 0, 0, 0, 0, 9};
        QTest::newRow("Trilu lower k -1")
            << OpKind::Trilu << T{iotaF({3, 3}), I({}, {-1})} << Attributes{{"upper", int64_t{0}}} << Shape{3, 3}
            << D{0, 0, 0, 3, 0, 0, 6, 7, 0};
        QTest::newRow("Einsum matmul") << OpKind::Einsum << T{iotaF({2, 3}), iotaF({3, 2})}
                                       << Attributes{{"equation", std::string("ij,jk->ik")}} << Shape{2, 2}
                                       << D{10, 13, 28, 40};
        QTest::newRow("Einsum implicit transpose")
            << OpKind::Einsum << T{iotaF({2, 3})} << Attributes{{"equation", std::string("ji")}} << Shape{3, 2}
            << D{0, 3, 1, 4, 2, 5};
        QTest::newRow("Einsum diagonal with ellipsis")
            << OpKind::Einsum << T{iotaF({2, 2, 2})} << Attributes{{"equation", std::string("...ii->...i")}}
            << Shape{2, 2} << D{0, 3, 4, 7};
        QTest::newRow("Einsum three operands")
            << OpKind::Einsum << T{F({2}, {1, 2}), F({2}, {3, 4}), F({2}, {5, 6})}
            << Attributes{{"equation", std::string("i,i,i->")}} << Shape{} << D{1 * 3 * 5 + 2 * 4 * 6};
        QTest::newRow("Hardmax first maximum") << OpKind::Hardmax << T{F({2, 3}, {1, 3, 3, -1, -2, -3})} << Attributes{}
                                               << Shape{2, 3} << D{0, 1, 0, 1, 0, 0};
        QTest::newRow("ReduceLogSumExp") << OpKind::ReduceLogSumExp << T{F({2}, {20, 20}), I1({0})}
                                         << Attributes{{"keepdims", int64_t{0}}} << Shape{} << D{20 + std::log(2.0)};
        QTest::newRow("NLL mean ignore_index weights")
            << OpKind::NegativeLogLikelihoodLoss
            << T{F({2, 3}, {-1, -2, -3, -4, -5, -6}), I1({2, 0}), F({3}, {1, 1, 4})}
            << Attributes{{"ignore_index", int64_t{0}}} << Shape{} << D{3};
        QTest::newRow("DFT inverse of a DFT")
            << OpKind::DFT << T{F({1, 4, 2}, {4, 0, 0, -2, 0, 0, 0, 2})} << Attributes{{"inverse", int64_t{1}}}
            << Shape{1, 4, 2} << D{1, 0, 2, 0, 1, 0, 0, 0};
        QTest::newRow("GridSample border nearest")
            << OpKind::GridSample << T{iotaF({1, 1, 2, 2}), F({1, 1, 2, 2}, {-3, -3, 0.9f, 0.9f})}
            << Attributes{{"mode", std::string("nearest")}, {"padding_mode", std::string("border")}}
            << Shape{1, 1, 1, 2} << D{0, 3};
        QTest::newRow("Compress axis 1") << OpKind::Compress
                                         << T{iotaF({2, 3}),
                                              ir::Tensor::fromInt64s(Shape{2}, {0, 1}).castTo(DType::Bool)}
                                         << Attributes{{"axis", int64_t{1}}} << Shape{2, 1} << D{1, 4};
        QTest::newRow("ReverseSequence batch 0")
            << OpKind::ReverseSequence << T{iotaF({2, 3}), I1({3, 1})}
            << Attributes{{"batch_axis", int64_t{0}}, {"time_axis", int64_t{1}}} << Shape{2, 3} << D{2, 1, 0, 3, 4, 5};
        QTest::newRow("MaxUnpool") << OpKind::MaxUnpool << T{F({1, 1, 1, 2}, {5, 7}), I({1, 1, 1, 2}, {1, 2})}
                                   << Attributes{{"kernel_shape", std::vector<int64_t>{2, 2}},
                                                 {"strides", std::vector<int64_t>{2, 2}}}
                                   << Shape{1, 1, 2, 4} << D{0, 5, 7, 0, 0, 0, 0, 0};
        QTest::newRow("Det with a row swap")
            << OpKind::Det << T{F({2, 2, 2}, {0, 1, 1, 0, 2, 0, 0, 3})} << Attributes{} << Shape{2} << D{-1, 6};
        QTest::newRow("Hann periodic") << OpKind::HannWindow << T{I({}, {4})} << Attributes{} << Shape{4}
                                       << D{0, 0.5, 1, 0.5};
    }

    void uniqueUnsorted() {
        auto r = evalOp(OpKind::Unique, {F({5}, {2, 1, 2, 3, 1})}, {{"sorted", int64_t{0}}}, 4);
        EVAL_OK(r);
        QVERIFY(closeTo(r->at(0), Shape{3}, {2, 1, 3}));
        QCOMPARE(r->at(1).toInt64Vector(), (std::vector<int64_t>{0, 1, 3}));
        QCOMPARE(r->at(2).toInt64Vector(), (std::vector<int64_t>{0, 1, 0, 2, 1}));
        QCOMPARE(r->at(3).toInt64Vector(), (std::vector<int64_t>{2, 2, 1}));
    }

    void kernels() {
        QFETCH(OpKind, op);
        QFETCH(std::vector<ir::Tensor>, inputs);
        QFETCH(Attributes, attrs);
        QFETCH(Shape, shape);
        QFETCH(std::vector<double>, expected);
        auto r = evalOp(op, inputs, attrs, op == OpKind::TopK ? 2 : 1);
        EVAL_OK(r);
        QVERIFY(closeTo(r->at(0), shape, expected));
    }

    void topKIndices() {
        auto r = evalOp(OpKind::TopK, {F({5}, {1, 3, 3, 2, 3}), I1({3})}, {}, 2);
        EVAL_OK(r);
        QCOMPARE(r->at(1).dtype(), DType::Int64);
        QCOMPARE(r->at(1).toInt64Vector(), (std::vector<int64_t>{1, 2, 4}));
    }

    void nonMaxSuppression() {
        // Box 1 overlaps box 0 (IoU 0.81), box 2 is apart; one class, scores favour box 1.
        const ir::Tensor boxes = F({1, 3, 4}, {0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, 5, 1, 6});
        const ir::Tensor scores = F({1, 1, 3}, {0.8f, 0.9f, 0.3f});
        auto r = evalOp(OpKind::NonMaxSuppression, {boxes, scores, I1({3}), F({1}, {0.5f}), F({1}, {0.0f})});
        EVAL_OK(r);
        QCOMPARE(r->at(0).shape(), (Shape{2, 3}));
        QCOMPARE(r->at(0).toInt64Vector(), (std::vector<int64_t>{0, 0, 1, 0, 0, 2}));
    }

    void bitShiftUint8() {
        const ir::Tensor x = ir::Tensor::fromInt64s(Shape{3}, {1, 128, 255}).castTo(DType::UInt8);
        const ir::Tensor s = ir::Tensor::fromInt64s(Shape{3}, {7, 1, 8}).castTo(DType::UInt8);
        auto r = evalOp(OpKind::BitShift, {x, s}, {{"direction", std::string("LEFT")}});
        EVAL_OK(r);
        QCOMPARE(r->at(0).dtype(), DType::UInt8);
        QCOMPARE(r->at(0).toInt64Vector(), (std::vector<int64_t>{128, 0, 0}));
    }

    void errorsNameTheNode() {
        auto outOfRange = evalOp(OpKind::GatherElements, {iotaF({2, 2}), I({2, 2}, {0, 2, 0, 0})});
        QVERIFY(!outOfRange.ok());
        QCOMPARE(outOfRange.error().kind, ErrorKind::InvalidInput);
        QVERIFY2(outOfRange.error().message.find("node 'node' (GatherElements)") != std::string::npos,
                 outOfRange.error().message.c_str());
        auto badEquation = evalOp(OpKind::Einsum, {iotaF({2, 3})}, {{"equation", std::string("ijk->i")}});
        QVERIFY(!badEquation.ok());
        QVERIFY2(badEquation.error().message.find("does not match its shape") != std::string::npos,
                 badEquation.error().message.c_str());
        auto badReduction =
            evalOp(OpKind::ScatterND, {iotaF({2}), I({1, 1}, {0}), F({1}, {1})}, {{"reduction", std::string("avg")}});
        QVERIFY(!badReduction.ok());
        QCOMPARE(badReduction.error().kind, ErrorKind::Unsupported);
    }
};

QTEST_GUILESS_MAIN(TestIndexOps)
#include "tst_index_ops.moc"
