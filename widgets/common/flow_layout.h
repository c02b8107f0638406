// FlowLayout: a row of buttons, boxes and check boxes that wraps onto further lines when its width runs out, so a
// panel's tool row never sets its dock's minimum width (the window's docks share 1280 pixels with the Forecast dock).
// Items keep their own width and line up left to right; a line is as high as its tallest item.
#pragma once

#include <QLayout>
#include <QList>

namespace gpuf {

class FlowLayout : public QLayout
{
public:
    explicit FlowLayout(QWidget *parent = nullptr, int spacing = -1);
    ~FlowLayout() override;
    FlowLayout(const FlowLayout &) = delete;
    FlowLayout &operator=(const FlowLayout &) = delete;

    void addItem(QLayoutItem *item) override;
    int count() const override;
    QLayoutItem *itemAt(int index) const override;
    QLayoutItem *takeAt(int index) override;

    Qt::Orientations expandingDirections() const override;
    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect &rect) override;

private:
    int spacingBetween() const;
    // Places the items in `rect` (or only measures, when `place` is false); returns the height used.
    int arrange(const QRect &rect, bool place) const;

    QList<QLayoutItem *> m_items;
    int m_spacing;
};

} // namespace gpuf
