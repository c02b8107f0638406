// WarningBanner: a line of text that must not be overlooked (a forecast resting on unknown features, say) with a
// warning icon, in the warning tone of the current palette (recoloured when the colour scheme changes); hidden while
// it has no text.
#pragma once

#include <QWidget>

class QLabel;

namespace gpuf {

class WarningBanner : public QWidget
{
    Q_OBJECT

public:
    explicit WarningBanner(QWidget *parent = nullptr);

    void setText(const QString &text); // empty: hidden
    QString text() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyColors();

    QLabel *m_icon;
    QLabel *m_text;
};

} // namespace gpuf
