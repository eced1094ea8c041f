import Synchronization

/// The display of a simulated accessory (a scenario GATT device with `security: {io:
/// displayOnly}`): the passkeys its Security Manager shows for Passkey Entry (Core 5.4,
/// Vol 3, Part H, §2.3.5.3), for whoever holds the phone to read and type. The accessory's
/// host shows; watchers (a phone's pairing user, a timeline) read, each code once, in order.
public final class AccessoryDisplay: Sendable {
    /// The accessory's name, as its scenario device is called.
    public let deviceName: String
    private let watchers = Mutex<[@Sendable (UInt32) -> Void]>([])

    /// The display of the device called `deviceName`.
    public init(deviceName: String) { self.deviceName = deviceName }

    /// The accessory shows `passkey` (six digits): each watcher reads it.
    public func show(_ passkey: UInt32) {
        for watcher in watchers.withLock({ $0 }) { watcher(passkey) }
    }

    /// Calls `reader` with each passkey shown from now on. A code shown before anyone
    /// watches is seen by no one, as a display nobody looks at.
    public func watch(_ reader: @escaping @Sendable (UInt32) -> Void) {
        watchers.withLock { $0.append(reader) }
    }
}
