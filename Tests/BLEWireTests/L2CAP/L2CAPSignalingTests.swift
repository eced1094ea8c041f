import BLEWire
import Testing

/// LE signaling commands. Fixtures marked "BlueZ" take their data fields from BlueZ's
/// tools/l2cap-tester.c (le_connect_req / le_connect_rsp / nval_le_connect_rsp), framed
/// here with code, identifier and length; the rest are built from the field tables of
/// Core 5.4, Vol 3, Part A, §4 (the specification gives no signaling sample data).
enum L2CAPSignalingFixtures {
    static func hex(_ text: String) -> [UInt8] { Hex.decode(text) ?? [] }

    /// One framed sample per typed command, with its data type and the fewest data octets.
    static let samples: [(name: String, bytes: [UInt8], type: any L2CAPSignalingData.Type, minimumData: Int)] = [
        ("Command Reject not understood", hex("01 07 02 00 00 00"), L2CAP.CommandReject.self, 2),
        ("Command Reject MTU exceeded", hex("01 08 04 00 01 00 17 00"), L2CAP.CommandReject.self, 4),
        ("Command Reject invalid CID", hex("01 09 06 00 02 00 40 00 41 00"), L2CAP.CommandReject.self, 6),
        ("Disconnection Request", hex("06 03 04 00 40 00 41 00"), L2CAP.DisconnectionRequest.self, 4),
        ("Disconnection Response", hex("07 03 04 00 40 00 41 00"), L2CAP.DisconnectionResponse.self, 4),
        ("Connection Parameter Update Request", hex("12 01 08 00 18 00 28 00 00 00 f4 01"), L2CAP.ConnectionParameterUpdateRequest.self, 8),
        ("Connection Parameter Update Response", hex("13 01 02 00 01 00"), L2CAP.ConnectionParameterUpdateResponse.self, 2),
        ("LE Credit Based Connection Request (BlueZ)", hex("14 01 0a 00 80 00 41 00 20 00 20 00 05 00"),
         L2CAP.LECreditBasedConnectionRequest.self, 10),
        ("LE Credit Based Connection Response (BlueZ)", hex("15 01 0a 00 40 00 a0 02 e6 00 0a 00 00 00"),
         L2CAP.LECreditBasedConnectionResponse.self, 10),
        ("Flow Control Credit Indication", hex("16 02 04 00 40 00 0a 00"), L2CAP.FlowControlCreditIndication.self, 4),
        ("Credit Based Connection Request", hex("17 05 0c 00 27 00 00 02 40 00 0a 00 40 00 41 00"),
         L2CAP.CreditBasedConnectionRequest.self, 10),
        ("Credit Based Connection Response", hex("18 05 0c 00 00 02 40 00 0a 00 00 00 50 00 51 00"),
         L2CAP.CreditBasedConnectionResponse.self, 8),
        ("Credit Based Reconfigure Request", hex("19 06 06 00 00 04 40 00 40 00"), L2CAP.CreditBasedReconfigureRequest.self, 6),
        ("Credit Based Reconfigure Response", hex("1a 06 02 00 01 00"), L2CAP.CreditBasedReconfigureResponse.self, 2),
    ]
}

@Suite("L2CAP LE signaling commands")
struct L2CAPSignalingTests {
    private func hex(_ text: String) -> [UInt8] { L2CAPSignalingFixtures.hex(text) }

