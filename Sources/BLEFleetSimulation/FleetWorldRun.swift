import BLEController
import BLEFleet
import BLEGateway
import BLEWire
import BLEWorld

/// A scenario's fleet played headless on the world's virtual clock: every device with
/// `gateway:` scans through its scripted scanner, a ``GatewayCore`` per gateway keeps what
/// its rules name, and the run records the sightings in batches together with the world's
/// truth — which zone each tracked device is really in, sampled at a fixed step — so that
/// presence can be scored against it (DESIGN.md, "Fleets: many receivers, one store").
///
/// Deterministic: the same scenario and seed give the same sightings and truth, byte for byte.
public final class FleetWorldRun {
    /// The scenario as run.
    public let scenario: Scenario
    /// The world.
    public let world: World
    /// The scenario placed in the world.
    public let built: BuiltScenario
    /// The gateways, by device.
    public private(set) var gateways: [DeviceID: GatewayCore] = [:]
    /// Each gateway's zone, by gateway name.
    public let zoneOfGateway: [String: String]
    /// What the gateways handed out so far, in the order they did.
    public private(set) var batches: [SightingBatch] = []
    /// The truth sampled so far.
    public private(set) var truth = FleetTruth()
    /// The wall-clock moment a simulated run is placed at: µs since 1970 of the world's time 0.
    public let epoch: Int64
    /// The step the truth is sampled at, in µs.
    public let truthStep: Microseconds

    /// Each gateway's extended advertisements put back together so far, by gateway name:
    /// whole ones go to its ``GatewayCore``, truncated ones are counted here and kept out
    /// (their data is only the part that arrived).
    public var advertisementCounts: [String: ScannedAdvertisement.Counts] {
        Dictionary(uniqueKeysWithValues: reassemblies.compactMap { id, reassembly in gateways[id].map { ($0.name, reassembly.counts) } })
    }

    private var senders: [AddressKey: DeviceID] = [:]
    private var reassemblies: [DeviceID: ScannedAdvertisement.Reassembly] = [:]
    private var trackedDevice: [String: DeviceID] = [:]
    private let zoneTruth: ZoneTruth

    /// 2026-01-01T00:00:00Z, where simulated sightings are placed by default.
    public static let defaultEpoch: Int64 = 1_767_225_600_000_000

    /// Builds `scenario` into a new world with its gateways.
    /// - Throws: ``FleetRunError`` when the scenario has no gateway, a gateway's rules do not
    ///   parse, or the world cannot be built.
    public init(scenario: Scenario, epoch: Int64 = FleetWorldRun.defaultEpoch, truthStep: Microseconds = 500_000,
                batching: GatewayCore.Batching = GatewayCore.Batching()) throws(FleetRunError) {
        self.scenario = scenario
        self.epoch = epoch
        self.truthStep = max(1, truthStep)
        guard scenario.devices.contains(where: { $0.gateway != nil }) else { throw .noGateways(scenario.name) }
        world = World(configuration: scenario.worldConfiguration)
        do {
            built = try scenario.build(into: world)
        } catch {
            throw .scenario(error)
        }
        var zones: [String: String] = [:]
        for (device, id) in zip(scenario.devices, built.deviceIDs) {
            senders[AddressKey(device.address)] = id
            guard let gateway = device.gateway else { continue }
            let filter: GatewayFilter
            do {
                filter = try GatewayFilter(parsing: gateway.keep.map { (kind: $0.kind, value: $0.value) })
            } catch {
                throw .gatewayRule(device: device.name, error)
            }
            // A simulated gateway's run number comes from the seed and its place, so reruns match.
            let run = Int64(bitPattern: (scenario.seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(id.rawValue)) >> 1)
            gateways[id] = GatewayCore(name: device.name, run: run, filter: filter, batching: batching)
            zones[device.name] = gateway.zone
        }
        zoneOfGateway = zones
        // Every advertiser some gateway would keep is tracked from the start, so that a device
        // no gateway ever hears still counts against the algorithms.
        for (device, id) in zip(scenario.devices, built.deviceIDs) {
            guard let plan = try? device.advertisingPlan() else { continue }
            for core in gateways.values.sorted(by: { $0.name < $1.name }) {
                if let kept = core.filter.keep(address: device.address, data: plan.advertisingData) {
                    trackedDevice[kept.identity] = trackedDevice[kept.identity] ?? id
                    break
                }
            }
        }
        zoneTruth = ZoneTruth(scenario: scenario, built: built)
        built.onHostPacket = { [weak self] device, packet in self?.hostPacket(packet, from: device) }
        scheduleTruth(at: world.now)
    }

