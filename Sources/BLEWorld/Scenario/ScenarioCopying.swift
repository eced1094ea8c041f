import BLEController
import BLEWire

/// A device that copies another's advertising (the file's `copies`): a bystander's phone or
/// a cheap board that listens near a beacon, keeps what it heard, and later sends it from
/// somewhere else — the attack a static beacon identity cannot tell from the beacon itself.
///
/// The copy is honest to the air: the copier scans with its controller like any scanner and
/// keeps the advertising data of the last report it *received* from the target's address
/// before ``captureUntilSeconds``, so it copies nothing it was too far away to hear, and a
/// rotating frame is copied as it was at that moment. From ``replayFromSeconds`` it
/// advertises exactly those octets (ADV_NONCONN_IND, from its own address) every
/// ``intervalMilliseconds``.
public struct ScenarioCopying: Hashable, Sendable {
    /// The name of the device whose advertising is copied.
    public var target: String
    /// Seconds after the world starts until which the copier listens.
    public var captureUntilSeconds: Double
    /// Seconds after the world starts from which it replays what it kept.
    public var replayFromSeconds: Double
    /// The replay's advertising interval in milliseconds.
    public var intervalMilliseconds: Double

    /// A copier with every field.
    public init(target: String, captureUntilSeconds: Double, replayFromSeconds: Double, intervalMilliseconds: Double = 100) {
        self.target = target
        self.captureUntilSeconds = captureUntilSeconds
        self.replayFromSeconds = replayFromSeconds
        self.intervalMilliseconds = intervalMilliseconds
    }
}

/// What a copier heard of its target.
public struct ScenarioCapture: Hashable, Sendable {
    /// When the kept report arrived, in the world's microseconds.
    public var time: Microseconds
    /// The advertising data as received.
    public var data: [UInt8]
    /// How many reports of the target it heard while listening.
    public var reports: Int

    /// A capture with every field.
    public init(time: Microseconds, data: [UInt8], reports: Int) {
        self.time = time
        self.data = data
        self.reports = reports
    }
}

/// The YAML form: `copies: {device, captureUntil, replayFrom, interval}`.
struct CopiesSection: Decodable {
    var copying: ScenarioCopying

    init(from decoder: any Decoder) throws {
        let fields = try YAMLFields(decoder, allowed: ["device", "captureUntil", "replayFrom", "interval"])
        let target = try fields.required("device", String.self, expected: "the name of the device copied")
        guard let until = try fields.number("captureUntil", in: 0 ... 1_000_000, unit: "seconds") else {
            throw fields.error(nil, .missingField, "a copier needs captureUntil (seconds: it listens until then)")
        }
        guard let replay = try fields.number("replayFrom", in: 0 ... 1_000_000, unit: "seconds") else {
            throw fields.error(nil, .missingField, "a copier needs replayFrom (seconds: it sends the copy from then)")
        }
        guard replay >= until else {
            throw fields.error("replayFrom", "\(replay) s is before captureUntil (\(until) s); a copy is sent after it is taken")
        }
        let interval = try fields.number("interval", in: ScenarioAdvertising.intervalRange, unit: "ms") ?? 100
        copying = ScenarioCopying(target: target, captureUntilSeconds: until, replayFromSeconds: replay, intervalMilliseconds: interval)
    }
}

extension BuiltScenario {
    /// Keeps a report of a copier's target heard while it listens.
    func captureIfCopied(_ packet: H4.Packet, by device: DeviceID) {
        guard let copier = copiers[device], let world, world.now < copier.captureUntil,
              case let .event(eventPacket) = packet,
              case let .leMeta(.advertisingReport(report))? = try? HCI.Event(decoding: eventPacket) else { return }
        for entry in report.reports where entry.address.value == copier.targetAddress.value && entry.eventType != .scanRsp {
            captures[device] = ScenarioCapture(time: world.now, data: Array(entry.data), reports: (captures[device]?.reports ?? 0) + 1)
        }
    }

    /// The copier stops listening and sends what it kept, if anything.
    func replay(copier device: DeviceID) {
        guard let copier = copiers[device], let scenarioDevice = self.device(device) else { return }
        scanners[device] = nil
        guard let capture = captures[device] else {
            onLog?("\(scenarioDevice.name) heard nothing of \(copier.target) to copy")
            return
        }
        let parameters = HCI.LESetAdvertisingParameters(
            advertisingIntervalMin: copier.intervalUnits, advertisingIntervalMax: copier.intervalUnits,
            advertisingType: .nonConnectableUndirected,
            ownAddressType: scenarioDevice.address.kind == .random ? .random : .public)
        let plan = ScriptedHost.Plan(deviceName: scenarioDevice.name,
                                     randomAddress: scenarioDevice.address.kind == .random ? scenarioDevice.address : nil,
                                     parameters: parameters, advertisingData: capture.data, scanResponseData: nil)
        install(ScriptedHost(plan: plan), for: device)
        restartHost(of: device)
    }

    /// A copier as built: whose address it listens for and when it stops.
    struct Copier {
        var target: String
        var targetAddress: BluetoothAddress
        var captureUntil: Microseconds
        var intervalUnits: UInt16
    }
}

extension Scenario {
    /// Checks that each copier names another device of the scenario.
    func validateCopies(names: [String: Int]) throws(ScenarioError) {
        for (index, device) in devices.enumerated() {
            guard let copying = device.copying else { continue }
            guard names[copying.target] != nil, copying.target != device.name else {
                throw ScenarioError(.unknownDevice, path: "devices[\(index)].copies.device", device: device.name,
                                    message: "\"\(copying.target)\" is not another device of the scenario")
            }
        }
    }
}
