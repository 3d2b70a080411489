// The generic runtime's data-movement kernels against index arithmetic written out in full.
#include "generic.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace eg = embark::generic;

namespace {

// out[o] for every output multi-index, computed from the input strides directly.
std::vector<float> naiveTranspose(const std::vector<float>& in, const eg::Shape& s, const std::vector<int>& perm) {
    std::vector<int64_t> inStride(s.rank, 1);
    for (int i = s.rank - 2; i >= 0; --i) inStride[i] = inStride[i + 1] * s.d[i + 1];
    std::vector<int64_t> outDims(s.rank);
    for (int i = 0; i < s.rank; ++i) outDims[i] = s.d[perm[i]];
    std::vector<float> out(in.size());
    std::vector<int64_t> idx(s.rank, 0);
    for (size_t o = 0; o < out.size(); ++o) {
        int64_t off = 0;
        for (int i = 0; i < s.rank; ++i) off += idx[i] * inStride[perm[i]];
        out[o] = in[size_t(off)];
        for (int a = s.rank - 1; a >= 0; --a) {
            if (++idx[a] < outDims[a]) break;
            idx[a] = 0;
        }
    }
    return out;
}

// Multi-indices of `s` in order (last axis fastest).
template <typename Fn>
void forEachIndex(const eg::Shape& s, Fn fn) {
    int64_t total = 1;
    for (int i = 0; i < s.rank; ++i) total *= s.d[i];
    std::vector<int64_t> idx(size_t(s.rank), 0);
    for (int64_t o = 0; o < total; ++o) {
        fn(o, idx);
        for (int a = s.rank - 1; a >= 0; --a) {
            if (++idx[size_t(a)] < s.d[a]) break;
            idx[size_t(a)] = 0;
        }
    }
}

std::vector<int64_t> stridesOf(const eg::Shape& s) {
    std::vector<int64_t> st(size_t(s.rank), 1);
    for (int i = s.rank - 2; i >= 0; --i) st[size_t(i)] = st[size_t(i) + 1] * s.d[i + 1];
    return st;
}

} // namespace

class TestGenericKernels : public QObject {
    Q_OBJECT

private slots:
    void transpose_data() {
        QTest::addColumn<QVector<qint64>>("dims");
        QTest::addColumn<QVector<int>>("perm");
        QTest::newRow("NCHW->NHWC 3x224x224 (blocked)") << QVector<qint64>{1, 3, 224, 224} << QVector<int>{0, 2, 3, 1};
        QTest::newRow("NHWC->NCHW batch 2, ragged blocks") << QVector<qint64>{2, 5, 7, 19} << QVector<int>{0, 3, 1, 2};
        QTest::newRow("2-D 17x33") << QVector<qint64>{17, 33} << QVector<int>{1, 0};
        QTest::newRow("size-1 axes only move") << QVector<qint64>{1, 4, 1, 6} << QVector<int>{2, 1, 0, 3};
        QTest::newRow("identity") << QVector<qint64>{2, 3, 4} << QVector<int>{0, 1, 2};
        QTest::newRow("general 5-D") << QVector<qint64>{2, 3, 4, 5, 6} << QVector<int>{4, 2, 0, 3, 1};
        QTest::newRow("merged pairs (0,1)(2,3) swapped") << QVector<qint64>{3, 4, 5, 6} << QVector<int>{2, 3, 0, 1};
        QTest::newRow("reversed 3-D") << QVector<qint64>{4, 5, 6} << QVector<int>{2, 1, 0};
        QTest::newRow("outer axes swapped, inner rows copied whole")
            << QVector<qint64>{2, 3, 4, 16} << QVector<int>{1, 0, 2, 3};
    }
    void transpose() {
        QFETCH(QVector<qint64>, dims);
        QFETCH(QVector<int>, perm);
        eg::Shape s;
        for (qint64 d : dims) s.d[s.rank++] = d;
        std::vector<float> in(size_t(s.count()));
        std::iota(in.begin(), in.end(), 0.f);
        std::vector<float> out(in.size(), -1.f);
        eg::transpose(in.data(), s, perm.data(), out.data());
        QVERIFY(out == naiveTranspose(in, s, std::vector<int>(perm.begin(), perm.end())));
    }