    /// Runs the world until `seconds` of simulated time; the batches still pending are handed
    /// out when `flush` is true (the end of a run).
    public func run(until seconds: Double, flush: Bool = true) {
        world.run(until: Microseconds((seconds * 1_000_000).rounded()))
        let now = epoch + Int64(world.now)
        for id in gateways.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            if let batch = gateways[id]?.due(at: now) { batches.append(batch) }
            if flush, let batch = gateways[id]?.flush() { batches.append(batch) }
        }
    }

    /// Hands out the batches recorded so far and forgets them (a caller writing them to a store as it goes).
    public func takeBatches() -> [SightingBatch] {
        defer { batches.removeAll() }
        return batches
    }

    /// The zone the world says `point` is in at this moment: the first of the scenario's
    /// zones that contains it, `nil` for none.
    public func trueZone(of device: DeviceID) -> String? {
        zoneTruth.zone(of: device, in: world)
    }

    private func scheduleTruth(at time: Microseconds) {
        world.schedule(at: time) { [weak self] world in
            guard let self else { return }
            let seconds = Double(world.now) / 1_000_000
            for (identity, device) in trackedDevice.sorted(by: { $0.key < $1.key }) {
                truth.record(identity: identity, time: seconds, zone: trueZone(of: device))
            }
            scheduleTruth(at: time + truthStep)
        }
    }

    private func hostPacket(_ packet: H4.Packet, from device: DeviceID) {
        guard gateways[device] != nil, case let .event(eventPacket) = packet,
              let event = try? HCI.Event(decoding: eventPacket),
              let reports = reassemblies[device, default: ScannedAdvertisement.Reassembly()].advertisements(in: event) else { return }
        let now = epoch + Int64(world.now)
        for entry in reports where !entry.truncated {
            let before = gateways[device]?.counts.kept ?? 0
            batches += gateways[device]?.receive(address: entry.address, rssi: entry.rssi.map(Int.init), data: entry.data, time: now) ?? []
            guard let core = gateways[device], core.counts.kept > before else { continue }
            // Learn which device sent an identity the first time it is kept.
            if let identity = core.lastSighting?.identity, trackedDevice[identity] == nil,
               let sender = senders[AddressKey(entry.address)] {
                trackedDevice[identity] = sender
                truth.record(identity: identity, time: Double(world.now) / 1_000_000, zone: trueZone(of: sender))
            }
        }
        if let batch = gateways[device]?.due(at: now) { batches.append(batch) }
    }
}

/// Why a fleet run cannot start.
public enum FleetRunError: Error, CustomStringConvertible {
    /// The scenario has no device with `gateway:`.
    case noGateways(String)
    /// A gateway's `keep:` rule does not parse.
    case gatewayRule(device: String, GatewayRuleError)
    /// The scenario cannot be built.
    case scenario(ScenarioError)

    /// One sentence saying what is wrong.
    public var description: String {
        switch self {
        case let .noGateways(name): return "scenario \"\(name)\" has no gateway: give a scanning device gateway: {zone: NAME}"
        case let .gatewayRule(device, error): return "gateway \"\(device)\": \(error)"
        case let .scenario(error): return "\(error)"
        }
    }
}

/// An address with its kind, as a dictionary key.
struct AddressKey: Hashable {
    var value: UInt64
    var random: Bool

    init(_ address: BluetoothAddress) {
        value = address.value
        random = address.kind == .random
    }
}
