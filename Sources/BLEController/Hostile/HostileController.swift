import BLEWire

/// A controller that obeys its host but not the Link Layer's rules: a real ``Controller``
/// whose packets pass through a ``SweynToothAttack`` on their way to the air. A world runs
/// it like any other device (`World.addDevice(_:controller:)`), so a test or a scenario
/// stages a hostile peer against our controller and host, in either role, and watches
/// what they do.
///
/// The attack rewrites at most ``budget`` packets, then the device behaves again, so the
/// test can check that its victim still carries traffic. Rewritten packets are counted in
/// ``rewritten``. Only unencrypted data PDUs are rewritten (an attacker without the key
/// cannot forge a MIC; an encrypted PDU it changes fails its MIC check on arrival).
public struct HostileController: SimulatedController {
    /// The controller that does the honest work.
    public private(set) var inner: Controller
    /// The fault put on the air.
    public let attack: SweynToothAttack
    /// How many more packets the attack may rewrite.
    public private(set) var budget: Int
    /// How many packets it has rewritten.
    public private(set) var rewritten = 0

    /// A hostile device around `controller`, rewriting up to `budget` packets with `attack`.
    public init(_ controller: Controller, attack: SweynToothAttack, budget: Int = .max) {
        inner = controller
        self.attack = attack
        self.budget = budget
    }

    /// The wrapped controller's deadline.
    public var nextDeadline: Microseconds? { inner.nextDeadline }

    /// Runs `input` through the wrapped controller and rewrites what it sends.
    public mutating func handle(_ input: ControllerInput, at now: Microseconds) -> [ControllerOutput] {
        tamper(inner.handle(input, at: now))
    }

    /// Power-cycles the wrapped controller; the attack and its budget stay.
    public mutating func powerCycle(at now: Microseconds) -> [ControllerOutput] {
        tamper(inner.powerCycle(at: now))
    }

    private mutating func tamper(_ outputs: [ControllerOutput]) -> [ControllerOutput] {
        guard budget > 0 else { return outputs }
        return outputs.map { output in
            guard budget > 0, case var .transmit(transmission) = output else { return output }
            let advertising = transmission.accessAddress == RadioTransmission.advertisingAccessAddress
            let replaced = advertising ? attack.rewriteAdvertisingPDU(transmission.pdu)
                : inner.isEncrypted(accessAddress: transmission.accessAddress) ? nil : attack.rewriteDataPDU(transmission.pdu)
            guard let replaced else { return output }
            transmission.pdu = replaced
            budget -= 1
            rewritten += 1
            return .transmit(transmission)
        }
    }
}

extension Controller {
    /// Whether the link on `accessAddress` sends encrypted (no such link: `false`).
    func isEncrypted(accessAddress: UInt32) -> Bool {
        connections.first { $0.request.accessAddress == accessAddress }?.link.isEncrypted ?? false
    }
}
