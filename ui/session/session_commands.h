// Undo commands for the user's edits that change the deployment plan: board, kernel library,
// per-node and per-op overrides. Widgets push these onto the session's undo stack (pushEdit).
#pragma once

#include <QString>
#include <QUndoCommand>

#include <memory>

namespace embark::ui {

class StudioSession;

// One edit of the session: redo() applies the new value, undo() puts back the one it replaced.
// The session rebuilds the plan and emits targetChanged (and modelChanged when the stages
// change), so the views follow an undo as they follow the edit.
//
// Commands never merge: each is one deliberate pick from a list (a board, a library, a
// library for a node), which a user expects to undo one pick at a time.
class SessionCommand : public QUndoCommand {
public:
    // False when applying it would leave the session as it is (the same value, an unknown
    // board or library); pushEdit() then drops it, because QUndoStack::push() of even an
    // obsolete command discards the redo history.
    virtual bool changesSession() const = 0;

protected:
    explicit SessionCommand(StudioSession* session) : m_session(session) {}
    StudioSession* m_session;
};

class SetBoardCommand : public SessionCommand {
public:
    SetBoardCommand(StudioSession* session, const QString& board);
    bool changesSession() const override;
    void undo() override;
    void redo() override;

private:
    QString m_old, m_new;
};

class SetLibraryCommand : public SessionCommand {
public:
    SetLibraryCommand(StudioSession* session, const QString& library);
    bool changesSession() const override;
    void undo() override;
    void redo() override;

private:
    QString m_old, m_new;
};

// An empty library removes the node's override.
class SetNodeOverrideCommand : public SessionCommand {
public:
    SetNodeOverrideCommand(StudioSession* session, const QString& node, const QString& library);
    bool changesSession() const override { return m_old != m_new; }
    void undo() override;
    void redo() override;

private:
    QString m_node, m_old, m_new;
};

// An empty library removes the override of every node of that ONNX op type.
class SetOpOverrideCommand : public SessionCommand {
public:
    SetOpOverrideCommand(StudioSession* session, const QString& op, const QString& library);
    bool changesSession() const override { return m_old != m_new; }
    void undo() override;
    void redo() override;

private:
    QString m_op, m_old, m_new;
};

// Pushes `command` onto the session's undo stack (which applies it) when it changes the
// session; returns whether it did.
bool pushEdit(StudioSession* session, std::unique_ptr<SessionCommand> command);

} // namespace embark::ui
