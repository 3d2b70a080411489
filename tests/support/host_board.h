// For tests whose SSH "board" is this machine: the architecture name boards use for it, and a
// QtTest watchdog long enough for rows that build an export on a loaded 2-core machine.
#pragma once

#include <QSysInfo>
#include <QString>
#include <QtGlobal>

namespace embark::test {

// The board is this machine over SSH: its architecture builds with the native compiler.
inline QString hostArch() {
    const QString a = QSysInfo::currentCpuArchitecture();
    return a == "arm64" ? QStringLiteral("aarch64") : a;
}

// Set before QTest starts (static initialisation of the including test): one hour per function.
inline const bool kLongWatchdog = [] {
    if (!qEnvironmentVariableIsSet("QTEST_FUNCTION_TIMEOUT")) qputenv("QTEST_FUNCTION_TIMEOUT", "3600000");
    return true;
}();

} // namespace embark::test