    // Slices against per-element index arithmetic: channel halves of NHWC data and other
    // slices whose innermost axes are contiguous runs (copied by memcpy), and strided ones.
    void slice_data() {
        QTest::addColumn<QVector<qint64>>("dims");
        QTest::addColumn<QVector<qint64>>("starts");
        QTest::addColumn<QVector<qint64>>("steps");
        QTest::addColumn<QVector<qint64>>("outDims");
        QTest::newRow("NHWC channel half (ShuffleNet split)")
            << QVector<qint64>{1, 5, 6, 116} << QVector<qint64>{0, 0, 0, 58} << QVector<qint64>{1, 1, 1, 1}
            << QVector<qint64>{1, 5, 6, 58};
        QTest::newRow("rows of whole inner axes") << QVector<qint64>{2, 7, 3, 9} << QVector<qint64>{1, 2, 0, 0}
                                                  << QVector<qint64>{1, 1, 1, 1} << QVector<qint64>{1, 4, 3, 9};
        QTest::newRow("everything (one run)") << QVector<qint64>{3, 4, 5} << QVector<qint64>{0, 0, 0}
                                              << QVector<qint64>{1, 1, 1} << QVector<qint64>{3, 4, 5};
        QTest::newRow("step 2 on the last axis") << QVector<qint64>{2, 3, 20} << QVector<qint64>{0, 1, 1}
                                                 << QVector<qint64>{1, 1, 2} << QVector<qint64>{2, 2, 9};
        QTest::newRow("negative step") << QVector<qint64>{4, 12} << QVector<qint64>{3, 11} << QVector<qint64>{-1, -1}
                                       << QVector<qint64>{4, 12};
        QTest::newRow("short runs of 3") << QVector<qint64>{5, 6, 7} << QVector<qint64>{1, 0, 2}
                                         << QVector<qint64>{2, 1, 1} << QVector<qint64>{2, 6, 3};
        QTest::newRow("size-1 axes inside the run") << QVector<qint64>{3, 1, 10, 1} << QVector<qint64>{1, 0, 0, 0}
                                                    << QVector<qint64>{1, 1, 1, 1} << QVector<qint64>{2, 1, 10, 1};
        QTest::newRow("empty") << QVector<qint64>{3, 4} << QVector<qint64>{0, 0} << QVector<qint64>{1, 1}
                               << QVector<qint64>{0, 4};
    }
    void slice() {
        QFETCH(QVector<qint64>, dims);
        QFETCH(QVector<qint64>, starts);
        QFETCH(QVector<qint64>, steps);
        QFETCH(QVector<qint64>, outDims);
        eg::Shape s, os;
        for (qint64 d : dims) s.d[s.rank++] = d;
        for (qint64 d : outDims) os.d[os.rank++] = d;
        std::vector<float> in(size_t(s.count()));
        std::iota(in.begin(), in.end(), 0.f);
        std::vector<float> out(size_t(os.count()) + 1, -1.f), want(out.size(), -1.f);
        const std::vector<int64_t> st = stridesOf(s);
        forEachIndex(os, [&](int64_t o, const std::vector<int64_t>& idx) {
            int64_t off = 0;
            for (int a = 0; a < s.rank; ++a) off += (starts[a] + idx[size_t(a)] * steps[a]) * st[size_t(a)];
            want[size_t(o)] = in[size_t(off)];
        });
        const std::vector<int64_t> st64(starts.begin(), starts.end()), sp64(steps.begin(), steps.end());
        eg::slice(in.data(), s, st64.data(), sp64.data(), os, out.data());
        QVERIFY(out == want); // the element past the end is untouched too
    }

