#include "session_commands.h"

#include "studio_session.h"

#include "targets/kernel_library.h"
#include "export/kernel_libraries.h"

#include <QCoreApplication>
#include <QUndoStack>

namespace embark::ui {

namespace {

QString overrideOf(const std::map<std::string, std::string>& overrides, const QString& key) {
    const auto it = overrides.find(key.toStdString());
    return it == overrides.end() ? QString() : QString::fromStdString(it->second);
}

} // namespace

SetBoardCommand::SetBoardCommand(StudioSession* session, const QString& board)
    : SessionCommand(session), m_old(session->boardId()), m_new(board) {
    setText(QCoreApplication::translate("SessionCommands", "Set board to %1").arg(board));
}

bool SetBoardCommand::changesSession() const { return m_new != m_old && m_session->boards().find(m_new); }
void SetBoardCommand::undo() { m_session->setBoard(m_old); }
void SetBoardCommand::redo() { m_session->setBoard(m_new); }

SetLibraryCommand::SetLibraryCommand(StudioSession* session, const QString& library)
    : SessionCommand(session), m_old(session->library()), m_new(library) {
    setText(QCoreApplication::translate("SessionCommands", "Set library to %1").arg(library));
}

bool SetLibraryCommand::changesSession() const {
    return m_new != m_old &&
           (m_new == QLatin1String("auto") || exporter::findKernelLibrary(m_new.toStdString()) != nullptr);
}
void SetLibraryCommand::undo() { m_session->setLibrary(m_old); }
void SetLibraryCommand::redo() { m_session->setLibrary(m_new); }

SetNodeOverrideCommand::SetNodeOverrideCommand(StudioSession* session, const QString& node, const QString& library)
    : SessionCommand(session), m_node(node), m_old(overrideOf(session->request().nodeOverrides, node)), m_new(library) {
    setText(library.isEmpty()
                ? QCoreApplication::translate("SessionCommands", "Remove the override of node %1").arg(node)
                : QCoreApplication::translate("SessionCommands", "Run node %1 on %2").arg(node, library));
}

void SetNodeOverrideCommand::undo() { m_session->setNodeOverride(m_node, m_old); }
void SetNodeOverrideCommand::redo() { m_session->setNodeOverride(m_node, m_new); }

SetOpOverrideCommand::SetOpOverrideCommand(StudioSession* session, const QString& op, const QString& library)
    : SessionCommand(session), m_op(op), m_old(overrideOf(session->request().opOverrides, op)), m_new(library) {
    setText(library.isEmpty()
                ? QCoreApplication::translate("SessionCommands", "Remove the override of every %1").arg(op)
                : QCoreApplication::translate("SessionCommands", "Run every %1 on %2").arg(op, library));
}

void SetOpOverrideCommand::undo() { m_session->setOpOverride(m_op, m_old); }
void SetOpOverrideCommand::redo() { m_session->setOpOverride(m_op, m_new); }

bool pushEdit(StudioSession* session, std::unique_ptr<SessionCommand> command) {
    if (!command->changesSession()) return false;
    session->undoStack()->push(command.release()); // the stack owns it from here
    return true;
}

} // namespace embark::ui
