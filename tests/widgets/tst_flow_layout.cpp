// FlowLayout, the wrapping tool row: items side by side where the width allows, on further lines where it does not,
// in their order; its minimum width is its widest item's, and its height for a width counts the lines.
#include "widgets/common/flow_layout.h"

#include <QPushButton>
#include <QTest>

using namespace gpuf;

class TestFlowLayout : public QObject
{
    Q_OBJECT

    struct Row
    {
        QWidget widget;
        FlowLayout *layout = nullptr;
        QList<QPushButton *> buttons;
    };

    static void fill(Row &row, const QStringList &texts)
    {
        row.layout = new FlowLayout(&row.widget, 6);
        row.layout->setContentsMargins(2, 2, 2, 2);
        for (const QString &text : texts) {
            auto *button = new QPushButton(text, &row.widget);
            button->setFixedSize(100, 30);
            row.layout->addWidget(button);
            row.buttons << button;
        }
    }

private Q_SLOTS:
    void oneLineWhereTheWidthAllows()
    {
        Row row;
        fill(row, {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
        row.widget.resize(2 + 3 * 100 + 2 * 6 + 2, 60);
        row.widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(&row.widget));
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(row.buttons[i]->y(), 2);
            QCOMPARE(row.buttons[i]->x(), 2 + i * 106);
        }
        QCOMPARE(row.layout->sizeHint(), QSize(2 + 3 * 100 + 2 * 6 + 2, 34));
        QCOMPARE(row.layout->heightForWidth(316), 34);
    }

    void wrapsInOrderWhereItDoesNot()
    {
        Row row;
        fill(row, {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
        row.widget.resize(220, 120); // two buttons a line
        row.widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(&row.widget));
        QCOMPARE(row.buttons[0]->pos(), QPoint(2, 2));
        QCOMPARE(row.buttons[1]->pos(), QPoint(108, 2));
        QCOMPARE(row.buttons[2]->pos(), QPoint(2, 2 + 30 + 6));
        QCOMPARE(row.layout->heightForWidth(220), 2 + 30 + 6 + 30 + 2);
        QCOMPARE(row.layout->heightForWidth(104), 2 + 3 * 30 + 2 * 6 + 2); // one a line
        // Never narrower than its widest item: the row sets no larger minimum on its dock.
        QCOMPARE(row.layout->minimumSize(), QSize(104, 34));
    }

    void hiddenItemsTakeNoRoom()
    {
        Row row;
        fill(row, {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
        row.buttons[1]->hide();
        row.widget.resize(220, 120);
        row.widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(&row.widget));
        QCOMPARE(row.buttons[2]->pos(), QPoint(108, 2));
        QCOMPARE(row.layout->heightForWidth(220), 34);
    }
};

QTEST_MAIN(TestFlowLayout)
#include "tst_flow_layout.moc"
