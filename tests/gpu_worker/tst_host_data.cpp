// Tests for core/gpu/host_data: seeded initialisers, half/bfloat16 conversion, poison, tolerance comparison.
#include "core/gpu/host_data.h"

#include <QTest>

#include <cmath>
#include <cstring>

using namespace gpuf::gpu;

class TestHostData : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void halfRoundTrip_data()
    {
        QTest::addColumn<float>("value");
        QTest::addColumn<float>("expected");
        QTest::newRow("one") << 1.0f << 1.0f;
        QTest::newRow("negative") << -2.5f << -2.5f;
        QTest::newRow("rounds to nearest even") << 1.00048828125f << 1.0f; // halfway between 1 and 1+2^-10
        QTest::newRow("max") << 65504.0f << 65504.0f;
        QTest::newRow("overflow") << 1.0e6f << INFINITY;
        QTest::newRow("subnormal") << 5.9604645e-8f << 5.9604645e-8f;
    }
    void halfRoundTrip()
    {
        QFETCH(float, value);
        QFETCH(float, expected);
        QCOMPARE(halfToFloat(floatToHalf(value)), expected);
    }

    void bf16RoundTrip()
    {
        QCOMPARE(bf16ToFloat(floatToBf16(1.0f)), 1.0f);
        QCOMPARE(bf16ToFloat(floatToBf16(3.140625f)), 3.140625f);
        QCOMPARE(bf16ToFloat(floatToBf16(1.00390625f)), 1.0f); // halfway: ties to even
        QVERIFY(std::isnan(bf16ToFloat(floatToBf16(NAN))));
    }

    void initialisersAreSeededAndFresh()
    {
        const BufferInit uniform {InitKind::Uniform, -2.0, 2.0, 42};
        const auto a = makeHostData(Dtype::F32, uniform, 1000, 0);
        const auto b = makeHostData(Dtype::F32, uniform, 1000, 0);
        const auto c = makeHostData(Dtype::F32, uniform, 1000, 1);
        QCOMPARE(a, b);
        QVERIFY(a != c); // a new correctness run draws new inputs
        double lo = 1e9, hi = -1e9, sum = 0;
        for (int i = 0; i < 1000; ++i) {
            const double v = elementAsDouble(Dtype::F32, a.data(), i);
            lo = std::min(lo, v);
            hi = std::max(hi, v);
            sum += v;
        }
        QVERIFY(lo >= -2.0 && hi <= 2.0);
        QVERIFY(hi - lo > 3.5);
        QVERIFY(std::fabs(sum / 1000) < 0.2);
    }

    void cacheGeneratesEachInputOnce()
    {
        const BufferInit uniform {InitKind::Uniform, -1.0, 1.0, 7};
        HostDataCache cache(10000); // room for two 4000-byte inputs
        const auto first = cache.get(Dtype::F32, uniform, 1000, 0);
        QCOMPARE(*first, makeHostData(Dtype::F32, uniform, 1000, 0));
        QCOMPARE(cache.get(Dtype::F32, uniform, 1000, 0).get(), first.get()); // the same data, not a new copy
        const auto salted = cache.get(Dtype::F32, uniform, 1000, 1);
        QVERIFY(salted.get() != first.get());
        QCOMPARE(*salted, makeHostData(Dtype::F32, uniform, 1000, 1));
        QCOMPARE(cache.entries(), std::size_t(2));
        QCOMPARE(cache.bytes(), std::size_t(8000));
        // A third input pushes the oldest out; whoever still holds it keeps a valid copy.
        const auto other = cache.get(Dtype::F32, BufferInit {InitKind::Uniform, -1.0, 1.0, 8}, 1000, 0);
        QCOMPARE(cache.entries(), std::size_t(2));
        QCOMPARE(*first, makeHostData(Dtype::F32, uniform, 1000, 0));
        QVERIFY(cache.get(Dtype::F32, uniform, 1000, 0).get() != first.get()); // generated again
        // Larger than the whole cache: handed out, never kept.
        const auto huge = cache.get(Dtype::F32, uniform, 5000, 0);
        QCOMPARE(huge->size(), std::size_t(20000));
        QCOMPARE(cache.entries(), std::size_t(2));
    }

    void integerAndIota()
    {
        const auto iota = makeHostData(Dtype::I64, {InitKind::Iota, 5, 3, 0}, 4, 0);
        QCOMPARE(elementAsDouble(Dtype::I64, iota.data(), 3), 14.0);
        const auto ints = makeHostData(Dtype::I32, {InitKind::Uniform, 0, 3, 9}, 2000, 0);
        bool seen[4] = {};
        for (int i = 0; i < 2000; ++i) {
            const double v = elementAsDouble(Dtype::I32, ints.data(), i);
            QVERIFY(v >= 0 && v <= 3 && v == std::floor(v));
            seen[static_cast<int>(v)] = true;
        }
        QVERIFY(seen[0] && seen[1] && seen[2] && seen[3]);
        const auto normal = makeHostData(Dtype::BF16, {InitKind::Normal, 10, 0.5, 1}, 4000, 0);
        double sum = 0;
        for (int i = 0; i < 4000; ++i)
            sum += elementAsDouble(Dtype::BF16, normal.data(), i);
        QVERIFY(std::fabs(sum / 4000 - 10) < 0.1);
    }

    void poisonedOutputIsCaught()
    {
        const auto reference = makeHostData(Dtype::F32, {InitKind::Uniform, 0, 1, 1}, 100, 0);
        std::vector<std::uint8_t> candidate(reference.size());
        const PoisonPattern p = poisonPattern(Dtype::F32);
        QCOMPARE(p.width, 4u);
        for (std::size_t i = 0; i < candidate.size(); i += 4)
            std::memcpy(&candidate[i], &p.value, 4);
        const auto c = compareBuffers("y", Dtype::F32, reference, candidate, 1e-5, 1e-6, 3);
        QCOMPARE(c.mismatches, std::int64_t(100));
        QCOMPARE(c.candidateNaN, std::int64_t(100));
        QCOMPARE(c.first.size(), std::size_t(3));
    }

    void tolerance_data()
    {
        QTest::addColumn<float>("reference");
        QTest::addColumn<float>("candidate");
        QTest::addColumn<bool>("match");
        QTest::newRow("equal") << 1.0f << 1.0f << true;
        QTest::newRow("inside rtol") << 1000.0f << 1000.005f << true;
        QTest::newRow("outside") << 1.0f << 1.001f << false;
        QTest::newRow("atol near zero") << 0.0f << 5e-7f << true;
        QTest::newRow("inf vs finite") << INFINITY << 1.0f << false;
        QTest::newRow("nan candidate") << 1.0f << NAN << false;
    }
    void tolerance()
    {
        QFETCH(float, reference);
        QFETCH(float, candidate);
        QFETCH(bool, match);
        std::vector<std::uint8_t> r(4), c(4);
        std::memcpy(r.data(), &reference, 4);
        std::memcpy(c.data(), &candidate, 4);
        QCOMPARE(compareBuffers("y", Dtype::F32, r, c, 1e-5, 1e-6, 1).mismatches == 0, match);
    }
};

QTEST_GUILESS_MAIN(TestHostData)
#include "tst_host_data.moc"
