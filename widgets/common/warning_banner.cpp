// WarningBanner; see warning_banner.h.
#include "widgets/common/warning_banner.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>

namespace gpuf {

WarningBanner::WarningBanner(QWidget *parent)
    : QWidget(parent)
    , m_icon(new QLabel(this))
    , m_text(new QLabel(this))
{
    setObjectName(QStringLiteral("warningBanner"));
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->addWidget(m_icon, 0, Qt::AlignTop);
    layout->addWidget(m_text, 1);
    setAutoFillBackground(true);
    applyColors();
    hide();
}

void WarningBanner::setText(const QString &text)
{
    m_text->setText(text);
    setVisible(!text.isEmpty());
}

QString WarningBanner::text() const { return m_text->text(); }

void WarningBanner::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange)
        applyColors();
}

void WarningBanner::applyColors()
{
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning, nullptr, this).pixmap(size, size));
    // An amber tint of the window colour with amber text, dark or light after the scheme: readable on both.
    const QPalette base = parentWidget() ? parentWidget()->palette() : palette();
    const bool dark = base.color(QPalette::Window).lightness() < 128;
    QPalette p = palette();
    p.setColor(QPalette::Window, QColor::fromHslF(40 / 360.0f, 0.7f, dark ? 0.16f : 0.92f));
    p.setColor(QPalette::WindowText, QColor::fromHslF(36 / 360.0f, 0.9f, dark ? 0.70f : 0.26f));
    // Setting our own palette sends another PaletteChange: block it by comparing first.
    if (p != palette())
        setPalette(p);
    m_text->setPalette(p);
}

} // namespace gpuf
