import BLEBeacons
import BLEController
import BLEPhone
import BLEWire
import BLEWorld

/// Plays a scenario headless and turns what its observing devices hear into a timeline
/// (DESIGN.md layering: apps & tools, composing the world with the beacon cores).
///
/// It builds the world, reads the LE Advertising Reports (Core 5.4, Vol 4, Part E,
/// §7.7.65.2) each observing device's controller sends its scripted scanner (as values, or
/// decoded from HCI events: ``BLEWorld/ScenarioReports``), feeds
/// BLEBeacons' ``BeaconMonitor`` and ``BeaconRanger`` with the world's time, ticks them
/// once a simulated second, as Core Location does, and records enter, exit, first-heard,
/// proximity-change and passed events. Everything runs on the world's virtual clock on one
/// thread, so the same scenario and seed give the same timeline on every run. With
/// ``ScenarioRecording/streaming(events:receptions:)`` it keeps none of it and hands each
/// event out as it is recorded, so that what a long run holds grows with its world only.
public final class ScenarioRunner {
    /// The scenario as run (seed included).
    public let scenario: Scenario
    /// The world it runs in.
    public let world: World
    /// The scenario placed in the world.
    public let built: BuiltScenario

    /// How long a beacon must go unheard before its pass is over and reported
    /// (the 2 s after which ranging calls it unknown).
    public static let quietAfter: Microseconds = 2_000_000
    /// The ranging and monitoring tick.
    public static let tickInterval: Microseconds = 1_000_000

    var observers: [ScenarioObserverState] = []
    private var observerIndex: [DeviceID: Int] = [:]
    /// The advertisers heard, each resolved and decoded once.
    private var senders: HeardSenders
    var events: [ScenarioTimelineEvent] = []
    /// The phones of the scenario (devices with apps), by device name.
    var phones: [String: PhoneCore] = [:]
    /// The apps of each phone, as the scenario declares them.
    var phoneApps: [String: [ScenarioApp]] = [:]
    /// The times a phone's deadlines are already scheduled at.
    var phoneWakeups: Set<Microseconds> = []
    /// The regions each phone is inside now, from its monitoring's entries and exits.
    var phoneInside: [String: Set<String>] = [:]
    /// The phones that scan as their system does (``BLEWorld/ScenarioDevice/scansAsPhone``),
    /// by device name, with the duty their scan runs at now.
    var phoneScans: [String: PhoneScan] = [:]
    private var receptions: [BeaconReception] = []
    /// Each observing device's extended report fragments, joined per advertiser and set.
    private var reassemblies: [DeviceID: ScannedAdvertisement.Reassembly] = [:]
    /// Where events go as they are recorded when the runner streams (`nil`: kept).
    private let streamedEvent: ((ScenarioTimelineEvent) -> Void)?
    /// Where receptions go when the runner streams (`nil`: kept, or none built if streaming).
    private let streamedReception: ((BeaconReception) -> Void)?

    /// Builds `scenario` into a new world.
    /// - Parameters:
    ///   - scenario: what to run, with its seed.
    ///   - capturesHCI: whether the world keeps every device's HCI traffic for btsnoop
    ///     files (``World/snoop(of:)``); off by default so long runs stay small.
    ///   - recording: whether events and receptions are kept for ``timeline`` (the default)
    ///     or handed out as they are recorded and forgotten.
    ///   - beacons: how plain beacons run (``BLEWorld/ScenarioBeacons``): without HCI by
    ///     default, or each with a full controller and scripted host (the same results).
    ///   - reports: how the observers' advertising reports reach them (``BLEWorld/ScenarioReports``):
    ///     as values by default, or encoded as HCI events and decoded (the same results). A
    ///     world that captures HCI encodes them either way.
    /// - Throws: ``ScenarioError`` when the scenario cannot be built.
    public init(scenario: Scenario, capturesHCI: Bool = false, recording: ScenarioRecording = .timeline,
                beacons: ScenarioBeacons = .direct, reports: ScenarioReports = .values) throws(ScenarioError) {
        self.scenario = scenario
        switch recording {
        case .timeline:
            streamedEvent = nil
            streamedReception = nil
        case let .streaming(events, receptions):
            streamedEvent = events
            streamedReception = receptions
        }
        world = World(configuration: WorldConfiguration(seed: scenario.seed, timing: scenario.timing, radio: scenario.radio,
                                                        capturesHCI: capturesHCI, geographicOrigin: scenario.origin))
        built = try scenario.build(into: world, beacons: beacons, reports: reports)
        var addresses: [AddressKey: DeviceID] = [:]
        for (device, id) in zip(scenario.devices, built.deviceIDs) { addresses[AddressKey(device.address)] = id }
        senders = HeardSenders(devices: addresses, names: { [built] in built.name(of: $0) })
        for (index, (device, id)) in zip(scenario.devices, built.deviceIDs).enumerated() {
            guard let observing = device.observing else { continue }
            observerIndex[id] = observers.count
            // A phone's monitoring reports exits late or never now and then (rule 21).
            let exits = device.apps.isEmpty ? ExitTiming.punctual
                : ExitTiming(phone: device.phone?.policy ?? PhonePolicy(), seed: ExitTiming.scenarioSeed(scenario.seed, device: index))
            var state = ScenarioObserverState(name: device.name, device: id, configuration: observing, exitTiming: exits)
            state.start(at: world.now)
            observers.append(state)
        }
        for timed in scenario.actions {
            guard let (device, words) = Self.describe(timed.action) else { continue }
            let event = ScenarioTimelineEvent(time: world.now + timed.time, device: device, kind: .action(words))
            if let streamedEvent {
                world.schedule(at: event.time) { _ in streamedEvent(event) }
            } else {
                events.append(event)
            }
        }
        try installPhones()
        startPhoneScans()
        built.onHostPacket = { [weak self] device, packet in self?.hostPacket(packet, from: device) }
        if reports == .values {
            built.onAdvertisingReport = { [weak self] device, report in self?.hostReport(report, from: device) }
        }
        if !observers.isEmpty { scheduleTick(at: world.now + Self.tickInterval) }
    }

