import Foundation

/// One unit on the session characteristic: a write from the central or a notification from
/// the peripheral carries exactly one frame. All integers are little-endian, as in ATT
/// (Core 5.4, Vol 3, Part F, §3.3).
///
/// | kind | bytes |
/// | --- | --- |
/// | fragment (`0x01`) | sequence (4), message length (2), offset (2), payload |
/// | acknowledgement (`0x02`) | next expected sequence (4) |
/// | heartbeat (`0x03`) | next expected sequence (4) |
///
/// A fragment says where its bytes go (offset in a message of known length) rather than
/// its index among fragments, so a message resent after a reconnection with a different
/// ATT MTU still reassembles with the pieces that arrived before.
public enum ChatFrame: Hashable, Sendable {
    /// A piece of message `sequence`: `payload` belongs at `offset` of its `length` bytes.
    case fragment(sequence: UInt32, length: UInt16, offset: UInt16, payload: Data)
    /// Every message before `nextExpected` has been delivered: a cumulative acknowledgement.
    case acknowledgement(nextExpected: UInt32)
    /// "Still here", sent when nothing else went out for a heartbeat interval; it carries
    /// the acknowledgement too.
    case heartbeat(nextExpected: UInt32)

    /// The bytes a fragment's header takes.
    public static let fragmentHeaderLength = 9
    /// The longest message a frame can describe.
    public static let maximumMessageLength = Int(UInt16.max)

    /// Why bytes are not a frame.
    public enum DecodingError: Error, Hashable, Sendable {
        /// The first byte names no frame kind.
        case unknownKind(UInt8)
        /// The frame is shorter than its kind needs, or a fragment reaches past its message.
        case malformed
    }

    /// The frame's bytes.
    public var encoded: Data {
        var bytes = Data()
        switch self {
        case let .fragment(sequence, length, offset, payload):
            bytes.append(0x01)
            Self.append(sequence, to: &bytes)
            Self.append(length, to: &bytes)
            Self.append(offset, to: &bytes)
            bytes.append(payload)
        case let .acknowledgement(next):
            bytes.append(0x02)
            Self.append(next, to: &bytes)
        case let .heartbeat(next):
            bytes.append(0x03)
            Self.append(next, to: &bytes)
        }
        return bytes
    }

    /// Decodes one frame; never traps on bad input.
    public init(decoding data: Data) throws(DecodingError) {
        let bytes = [UInt8](data)
        guard let kind = bytes.first else { throw .malformed }
        switch kind {
        case 0x01:
            guard bytes.count >= Self.fragmentHeaderLength else { throw .malformed }
            let length = Self.uint16(bytes, 5), offset = Self.uint16(bytes, 7)
            let payload = bytes[Self.fragmentHeaderLength...]
            guard Int(offset) + payload.count <= Int(length) else { throw .malformed }
            self = .fragment(sequence: Self.uint32(bytes, 1), length: length, offset: offset, payload: Data(payload))
        case 0x02, 0x03:
            guard bytes.count == 5 else { throw .malformed }
            let next = Self.uint32(bytes, 1)
            self = kind == 0x02 ? .acknowledgement(nextExpected: next) : .heartbeat(nextExpected: next)
        default:
            throw .unknownKind(kind)
        }
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private static func uint16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    private static func uint32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        (0 ..< 4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * $1) }
    }
}
