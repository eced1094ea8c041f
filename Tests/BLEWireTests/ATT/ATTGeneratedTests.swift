import BLEWire
import Testing

/// Random valid ATT PDUs for round trips. Values are slices of a larger array that do
/// not start at index 0, so an encoder that indexes from 0 would be caught.
struct ATTGenerator {
    var random: SeededGenerator

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    mutating func handle() -> ATT.Handle { UInt16.random(in: .min ... .max, using: &random) }
    mutating func u16() -> UInt16 { UInt16.random(in: .min ... .max, using: &random) }
    mutating func bool() -> Bool { Bool.random(using: &random) }

    mutating func slice(_ range: ClosedRange<Int>) -> ArraySlice<UInt8> {
        let lead = Int.random(in: 0 ... 3, using: &random)
        let all = random.bytes(lead) + random.bytes(in: range)
        return all[lead...]
    }

    mutating func slice(count: Int) -> ArraySlice<UInt8> { slice(count ... count) }

    /// A 16-bit UUID or a random 128-bit one.
    mutating func attributeType() -> BluetoothUUID {
        bool() ? BluetoothUUID(u16()) : BluetoothUUID(uuid128: UInt128(random.next()) << 64 | UInt128(random.next()))
    }

    mutating func handles(_ range: ClosedRange<Int>) -> [ATT.Handle] {
        (0 ..< Int.random(in: range, using: &random)).map { _ in handle() }
    }

    /// One random value of every PDU type, as `ATT.PDU`.
    mutating func allPDUs() -> [ATT.PDU] {
        let valueLength = Int.random(in: 0 ... 20, using: &random)
        let groupLength = Int.random(in: 0 ... 16, using: &random)
        let uuid16 = bool()
        var pdus: [ATT.PDU] = [
            .errorResponse(.init(requestOpcodeInError: .init(rawValue: UInt8.random(in: 0 ... 255, using: &random)),
                                 attributeHandleInError: handle(),
                                 errorCode: .init(rawValue: UInt8.random(in: 0 ... 255, using: &random)))),
            .exchangeMTURequest(.init(clientRxMTU: u16())),
            .exchangeMTUResponse(.init(serverRxMTU: u16())),
            .findInformationRequest(.init(startingHandle: handle(), endingHandle: handle())),
            .findInformationResponse(.init(entries: (0 ..< Int.random(in: 1 ... 5, using: &random)).map { _ in
                .init(handle: handle(), attributeType: uuid16 ? BluetoothUUID(u16()) : BluetoothUUID(uuid128: UInt128(random.next()) << 64 | UInt128(random.next())))
            })),
            .findByTypeValueRequest(.init(startingHandle: handle(), endingHandle: handle(), attributeType: u16(), attributeValue: slice(0 ... 16))),
            .findByTypeValueResponse(.init(handlesInformationList: (0 ..< Int.random(in: 1 ... 5, using: &random)).map { _ in
                .init(foundAttributeHandle: handle(), groupEndHandle: handle())
            })),
            .readByTypeRequest(.init(startingHandle: handle(), endingHandle: handle(), attributeType: attributeType())),
            .readByTypeResponse(.init(attributeDataList: (0 ..< Int.random(in: 1 ... 5, using: &random)).map { _ in
                .init(attributeHandle: handle(), attributeValue: slice(count: valueLength))
            })),
            .readRequest(.init(attributeHandle: handle())),
            .readResponse(.init(attributeValue: slice(0 ... 30))),
            .readBlobRequest(.init(attributeHandle: handle(), valueOffset: u16())),
            .readBlobResponse(.init(partAttributeValue: slice(0 ... 30))),
            .readMultipleRequest(.init(setOfHandles: handles(2 ... 8))),
            .readMultipleResponse(.init(setOfValues: slice(0 ... 30))),
            .readByGroupTypeRequest(.init(startingHandle: handle(), endingHandle: handle(), attributeGroupType: attributeType())),
            .readByGroupTypeResponse(.init(attributeDataList: (0 ..< Int.random(in: 1 ... 5, using: &random)).map { _ in
                .init(attributeHandle: handle(), endGroupHandle: handle(), attributeValue: slice(count: groupLength))
            })),
            .writeRequest(.init(attributeHandle: handle(), attributeValue: slice(0 ... 30))),
            .writeResponse(.init()),
            .prepareWriteRequest(.init(attributeHandle: handle(), valueOffset: u16(), partAttributeValue: slice(0 ... 18))),
            .prepareWriteResponse(.init(attributeHandle: handle(), valueOffset: u16(), partAttributeValue: slice(0 ... 18))),
            .executeWriteRequest(.init(flags: bool() ? .cancelAllPreparedWrites : .writeAllPendingPreparedValues)),
            .executeWriteResponse(.init()),
            .handleValueNotification(.init(attributeHandle: handle(), attributeValue: slice(0 ... 30))),
            .handleValueIndication(.init(attributeHandle: handle(), attributeValue: slice(0 ... 30))),
            .handleValueConfirmation(.init()),
            .readMultipleVariableRequest(.init(setOfHandles: handles(2 ... 8))),
            .multipleHandleValueNotification(.init(handleLengthValueTuples: (0 ..< Int.random(in: 2 ... 5, using: &random)).map { _ in
                .init(attributeHandle: handle(), attributeValue: slice(0 ... 10))
            })),
            .writeCommand(.init(attributeHandle: handle(), attributeValue: slice(0 ... 30))),
            .signedWriteCommand(.init(attributeHandle: handle(), attributeValue: slice(0 ... 20),
                                      authenticationSignature: .init(signCounter: UInt32.random(in: .min ... .max, using: &random),
                                                                     messageAuthenticationCode: random.next()))),
        ]
        // Read Multiple Variable Response: whole tuples, then maybe a cut value or a cut length.
        var tuples: [ATT.ReadMultipleVariableResponse.Tuple] = (0 ..< Int.random(in: 0 ... 4, using: &random)).map { _ in
            .init(attributeValue: slice(0 ... 10))
        }
        var partial: UInt8?
        switch Int.random(in: 0 ... 2, using: &random) {
        case 1: tuples.append(.init(valueLength: UInt16.random(in: 12 ... 600, using: &random), attributeValue: slice(0 ... 11)))
        case 2: partial = UInt8.random(in: 0 ... 255, using: &random)
        default: break
        }
        pdus.append(.readMultipleVariableResponse(.init(lengthValueTuples: tuples, partialLengthOctet: partial)))
        return pdus
    }
}

