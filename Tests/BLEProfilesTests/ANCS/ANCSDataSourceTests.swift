import BLEProfiles
import BLEWire
import Testing

@Suite("ANCS Data Source responses and their reassembly")
struct ANCSDataSourceTests {

    static let riker = ANCS.ControlPointCommand.getNotificationAttributes(
        notificationUID: 3, attributes: [.init(.title, maximumLength: 32), .init(.message, maximumLength: 100)])

    @Test("Apple's figure: Title and Message of UID 3 at ATT_MTU 23 are three notifications, spliced back into the response")
    func rikerAtMTU23() throws {
        let response = ANCS.DataSourceResponse.notificationAttributes(
            notificationUID: 3, attributes: [.init(.title, "William T. Riker"), .init(.message, "Incoming FaceTime")])
        #expect(response.encoded().count == 44)
        let fragments = response.fragments(attMTU: 23)
        #expect(fragments == [
            hex("000300000001100057696C6C69616D20542E2052"),
            hex("696B6572031100496E636F6D696E672046616365"),
            hex("54696D65"),
        ])
        var reassembler = ANCS.DataSourceReassembler()
        reassembler.expect(Self.riker)
        #expect(try reassembler.append(fragments[0]) == nil)
        #expect(try reassembler.append(fragments[1]) == nil)
        let done = try reassembler.append(fragments[2])
        #expect(done == response)
        guard case let .notificationAttributes(_, attributes)? = done else { return }
        #expect(attributes.map(\.string) == ["William T. Riker", "Incoming FaceTime"])
        #expect(!reassembler.isAwaiting)
    }

    @Test("The nRF Connect SDK vectors: a header-less continuation, and Get App Attributes split after the NUL")
    func sdkVectors() throws {
        let command = ANCS.ControlPointCommand.getNotificationAttributes(notificationUID: 0x0403_0201, attributes: [
            .init(.title, maximumLength: 32), .init(.message, maximumLength: 32), .init(.appIdentifier),
        ])
        var reassembler = ANCS.DataSourceReassembler()
        reassembler.expect(command)
        #expect(try reassembler.append(hex("00010203040103006E52460302003532")) == nil)
        let response = try reassembler.append(hex("000300636F6D"))
        #expect(response == .notificationAttributes(notificationUID: 0x0403_0201, attributes: [
            .init(.title, "nRF"), .init(.message, "52"), .init(.appIdentifier, "com"),
        ]))
        reassembler.expect(.getAppAttributes(appIdentifier: "com", attributes: [.displayName]))
        #expect(try reassembler.append(hex("01636F6D000004004D61696C"))
            == .appAttributes(appIdentifier: "com", attributes: [.init(.displayName, "Mail")]))
        let facetime = ANCS.DataSourceResponse.appAttributes(appIdentifier: "com.apple.facetime", attributes: [.init(.displayName, "FaceTime")])
        #expect(facetime.encoded().count == 31)
        let pieces = facetime.fragments(attMTU: 23)
        #expect(pieces.map(\.count) == [20, 11])
        reassembler.expect(.getAppAttributes(appIdentifier: "com.apple.facetime", attributes: [.displayName]))
        #expect(try reassembler.append(pieces[0]) == nil)
        #expect(try reassembler.append(pieces[1]) == facetime)
    }

    @Test("A 1,000-character message comes back whole at ATT_MTU 23 and 185, cut at any octet", arguments: [23, 185])
    func longMessage(attMTU: Int) throws {
        let message = String((0 ..< 1000).map { index in Character(UnicodeScalar(UInt8(0x41 + index % 26))) })
        let command = ANCS.ControlPointCommand.getNotificationAttributes(
            notificationUID: 77, attributes: [.init(.appIdentifier), .init(.message, maximumLength: 1000), .init(.date)])
        let response = ANCS.DataSourceResponse.notificationAttributes(notificationUID: 77, attributes: [
            .init(.appIdentifier, "com.apple.MobileSMS"), .init(.message, message), .init(.date, "20261128T081500"),
        ])
        let fragments = response.fragments(attMTU: attMTU)
        #expect(fragments.allSatisfy { $0.count <= attMTU - 3 })
        #expect(fragments.count == (response.encoded().count + attMTU - 4) / (attMTU - 3))
        var reassembler = ANCS.DataSourceReassembler()
        reassembler.expect(command)
        var result: ANCS.DataSourceResponse?
        for fragment in fragments { result = try reassembler.append(fragment) }
        #expect(result == response)
        // The same stream delivered one octet at a time completes exactly at its last octet.
        reassembler.expect(command)
        let bytes = response.encoded()
        for (index, byte) in bytes.enumerated() {
            let done = try reassembler.append([byte])
            #expect((done != nil) == (index == bytes.count - 1))
        }
    }

    @Test("A provider cuts attributes to the maximum asked, never inside a character")
    func truncation() {
        #expect(ANCS.truncated("William T. Riker", toOctets: 7) == Array("William".utf8))
        #expect(ANCS.truncated("né🙂x", toOctets: 6) == Array("né".utf8))
        #expect(ANCS.truncated("né🙂x", toOctets: 7) == Array("né🙂".utf8))
        #expect(ANCS.NotificationAttribute(.title, value: Array("ab🙂".utf8).dropLast(1).map { $0 }).string == "ab")
    }

    @Test("A Data Source stream that does not match its command is a typed error, and the next response is read afresh")
    func resynchronises() throws {
        var reassembler = ANCS.DataSourceReassembler()
        #expect(throws: ANCS.DataSourceError.unexpected) { try reassembler.append([0x00]) }
        reassembler.expect(Self.riker)
        #expect(throws: ANCS.DataSourceError.mismatch(field: "NotificationUID")) { try reassembler.append(hex("0004000000")) }
        reassembler.expect(Self.riker)
        #expect(throws: ANCS.DataSourceError.mismatch(field: "CommandID")) { try reassembler.append(hex("01")) }
        reassembler.expect(Self.riker)
        #expect(throws: ANCS.DataSourceError.mismatch(field: "AttributeID")) { try reassembler.append(hex("00030000000200004142")) }
        reassembler.expect(Self.riker)
        #expect(throws: ANCS.DataSourceError.trailingOctets(1)) { try reassembler.append(hex("0003000000010000030000FF")) }
        #expect(!reassembler.isAwaiting)
        reassembler.expect(Self.riker)
        #expect(try reassembler.append(hex("0003000000010000030000"))
            == .notificationAttributes(notificationUID: 3, attributes: [.init(.title, value: []), .init(.message, value: [])]))
    }
}
