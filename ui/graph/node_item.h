// One node of a graph view: a rounded box with the op (or tensor name for graph inputs and
// outputs) over the output shape, filled by category, library or figure, outlined when linked;
// a fused node adds a line naming the ops it absorbed.
#pragma once

#include <QGraphicsItem>

namespace embark::ui {

class NodeItem : public QGraphicsItem {
public:
    enum class Kind { Node, GraphInput, GraphOutput };
    NodeItem(Kind kind, QString name, QString title, QString subtitle, QSizeF size);

    Kind kind() const { return m_kind; }
    const QString& name() const { return m_name; }
    const QString& title() const { return m_title; }
    void setFill(const QColor& fill);
    // Nodes linked to the selection in another stage view get a thick accent outline.
    void setLinked(bool linked);
    bool isLinked() const { return m_linked; }
    // Search matches get a dashed outline.
    void setMatched(bool matched);
    // A fused node's third line, "+ BatchNormalization + Relu" (the layout made room for it).
    void setBadge(const QString& badge);
    const QString& badge() const { return m_badge; }
    // A per-node figure drawn in the top-right corner (empty: none).
    void setFigure(const QString& figure);
    const QColor& fill() const { return m_fill; }

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    static constexpr int NameRole = 0; // QGraphicsItem::data key holding the node name

private:
    Kind m_kind;
    QString m_name, m_title, m_subtitle, m_badge, m_figure;
    QSizeF m_size;
    QColor m_fill;
    bool m_linked = false;
    bool m_matched = false;
};

} // namespace embark::ui
