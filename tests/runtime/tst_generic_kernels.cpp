// The generic runtime's data-movement kernels against index arithmetic written out in full.
#include "generic.h"

#include <QtTest>

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
