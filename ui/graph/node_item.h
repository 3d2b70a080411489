// One node of a graph view: a rounded box with the op (or tensor name for graph inputs and
// outputs) over the output shape, filled by category or library, outlined when linked.
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

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    static constexpr int NameRole = 0; // QGraphicsItem::data key holding the node name

private:
    Kind m_kind;
    QString m_name, m_title, m_subtitle;
    QSizeF m_size;
    QColor m_fill;
    bool m_linked = false;
    bool m_matched = false;
};

} // namespace embark::ui
