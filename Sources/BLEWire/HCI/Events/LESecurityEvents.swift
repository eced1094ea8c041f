extension HCI {
    /// LE Long Term Key Request event (Core 5.4, Vol 4, Part E, §7.7.65.5): the central
    /// started encryption and the peripheral's host must supply the LTK (LE Long Term Key
    /// Request Reply) or refuse (Negative Reply).
    public struct LELongTermKeyRequest: HCILEMetaEvent {
        /// Subevent code 0x05.
        public static let subeventCode = LESubeventCode.longTermKeyRequest

        /// The connection (0x0000–0x0EFF).
        public var connectionHandle: UInt16
        /// Rand from the central's LL_ENC_REQ (zero with LE Secure Connections).
        public var randomNumber: UInt64
        /// EDIV from the central's LL_ENC_REQ (zero with LE Secure Connections).
        public var encryptedDiversifier: UInt16

        /// An event with every field given.
        public init(connectionHandle: UInt16, randomNumber: UInt64, encryptedDiversifier: UInt16) {
            self.connectionHandle = connectionHandle
            self.randomNumber = randomNumber
            self.encryptedDiversifier = encryptedDiversifier
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            connectionHandle = try reader.readEventConnectionHandle("HCI.LELongTermKeyRequest.connectionHandle")
            randomNumber = try reader.readUInt64("HCI.LELongTermKeyRequest.randomNumber")
            encryptedDiversifier = try reader.readUInt16("HCI.LELongTermKeyRequest.encryptedDiversifier")
        }

        public func encode(to writer: inout ByteWriter) {
            writer.write(connectionHandle)
            writer.write(randomNumber)
            writer.write(encryptedDiversifier)
        }
    }

    /// LE Read Local P-256 Public Key Complete event (Core 5.4, Vol 4, Part E, §7.7.65.8):
    /// the controller's new P-256 public key for LE Secure Connections.
    ///
    /// The coordinates are kept as the 32 octets on the wire, least significant first —
    /// the order SMP's Pairing Public Key PDU also uses, so they can be passed through.
    public struct LEReadLocalP256PublicKeyComplete: HCILEMetaEvent {
        /// Subevent code 0x08.
        public static let subeventCode = LESubeventCode.readLocalP256PublicKeyComplete
        /// Octets in one coordinate.
        public static let coordinateLength = 32

        /// Whether a key was generated.
        public var status: StatusCode
        /// Key_X_Coordinate: 32 octets, least significant first.
        public var keyXCoordinate: ArraySlice<UInt8>
        /// Key_Y_Coordinate: 32 octets, least significant first.
        public var keyYCoordinate: ArraySlice<UInt8>

        /// An event with every field given; each coordinate should be 32 octets (encoding
        /// pads a shorter one with zeros and cuts a longer one).
        public init(status: StatusCode, keyXCoordinate: ArraySlice<UInt8>, keyYCoordinate: ArraySlice<UInt8>) {
            self.status = status
            self.keyXCoordinate = keyXCoordinate
            self.keyYCoordinate = keyYCoordinate
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            status = try StatusCode(from: &reader, field: "HCI.LEReadLocalP256PublicKeyComplete.status")
            keyXCoordinate = try reader.readBytes(Self.coordinateLength, "HCI.LEReadLocalP256PublicKeyComplete.keyXCoordinate")
            keyYCoordinate = try reader.readBytes(Self.coordinateLength, "HCI.LEReadLocalP256PublicKeyComplete.keyYCoordinate")
        }

        public func encode(to writer: inout ByteWriter) {
            status.encode(to: &writer)
            writer.writeEventFieldPadded(keyXCoordinate, length: Self.coordinateLength)
            writer.writeEventFieldPadded(keyYCoordinate, length: Self.coordinateLength)
        }
    }

    /// LE Generate DHKey Complete event (Core 5.4, Vol 4, Part E, §7.7.65.9): the
    /// Diffie-Hellman key computed from the peer's public key and the local private key.
    public struct LEGenerateDHKeyComplete: HCILEMetaEvent {
        /// Subevent code 0x09.
        public static let subeventCode = LESubeventCode.generateDHKeyComplete
        /// Octets in the DHKey.
        public static let dhKeyLength = 32

        /// Whether the key was computed (an invalid peer key gives an error here).
        public var status: StatusCode
        /// The DHKey: 32 octets, least significant first (all 0xFF on error).
        public var dhKey: ArraySlice<UInt8>

        /// An event with every field given; `dhKey` should be 32 octets (encoding pads a
        /// shorter one with zeros and cuts a longer one).
        public init(status: StatusCode, dhKey: ArraySlice<UInt8>) {
            self.status = status
            self.dhKey = dhKey
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            status = try StatusCode(from: &reader, field: "HCI.LEGenerateDHKeyComplete.status")
            dhKey = try reader.readBytes(Self.dhKeyLength, "HCI.LEGenerateDHKeyComplete.dhKey")
        }

        public func encode(to writer: inout ByteWriter) {
            status.encode(to: &writer)
            writer.writeEventFieldPadded(dhKey, length: Self.dhKeyLength)
        }
    }
}

extension ByteWriter {
    /// Appends exactly `length` octets: `octets` cut or padded with zeros, so a fixed-size
    /// field keeps its size whatever the caller stored.
    mutating func writeEventFieldPadded(_ octets: ArraySlice<UInt8>, length: Int) {
        let kept = octets.prefix(length)
        write(contentsOf: kept)
        for _ in kept.count ..< length { write(UInt8(0)) }
    }
}
