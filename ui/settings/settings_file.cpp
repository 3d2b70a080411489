#include "settings_file.h"

#include <QBuffer>
#include <QDataStream>
#include <QFileDevice>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <climits>
#include <cmath>

namespace embark::ui {

namespace {

const QLatin1String kVariantKey("qvariant");

QJsonValue toJson(const QVariant& v) {
    switch (v.typeId()) {
    case QMetaType::QString: return v.toString();
    case QMetaType::Bool: return v.toBool();
    case QMetaType::Int:
    case QMetaType::UInt:
    case QMetaType::LongLong:
    case QMetaType::ULongLong:
        // JSON numbers are doubles: exact up to 2^53, beyond that keep the variant.
        if (qAbs(v.toLongLong()) < (qint64(1) << 53)) return v.toLongLong();
        break;
    case QMetaType::Double: return v.toDouble();
    case QMetaType::QStringList: return QJsonArray::fromStringList(v.toStringList());
    default: break;
    }
    QByteArray bytes;
    QDataStream out(&bytes, QIODevice::WriteOnly);
    out.setVersion(QDataStream::Qt_6_0);
    out << v;
    return QJsonObject{{kVariantKey, QString::fromLatin1(bytes.toBase64())}};
}

QVariant fromJson(const QJsonValue& j) {
    switch (j.type()) {
    case QJsonValue::String: return j.toString();
    case QJsonValue::Bool: return j.toBool();
    case QJsonValue::Double: {
        const double d = j.toDouble();
        if (std::abs(d) < 9007199254740992.0 && d == std::floor(d)) { // exact integers (|d| < 2^53)
            const auto i = static_cast<qint64>(d);
            return i >= INT_MIN && i <= INT_MAX ? QVariant(int(i)) : QVariant(i);
        }
        return d;
    }
    case QJsonValue::Array: {
        QStringList list;
        for (const QJsonValue& item : j.toArray()) list.append(item.toString());
        return list;
    }
    case QJsonValue::Object: {
        const QByteArray bytes = QByteArray::fromBase64(j.toObject().value(kVariantKey).toString().toLatin1());
        QDataStream in(bytes);
        in.setVersion(QDataStream::Qt_6_0);
        QVariant v;
        in >> v;
        return in.status() == QDataStream::Ok ? v : QVariant();
    }
    default: return {};
    }
}

bool readSettings(QIODevice& device, QSettings::SettingsMap& map) {
    const QByteArray bytes = device.readAll();
    if (bytes.trimmed().isEmpty()) return true; // a new file
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject()) {
        // QSettings then reports FormatError and starts from defaults; say which file.
        const auto* file = qobject_cast<QFileDevice*>(&device);
        qWarning("Embark: ignoring unreadable settings file %s (%s); defaults are used and the file is "
                 "rewritten when a setting changes",
                 qPrintable(file ? file->fileName() : QStringLiteral("?")),
                 qPrintable(error.error != QJsonParseError::NoError ? error.errorString()
                                                                    : QStringLiteral("not a JSON object")));
        return false;
    }
    const QJsonObject o = doc.object();
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QVariant v = fromJson(it.value());
        if (v.isValid()) map.insert(it.key(), v);
    }
    return true;
}

bool writeSettings(QIODevice& device, const QSettings::SettingsMap& map) {
    QJsonObject o;
    for (auto it = map.begin(); it != map.end(); ++it) o.insert(it.key(), toJson(it.value()));
    const QByteArray bytes = QJsonDocument(o).toJson();
    if (device.write(bytes) != bytes.size()) return false;
    // The bytes may still sit in the device's buffer: write them now, so that a full disk makes
    // this hook fail and Qt keeps the old file instead of committing a truncated one.
    auto* file = qobject_cast<QFileDevice*>(&device);
    return !file || (file->flush() && file->error() == QFileDevice::NoError);
}

} // namespace

QSettings::Format settingsFormat() {
    static const QSettings::Format format =
        QSettings::registerFormat(QStringLiteral("json"), readSettings, writeSettings);
    return format;
}

void installSettingsFormat() {
    QSettings::setDefaultFormat(settingsFormat());
    QSettings settings;
    if (!settings.allKeys().isEmpty() || QFileInfo::exists(settings.fileName())) return;
    const QString ini = QFileInfo(settings.fileName()).path() + QLatin1Char('/') +
                        QFileInfo(settings.fileName()).completeBaseName() + QStringLiteral(".conf");
    if (!QFileInfo::exists(ini)) return;
    const QSettings old(ini, QSettings::IniFormat);
    for (const QString& key : old.allKeys()) settings.setValue(key, old.value(key));
}

} // namespace embark::ui
