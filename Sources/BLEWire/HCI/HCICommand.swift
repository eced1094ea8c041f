/// An HCI command with typed parameters (Core 5.4, Vol 4, Part E, §5.4.1 and §7).
///
/// The wire form of a conforming value is the command's *parameters* only; the
/// packet header (opcode and parameter total length) is added by `HCI.CommandPacket`.
public protocol HCICommand: WireCodable, Hashable {
    /// The command's opcode.
    static var opcode: HCI.Opcode { get }

    /// How the controller answers: Command Complete with return parameters, or Command
    /// Status followed later by an event.
    static var completion: HCI.CommandCompletion { get }

    /// The return parameters carried by the Command Complete event, starting with the
    /// status octet where the specification has one. Commands answered by Command Status
    /// use ``HCI/StatusReturnParameters``.
    associatedtype ReturnParameters: WireCodable & Hashable = HCI.StatusReturnParameters
}

extension HCI {
    /// How a command completes (Core 5.4, Vol 4, Part E, §4.4).
    public enum CommandCompletion: Hashable, Sendable {
        /// Answered by Command Complete carrying the return parameters.
        case commandComplete
        /// Answered by Command Status, then by a command-specific event.
        case commandStatus
    }

    /// Return parameters that are only a status octet (the most common case).
    public struct StatusReturnParameters: WireCodable, Hashable {
        /// Whether the command succeeded, and if not, why.
        public var status: StatusCode

        /// Return parameters with `status`.
        public init(status: StatusCode) { self.status = status }

        public init(from reader: inout ByteReader) throws(WireError) {
            status = try StatusCode(from: &reader, field: "StatusReturnParameters.status")
        }

        public func encode(to writer: inout ByteWriter) { status.encode(to: &writer) }
    }
}

extension HCICommand {
    /// Answered by Command Complete unless a command says otherwise.
    public static var completion: HCI.CommandCompletion { .commandComplete }
}
