#include "studio_ssh_options.h"

#include "host_key_dialog.h"
#include "secret_prompt.h"

#include <QCoreApplication>
#include <QPointer>
#include <QSettings>
#include <QThread>
#include <QWidget>

namespace embark::ui {

namespace {

// Runs `f` on the GUI thread and returns its result, blocking the calling thread meanwhile.
// The GUI thread must not wait for that thread meanwhile (a job queue stopping must cancel first).
template <typename R, typename F>
R onGuiThread(F f) {
    QCoreApplication* app = QCoreApplication::instance();
    if (!app || QCoreApplication::closingDown()) return R{}; // no one left to ask: refuse
    if (QThread::currentThread() == app->thread()) return f();
    R result{};
    QMetaObject::invokeMethod(
        app, [&] { result = f(); }, Qt::BlockingQueuedConnection);
    return result;
}

} // namespace

bool confirmHostKeyDialog(const deploy::HostKeyInfo& info, QWidget* parent) {
    HostKeyDialog dialog(info, parent);
    return dialog.exec() == QDialog::Accepted;
}

std::optional<QByteArray> askSecretDialog(const QString& prompt, QWidget* parent) {
    SecretPrompt dialog(prompt, parent);
    return dialog.ask();
}

deploy::SshOptions studioSshOptions(QWidget* dialogParent) {
    deploy::SshOptions options;
    const QSettings settings;
    options.configFile = settings.value(QLatin1String(kSshConfigKey)).toString();
    options.knownHostsFile = settings.value(QLatin1String(kKnownHostsKey)).toString();
    QPointer<QWidget> parent(dialogParent);
    options.confirmHostKey = [parent](const deploy::HostKeyInfo& info) {
        return onGuiThread<bool>([&] { return confirmHostKeyDialog(info, parent.data()); });
    };
    options.askSecret = [parent](const QString& prompt) {
        return onGuiThread<std::optional<QByteArray>>([&] { return askSecretDialog(prompt, parent.data()); });
    };
    return options;
}

} // namespace embark::ui
