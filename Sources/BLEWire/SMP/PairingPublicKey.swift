extension SMP {
    /// One 256-bit coordinate of a P-256 public key (Core 5.4, Vol 3, Part H, §3.5.6).
    ///
    /// Held as a number in two 128-bit halves, so decoding allocates nothing. On the wire
    /// the coordinate is 32 octets LEAST significant first, like every SMP value; the
    /// spec's text (e.g. the debug key in §2.3.5.6.1) and crypto libraries (X9.62, SEC1)
    /// write it most significant first, hence ``bigEndianBytes`` and ``init(bigEndian:)``.
    public struct PublicKeyCoordinate: Hashable, Sendable {
        /// The most significant 128 bits.
        public var high: UInt128
        /// The least significant 128 bits.
        public var low: UInt128

        /// A coordinate from its two halves.
        public init(high: UInt128, low: UInt128) {
            self.high = high
            self.low = low
        }

        /// A coordinate from 32 octets most significant first (crypto and spec-text order);
        /// `nil` unless there are exactly 32.
        public init?<Octets: Collection>(bigEndian octets: Octets) where Octets.Element == UInt8 {
            guard octets.count == 32 else { return nil }
            var high: UInt128 = 0
            var low: UInt128 = 0
            for (index, octet) in octets.enumerated() {
                if index < 16 { high = high << 8 | UInt128(octet) } else { low = low << 8 | UInt128(octet) }
            }
            self.init(high: high, low: low)
        }

        /// A coordinate from 32 octets least significant first (wire order); `nil` unless
        /// there are exactly 32.
        public init?<Octets: Collection>(littleEndian octets: Octets) where Octets.Element == UInt8 {
            self.init(bigEndian: octets.reversed())
        }

        /// The 32 octets most significant first, as P-256 libraries take them.
        public var bigEndianBytes: [UInt8] { littleEndianBytes.reversed() }

        /// The 32 octets least significant first, as on the wire.
        public var littleEndianBytes: [UInt8] {
            var writer = ByteWriter(capacity: 32)
            encode(to: &writer)
            return writer.bytes
        }

        /// Reads 32 octets, least significant first.
        public init(from reader: inout ByteReader, field: @autoclosure () -> String) throws(WireError) {
            try reader.require(32, field())
            low = try reader.readUInt128(field())
            high = try reader.readUInt128(field())
        }

        /// Appends the 32 octets, least significant first.
        public func encode(to writer: inout ByteWriter) {
            writer.write(low)
            writer.write(high)
        }
    }

    /// Pairing Public Key (Core 5.4, Vol 3, Part H, §3.5.6): the sender's P-256 public key
    /// for LE Secure Connections, X then Y, 32 octets each, little-endian.
    ///
    /// Decoding does not check that the point lies on the curve: that is a cryptographic
    /// check (§2.3.5.6.1) for the SMP layer, answered with Pairing Failed
    /// "DHKey Check Failed" (or by ignoring the key) there.
    public struct PairingPublicKey: SMPPDU, Sendable {
        /// ``SMP/Code/pairingPublicKey``.
        public static let code = Code.pairingPublicKey
        /// Public Key X.
        public var x: PublicKeyCoordinate
        /// Public Key Y.
        public var y: PublicKeyCoordinate

        /// A Pairing Public Key with coordinates `x` and `y`.
        public init(x: PublicKeyCoordinate, y: PublicKeyCoordinate) {
            self.x = x
            self.y = y
        }

        /// The 64-octet uncompressed point X ‖ Y, most significant first per coordinate,
        /// as P-256 libraries take a raw public key (prefix it with 0x04 for X9.62).
        public var rawBigEndianRepresentation: [UInt8] { x.bigEndianBytes + y.bigEndianBytes }

        /// A key from the 64-octet X ‖ Y big-endian raw representation; `nil` unless 64 octets.
        public init?<Octets: Collection>(rawBigEndianRepresentation octets: Octets) where Octets.Element == UInt8 {
            guard octets.count == 64,
                  let x = PublicKeyCoordinate(bigEndian: octets.prefix(32)),
                  let y = PublicKeyCoordinate(bigEndian: octets.dropFirst(32)) else { return nil }
            self.init(x: x, y: y)
        }

        /// Reads the PDU, code octet first; throws naming the field that is truncated or invalid.
        public init(from reader: inout ByteReader) throws(WireError) {
            try Self.readCode(from: &reader, "SMP.PairingPublicKey.code")
            x = try PublicKeyCoordinate(from: &reader, field: "SMP.PairingPublicKey.x")
            y = try PublicKeyCoordinate(from: &reader, field: "SMP.PairingPublicKey.y")
        }

        /// Appends the PDU, code octet first.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.code.rawValue)
            x.encode(to: &writer)
            y.encode(to: &writer)
        }
    }
}
