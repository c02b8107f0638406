// The worker's SHA-256 (core/gpu/sha256.h) against FIPS 180-4's examples and against Qt's own implementation over
// every length that changes the padding (one and two final blocks) and a long input.
#include "core/gpu/sha256.h"

#include <QCryptographicHash>
#include <QTest>

class TestSha256 : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void standardExamples_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QByteArray>("digest");
        QTest::newRow("empty") << QByteArray()
                               << QByteArray("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        QTest::newRow("abc") << QByteArray("abc")
                             << QByteArray("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        QTest::newRow("448 bits") << QByteArray("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                                  << QByteArray("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    }
    void standardExamples()
    {
        QFETCH(QByteArray, input);
        QFETCH(QByteArray, digest);
        QCOMPARE(QByteArray::fromStdString(gpuf::gpu::sha256Hex(input.toStdString())), digest);
    }

    void agreesWithQt()
    {
        QByteArray data;
        for (int length = 0; length <= 200; ++length) {
            const QByteArray expected = QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex();
            QCOMPARE(QByteArray::fromStdString(gpuf::gpu::sha256Hex(std::string_view(data.constData(), data.size()))),
                expected);
            data.append(char((length * 37 + 11) & 0xff));
        }
        QByteArray large(1 << 20, '\0');
        for (int i = 0; i < large.size(); ++i)
            large[i] = char((i * 2654435761u) >> 24);
        QCOMPARE(QByteArray::fromStdString(gpuf::gpu::sha256Hex(std::string_view(large.constData(), large.size()))),
            QCryptographicHash::hash(large, QCryptographicHash::Sha256).toHex());
    }
};

QTEST_GUILESS_MAIN(TestSha256)
#include "tst_sha256.moc"
