import BLE
import Foundation

/// What a ``CBPeripheralManager`` advertises: the local name and service UUIDs Core
/// Bluetooth accepts, or the iBeacon of `CLBeaconRegion.peripheralData(withMeasuredPower:)`.
enum AdvertisedContent: Sendable {
    case services(name: String?, uuids: [BluetoothUUID])
    case beacon(IBeacon)

    /// The key of the iBeacon payload in the dictionary Core Location makes for a beacon
    /// region (`peripheralData(withMeasuredPower:)`), which an app hands to
    /// `startAdvertising(_:)` to send the beacon.
    static let appleBeaconKey = "kCBAdvDataAppleBeaconKey"

    /// The content of a `startAdvertising(_:)` dictionary, or the refusal Core Bluetooth
    /// gives: only the local name (a `String`) and the service UUIDs (`[CBUUID]`), or only
    /// a 21-octet iBeacon payload (UUID, major, minor, measured power).
    static func parse(_ data: [String: Any]) -> Result<AdvertisedContent, CBError> {
        if let payload = data[appleBeaconKey] {
            guard data.count == 1 else {
                return .failure(CBError(.invalidParameters, reason: "an iBeacon is advertised alone: \(appleBeaconKey) takes no other key"))
            }
            guard let octets = payload as? Data, octets.count == 21, let uuid = ProximityUUID(octets: octets.prefix(16)) else {
                return .failure(CBError(.invalidParameters, reason: "\(appleBeaconKey) must hold 21 octets: UUID, major, minor, measured power"))
            }
            let bytes = [UInt8](octets)
            let major = UInt16(bytes[16]) << 8 | UInt16(bytes[17])
            let minor = UInt16(bytes[18]) << 8 | UInt16(bytes[19])
            return .success(.beacon(IBeacon(uuid: uuid, major: major, minor: minor, measuredPower: Int8(bitPattern: bytes[20]))))
        }
        let allowed: Set<String> = [CBAdvertisementDataLocalNameKey, CBAdvertisementDataServiceUUIDsKey]
        if let key = data.keys.sorted().first(where: { !allowed.contains($0) }) {
            return .failure(CBError(.invalidParameters, reason: "\(key) cannot be advertised: only the local name and service UUIDs can"))
        }
        let name = data[CBAdvertisementDataLocalNameKey] as? String
        let uuids = data[CBAdvertisementDataServiceUUIDsKey] as? [CBUUID]
        if data[CBAdvertisementDataLocalNameKey] != nil && name == nil {
            return .failure(CBError(.invalidParameters, reason: "the local name must be a String"))
        }
        if data[CBAdvertisementDataServiceUUIDsKey] != nil && uuids == nil {
            return .failure(CBError(.invalidParameters, reason: "the service UUIDs must be an array of CBUUID"))
        }
        return .success(.services(name: name, uuids: (uuids ?? []).map(\.value)))
    }

    /// The `startAdvertising(_:)` dictionary this content was parsed from, in Core
    /// Bluetooth's keys, as a restored peripheral manager reports it
    /// (`CBPeripheralManagerRestoredStateAdvertisementDataKey`).
    var dictionary: [String: Any] {
        switch self {
        case let .services(name, uuids):
            var data: [String: Any] = [:]
            if let name { data[CBAdvertisementDataLocalNameKey] = name }
            if !uuids.isEmpty { data[CBAdvertisementDataServiceUUIDsKey] = uuids.map(CBUUID.init) }
            return data
        case let .beacon(beacon):
            var octets = beacon.uuid.octets
            octets += [UInt8(beacon.major >> 8), UInt8(beacon.major & 0xFF), UInt8(beacon.minor >> 8), UInt8(beacon.minor & 0xFF)]
            octets.append(UInt8(bitPattern: beacon.measuredPower))
            return [Self.appleBeaconKey: Data(octets)]
        }
    }

    /// Has `device` advertise this content as the phone of `app` lets it (in the foreground,
    /// or on no phone, all of it; off screen, the background form of §9, rule 12: services
    /// in the overflow area only, no name, a slower interval, no iBeacon; off screen without
    /// the `bluetooth-peripheral` mode, nothing: Core Bluetooth Programming Guide,
    /// "Core Bluetooth Background Processing for iOS Apps", an app without the mode has its
    /// advertising stopped in the background; off screen and `paused` for one of the phone's
    /// dropouts, nothing); the session stops it, `nil` when nothing goes on air.
    func start(on device: BLEDevice, for app: PhoneApp?, paused: Bool = false) async throws(BLEError) -> AdvertisingSession? {
        let offScreen = app.map { $0.state != .foreground } ?? false
        if offScreen, let app, !app.declares(.bluetoothPeripheral) { return nil }
        if offScreen, paused { return nil }
        switch self {
        case let .services(name, uuids):
            guard offScreen, let app else {
                return try await device.peripheral.advertiseServices(name: name, serviceUUIDs: uuids).session
            }
            let interval = Duration.microseconds(app.policy.backgroundAdvertisingInterval)
            return try await device.peripheral.advertise(ServiceAdvertisingLayout.background(serviceUUIDs: uuids), interval: interval)
        case let .beacon(beacon):
            // iBeacon payloads stop when the app leaves the foreground.
            guard !offScreen else { return nil }
            // An iPhone sends an iBeacon from CBPeripheralManager as ADV_IND.
            return try await device.peripheral.emit(beacon, connectable: true)
        }
    }
}
