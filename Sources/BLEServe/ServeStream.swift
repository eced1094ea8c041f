import BLEHost
import BLEWire

/// A stream of values (`ble serve --stream UUID:COUNT:SIZE`): when a client subscribes to the characteristic
/// UUID, COUNT values of SIZE octets are notified (or indicated, when it enabled
/// indications), each starting with a 4-octet little-endian sequence number from 0 so the
/// client can check that none is lost or reordered (as Interop/bumble_gatt_peer.py does).
public struct ServeStream: Hashable, Sendable {
    /// The characteristic whose subscribers get the values.
    public var uuid: BluetoothUUID
    /// How many values each subscriber gets.
    public var count: Int
    /// The octets in each value (4 to 512).
    public var size: Int

    /// Parses `UUID:COUNT:SIZE`; `nil` unless COUNT ≥ 1 and SIZE is 4 to 512.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":")
        guard parts.count == 3, let uuid = BluetoothUUID(String(parts[0])), let count = Int(parts[1]), let size = Int(parts[2]),
              count >= 1, (4 ... 512).contains(size) else { return nil }
        self.uuid = uuid
        self.count = count
        self.size = size
    }

    /// Value number `sequence`: the number, little-endian, then octets counting up from 4.
    public func value(_ sequence: Int) -> [UInt8] {
        let number = UInt32(truncatingIfNeeded: sequence)
        var value = (0 ..< 4).map { UInt8(truncatingIfNeeded: number >> (8 * UInt32($0))) }
        value.reserveCapacity(size)
        for index in 4 ..< size { value.append(UInt8(truncatingIfNeeded: index)) }
        return value
    }

    /// Sends all the values to one client; notifications are paced by the controller's
    /// buffers, each indication waits for its confirmation. Returns how many went out.
    public func send(_ host: BLEHost.Host, valueHandle: ATT.Handle, connection: UInt16, indicate: Bool) async -> Int {
        for sequence in 0 ..< count {
            if Task.isCancelled { return sequence }
            do {
                if indicate {
                    try await host.indicate(value(sequence), valueHandle: valueHandle, on: connection)
                } else {
                    try await host.notify(value(sequence), valueHandle: valueHandle, on: connection)
                }
            } catch {
                return sequence
            }
        }
        return count
    }
}
