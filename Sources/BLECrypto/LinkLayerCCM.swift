extension BLECrypto {
    /// AES-CCM encryption of LE data channel payloads (Core 5.4, Vol 6, Part E, §1–§2):
    /// one session key and IV, with the 13-octet nonce, 4-octet MIC and 2-octet length
    /// field the Link Layer uses. A packet costs its output array and one copy of the key
    /// for the AES calls (swift-crypto's key type is not `Sendable`, so it is not kept).
    public struct LinkLayerCCM: Sendable {
        /// Which way a packet travels; the nonce's direction bit (Vol 6, Part E, §2.1).
        public enum Direction: UInt8, Hashable, Sendable, CaseIterable {
            /// From the peripheral to the central (bit 0).
            case peripheralToCentral = 0
            /// From the central to the peripheral (bit 1).
            case centralToPeripheral = 1
        }

        /// The largest plaintext payload: a 251-octet PDU less the 4-octet MIC.
        public static let maximumPayloadLength = 247
        /// The length of the Message Integrity Check.
        public static let micLength = 4
        /// The largest packet counter, 2^39 − 1 (Vol 6, Part E, §2.1).
        public static let maximumPacketCounter: UInt64 = (1 << 39) - 1
        /// The header bits that are authenticated: NESN, SN and MD are masked to zero
        /// because a retransmission may change them (Vol 6, Part E, §2.2).
        public static let headerMask: UInt8 = 0xE3

        /// The session key SK.
        public let sessionKey: UInt128
        /// The IV as a number, IVm in its low 32 bits and IVs in its high 32 bits, so that
        /// its octets least significant first are IVm then IVs as they enter the nonce.
        public let initializationVector: UInt64

        /// A context from a session key and IV already derived.
        public init(sessionKey: UInt128, initializationVector: UInt64) {
            self.sessionKey = sessionKey
            self.initializationVector = initializationVector
        }

        /// The context of an encryption start (Vol 6, Part B, §5.1.3.1): the session key
        /// `SK = e(LTK, SKD)` and `IV = IVm || IVs`, where the central's parts (from
        /// LL_ENC_REQ) are the least significant.
        ///
        /// - Throws: only ``Error/backendFailure(_:)``, which cannot happen (see ``e(key:plaintext:)``).
        public init(
            longTermKey: UInt128, skdCentral: UInt64, skdPeripheral: UInt64,
            ivCentral: UInt32, ivPeripheral: UInt32
        ) throws(BLECrypto.Error) {
            let key = try Self.sessionKey(longTermKey: longTermKey, skdCentral: skdCentral, skdPeripheral: skdPeripheral)
            self.init(sessionKey: key, initializationVector: UInt64(ivPeripheral) << 32 | UInt64(ivCentral))
        }

        /// The session key `SK = e(LTK, SKD)` (Vol 6, Part B, §5.1.3.1), SKD = SKDm || SKDs
        /// with SKDm, the central's diversifier, as the least significant 64 bits.
        ///
        /// - Throws: only ``Error/backendFailure(_:)``, which cannot happen (see ``e(key:plaintext:)``).
        public static func sessionKey(longTermKey: UInt128, skdCentral: UInt64, skdPeripheral: UInt64) throws(BLECrypto.Error) -> UInt128 {
            try e(key: longTermKey, plaintext: UInt128(skdPeripheral) << 64 | UInt128(skdCentral))
        }

        /// Encrypts a payload and appends its MIC (Vol 6, Part E, §1).
        ///
        /// - Parameters:
        ///   - payload: the plaintext payload, at most 247 octets.
        ///   - header: the first octet of the PDU header (LLID, NESN, SN, MD, CP); only the
        ///     bits of ``headerMask`` are authenticated.
        ///   - counter: this direction's 39-bit packet counter.
        ///   - direction: which way the packet travels.
        /// - Returns: the encrypted payload followed by the 4-octet MIC; the PDU's Length
        ///   field grows by 4.
        /// - Throws: ``Error/payloadTooLong(_:)``, ``Error/packetCounterOutOfRange(_:)``.
        public func encrypt(
            payload: some Collection<UInt8>, header: UInt8, counter: UInt64, direction: Direction
        ) throws(BLECrypto.Error) -> [UInt8] {
            let length = payload.count
            guard length <= Self.maximumPayloadLength else { throw .payloadTooLong(length) }
            let nonce = try self.nonce(counter: counter, direction: direction)
            let cipher = AESBlockCipher(key: sessionKey)
            var output: [UInt8] = []
            output.reserveCapacity(length + Self.micLength)
            var mac = try startMAC(cipher, nonce: nonce, length: length, header: header)
            var block: UInt128 = 0
            var filled = 0
            var blockIndex: UInt128 = 1
            for octet in payload {
                block |= UInt128(octet) << (8 * (15 - filled))
                filled += 1
                if filled == 16 {
                    try crypt(cipher, block, octets: 16, index: blockIndex, nonce: nonce, into: &output)
                    mac = try cipher.encrypt(mac ^ block)
                    blockIndex += 1
                    block = 0
                    filled = 0
                }
            }
            if filled > 0 {
                try crypt(cipher, block, octets: filled, index: blockIndex, nonce: nonce, into: &output)
                mac = try cipher.encrypt(mac ^ block)
            }
            let mic = try mic(cipher, mac, nonce: nonce)
            output.appendBigEndian(UInt128(mic), octets: Self.micLength)
            return output
        }

        /// Decrypts a received payload and checks its MIC (Vol 6, Part E, §1).
        ///
        /// - Parameters:
        ///   - encryptedPayload: the received payload: ciphertext then the 4-octet MIC.
        ///   - header: the first octet of the received PDU header.
        ///   - counter: the receiving direction's 39-bit packet counter.
        ///   - direction: which way the packet travelled.
        /// - Returns: the plaintext payload.
        /// - Throws: ``Error/micFailure`` if the MIC does not match (nothing of the payload
        ///   is returned then); ``Error/encryptedPayloadTooShort(_:)``,
        ///   ``Error/payloadTooLong(_:)``, ``Error/packetCounterOutOfRange(_:)``.
        public func decrypt(
            _ encryptedPayload: some Collection<UInt8>, header: UInt8, counter: UInt64, direction: Direction
        ) throws(BLECrypto.Error) -> [UInt8] {
            let total = encryptedPayload.count
            guard total >= Self.micLength else { throw .encryptedPayloadTooShort(total) }
            let length = total - Self.micLength
            guard length <= Self.maximumPayloadLength else { throw .payloadTooLong(length) }
            let nonce = try self.nonce(counter: counter, direction: direction)
            let cipher = AESBlockCipher(key: sessionKey)
            var output: [UInt8] = []
            output.reserveCapacity(length)
            var mac = try startMAC(cipher, nonce: nonce, length: length, header: header)
            var block: UInt128 = 0
            var filled = 0
            var blockIndex: UInt128 = 1
            var received: UInt32 = 0
            var position = 0
            for octet in encryptedPayload {
                if position >= length {
                    received = received << 8 | UInt32(octet)
                } else {
                    block |= UInt128(octet) << (8 * (15 - filled))
                    filled += 1
                    if filled == 16 {
                        let plain = try crypt(cipher, block, octets: 16, index: blockIndex, nonce: nonce, into: &output)
                        mac = try cipher.encrypt(mac ^ plain)
                        blockIndex += 1
                        block = 0
                        filled = 0
                    }
                }
                position += 1
            }
            if filled > 0 {
                let plain = try crypt(cipher, block, octets: filled, index: blockIndex, nonce: nonce, into: &output)
                mac = try cipher.encrypt(mac ^ plain)
            }
            let expected = try mic(cipher, mac, nonce: nonce)
            // Compare without an early exit, so timing does not tell how much matched.
            guard expected ^ received == 0 else { throw .micFailure }
            return output
        }

        /// The 13-octet nonce as the low 104 bits: the counter's five octets least
        /// significant first with the direction in the fifth octet's top bit, then the IV's
        /// eight octets least significant first (Vol 6, Part E, §2.1).
        private func nonce(counter: UInt64, direction: Direction) throws(BLECrypto.Error) -> UInt128 {
            guard counter <= Self.maximumPacketCounter else { throw .packetCounterOutOfRange(counter) }
            let counterField = counter | UInt64(direction.rawValue) << 39
            return UInt128(counterField.byteSwapped >> 24) << 64 | UInt128(initializationVector.byteSwapped)
        }

        /// CBC-MAC over B0 (flags 0x49: Adata, M = 4, L = 2; nonce; length) and B1 (the
        /// additional data's length, 1, and the masked header), per RFC 3610, §2.2.
        private func startMAC(_ cipher: AESBlockCipher, nonce: UInt128, length: Int, header: UInt8) throws(BLECrypto.Error) -> UInt128 {
            let b0 = UInt128(0x49) << 120 | nonce << 16 | UInt128(length)
            let b1 = UInt128(0x0001) << 112 | UInt128(header & Self.headerMask) << 104
            return try cipher.encrypt(try cipher.encrypt(b0) ^ b1)
        }

        /// The counter block A_i (flags 0x01, nonce, i) encrypted: the keystream of block i.
        private func keystream(_ cipher: AESBlockCipher, index: UInt128, nonce: UInt128) throws(BLECrypto.Error) -> UInt128 {
            try cipher.encrypt(UInt128(0x01) << 120 | nonce << 16 | index)
        }

        /// XORs the first `octets` octets of `block` with keystream block `index`, appends
        /// them to `output`, and returns the result with the unused octets zero.
        @discardableResult
        private func crypt(
            _ cipher: AESBlockCipher, _ block: UInt128, octets: Int, index: UInt128, nonce: UInt128, into output: inout [UInt8]
        ) throws(BLECrypto.Error) -> UInt128 {
            let used: UInt128 = octets == 16 ? ~0 : ~(~0 >> (8 * octets))
            let result = (block ^ (try keystream(cipher, index: index, nonce: nonce))) & used
            output.appendBigEndian(result >> (8 * (16 - octets)), octets: octets)
            return result
        }

        /// The MIC: the CBC-MAC's first four octets XOR those of the encrypted A_0.
        private func mic(_ cipher: AESBlockCipher, _ mac: UInt128, nonce: UInt128) throws(BLECrypto.Error) -> UInt32 {
            let s0 = try keystream(cipher, index: 0, nonce: nonce)
            return UInt32(truncatingIfNeeded: (mac ^ s0) >> 96)
        }
    }
}