@Suite("ATT PDUs round trip, reject malformed input and dispatch")
struct ATTGeneratedTests {
    @Test("Generated values of every PDU type decode to themselves, through the type and through ATT.PDU")
    func roundTrip() throws {
        var generator = ATTGenerator(seed: 0xA77_0001)
        var seen = Set<UInt8>()
        for _ in 0 ..< 300 {
            for pdu in generator.allPDUs() {
                let bytes = pdu.encoded()
                #expect(bytes.first == pdu.opcode.rawValue)
                #expect(try ATT.PDU(decoding: bytes) == pdu)
                #expect(try roundTripTyped(pdu, bytes))
                seen.insert(pdu.opcode.rawValue)
            }
        }
        #expect(seen.count == 31)
    }

    /// Decodes `bytes` as the concrete type inside `pdu` and compares.
    private func roundTripTyped(_ pdu: ATT.PDU, _ bytes: [UInt8]) throws -> Bool {
        guard let sample = ATTFixtures.samples.first(where: { $0.type.opcode == pdu.opcode }) else { return false }
        func decode<T: ATTPDU>(_ type: T.Type) throws -> [UInt8] { try T(decoding: bytes).encoded() }
        return try decode(sample.type) == bytes
    }

    @Test("Every known sample decodes through its type and through ATT.PDU to the same octets")
    func samplesDispatch() throws {
        #expect(ATTFixtures.samples.count == 32)
        for sample in ATTFixtures.samples {
            #expect(!sample.bytes.isEmpty, "fixture \(sample.name)")
            let pdu = try ATT.PDU(decoding: sample.bytes)
            #expect(pdu.opcode == sample.type.opcode, "\(sample.name)")
            #expect(pdu.encoded() == sample.bytes, "\(sample.name)")
        }
    }

    @Test("Malformed input never traps and truncation is rejected, for every PDU type")
    func malformed() {
        for sample in ATTFixtures.samples {
            func check<T: ATTPDU>(_ type: T.Type) {
                MalformedInput.check(sample.bytes, as: T.self)
                MalformedInput.check(sample.bytes, as: ATT.PDU.self)
                let minimum = ATTFixtures.minimumLength[T.opcode.rawValue] ?? 0
                #expect(minimum >= 1, "\(sample.name) has a minimum length")
                for cut in 0 ..< minimum {
                    #expect(throws: WireError.self, "\(sample.name) cut to \(cut) octets") {
                        try T(decoding: Array(sample.bytes.prefix(cut)))
                    }
                }
                if sample.bytes.count == minimum, minimum > 1 {
                    #expect(throws: WireError.self, "\(sample.name) without its last octet") {
                        try T(decoding: Array(sample.bytes.dropLast()))
                    }
                }
                #expect(throws: WireError.self, "\(sample.name) empty") { try T(decoding: [UInt8]()) }
            }
            check(sample.type)
        }
    }

    @Test("An unknown opcode throws unknownCode naming ATT.PDU.opcode, so the server can reply")
    func unknownOpcode() {
        #expect(throws: WireError(field: "ATT.PDU.opcode", reason: .unknownCode(0x3F))) {
            try ATT.PDU(decoding: [0x3F, 0x01, 0x00])
        }
        #expect(throws: WireError(field: "ATT.PDU.opcode", reason: .unknownCode(0x14))) {
            try ATT.PDU(decoding: [0x14])
        }
        #expect(throws: WireError.self) { try ATT.PDU(decoding: [UInt8]()) }
    }

    @Test("Decoding a Read By Type Response and a notification keeps values as views of the input")
    func zeroCopy() throws {
        let bytes = ATTFixtures.hex("09 04 03 00 aa bb 05 00 cc dd")
        guard case let .readByTypeResponse(response) = try ATT.PDU(decoding: bytes) else {
            Issue.record("wrong case")
            return
        }
        let shares = bytes.withUnsafeBufferPointer { input in
            response.attributeDataList[0].attributeValue.withUnsafeBufferPointer { value in
                value.baseAddress == input.baseAddress.map { $0 + 4 }
            }
        }
        #expect(shares)
    }
}