    // The reductions whose axes form one block run row by row; every mask gives the same bits
    // as a per-element walk accumulating in double in input order.
    void reduce_data() {
        QTest::addColumn<QVector<qint64>>("dims");
        QTest::addColumn<QVector<int>>("mask");
        QTest::addColumn<int>("op");
        using R = eg::ReduceOp;
        QTest::newRow("mean over H, W of NHWC")
            << QVector<qint64>{2, 7, 5, 33} << QVector<int>{0, 1, 1, 0} << int(R::Mean);
        QTest::newRow("mean over H, W of NCHW")
            << QVector<qint64>{2, 33, 7, 5} << QVector<int>{0, 0, 1, 1} << int(R::Mean);
        QTest::newRow("max over channels of NHWC")
            << QVector<qint64>{1, 4, 6, 19} << QVector<int>{0, 0, 0, 1} << int(R::Max);
        QTest::newRow("min over the first axes") << QVector<qint64>{3, 5, 8} << QVector<int>{1, 1, 0} << int(R::Min);
        QTest::newRow("sum of everything") << QVector<qint64>{4, 9, 3} << QVector<int>{1, 1, 1} << int(R::Sum);
        QTest::newRow("prod of a middle axis") << QVector<qint64>{3, 4, 5} << QVector<int>{0, 1, 0} << int(R::Prod);
        QTest::newRow("size-1 axis inside the block")
            << QVector<qint64>{2, 6, 1, 5, 4} << QVector<int>{0, 1, 0, 1, 0} << int(R::Sum);
        QTest::newRow("two blocks (element walk)")
            << QVector<qint64>{4, 3, 5, 2} << QVector<int>{1, 0, 1, 0} << int(R::Mean);
        QTest::newRow("L2 (element walk)") << QVector<qint64>{3, 6, 4} << QVector<int>{0, 1, 1} << int(R::L2);
    }
    void reduce() {
        QFETCH(QVector<qint64>, dims);
        QFETCH(QVector<int>, mask);
        QFETCH(int, op);
        const eg::ReduceOp r = eg::ReduceOp(op);
        eg::Shape s, os;
        bool axes[8] = {};
        for (int i = 0; i < dims.size(); ++i) {
            s.d[s.rank++] = dims[i];
            os.d[os.rank++] = mask[i] ? 1 : dims[i];
            axes[i] = mask[i] != 0;
        }
        std::vector<float> in(size_t(s.count()));
        for (size_t i = 0; i < in.size(); ++i)
            in[i] = float(int(i * 7919 % 97) - 48) * (r == eg::ReduceOp::Prod ? 0.03125f : 0.37f);
        std::vector<double> acc(size_t(os.count()), r == eg::ReduceOp::Max    ? -INFINITY
                                                    : r == eg::ReduceOp::Min  ? INFINITY
                                                    : r == eg::ReduceOp::Prod ? 1.0
                                                                              : 0.0);
        const std::vector<int64_t> ost = stridesOf(os);
        int64_t count = 1;
        for (int a = 0; a < s.rank; ++a) count *= mask[a] ? s.d[a] : 1;
        forEachIndex(s, [&](int64_t i, const std::vector<int64_t>& idx) {
            int64_t o = 0;
            for (int a = 0; a < s.rank; ++a) o += (mask[a] ? 0 : idx[size_t(a)]) * ost[size_t(a)];
            double& v = acc[size_t(o)];
            const double x = in[size_t(i)];
            switch (r) {
            case eg::ReduceOp::Max: v = std::max(v, x); break;
            case eg::ReduceOp::Min: v = std::min(v, x); break;
            case eg::ReduceOp::Prod: v *= x; break;
            case eg::ReduceOp::L2: v += x * x; break;
            default: v += x; break;
            }
        });
        std::vector<float> want(acc.size()), out(acc.size() + 1, -1.f);
        for (size_t o = 0; o < acc.size(); ++o)
            want[o] = float(r == eg::ReduceOp::Mean ? acc[o] / double(count)
                            : r == eg::ReduceOp::L2 ? std::sqrt(acc[o])
                                                    : acc[o]);
        want.push_back(-1.f);
        eg::reduce(r, in.data(), s, axes, out.data());
        // Sums run in float lanes added into a double per block (generic.cpp's laneSum): equal to
        // the double loop up to float rounding, never beyond the output's end.
        double scale = 1;
        for (float w : want) scale = std::max(scale, double(std::fabs(w)));
        for (size_t o = 0; o + 1 < want.size(); ++o)
            QVERIFY2(std::fabs(double(out[o]) - want[o]) <= 1e-6 * scale,
                     qPrintable(QStringLiteral("element %1: %2, expected %3").arg(o).arg(out[o]).arg(want[o])));
        QCOMPARE(out.back(), -1.f);
    }

    // Attention's batched product with a broadcast operand: every row range (as the thread pool
    // splits it) writes exactly its rows, equal to the whole product and to a naive sum.
    void matmulRowRanges() {
        const eg::Shape as{3, {6, 5, 7}}, bs{2, {7, 4}}; // b broadcast over the batch of 6
        QCOMPARE(eg::matmulRows(as, bs), 30);
        QCOMPARE(eg::matmulMacs(as, bs), 6 * 5 * 7 * 4);
        std::vector<float> a(6 * 5 * 7), b(7 * 4);
        for (size_t i = 0; i < a.size(); ++i) a[i] = float(int(i * 7 % 11) - 5) * 0.25f;
        for (size_t i = 0; i < b.size(); ++i) b[i] = float(int(i * 5 % 13) - 6) * 0.5f;
        std::vector<float> whole(6 * 5 * 4, -1.f), parts(whole.size(), -1.f);
        eg::matmul(a.data(), as, b.data(), bs, whole.data());
        for (int64_t r0 : {0, 1, 13, 29}) {
            const int64_t r1 = r0 == 0 ? 1 : (r0 == 1 ? 13 : (r0 == 13 ? 29 : 30));
            eg::matmul(a.data(), as, b.data(), bs, parts.data(), r0, r1);
        }
        QVERIFY(parts == whole);
        for (int bi = 0; bi < 6; ++bi)
            for (int m = 0; m < 5; ++m)
                for (int n = 0; n < 4; ++n) {
                    float sum = 0.f;
                    for (int k = 0; k < 7; ++k) sum += a[size_t((bi * 5 + m) * 7 + k)] * b[size_t(k * 4 + n)];
                    QCOMPARE(whole[size_t((bi * 5 + m) * 4 + n)], sum);
                }
    }
};

QTEST_APPLESS_MAIN(TestGenericKernels)
#include "tst_generic_kernels.moc"
