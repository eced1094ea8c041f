import BLEWire
import Testing

@Suite("SMP PDUs")
struct SMPPDUTests {
    // Core 5.4, Vol 3, Part H, §2.2.3 (legacy c1 example): preq = 0x07071000000101 and
    // pres = 0x05000800000302, written most significant octet first. The least significant
    // octet is the code, so on the wire the octets are reversed.
    static let preqWire: [UInt8] = [0x01, 0x01, 0x00, 0x00, 0x10, 0x07, 0x07]
    static let presWire: [UInt8] = [0x02, 0x03, 0x00, 0x00, 0x08, 0x00, 0x05]

    @Test("The c1 example's preq decodes as a Pairing Request and encodes back")
    func specPairingRequest() throws {
        let request = try SMP.PairingRequest(decoding: Self.preqWire)
        #expect(request.ioCapability == .displayYesNo)
        #expect(request.oobDataFlag == .notPresent)
        #expect(request.authenticationRequirements == [])
        #expect(request.maximumEncryptionKeySize == 16)
        #expect(request.initiatorKeyDistribution == [.encryptionKey, .identityKey, .signingKey])
        #expect(request.responderKeyDistribution == [.encryptionKey, .identityKey, .signingKey])
        #expect(request.encoded() == Self.preqWire)
        // The spec's text form is the wire form reversed.
        #expect(Hex.encode(request.encoded().reversed()) == "07071000000101")
    }

    @Test("The c1 example's pres decodes as a Pairing Response and encodes back")
    func specPairingResponse() throws {
        let response = try SMP.PairingResponse(decoding: Self.presWire)
        #expect(response.ioCapability == .noInputNoOutput)
        #expect(response.oobDataFlag == .notPresent)
        #expect(response.authenticationRequirements.rawValue == 0)
        #expect(response.maximumEncryptionKeySize == 8)
        #expect(response.initiatorKeyDistribution == [])
        #expect(response.responderKeyDistribution == [.encryptionKey, .signingKey])
        let built = SMP.PairingResponse(
            ioCapability: .noInputNoOutput, authenticationRequirements: [], maximumEncryptionKeySize: 8,
            initiatorKeyDistribution: [], responderKeyDistribution: [.encryptionKey, .signingKey])
        #expect(built.encoded() == Self.presWire)
        #expect(Hex.encode(built.encoded().reversed()) == "05000800000302")
    }

    @Test("SMP.PDU dispatches on the code octet")
    func dispatch() throws {
        #expect(try SMP.PDU(decoding: Self.preqWire).code == .pairingRequest)
        guard case let .pairingResponse(response) = try SMP.PDU(decoding: Self.presWire) else {
            Issue.record("expected a Pairing Response")
            return
        }
        #expect(response.maximumEncryptionKeySize == 8)
        let failed = try SMP.PDU(decoding: [0x05, 0x04])
        #expect(failed == .pairingFailed(SMP.PairingFailed(reason: .confirmValueFailed)))
        #expect(failed.encoded() == [0x05, 0x04])
    }

