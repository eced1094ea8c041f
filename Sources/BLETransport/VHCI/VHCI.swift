import BLEWire

/// The Linux kernel's virtual HCI device, `/dev/vhci` (drivers/bluetooth/hci_vhci.c): a
/// program that opens it plays the controller of a new adapter `hciN`, so BlueZ and every
/// Linux Bluetooth program use whatever controller that program reaches.
///
/// The protocol, sans I/O: each `write` and each `read` of the device carries exactly one
/// packet, its first octet the H4 packet indicator (Core 5.4, Vol 4, Part A, §2). The one
/// exception is the vendor packet (indicator `0xFF`) that creates the adapter: the program
/// writes `FF <opcode>` and the kernel answers `FF <opcode> <index, le16>` before any HCI
/// traffic (`__vhci_create_device`). If nothing is written within a second of opening, the
/// kernel creates a primary adapter by itself, with the same answer.
public enum VHCI {
    /// The packet indicator of the vendor packet that creates the adapter (`HCI_VENDOR_PKT`).
    public static let vendorPacketIndicator: UInt8 = 0xFF

    /// What kind of adapter the create request asks for: the opcode octet of the vendor
    /// packet. Bits 0–1 are the device type, bits 2–5 are reserved (the kernel refuses them
    /// with `EINVAL`), bit 6 asks for external configuration and bit 7 for a raw device.
    public struct CreateRequest: Hashable, Sendable {
        /// The opcode octet.
        public var opcode: UInt8

        /// A primary controller (`HCI_PRIMARY`), configured and driven by the kernel's host
        /// stack like any adapter: what `ble vhci` creates.
        public static let primary = CreateRequest(opcode: 0x00)

        /// A request with the opcode octet `opcode`.
        public init(opcode: UInt8) {
            self.opcode = opcode
        }

        /// The octets to write to `/dev/vhci`: `FF <opcode>`.
        public var encoded: [UInt8] { [VHCI.vendorPacketIndicator, opcode] }
    }

    /// The kernel's answer to a create request: which adapter it registered.
    public struct CreateResponse: Hashable, Sendable {
        /// The opcode octet the adapter was created with.
        public var opcode: UInt8
        /// The adapter's index: the `N` of `hciN`, and of our `hci:N`.
        public var index: UInt16

        /// The response with `opcode` and `index`.
        public init(opcode: UInt8, index: UInt16) {
            self.opcode = opcode
            self.index = index
        }

        /// Reads the first packet the kernel sends after a create request: exactly four
        /// octets, `FF <opcode> <index, le16>`.
        public init(decoding octets: [UInt8]) throws(VHCI.PacketError) {
            guard let first = octets.first else { throw .empty }
            guard first == VHCI.vendorPacketIndicator else { throw .expectedCreateResponse(octets) }
            guard octets.count == 4 else { throw .expectedCreateResponse(octets) }
            opcode = octets[1]
            index = UInt16(octets[2]) | UInt16(octets[3]) << 8
        }

        /// The four octets the kernel sends.
        public var encoded: [UInt8] {
            [VHCI.vendorPacketIndicator, opcode, UInt8(truncatingIfNeeded: index), UInt8(truncatingIfNeeded: index >> 8)]
        }

        /// The adapter's name, e.g. `hci0`.
        public var interfaceName: String { "hci\(index)" }
    }

    /// Decodes one packet read from `/dev/vhci`: what the kernel's host sends its
    /// controller, i.e. an HCI command, ACL, synchronous or ISO data packet. Events travel
    /// only from a controller to its host, and a vendor packet only before the adapter
    /// exists, so either one here is an error, as is a packet whose length fields disagree
    /// with the octets read (one read is one whole packet).
    public static func decodeFromKernel(_ octets: [UInt8]) throws(PacketError) -> H4.Packet {
        let packet = try decodePacket(octets)
        if case .event = packet { throw .wrongDirection(.event, from: .kernel) }
        return packet
    }

    /// Checks that `packet`, which a controller sent, is one the kernel's host can take
    /// from its controller: an event or data, never a command.
    public static func validateFromController(_ packet: H4.Packet) throws(PacketError) {
        if case .command = packet { throw .wrongDirection(.command, from: .controller) }
    }

    /// `octets` as exactly one H4 packet.
    private static func decodePacket(_ octets: [UInt8]) throws(PacketError) -> H4.Packet {
        guard let indicator = octets.first else { throw .empty }
        if indicator == vendorPacketIndicator { throw .unexpectedVendorPacket(octets) }
        guard let type = H4.PacketType(rawValue: indicator) else { throw .unknownPacketType(indicator) }
        do {
            return try H4.Packet(decoding: octets)
        } catch {
            throw .malformed(type, error)
        }
    }
}
