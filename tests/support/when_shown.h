// For widget tests that drive a modal dialog: acts on the first visible top-level `Dialog`
// as soon as it shows (while its exec() runs). Returns the polling timer (it deletes itself
// once it has acted).
#pragma once

#include <QApplication>
#include <QTimer>
#include <QWidget>

namespace embark::test {

template <typename Dialog, typename F>
QTimer* whenShown(F act) {
    auto* timer = new QTimer;
    timer->setInterval(20);
    QObject::connect(timer, &QTimer::timeout, [timer, act] {
        for (QWidget* w : QApplication::topLevelWidgets()) {
            auto* d = qobject_cast<Dialog*>(w);
            if (!d || !d->isVisible()) continue;
            timer->stop();
            timer->deleteLater();
            act(d);
            return;
        }
    });
    timer->start();
    return timer;
}

} // namespace embark::test
