// Tests for core/gpu/expressions: muparser evaluation over case variables, ceil_div/min/max, and count errors.
#include "core/gpu/expressions.h"

#include <QTest>

using namespace gpuf::gpu;

class TestExpressions : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void evaluate_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<double>("expected");
        QTest::newRow("variable") << QStringLiteral("rows") << 4096.0;
        QTest::newRow("product") << QStringLiteral("rows*cols") << 4096.0 * 1024.0;
        QTest::newRow("ceil_div exact") << QStringLiteral("ceil_div(rows, 8)") << 512.0;
        QTest::newRow("ceil_div rounds up") << QStringLiteral("ceil_div(1000, 256)") << 4.0;
        QTest::newRow("min") << QStringLiteral("min(rows, 100)") << 100.0;
        QTest::newRow("max") << QStringLiteral("max(rows, cols)") << 4096.0;
        QTest::newRow("bytes") << QStringLiteral("2*rows*cols*4") << 2.0 * 4096 * 1024 * 4;
        QTest::newRow("real") << QStringLiteral("cols/8") << 128.0;
    }
    void evaluate()
    {
        QFETCH(QString, expression);
        QFETCH(double, expected);
        ExpressionEvaluator eval({{"rows", 4096}, {"cols", 1024}});
        auto v = eval.evaluate(expression.toStdString());
        QVERIFY2(v.ok(), v.ok() ? "" : v.error().c_str());
        QCOMPARE(*v, expected);
    }

    void countErrors_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<QString>("error");
        QTest::newRow("unknown variable") << QStringLiteral("rows*batch") << QStringLiteral("unknown variable 'batch'");
        QTest::newRow("negative") << QStringLiteral("cols - rows") << QStringLiteral("is negative");
        QTest::newRow("non-integer") << QStringLiteral("cols / 3") << QStringLiteral("is not an integer");
        QTest::newRow("empty") << QStringLiteral(" ") << QStringLiteral("empty expression");
        QTest::newRow("syntax") << QStringLiteral("rows *") << QStringLiteral("rows *");
        QTest::newRow("division by zero") << QStringLiteral("ceil_div(rows, 0)") << QStringLiteral("division by zero");
    }
    void countErrors()
    {
        QFETCH(QString, expression);
        QFETCH(QString, error);
        ExpressionEvaluator eval({{"rows", 4096}, {"cols", 1024}});
        auto v = eval.evaluateCount(expression.toStdString());
        QVERIFY(!v.ok());
        QVERIFY2(QString::fromStdString(v.error()).contains(error), v.error().c_str());
    }

    void countAcceptsIntegers()
    {
        ExpressionEvaluator eval({{"n", 1000}});
        auto v = eval.evaluateCount("ceil_div(n, 256) * 256");
        QVERIFY(v.ok());
        QCOMPARE(*v, std::int64_t(1024));
        QCOMPARE(*eval.evaluateCount("0"), std::int64_t(0));
    }

    void variableNames()
    {
        QVERIFY(isValidVariableName("rows"));
        QVERIFY(isValidVariableName("_k2"));
        QVERIFY(!isValidVariableName("2k"));
        QVERIFY(!isValidVariableName("min"));
        QVERIFY(!isValidVariableName("a-b"));
        QVERIFY(!isValidVariableName(""));
    }
};

QTEST_GUILESS_MAIN(TestExpressions)
#include "tst_expressions.moc"
