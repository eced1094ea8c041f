import BLEHost
import Foundation

/// An open LE credit-based connection-oriented channel (Core 5.4, Vol 3, Part A, §3.4 and
/// §10.1): a reliable, ordered stream of SDUs in both directions, paced by credits.
///
/// ```swift
/// let channel = try await connection.openL2CAPChannel(psm: 0x0080)
/// try await channel.send(Array("ping".utf8))
/// for await sdu in channel.incoming { print(sdu) }
/// ```
public final class L2CAPChannel: Sendable, Hashable, CustomStringConvertible {
    /// The SPSM the channel was opened to.
    public let psm: UInt16
    /// The largest SDU this device accepts.
    public let mtu: Int
    /// The largest SDU the peer accepts: ``send(_:)-([UInt8])`` refuses longer ones.
    public let peerMTU: Int
    /// The connection the channel runs on.
    public let connection: Connection
    let id: L2CAPChannelID

    init(_ channel: HostChannel, connection: Connection) {
        psm = channel.psm
        mtu = Int(channel.localMTU)
        peerMTU = Int(channel.peerMTU)
        id = channel.id
        self.connection = connection
    }

    /// Sends one SDU, cut into K-frames of the peer's MPS (§3.4.3). Suspends while earlier
    /// SDUs wait for the peer's credits, so a fast sender is paced by a slow reader:
    /// back-pressure, nothing dropped.
    /// - Throws: ``BLEError/sduTooLong(octets:peerMTU:)``, ``BLEError/channelClosed(_:)``.
    public func send(_ sdu: [UInt8]) async throws(BLEError) {
        do {
            try await connection.core.host.send(sdu, on: id)
        } catch {
            throw connection.core.translate(error)
        }
    }

    /// Sends one SDU given as `Data`; see ``send(_:)-([UInt8])``.
    public func send(_ sdu: Data) async throws(BLEError) {
        try await send([UInt8](sdu))
    }

    /// The SDUs the peer sends, in order; iteration ends once the channel is closed and
    /// every SDU was read. Reading is what returns credits to the peer, so a reader that
    /// stops stops the peer. Several tasks may read; each SDU goes to one of them.
    ///
    /// A read waits until an SDU arrives or the channel closes: to stop a reader, close
    /// the channel (the host's receive cannot be abandoned without losing an SDU).
    public var incoming: IncomingSDUs { IncomingSDUs(channel: self) }

    /// Closes the channel with a Disconnection Request (§4.6) and returns once it is
    /// closed; readers then finish with what was already received.
    public func close() async {
        await connection.core.host.closeChannel(id)
    }

    /// "PSM 0x80 to C4:7A:1B:2C:3D:4E (MTU 2048/2048)".
    public var description: String {
        "PSM 0x\(String(psm, radix: 16, uppercase: true)) to \(connection.peer) (MTU \(mtu)/\(peerMTU))"
    }

    /// Whether both are the same channel object.
    public static func == (lhs: L2CAPChannel, rhs: L2CAPChannel) -> Bool { lhs === rhs }
    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The SDUs received on a channel, as an `AsyncSequence` (see ``L2CAPChannel/incoming``).
    public struct IncomingSDUs: AsyncSequence, Sendable {
        /// What the sequence yields: one SDU.
        public typealias Element = [UInt8]
        /// Iteration never throws: it ends instead.
        public typealias Failure = Never
        let channel: L2CAPChannel

        /// An iterator reading the channel.
        public func makeAsyncIterator() -> Iterator { Iterator(channel: channel) }

        /// Reads one SDU per step from the host.
        public struct Iterator: AsyncIteratorProtocol {
            let channel: L2CAPChannel

            /// The next SDU, or `nil` once the channel is closed and drained.
            public mutating func next() async -> [UInt8]? {
                // The host throws only for a channel it never opened; ours always was.
                try? await channel.connection.core.host.receive(on: channel.id)
            }

            /// The next SDU, or `nil` once the channel is closed and drained.
            public mutating func next(isolation actor: isolated (any Actor)?) async -> [UInt8]? {
                try? await channel.connection.core.host.receive(on: channel.id)
            }
        }
    }
}

/// What one side of an LE credit-based channel accepts (Core 5.4, Vol 3, Part A, §4.22).
public struct L2CAPChannelOptions: Hashable, Sendable {
    /// The largest SDU this device accepts (23 to 65 535).
    public var mtu: Int
    /// The largest K-frame payload this device accepts (23 to 65 533).
    public var mps: Int
    /// The credits given to the peer, and the level they are topped back up to (1 to
    /// 65 535).
    public var credits: Int

    /// Options with every value given; by default 2048-octet SDUs, 247-octet K-frames (one
    /// 251-octet LL PDU with its L2CAP header) and 16 credits.
    public init(mtu: Int = 2048, mps: Int = 247, credits: Int = 16) {
        self.mtu = mtu
        self.mps = mps
        self.credits = credits
    }

    /// The host's parameters, checked against §4.22.
    func hostParameters() throws(BLEError) -> HostChannelParameters {
        guard (23...65_535).contains(mtu) else { throw .invalidParameters("an L2CAP MTU must be 23 to 65535") }
        guard (23...65_533).contains(mps) else { throw .invalidParameters("an L2CAP MPS must be 23 to 65533") }
        guard (1...65_535).contains(credits) else { throw .invalidParameters("L2CAP credits must be 1 to 65535") }
        return HostChannelParameters(mtu: UInt16(mtu), mps: UInt16(mps), initialCredits: UInt16(credits))
    }

    /// An LE SPSM is 0x0001–0x00FF: 0x0001–0x007F assigned by the SIG, 0x0080–0x00FF
    /// dynamic (§4.22; Assigned Numbers).
    static func check(psm: UInt16) throws(BLEError) {
        guard (0x0001...0x00FF).contains(psm) else { throw .invalidParameters("an LE PSM must be 0x0001 to 0x00FF") }
    }
}