    /// Whether a scenario has devices that observe beacons (and so a timeline to show).
    public static func hasObservers(_ scenario: Scenario) -> Bool {
        scenario.devices.contains { $0.observing != nil }
    }

    /// Called with every advertisement an observing device's scan completes, by the observer's
    /// name, before the observer reads it: legacy reports as they come, extended ones once
    /// their fragments are joined, truncated ones marked so (``BLEWorld/ScannedAdvertisement/truncated``).
    public var onAdvertisement: ((_ observer: String, _ advertisement: ScannedAdvertisement) -> Void)?

    /// How many extended advertisements the observing device `observer` put back together
    /// whole and truncated so far (zero for a name that observes nothing).
    public func advertisementCounts(of observer: String) -> ScannedAdvertisement.Counts {
        guard let device = observers.first(where: { $0.name == observer })?.device, let reassembly = reassemblies[device] else {
            return ScannedAdvertisement.Counts()
        }
        return reassembly.counts
    }

    /// How many events and receptions the runner holds for its timeline: all of them when it
    /// keeps a timeline, none when it streams (what tests check a long streaming run by).
    public var heldRecords: Int { events.count + receptions.count }

    /// Keeps `event` for the timeline, or hands it out when the runner streams.
    func keep(_ event: ScenarioTimelineEvent) {
        if let streamedEvent {
            streamedEvent(event)
        } else {
            events.append(event)
        }
    }

    /// Runs the world until `seconds` of simulated time and returns the timeline so far.
    public func run(until seconds: Double) -> ScenarioTimeline {
        world.run(until: Microseconds((seconds * 1_000_000).rounded()))
        return timeline
    }

    /// Everything recorded up to the world's time, events in time order (ties in the order
    /// they happened). The scenario's scripted actions are known from the start; those still
    /// ahead are left out, as is anything stamped later than now. A runner that streams has
    /// no events or receptions here (they went to its handlers).
    public var timeline: ScenarioTimeline {
        let now = world.now
        let ordered = events.enumerated().filter { $0.element.time <= now }.sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        return ScenarioTimeline(scenario: scenario.name, seed: scenario.seed, until: world.now, events: ordered,
                                receptions: receptions, failures: built.failures.map(\.description))
    }

    private func scheduleTick(at time: Microseconds) {
        world.schedule(at: time) { [weak self] world in
            guard let self else { return }
            for index in observers.indices {
                record(observers[index].tick(at: world.now, quietAfter: Self.quietAfter))
            }
            scheduleTick(at: time + Self.tickInterval)
        }
    }

    /// A packet from an observing device's controller: the advertisements of an advertising
    /// report, decoded (an extended report's fragments joined first), go to ``observe(_:by:index:)``.
    /// Fragments are joined even while the observer does not listen, so that none is later
    /// taken for the start of another advertisement.
    private func hostPacket(_ packet: H4.Packet, from device: DeviceID) {
        guard let index = observerIndex[device], case let .event(eventPacket) = packet,
              let event = try? HCI.Event(decoding: eventPacket),
              let reports = reassemblies[device, default: ScannedAdvertisement.Reassembly()].advertisements(in: event),
              hearsBeacons(observers[index].name), phoneScanListens(observers[index].name, at: world.now) else { return }
        observe(reports, by: device, index: index)
    }

