import BLEController
import BLEFleetSimulation
import BLEWorld

extension WorldWatch {
    /// The watch's side inside the world's event queue: what it last saw of every device and
    /// zone and when it last kept an RSSI point of each transmitter at each receiver. Only the
    /// world's own thread touches it (its looks and receptions), so it needs no lock.
    final class Looker {
        private let ids: [(name: String, id: DeviceID)]
        private let nameOf: [DeviceID: String]
        /// Devices whose zone is followed (neither carried nor gateways): the bus, the walkers.
        private let followed: [(name: String, id: DeviceID)]
        private let zones: ZoneTruth
        private let plotted: Set<String>
        private var zoneOf: [String: String] = [:]
        private var last: [String: [Double]] = [:]
        private var lastPoint: [UInt64: Microseconds] = [:]

        /// A looker over `scenario` as `built` placed it in `world`, noting the zone each
        /// followed device starts in; `plotted` limits the RSSI points to those transmitters
        /// (every one when empty).
        init(scenario: Scenario, built: BuiltScenario, world: World, plotted: [String]) {
            var ids: [(name: String, id: DeviceID)] = [], followed: [(name: String, id: DeviceID)] = []
            for (device, id) in zip(scenario.devices, built.deviceIDs) {
                ids.append((name: device.name, id: id))
                if device.gateway == nil, device.carriedBy == nil { followed.append((name: device.name, id: id)) }
            }
            self.ids = ids
            self.followed = followed
            nameOf = Dictionary(ids.map { ($0.id, $0.name) }) { first, _ in first }
            zones = ZoneTruth(scenario: scenario, built: built)
            self.plotted = Set(plotted)
            for (name, id) in followed { zoneOf[name] = zones.zone(of: id, in: world) }
        }

        /// The devices that moved more than a centimetre since the last look, and where every device is.
        func positions(in world: World) -> (moved: [String: [Double]], all: [String: [Double]]) {
            var moved: [String: [Double]] = [:]
            for (name, id) in ids {
                let point = world.position(of: id)
                let rounded = [(point.x * 100).rounded() / 100, (point.y * 100).rounded() / 100]
                if last[name] != rounded {
                    last[name] = rounded
                    moved[name] = rounded
                }
            }
            return (moved, last)
        }

        /// The followed devices that entered or left a zone since the last look, stamped now.
        func zoneChanges(in world: World) -> [DashboardMessage.Event] {
            var events: [DashboardMessage.Event] = []
            let now = Double(world.now) / 1_000_000
            for (name, id) in followed {
                let zone = zones.zone(of: id, in: world)
                let before = zoneOf[name]
                guard zone != before else { continue }
                zoneOf[name] = zone
                if let before { events.append(.init(time: now, kind: "exit", who: name, text: "\(name) left \(before)")) }
                if let zone { events.append(.init(time: now, kind: "enter", who: name, text: "\(name) entered \(zone)")) }
            }
            return events
        }

        /// The reception as an RSSI point, or `nil` when the pair had one less than
        /// ``WorldWatch/rssiInterval`` ago or the transmitter is not plotted.
        func point(for reception: WorldReception) -> DashboardMessage.RSSIPoint? {
            guard let beacon = nameOf[reception.sender], let receiver = nameOf[reception.receiver],
                  plotted.isEmpty || plotted.contains(beacon) else { return nil }
            let key = UInt64(reception.sender.rawValue) << 32 | UInt64(reception.receiver.rawValue)
            if let previous = lastPoint[key], reception.time - previous < Microseconds(WorldWatch.rssiInterval * 1_000_000) { return nil }
            lastPoint[key] = reception.time
            return .init(beacon: beacon, receiver: receiver, time: Double(reception.time) / 1_000_000, rssi: Int(reception.rssi))
        }
    }
}