    @Test("A reserved code throws unknownCode so the layer can answer Command Not Supported")
    func unknownCode() {
        for code: UInt8 in [0x00, 0x0F, 0x10, 0xFF] {
            #expect(throws: WireError(field: "SMP.PDU.code", reason: .unknownCode(UInt64(code)))) {
                try SMP.PDU(decoding: [code, 0x00])
            }
        }
        #expect(throws: WireError.self) { try SMP.PDU(decoding: []) }
    }

    @Test("Every PDU has a fixed length: one octet more or less throws")
    func fixedLengths() {
        var generator = SeededGenerator(seed: 7)
        for code in SMP.Code.allCases {
            let pdu = Self.randomPDU(code, using: &generator)
            let bytes = pdu.encoded()
            #expect(bytes.count == code.pduLength, "\(code)")
            #expect(bytes.first == code.rawValue)
            #expect(throws: WireError.self) { try SMP.PDU(decoding: Array(bytes.dropLast())) }
            #expect(throws: WireError.self) { try SMP.PDU(decoding: bytes + [0x00]) }
        }
    }

    @Test("Reserved IO capability, OOB flag, keypress type and address type are rejected by field")
    func reservedValues() {
        #expect(throws: WireError(field: "SMP.PairingRequest.ioCapability", reason: .invalidValue(5))) {
            try SMP.PairingRequest(decoding: [0x01, 0x05, 0x00, 0x00, 0x10, 0x00, 0x00])
        }
        #expect(throws: WireError(field: "SMP.PairingResponse.oobDataFlag", reason: .invalidValue(2))) {
            try SMP.PairingResponse(decoding: [0x02, 0x00, 0x02, 0x00, 0x10, 0x00, 0x00])
        }
        #expect(throws: WireError(field: "SMP.KeypressNotification.notificationType", reason: .invalidValue(5))) {
            try SMP.KeypressNotification(decoding: [0x0E, 0x05])
        }
        #expect(throws: WireError(field: "SMP.IdentityAddressInformation.addressType", reason: .invalidValue(2))) {
            try SMP.IdentityAddressInformation(decoding: [0x09, 0x02, 1, 2, 3, 4, 5, 6])
        }
        #expect(throws: WireError(field: "SMP.PairingConfirm.code", reason: .invalidValue(4))) {
            try SMP.PairingConfirm(decoding: [0x04] + [UInt8](repeating: 0, count: 16))
        }
    }

    @Test("Any maximum key size decodes; range checks belong to the SMP layer")
    func keySizeNotCheckedHere() throws {
        for size: UInt8 in [0, 6, 17, 0xFF] {
            let request = try SMP.PairingRequest(decoding: [0x01, 0x03, 0x00, 0x01, size, 0x00, 0x00])
            #expect(request.maximumEncryptionKeySize == size)
        }
        #expect(SMP.minimumEncryptionKeySize == 7 && SMP.maximumEncryptionKeySize == 16)
    }

    @Test("AuthReq and key distribution keep their RFU bits")
    func rawBitsKept() throws {
        let request = try SMP.PairingRequest(decoding: [0x01, 0x04, 0x01, 0xFF, 0x07, 0xF9, 0x1F])
        #expect(request.authenticationRequirements.contains([.bonding, .mitm, .secureConnections, .keypress, .ct2]))
        #expect(request.authenticationRequirements.bondingFlags == 0b11)
        #expect(request.authenticationRequirements.reservedBits == 0xC0)
        #expect(request.initiatorKeyDistribution.reservedBits == 0xF0)
        #expect(request.initiatorKeyDistribution.contains(.linkKey))
        #expect(!request.initiatorKeyDistribution.contains(.identityKey))
        #expect(request.encoded() == [0x01, 0x04, 0x01, 0xFF, 0x07, 0xF9, 0x1F])
        let security = try SMP.SecurityRequest(decoding: [0x0B, 0x2D])
        #expect(security.authenticationRequirements == [.bonding, .mitm, .secureConnections, .ct2])
    }

    @Test("Pairing Failed reasons are total and named")
    func failedReasons() {
        for raw in UInt8.min ... UInt8.max {
            #expect(SMP.PairingFailedReason(rawValue: raw).rawValue == raw)
        }
        #expect(SMP.PairingFailedReason(rawValue: 0x0B) == .dhKeyCheckFailed)
        #expect(SMP.PairingFailedReason(rawValue: 0x0F) == .keyRejected)
        #expect(SMP.PairingFailedReason(rawValue: 0x10) == .unlisted(0x10))
        #expect(SMP.PairingFailedReason.commandNotSupported.description == "Command Not Supported (0x07)")
    }

    @Test("128-bit values are little-endian on the wire")
    func uint128Order() throws {
        // Core 5.4, Vol 3, Part H, §2.2.3: r = 0x5783D52156AD6F0E6388274EC6702EE0.
        let random = SMP.PairingRandom(randomValue: 0x5783_D521_56AD_6F0E_6388_274E_C670_2EE0)
        let bytes = random.encoded()
        #expect(Hex.encode(bytes) == "04e02e70c64e2788630e6fad5621d58357")
        #expect(try SMP.PairingRandom(decoding: bytes) == random)
        let central = SMP.CentralIdentification(encryptedDiversifier: 0x1234, random: 0x0102_0304_0506_0708)
        #expect(Hex.encode(central.encoded()) == "0734120807060504030201")
        let identity = SMP.IdentityAddressInformation(address: BluetoothAddress(0xC011_2233_4455, kind: .random))
        #expect(Hex.encode(identity.encoded()) == "09015544332211c0")
    }

    @Test("The debug public key (§2.3.5.6.1) goes on the wire least significant octet first")
    func debugPublicKey() throws {
        let rawX = try #require(Hex.decode("20b003d2f297be2c5e2c83a7e9f9a5b9eff49111acf4fddbcc0301480e359de6"))
        let rawY = try #require(Hex.decode("dc809c49652aeb6d63329abf5a52155c766345c28fed3024741c8ed01589d28b"))
        let key = try #require(SMP.PairingPublicKey(rawBigEndianRepresentation: rawX + rawY))
        #expect(key.x.high == 0x20B0_03D2_F297_BE2C_5E2C_83A7_E9F9_A5B9)
        #expect(key.x.low == 0xEFF4_9111_ACF4_FDDB_CC03_0148_0E35_9DE6)
        let wire = key.encoded()
        #expect(wire.count == 65)
        #expect(Array(wire[1 ... 32]) == Array(rawX.reversed()))
        #expect(Array(wire[33 ... 64]) == Array(rawY.reversed()))
        let decoded = try SMP.PairingPublicKey(decoding: wire)
        #expect(decoded == key)
        #expect(decoded.x.bigEndianBytes == rawX)
        #expect(decoded.y.littleEndianBytes == Array(rawY.reversed()))
        #expect(decoded.rawBigEndianRepresentation == rawX + rawY)
        #expect(SMP.PublicKeyCoordinate(bigEndian: rawX.dropLast()) == nil)
    }
}
