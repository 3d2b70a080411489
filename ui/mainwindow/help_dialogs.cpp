#include "help_dialogs.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QFile>
#include <QHeaderView>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace embark::ui {

namespace {

QString plain(QString text) {
    text.remove(QRegularExpression(QStringLiteral("&(?!&)")));
    return text.replace(QLatin1String("&&"), QLatin1String("&")).remove(QLatin1String("..."));
}

// Every action with a shortcut, menu by menu: "View", "Fit graph", "Ctrl+0".
void collect(QMenu* menu, const QString& where, QList<QStringList>* rows) {
    for (QAction* a : menu->actions()) {
        if (a->menu()) {
            collect(a->menu(), where + QStringLiteral(" > ") + plain(a->menu()->title()), rows);
            continue;
        }
        QStringList keys;
        for (const QKeySequence& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText);
        if (!keys.isEmpty() && !a->text().isEmpty())
            rows->append({where, plain(a->text()), keys.join(QStringLiteral(", "))});
    }
}

} // namespace

ShortcutsDialog::ShortcutsDialog(QMenuBar* menus, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Keyboard shortcuts"));
    QList<QStringList> rows;
    for (QAction* a : menus->actions())
        if (a->menu()) collect(a->menu(), plain(a->menu()->title()), &rows);
    // Gestures no menu lists.
    const QString graph = tr("Graph");
    rows.append({graph, tr("Zoom at the cursor"), tr("Mouse wheel")});
    rows.append({graph, tr("Pan"), tr("Drag the background")});
    rows.append({graph, tr("Next match of the search"), tr("Enter in the find box")});
    rows.append({graph, tr("Run a node on another kernel library"), tr("Right-click the node")});
    m_table = new QTableWidget(int(rows.size()), 3, this);
    m_table->setHorizontalHeaderLabels({tr("Menu"), tr("Action"), tr("Shortcut")});
    for (int r = 0; r < rows.size(); ++r)
        for (int c = 0; c < 3; ++c) m_table->setItem(r, c, new QTableWidgetItem(rows[r][c]));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_table->resizeColumnToContents(0);
    m_table->resizeColumnToContents(2);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_table);
    layout->addWidget(buttons);
    resize(560, 480);
}

QString UserGuideDialog::guideText() {
    // user_guide_fr.md, user_guide_zh_CN.md when they exist.
    const QLocale locale;
    for (const QString& suffix : {QLatin1Char('_') + locale.name(),
                                  QLatin1Char('_') + locale.name().section(QLatin1Char('_'), 0, 0), QString()}) {
        QFile f(QStringLiteral(":/help/user_guide%1.md").arg(suffix));
        if (f.open(QIODevice::ReadOnly)) return QString::fromUtf8(f.readAll());
    }
    return {};
}

UserGuideDialog::UserGuideDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Embark user guide"));
    m_browser = new QTextBrowser(this);
    m_browser->setOpenExternalLinks(true);
    m_browser->setMarkdown(guideText());
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_browser);
    layout->addWidget(buttons);
    resize(640, 560);
}

} // namespace embark::ui
