import BLEController
import BLEWire

/// A silent drop of the links among some devices, once: as if a wall came between them.
///
/// Armed, it watches the HCI events their hosts receive. `after` the first connection
/// among them completes, it blocks every packet between them (``World/setLinkBlocked(_:between:and:)``),
/// so both link layers hear nothing and each ends its connection by supervision timeout
/// (Core 5.4, Vol 6, Part B, §4.5.2), reporting Disconnection Complete with reason
/// Connection Timeout (0x08) to its host. Once every device that had a connection has
/// reported its disconnection, the links are unblocked, so the devices can find each other
/// again. `ble sim serve --drop-link-after` uses it.
public final class SilentLinkDrop {
    /// Where the drop stands.
    public enum Phase: Hashable, Sendable {
        /// Waiting for the first connection among the devices.
        case waitingForConnection
        /// A connection completed; the links are blocked at the given time.
        case scheduled(at: Microseconds)
        /// Blocked since the given time, until every connection has timed out.
        case blocked(since: Microseconds)
        /// Unblocked again at the given time; the drop is over.
        case restored(at: Microseconds)
    }

    /// The devices whose links are dropped, all pairs among them.
    public let devices: [DeviceID]
    /// How long after the first connection the links drop.
    public let delay: Microseconds
    /// Where the drop stands.
    public private(set) var phase: Phase = .waitingForConnection
    /// Called when the phase changes (for a log line).
    public var onPhaseChange: ((Phase) -> Void)?
    /// The open connection handles of each device, from the events its host received.
    private var connections: [DeviceID: Set<UInt16>] = [:]

    /// A drop among `devices`, `delay` microseconds after their first connection.
    public init(devices: [DeviceID], after delay: Microseconds) {
        self.devices = devices
        self.delay = max(0, delay)
    }

    /// Feeds one HCI event `device`'s host received in `world`; the drop acts on
    /// connection and disconnection events and ignores the rest.
    public func observe(_ event: HCI.Event, to device: DeviceID, in world: World) {
        guard devices.contains(device) else { return }
        switch event {
        case let .leMeta(.connectionComplete(done)) where done.status == .success:
            opened(done.connectionHandle, on: device, in: world)
        case let .leMeta(.enhancedConnectionComplete(done)) where done.status == .success:
            opened(done.connectionHandle, on: device, in: world)
        case let .leMeta(.enhancedConnectionCompleteV2(done)) where done.connection.status == .success:
            opened(done.connection.connectionHandle, on: device, in: world)
        case let .disconnectionComplete(done) where done.status == .success:
            connections[device, default: []].remove(done.connectionHandle)
            if case .blocked = phase, devices.allSatisfy({ connections[$0, default: []].isEmpty }) {
                setBlocked(false, in: world)
                change(to: .restored(at: world.now))
            }
        default:
            break
        }
    }

    /// Decodes an event packet and feeds it to ``observe(_:to:in:)``; other packets are ignored.
    public func observe(_ packet: H4.Packet, to device: DeviceID, in world: World) {
        guard case let .event(eventPacket) = packet, devices.contains(device),
              eventPacket.eventCode == .disconnectionComplete || eventPacket.eventCode.rawValue == 0x3E,
              let event = try? HCI.Event(decoding: eventPacket) else { return }
        observe(event, to: device, in: world)
    }

    private func opened(_ handle: UInt16, on device: DeviceID, in world: World) {
        connections[device, default: []].insert(handle)
        guard phase == .waitingForConnection else { return }
        let time = world.now + delay
        change(to: .scheduled(at: time))
        world.schedule(at: time) { [self] world in
            setBlocked(true, in: world)
            change(to: .blocked(since: world.now))
            // Nothing open any more (the hosts disconnected meanwhile): nothing to time out.
            if devices.allSatisfy({ connections[$0, default: []].isEmpty }) {
                setBlocked(false, in: world)
                change(to: .restored(at: world.now))
            }
        }
    }

    private func setBlocked(_ blocked: Bool, in world: World) {
        for (index, a) in devices.enumerated() {
            for b in devices[(index + 1)...] { world.setLinkBlocked(blocked, between: a, and: b) }
        }
    }

    private func change(to phase: Phase) {
        self.phase = phase
        onPhaseChange?(phase)
    }
}
