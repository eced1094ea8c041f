import BLEWire

extension VHCI {
    /// Which side of the bridge a packet came from.
    public enum Side: String, Hashable, Sendable {
        /// The Linux kernel's host stack, through `/dev/vhci`.
        case kernel
        /// The controller the bridge hands to the kernel.
        case controller
    }

    /// Why a packet on `/dev/vhci` is not one the bridge can pass on.
    public enum PacketError: Error, Hashable, Sendable, CustomStringConvertible {
        /// A read or write of zero octets: every packet has at least its indicator.
        case empty
        /// The first octet is not an H4 packet indicator (Core 5.4, Vol 4, Part A, §2).
        case unknownPacketType(UInt8)
        /// A vendor packet (`0xFF`) after the adapter was created; the kernel sends one only
        /// in answer to the create request.
        case unexpectedVendorPacket([UInt8])
        /// The first packet after a create request is not the kernel's four-octet answer.
        case expectedCreateResponse([UInt8])
        /// The packet's header or length fields disagree with its octets.
        case malformed(H4.PacketType, WireError)
        /// A packet that travels only the other way: an event from the kernel's host, or a
        /// command from the controller.
        case wrongDirection(H4.PacketType, from: Side)

        public var description: String {
            switch self {
            case .empty:
                return "an empty packet"
            case let .unknownPacketType(indicator):
                return "a packet of unknown type 0x\(hex(indicator)) (H4 knows 0x01 to 0x05)"
            case let .unexpectedVendorPacket(octets):
                return "an unexpected vendor packet \(hex(octets))"
            case let .expectedCreateResponse(octets):
                return "\(hex(octets)) where the kernel's answer to the create request (ff 00 <index>) belongs"
            case let .malformed(type, error):
                return "a malformed \(name(type)) packet (\(error))"
            case let .wrongDirection(type, side):
                switch side {
                case .kernel: return "an HCI \(name(type)) packet, which only a controller sends"
                case .controller: return "an HCI \(name(type)) packet, which only a host sends"
                }
            }
        }

        private func name(_ type: H4.PacketType) -> String {
            switch type {
            case .command: return "command"
            case .acl: return "ACL data"
            case .sco: return "synchronous data"
            case .event: return "event"
            case .iso: return "ISO data"
            }
        }

        private func hex(_ octet: UInt8) -> String {
            let digits = String(octet, radix: 16)
            return octet < 0x10 ? "0" + digits : digits
        }

        private func hex(_ octets: [UInt8]) -> String {
            let shown = octets.prefix(16).map { hex($0) }.joined(separator: " ")
            return octets.count > 16 ? shown + " … (\(octets.count) octets)" : "[\(shown)]"
        }
    }
}
