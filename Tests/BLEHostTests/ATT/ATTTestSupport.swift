import BLEHost
import BLEWire

/// Octets from spaced hex, for PDU fixtures written as the spec lays them out; a typo
/// gives an empty array, which no expectation in these tests accepts.
func pdu(_ text: String) -> [UInt8] { Hex.decode(text) ?? [] }

/// The PDUs among bearer outputs, in order.
func sentPDUs(_ outputs: [ATTBearerOutput]) -> [[UInt8]] {
    outputs.compactMap { if case let .send(bytes) = $0 { bytes } else { nil } }
}

/// A GATT client on a bearer, driven by hand: the test plays the server by feeding PDUs
/// and reading what the client sent, on a clock it moves itself.
struct ClientHarness {
    var bearer: ATTBearer
    var client: GATTClient
    var now: HostTime = 0
    /// PDUs the client side sent, oldest first; `takeSent()` empties it.
    var sent: [[UInt8]] = []
    /// Events so far.
    var events: [GATTClientEvent] = []
    /// Outputs the client passed back other than sends.
    var passedOn: [ATTBearerOutput] = []

    init(configuration: ATTBearerConfiguration = .init(), client: GATTClientConfiguration = .init()) {
        bearer = ATTBearer(configuration: configuration)
        self.client = GATTClient(configuration: client)
    }

    mutating func absorb(_ step: GATTClientStep) {
        for output in step.outputs {
            if case let .send(bytes) = output { sent.append(bytes) } else { passedOn.append(output) }
        }
        events += step.events
    }

    /// Starts a procedure and returns its identifier.
    @discardableResult
    mutating func start(_ procedure: GATTProcedure) -> GATTProcedureID {
        let (id, step) = client.start(procedure, on: &bearer, at: now)
        absorb(step)
        return id
    }

    /// The peer sends `bytes`.
    mutating func peer(_ bytes: [UInt8]) {
        let outputs = bearer.receive(bytes, at: now)
        absorb(client.handle(outputs, on: &bearer, at: now))
    }

    /// The clock moves to `time` and the bearer's timer runs.
    mutating func advance(to time: HostTime) {
        now = time
        absorb(client.handle(bearer.tick(now: now), on: &bearer, at: now))
    }

    /// The PDUs sent since the last call.
    mutating func takeSent() -> [[UInt8]] {
        defer { sent = [] }
        return sent
    }

    /// The outcome of procedure `id`, once it completed.
    func result(_ id: GATTProcedureID) -> Result<GATTClientResult, GATTClientError>? {
        for event in events {
            if case let .completed(done, result) = event, done == id { return result }
        }
        return nil
    }

    /// Exchanges the MTU to `mtu` as a server with that receive MTU would.
    mutating func exchangeMTU(_ mtu: UInt16) {
        start(.exchangeMTU)
        _ = takeSent()
        peer([0x03, UInt8(mtu & 0xFF), UInt8(mtu >> 8)])
    }
}
