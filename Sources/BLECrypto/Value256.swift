extension BLECrypto {
    /// A 256-bit value as the specification writes it: a P-256 coordinate, private key or
    /// DHKey (Core 5.4, Vol 3, Part H, §2.3.5.6), most significant half in ``high``.
    ///
    /// A fixed-size value type rather than a 32-octet array, so a wrong length cannot reach
    /// f4, f5, g2 or ECDH; octet strings are checked once, at ``init(bigEndian:)`` or
    /// ``init(littleEndian:)``. The SMP wire carries these values least significant octet
    /// first (Pairing Public Key, §3.5.6), hence ``littleEndianBytes``.
    public struct Value256: Hashable, Sendable, CustomStringConvertible {
        /// The most significant 128 bits.
        public var high: UInt128
        /// The least significant 128 bits.
        public var low: UInt128

        /// A value from its two halves, as written in the specification's sample data.
        public init(high: UInt128, low: UInt128) {
            self.high = high
            self.low = low
        }

        /// A value from 32 octets, most significant first (the order of the
        /// specification's text and of X9.63 key encodings).
        ///
        /// - Throws: ``Error/invalidLength(expected:actual:)`` unless there are 32 octets.
        public init(bigEndian octets: some Collection<UInt8>) throws(BLECrypto.Error) {
            guard octets.count == 32 else { throw .invalidLength(expected: 32, actual: octets.count) }
            self.init(foldingBigEndian: octets)
        }

        /// A value from 32 octets, least significant first, as SMP sends them.
        ///
        /// - Throws: ``Error/invalidLength(expected:actual:)`` unless there are 32 octets.
        public init(littleEndian octets: some Collection<UInt8>) throws(BLECrypto.Error) {
            guard octets.count == 32 else { throw .invalidLength(expected: 32, actual: octets.count) }
            var high: UInt128 = 0
            var low: UInt128 = 0
            for octet in octets {
                low = low >> 8 | (high & 0xFF) << 120
                high = high >> 8 | UInt128(octet) << 120
            }
            self.init(high: high, low: low)
        }

        /// The 32 octets, most significant first.
        public var bigEndianBytes: [UInt8] {
            var octets: [UInt8] = []
            octets.reserveCapacity(32)
            appendBigEndian(to: &octets)
            return octets
        }

        /// The 32 octets, least significant first, as in SMP's Pairing Public Key and
        /// Pairing DHKey Check fields.
        public var littleEndianBytes: [UInt8] {
            bigEndianBytes.reversed()
        }

        /// Lower-case hexadecimal, most significant octet first.
        public var description: String {
            bigEndianBytes.map { octet in
                let digits = String(octet, radix: 16)
                return octet < 0x10 ? "0" + digits : digits
            }.joined()
        }

        /// The number that `octets` spell, most significant first, keeping its low 256 bits;
        /// for outputs of swift-crypto whose length is fixed by P-256.
        init(foldingBigEndian octets: some Sequence<UInt8>) {
            var high: UInt128 = 0
            var low: UInt128 = 0
            for octet in octets {
                high = high << 8 | low >> 120
                low = low << 8 | UInt128(octet)
            }
            self.init(high: high, low: low)
        }

        func appendBigEndian(to octets: inout [UInt8]) {
            octets.appendBigEndian(high)
            octets.appendBigEndian(low)
        }
    }
}

extension Array where Element == UInt8 {
    /// Appends the low `octets` octets of `value`, most significant first.
    mutating func appendBigEndian(_ value: UInt128, octets: Int = 16) {
        for index in (0 ..< octets).reversed() {
            append(UInt8(truncatingIfNeeded: value >> (8 * index)))
        }
    }

    /// Appends the low `octets` octets of `value`, most significant first.
    mutating func appendBigEndian(_ value: UInt64, octets: Int) {
        appendBigEndian(UInt128(value), octets: octets)
    }
}
