// The Help menu's dialogs: the keyboard shortcuts of every menu action (read from the menus,
// so the list never goes stale) plus the mouse gestures, and the short user guide (Markdown
// embedded under :/help, in the interface language when a translation of it exists).
#pragma once

#include <QDialog>

class QMenuBar;
class QTableWidget;
class QTextBrowser;

namespace embark::ui {

class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ShortcutsDialog(QMenuBar* menus, QWidget* parent = nullptr);
    QTableWidget* table() const { return m_table; }

private:
    QTableWidget* m_table;
};

class UserGuideDialog : public QDialog {
    Q_OBJECT
public:
    explicit UserGuideDialog(QWidget* parent = nullptr);
    QTextBrowser* browser() const { return m_browser; }

    // The guide's Markdown for the current locale (QLocale()), else the English one.
    static QString guideText();

private:
    QTextBrowser* m_browser;
};

} // namespace embark::ui
