#include "node_item.h"

#include <QApplication>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace embark::ui {

NodeItem::NodeItem(Kind kind, QString name, QString title, QString subtitle, QSizeF size)
    : m_kind(kind), m_name(std::move(name)), m_title(std::move(title)), m_subtitle(std::move(subtitle)), m_size(size) {
    setFlag(ItemIsSelectable);
    setData(NameRole, m_name);
    setAcceptHoverEvents(true);
}

void NodeItem::setFill(const QColor& fill) {
    m_fill = fill;
    update();
}

void NodeItem::setLinked(bool linked) {
    if (linked == m_linked) return;
    m_linked = linked;
    update();
}

void NodeItem::setMatched(bool matched) {
    if (matched == m_matched) return;
    m_matched = matched;
    update();
}

void NodeItem::setBadge(const QString& badge) {
    m_badge = badge;
    update();
}

void NodeItem::setFigure(const QString& figure) {
    if (figure == m_figure) return;
    m_figure = figure;
    update();
}

QRectF NodeItem::boundingRect() const {
    return QRectF(-m_size.width() / 2 - 3, -m_size.height() / 2 - 3, m_size.width() + 6, m_size.height() + 6);
}

void NodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) {
    const QPalette palette = widget ? widget->palette() : QApplication::palette();
    const QRectF box(-m_size.width() / 2, -m_size.height() / 2, m_size.width(), m_size.height());
    const bool selected = option->state & QStyle::State_Selected;
    QPen pen(palette.color(QPalette::Text), 1);
    if (m_matched) pen = QPen(palette.color(QPalette::Link), 2, Qt::DashLine);
    if (m_linked) pen = QPen(palette.color(QPalette::Highlight), 3);
    if (selected) pen = QPen(palette.color(QPalette::Highlight), 3.5);
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(pen);
    painter->setBrush(selected ? m_fill.lighter(115) : m_fill);
    const qreal radius = m_kind == Kind::Node ? 6 : m_size.height() / 2;
    painter->drawRoundedRect(box, radius, radius);

    // The fill is light in light mode and dark in dark mode, so palette text reads on both.
    painter->setPen(palette.color(QPalette::Text));
    QFont font = painter->font();
    if (m_subtitle.isEmpty()) {
        painter->drawText(box, Qt::AlignCenter, m_title);
        return;
    }
    font.setBold(m_kind == Kind::Node);
    painter->setFont(font);
    // Two lines share the box, or three when a fused node lists what it absorbed.
    const double lines = m_badge.isEmpty() ? 2 : 2.85;
    const double line = (box.height() - 4) / lines;
    const QRectF top(box.left(), box.top() + 2, box.width(), line);
    painter->drawText(top, Qt::AlignHCenter | Qt::AlignBottom, m_title);
    font.setBold(false);
    font.setPointSizeF(font.pointSizeF() * 0.85);
    painter->setFont(font);
    const QRectF middle(box.left(), top.bottom() + 1, box.width(), line);
    painter->drawText(middle, Qt::AlignHCenter | Qt::AlignTop, m_subtitle);
    if (!m_badge.isEmpty()) {
        // Fused: the absorbed ops in italics, and a folded corner as a marker seen from afar.
        font.setItalic(true);
        painter->setFont(font);
        const QRectF bottom(box.left() + 4, middle.top() + line * 0.9, box.width() - 8,
                            box.bottom() - middle.top() - line * 0.9);
        painter->drawText(bottom, Qt::AlignHCenter | Qt::AlignVCenter, m_badge);
        font.setItalic(false);
        QPolygonF corner;
        corner << box.topLeft() + QPointF(0, 14) << box.topLeft() + QPointF(0, 4) << box.topLeft() + QPointF(4, 0)
               << box.topLeft() + QPointF(14, 0);
        painter->setPen(Qt::NoPen);
        painter->setBrush(palette.color(QPalette::Text));
        painter->drawPolygon(corner);
        painter->setPen(palette.color(QPalette::Text));
    }
    if (!m_figure.isEmpty()) {
        font.setPointSizeF(font.pointSizeF() * 0.9);
        painter->setFont(font);
        painter->drawText(box.adjusted(4, 2, -5, 0), Qt::AlignRight | Qt::AlignTop, m_figure);
    }
}

} // namespace embark::ui
