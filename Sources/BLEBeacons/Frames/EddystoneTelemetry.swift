/// An unencrypted Eddystone-TLM frame, version 0 (google/eddystone, eddystone-tlm/
/// tlm-plain.md): frame type 0x20, version 0x00, battery voltage, temperature, advertising
/// PDU count and time since power-on, all big-endian; exactly 14 octets. Encrypted TLM
/// (version 0x01) is not decoded: it needs the beacon's identity key and EAX.
public struct EddystoneTelemetry: Hashable, Sendable {
    /// The only version decoded: unencrypted telemetry.
    public static let unencryptedVersion: UInt8 = 0x00
    /// The temperature value that means "not supported": 0x8000, -128 °C.
    public static let temperatureNotSupported = Int16.min

    /// Battery voltage in millivolts; 0 when the beacon has no battery to report.
    public var batteryMillivolts: UInt16
    /// Temperature in signed 8.8 fixed point (1/256 °C); 0x8000 when not supported.
    public var temperatureFixedPoint: Int16
    /// Advertising PDUs sent since power-on or reboot.
    public var advertisingCount: UInt32
    /// Time since power-on or reboot, in tenths of a second.
    public var uptimeTenths: UInt32

    /// A frame from its wire values.
    public init(batteryMillivolts: UInt16, temperatureFixedPoint: Int16, advertisingCount: UInt32, uptimeTenths: UInt32) {
        self.batteryMillivolts = batteryMillivolts
        self.temperatureFixedPoint = temperatureFixedPoint
        self.advertisingCount = advertisingCount
        self.uptimeTenths = uptimeTenths
    }

    /// A frame with the temperature in °C (rounded to 1/256 °C, clamped to the 8.8 range;
    /// `nil` for "not supported").
    public init(batteryMillivolts: UInt16, temperature: Double?, advertisingCount: UInt32, uptimeTenths: UInt32) {
        let fixed: Int16
        if let temperature, temperature.isFinite {
            fixed = Int16(clamping: Int((temperature * 256).rounded()))
        } else {
            fixed = Self.temperatureNotSupported
        }
        self.init(batteryMillivolts: batteryMillivolts, temperatureFixedPoint: fixed, advertisingCount: advertisingCount,
                  uptimeTenths: uptimeTenths)
    }

    /// Decodes service data after the UUID: exactly 14 octets, frame type 0x20, version 0.
    public init(serviceData data: ArraySlice<UInt8>) throws(BeaconFrameError) {
        var cursor = OctetCursor(data)
        let type = cursor.uint8()
        guard data.isEmpty || type == EddystoneFrame.telemetryType else {
            throw BeaconFrameError(format: "Eddystone-TLM", field: "frameType", reason: .wrongType(UInt64(type)))
        }
        let version = cursor.uint8()
        guard data.count < 2 || version == Self.unencryptedVersion else {
            throw BeaconFrameError(format: "Eddystone-TLM", field: "version", reason: .unsupportedVersion(version))
        }
        try EddystoneFrame.checkLength(data, 14 ... 14, format: "Eddystone-TLM")
        batteryMillivolts = cursor.bigEndian(UInt16.self)
        temperatureFixedPoint = Int16(bitPattern: cursor.bigEndian(UInt16.self))
        advertisingCount = cursor.bigEndian(UInt32.self)
        uptimeTenths = cursor.bigEndian(UInt32.self)
    }

    /// The battery voltage in volts, or `nil` when reported as 0 (not supported).
    public var batteryVoltage: Double? { batteryMillivolts == 0 ? nil : Double(batteryMillivolts) / 1000 }

    /// The temperature in °C, or `nil` when reported as 0x8000 (not supported).
    public var temperature: Double? {
        temperatureFixedPoint == Self.temperatureNotSupported ? nil : Double(temperatureFixedPoint) / 256
    }

    /// Time since power-on or reboot, in seconds.
    public var uptimeSeconds: Double { Double(uptimeTenths) / 10 }

    /// The service data after the UUID.
    public var serviceData: [UInt8] {
        var bytes: [UInt8] = [EddystoneFrame.telemetryType, Self.unencryptedVersion]
        bytes.appendBigEndian(batteryMillivolts)
        bytes.appendBigEndian(UInt16(bitPattern: temperatureFixedPoint))
        bytes.appendBigEndian(advertisingCount)
        bytes.appendBigEndian(uptimeTenths)
        return bytes
    }
}