    /// An LE Advertising Report an observing device's controller handed over as a value
    /// (``BLEWorld/ScenarioReports/values``): the same advertisements as ``hostPacket(_:from:)``
    /// would decode from its bytes, without the bytes (nor, unless ``onAdvertisement`` wants
    /// them, an array of them: this runs for every report of every observer).
    private func hostReport(_ report: HCI.LEAdvertisingReport, from device: DeviceID) {
        guard let index = observerIndex[device], hearsBeacons(observers[index].name),
              phoneScanListens(observers[index].name, at: world.now) else { return }
        for entry in report.reports {
            onAdvertisement?(observers[index].name, ScannedAdvertisement(entry))
            observe(entry.address, rssi: entry.availableRSSI, data: entry.data, by: device, index: index)
        }
    }

    /// What observer `index` (the observing `device`) makes of the advertisements it heard now.
    private func observe(_ reports: [ScannedAdvertisement], by device: DeviceID, index: Int) {
        for entry in reports {
            onAdvertisement?(observers[index].name, entry)
            // A truncated advertisement is only the part that arrived: not read as a beacon.
            guard !entry.truncated else { continue }
            observe(entry.address, rssi: entry.rssi, data: entry.data[...], by: device, index: index)
        }
    }

    /// What observer `index` (the observing `device`) makes of one whole advertisement it
    /// heard now: `data` from `address`, at `rssi`.
    private func observe(_ address: BluetoothAddress, rssi: Int8?, data: ArraySlice<UInt8>, by device: DeviceID, index: Int) {
        guard let rssi else { return }
        let senderIndex = senders.index(of: address)
        guard let frame = senders.beacon(in: data, from: senderIndex) else { return }
        let number = senders.senders[senderIndex].identityNumber
        guard observers[index].watches(frame.identity, number: number, count: senders.identityCount) else { return }
        let now = world.now
        let observerPosition = world.position(of: device)
        let senderPosition = senders.senders[senderIndex].device.map { world.position(of: $0) }
        let name = senders.senders[senderIndex].beaconName
        let sighting = BeaconSighting(beacon: name, identity: frame.identity, rssi: Int(rssi),
                                      distance: senderPosition.map { Vector3.distance($0, observerPosition) },
                                      observerPosition: observerPosition, heardAt: now)
        if streamedEvent == nil || streamedReception != nil {
            let reception = BeaconReception(time: now, observer: observers[index].name, beacon: name, identity: frame.identity,
                                            rssi: Int(rssi), observerPosition: observerPosition, beaconPosition: senderPosition)
            if let streamedReception { streamedReception(reception) } else { receptions.append(reception) }
        }
        record(observers[index].receive(frame, number: number, sighting: sighting, at: now).map {
            ScenarioTimelineEvent(time: now, device: observers[index].name, kind: $0)
        })
    }

    /// The device an action is about and the action in words, for the timeline.
    static func describe(_ action: ScenarioAction) -> (String, String)? {
        switch action {
        case let .turn(name, degrees): return (name, "turns to face \(ScenarioTimeline.number(degrees, places: 0))°")
        case let .moveTo(name, position):
            return (name, "is moved to [\(position.x), \(position.y), \(position.z)]")
        case let .powerOff(name): return (name, "powers off")
        case let .powerOn(name): return (name, "powers on")
        case let .powerCycle(name): return (name, "power-cycles")
        case let .stopAdvertising(name): return (name, "stops advertising")
        case let .startAdvertising(name): return (name, "starts advertising")
        case let .setPacketLoss(a, b, rate): return (a, "loses \(ScenarioTimeline.number(rate * 100, places: 0)) % of packets with \(b)")
        case let .blockLink(a, b, blocked): return (a, blocked ? "is cut off from \(b)" : "hears \(b) again")
        case let .app(phone, app, action): return (phone, "\(app): \(action.rawValue) (scenario)")
        case let .bluetooth(phone, on): return (phone, "Bluetooth switched \(on ? "on" : "off")")
        case let .screen(phone, on): return (phone, "screen switched \(on ? "on" : "off")")
        case let .network(phone, on): return (phone, "cellular link \(on ? "up" : "down")")
        case let .notification(phone, note): return (phone, "notification \"\(note.id)\": \(note.change.rawValue)")
        case let .airplaneMode(phone, on): return (phone, "Airplane Mode \(on ? "on" : "off")")
        case let .controlCenterBluetooth(phone, on): return (phone, "Control Center's Bluetooth button \(on ? "on" : "off")")
        case let .reboot(phone): return (phone, "restarts")
        case let .unlock(phone): return (phone, "is unlocked")
        case let .preciseLocation(phone, app, on): return (phone, "\(app): Precise Location turned \(on ? "on" : "off") in Settings")
        }
    }
}

/// An address with its kind, as a dictionary key (the same bits as public and random
/// addresses are different devices).
struct AddressKey: Hashable {
    var value: UInt64
    var random: Bool

    init(_ address: BluetoothAddress) {
        value = address.value
        random = address.kind == .random
    }
}
