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
};

QTEST_APPLESS_MAIN(TestGenericKernels)
#include "tst_generic_kernels.moc"
