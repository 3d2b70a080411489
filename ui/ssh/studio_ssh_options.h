// The SSH options the studio hands to core/deploy: ssh config and known_hosts from the settings,
// and callbacks that show the host-key dialog and the password prompt on the GUI thread while
// the connection itself runs on a worker (job) thread.
#pragma once

#include "deploy/ssh_connection.h"

class QWidget;

namespace embark::ui {

// QSettings keys; empty or absent = libssh's defaults (~/.ssh/config, ~/.ssh/known_hosts).
inline constexpr const char* kSshConfigKey = "ssh/configFile";
inline constexpr const char* kKnownHostsKey = "ssh/knownHostsFile";

// Call from any thread; the returned callbacks may run on any thread: they block it while the
// dialog is open on the GUI thread (a BlockingQueuedConnection, or directly on the GUI thread).
// `dialogParent` may be destroyed meanwhile: the dialogs then have no parent.
deploy::SshOptions studioSshOptions(QWidget* dialogParent = nullptr);

// The two dialogs, for callers already on the GUI thread.
bool confirmHostKeyDialog(const deploy::HostKeyInfo& info, QWidget* parent);
std::optional<QByteArray> askSecretDialog(const QString& prompt, QWidget* parent);

} // namespace embark::ui