    @Test("LE Credit Based Connection Request from BlueZ's l2cap-tester")
    func leCreditBasedRequest() throws {
        let bytes = hex("14 01 0a 00 80 00 41 00 20 00 20 00 05 00")
        let command = try L2CAP.LESignalingCommand(decoding: bytes)
        #expect(command == .leCreditBasedConnectionRequest(identifier: 1, .init(
            spsm: 0x0080, sourceCID: .init(rawValue: 0x0041), mtu: 32, mps: 32, initialCredits: 5)))
        #expect(command.code == .leCreditBasedConnectionRequest)
        #expect(command.identifier == 1)
        #expect(command.encoded() == bytes)
    }

    @Test("LE Credit Based Connection Responses from BlueZ: success and invalid source CID")
    func leCreditBasedResponse() throws {
        let success = try L2CAP.LECreditBasedConnectionResponse(decoding: hex("40 00 a0 02 e6 00 0a 00 00 00"))
        #expect(success == .init(destinationCID: .init(rawValue: 0x0040), mtu: 672, mps: 230, initialCredits: 10, result: .successful))
        let refused = try L2CAP.LECreditBasedConnectionResponse(decoding: hex("00 00 00 00 00 00 00 00 09 00"))
        #expect(refused.result == .invalidSourceCID)
        #expect(refused.destinationCID == .null)
    }

    @Test("Credit-based results are total: reserved codes are kept")
    func results() {
        for raw in UInt16(0) ... 0x20 {
            #expect(L2CAP.CreditBasedConnectionResult(rawValue: raw).rawValue == raw)
        }
        #expect(L2CAP.CreditBasedConnectionResult(rawValue: 0x0001) == .unlisted(1))
        #expect(L2CAP.CreditBasedConnectionResult(rawValue: 0x000E) == .pendingAuthentication)
        #expect(L2CAP.CreditBasedConnectionResult(rawValue: 0xFFFF) == .unlisted(0xFFFF))
        #expect(L2CAP.CreditBasedConnectionResult.spsmNotSupported.description == "Connection refused – SPSM not supported (0x0002)")
    }

    @Test("Connection Parameter Update Request carries interval, latency and timeout")
    func connectionParameterUpdate() throws {
        let command = try L2CAP.LESignalingCommand(decoding: hex("12 01 08 00 18 00 28 00 00 00 f4 01"))
        guard case let .connectionParameterUpdateRequest(identifier, request) = command else {
            Issue.record("wrong case \(command)")
            return
        }
        #expect(identifier == 1)
        #expect(request == .init(intervalMin: 24, intervalMax: 40, latency: 0, timeout: 500))
        #expect(throws: WireError(field: "L2CAP.ConnectionParameterUpdateResponse.result", reason: .invalidValue(2))) {
            try L2CAP.ConnectionParameterUpdateResponse(decoding: [0x02, 0x00])
        }
    }

    @Test("Command Reject carries exactly the data its reason needs")
    func commandReject() throws {
        #expect(try L2CAP.CommandReject(decoding: hex("01 00 17 00")).reason == .signalingMTUExceeded(actualMTU: 23))
        #expect(try L2CAP.CommandReject(decoding: hex("02 00 40 00 41 00")).reason
            == .invalidCIDInRequest(localCID: .init(rawValue: 0x40), remoteCID: .init(rawValue: 0x41)))
        #expect(throws: WireError.self) { try L2CAP.CommandReject(decoding: ATTFixtures.hex("00 00 17 00")) }
        #expect(throws: WireError(field: "L2CAP.CommandReject.reason", reason: .invalidValue(3))) {
            try L2CAP.CommandReject(decoding: [0x03, 0x00])
        }
    }

    @Test("Credit Based Connection Request takes one to five source CIDs")
    func sourceCIDCount() throws {
        let two = try L2CAP.CreditBasedConnectionRequest(decoding: hex("27 00 00 02 40 00 0a 00 40 00 41 00"))
        #expect(two.sourceCIDs == [.init(rawValue: 0x40), .init(rawValue: 0x41)])
        #expect(throws: WireError.self) { try L2CAP.CreditBasedConnectionRequest(decoding: ATTFixtures.hex("27 00 00 02 40 00 0a 00")) }
        let six = hex("27 00 00 02 40 00 0a 00") + [UInt8](repeating: 0x40, count: 12)
        #expect(throws: WireError.self) { try L2CAP.CreditBasedConnectionRequest(decoding: six) }
        #expect(throws: WireError.self) { try L2CAP.CreditBasedConnectionRequest(decoding: ATTFixtures.hex("27 00 00 02 40 00 0a 00 40")) }
    }

    @Test("An unknown code decodes with its identifier so Command Reject can answer it")
    func unknownCode() throws {
        let bytes = hex("0a 2a 02 00 02 00")  // BR/EDR Information Request, not an LE command
        let command = try L2CAP.LESignalingCommand(decoding: bytes)
        #expect(command == .unknown(code: .informationRequest, identifier: 0x2A, data: [0x02, 0x00]))
        #expect(command.identifier == 0x2A)
        #expect(command.encoded() == bytes)
        let reply = L2CAP.LESignalingCommand.commandReject(identifier: command.identifier, .init(reason: .commandNotUnderstood))
        #expect(reply.encoded() == hex("01 2a 02 00 00 00"))
    }

    @Test("A known code with malformed data throws, and the framed command still gives its identifier")
    func malformedKnownCode() throws {
        let bytes = hex("12 07 06 00 18 00 28 00 00 00")  // Connection Parameter Update Request with 6 data octets
        #expect(throws: WireError.self) { try L2CAP.LESignalingCommand(decoding: bytes) }
        let framed = try L2CAP.SignalingCommand(decoding: bytes)
        #expect(framed.identifier == 7)
        #expect(framed.code == .connectionParameterUpdateRequest)
        #expect(throws: WireError.self) { try L2CAP.LESignalingCommand(framed) }
    }

    @Test("One LE C-frame carries exactly one command: a length that disagrees or a second command is rejected")
    func oneCommandPerFrame() {
        #expect(throws: WireError(field: "L2CAP.SignalingCommand.length", reason: .lengthMismatch(declared: 4, actual: 3))) {
            try L2CAP.SignalingCommand(decoding: Hex.decode("16 02 04 00 40 00 0a") ?? [])
        }
        #expect(throws: WireError.self) {
            try L2CAP.LESignalingCommand(decoding: Hex.decode("16 02 04 00 40 00 0a 00 16 03 04 00 40 00 0a 00") ?? [])
        }
    }

    @Test("Every sample dispatches to its case and re-encodes to the same octets")
    func dispatch() throws {
        var codes = Set<UInt8>()
        for sample in L2CAPSignalingFixtures.samples {
            #expect(!sample.bytes.isEmpty, "fixture \(sample.name)")
            let command = try L2CAP.LESignalingCommand(decoding: sample.bytes)
            #expect(command.code == sample.type.code, "\(sample.name)")
            #expect(command.identifier == sample.bytes[1], "\(sample.name)")
            if case .unknown = command { Issue.record("\(sample.name) decoded as unknown") }
            #expect(command.encoded() == sample.bytes, "\(sample.name)")
            codes.insert(command.code.rawValue)
        }
        #expect(codes.count == 12)
    }

    @Test("Malformed signaling input never traps; truncated data is rejected")
    func malformed() {
        for sample in L2CAPSignalingFixtures.samples {
            func check<T: L2CAPSignalingData>(_ type: T.Type) {
                let data = Array(sample.bytes.dropFirst(4))
                MalformedInput.check(data, as: T.self)
                MalformedInput.check(sample.bytes, as: L2CAP.LESignalingCommand.self)
                MalformedInput.check(sample.bytes, as: L2CAP.SignalingCommand.self)
                for cut in 0 ..< sample.minimumData {
                    #expect(throws: WireError.self, "\(sample.name) data cut to \(cut)") {
                        try T(decoding: Array(data.prefix(cut)))
                    }
                }
                for cut in 0 ..< sample.bytes.count {
                    #expect(throws: WireError.self, "\(sample.name) frame cut to \(cut)") {
                        try L2CAP.LESignalingCommand(decoding: Array(sample.bytes.prefix(cut)))
                    }
                }
            }
            check(sample.type)
        }
    }

    @Test("Generated commands of every type round trip through their type and LESignalingCommand")
    func roundTrip() throws {
        var random = SeededGenerator(seed: 0x5161_0001)
        func u16() -> UInt16 { UInt16.random(in: .min ... .max, using: &random) }
        func cid() -> L2CAP.ChannelIdentifier { .init(rawValue: u16()) }
        func cids(_ range: ClosedRange<Int>) -> [L2CAP.ChannelIdentifier] {
            (0 ..< Int.random(in: range, using: &random)).map { _ in cid() }
        }
        for _ in 0 ..< 300 {
            let id = UInt8.random(in: .min ... .max, using: &random)
            let reasons: [L2CAP.CommandReject.Reason] = [
                .commandNotUnderstood, .signalingMTUExceeded(actualMTU: u16()), .invalidCIDInRequest(localCID: cid(), remoteCID: cid()),
            ]
            let connectionResult = L2CAP.CreditBasedConnectionResult(rawValue: UInt16.random(in: 0 ... 0x12, using: &random))
            let commands: [L2CAP.LESignalingCommand] = [
                .commandReject(identifier: id, .init(reason: reasons[Int.random(in: 0 ... 2, using: &random)])),
                .disconnectionRequest(identifier: id, .init(destinationCID: cid(), sourceCID: cid())),
                .disconnectionResponse(identifier: id, .init(destinationCID: cid(), sourceCID: cid())),
                .connectionParameterUpdateRequest(identifier: id, .init(intervalMin: u16(), intervalMax: u16(), latency: u16(), timeout: u16())),
                .connectionParameterUpdateResponse(identifier: id, .init(result: Bool.random(using: &random) ? .accepted : .rejected)),
                .leCreditBasedConnectionRequest(identifier: id, .init(spsm: u16(), sourceCID: cid(), mtu: u16(), mps: u16(), initialCredits: u16())),
                .leCreditBasedConnectionResponse(identifier: id, .init(destinationCID: cid(), mtu: u16(), mps: u16(),
                                                                        initialCredits: u16(), result: connectionResult)),
                .flowControlCreditIndication(identifier: id, .init(cid: cid(), credits: u16())),
                .creditBasedConnectionRequest(identifier: id, .init(spsm: u16(), mtu: u16(), mps: u16(), initialCredits: u16(), sourceCIDs: cids(1 ... 5))),
                .creditBasedConnectionResponse(identifier: id, .init(mtu: u16(), mps: u16(), initialCredits: u16(),
                                                                      result: connectionResult, destinationCIDs: cids(0 ... 5))),
                .creditBasedReconfigureRequest(identifier: id, .init(mtu: u16(), mps: u16(), destinationCIDs: cids(1 ... 5))),
                .creditBasedReconfigureResponse(identifier: id, .init(result: .init(rawValue: UInt16.random(in: 0 ... 4, using: &random)) ?? .successful)),
                .unknown(code: .init(rawValue: UInt8.random(in: 0x1B ... 0xFF, using: &random)), identifier: id,
                         data: random.bytes(in: 0 ... 12)[...]),
            ]
            for command in commands {
                let bytes = command.encoded()
                #expect(try L2CAP.LESignalingCommand(decoding: bytes) == command)
                let framed = try L2CAP.SignalingCommand(decoding: bytes)
                #expect(framed == command.framed)
                #expect(Int(bytes[2]) | Int(bytes[3]) << 8 == bytes.count - 4)
            }
        }
    }
}
