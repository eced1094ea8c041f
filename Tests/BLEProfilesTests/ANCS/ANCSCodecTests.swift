import BLEProfiles
import BLEWire
import Testing

/// ANCS against the specification's layouts and the published byte examples (real iPhone
/// captures, nRF Connect SDK test vectors, and examples built from Apple's figures).
@Suite("ANCS codecs")
struct ANCSCodecTests {

    @Test("The UUIDs are Apple's, least significant octet first on the wire")
    func uuids() {
        #expect(wire(ANCS.service) == hex("D0002D121E4B0FA4994ECEB531F40579"))
        #expect(wire(ANCS.notificationSource) == hex("BD1DA299E625588CD94201630D12BF9F"))
        #expect(wire(ANCS.controlPoint) == hex("D9D9AAFDBD9B2198A849E145F3D8D169"))
        #expect(wire(ANCS.dataSource) == hex("FB7B7CCE6AB344BEB54BD624E9C6EA22"))
    }

    @Test("Notification Source events decode and re-encode byte for byte", arguments: [
        ("0010040937000000", ANCS.NotificationSourceEvent(eventID: .added, flags: .negativeAction, category: .social, categoryCount: 9, notificationUID: 0x37)),
        ("0018060201020304", ANCS.NotificationSourceEvent(eventID: .added, flags: [.positiveAction, .negativeAction], category: .email, categoryCount: 2, notificationUID: 0x0403_0201)),
        ("0001000143000000", ANCS.NotificationSourceEvent(eventID: .added, flags: .silent, category: .other, categoryCount: 1, notificationUID: 0x43)),
        ("001A010103000000", ANCS.NotificationSourceEvent(eventID: .added, flags: [.important, .positiveAction, .negativeAction], category: .incomingCall, categoryCount: 1, notificationUID: 3)),
        ("021A010003000000", ANCS.NotificationSourceEvent(eventID: .removed, flags: [.important, .positiveAction, .negativeAction], category: .incomingCall, categoryCount: 0, notificationUID: 3)),
    ])
    func notificationSource(bytes: String, event: ANCS.NotificationSourceEvent) throws {
        #expect(try ANCS.NotificationSourceEvent(decoding: hex(bytes)) == event)
        #expect(event.encoded() == hex(bytes))
    }

    @Test("A Notification Source of another length, or with a reserved EventID, is refused; reserved categories and flags are kept")
    func notificationSourceMalformed() throws {
        #expect(throws: WireError.self) { try ANCS.NotificationSourceEvent(decoding: hex("00100409370000")) }
        #expect(throws: WireError.self) { try ANCS.NotificationSourceEvent(decoding: hex("001004093700000000")) }
        #expect(throws: WireError.self) { try ANCS.NotificationSourceEvent(decoding: hex("0310040937000000")) }
        let future = try ANCS.NotificationSourceEvent(decoding: hex("01E00C0537000000"))
        #expect(future.category.description == "reserved(12)")
        #expect(future.encoded() == hex("01E00C0537000000"))
    }

    @Test("A category is found by our name or by the specification's, in any letter case", arguments: [
        ("incomingCall", 1), ("IncomingCall", 1), ("CategoryIDIncomingCall", 1), ("VoiceMail", 3), ("voicemail", 3),
        ("HealthAndFitness", 8), ("BusinessAndFinance", 9), ("Other", 0), ("ENTERTAINMENT", 11),
    ])
    func categoryNames(name: String, value: UInt8) {
        #expect(ANCS.CategoryID(name: name) == ANCS.CategoryID(rawValue: value))
    }

    @Test("Every name of the specification names its category; other names name none")
    func specificationNames() {
        for (value, name) in ANCS.CategoryID.specificationNames.enumerated() {
            #expect(ANCS.CategoryID(name: name)?.rawValue == UInt8(value), "\(name)")
        }
        #expect(ANCS.CategoryID(name: "Call") == nil)
        #expect(ANCS.CategoryID(name: "CategoryID") == nil)
        #expect(ANCS.CategoryID(name: "") == nil)
    }

    @Test("Control Point commands from the examples decode and re-encode")
    func controlPoint() throws {
        let title = ANCS.ControlPointCommand.getNotificationAttributes(
            notificationUID: 3, attributes: [.init(.title, maximumLength: 32), .init(.message, maximumLength: 100)])
        #expect(title.encoded() == hex("0003000000012000036400"))
        #expect(try ANCS.ControlPointCommand(decoding: hex("0003000000012000036400")) == title)
        let all = ANCS.ControlPointCommand.getNotificationAttributes(notificationUID: 0x0403_0201, attributes: [
            .init(.appIdentifier), .init(.title, maximumLength: 32), .init(.subtitle, maximumLength: 32),
            .init(.message, maximumLength: 32), .init(.messageSize), .init(.date), .init(.positiveActionLabel),
            .init(.negativeActionLabel),
        ])
        #expect(all.encoded() == hex("00010203040001200002200003200004050607"))
        #expect(try ANCS.ControlPointCommand(decoding: all.encoded()) == all)
        let app = ANCS.ControlPointCommand.getAppAttributes(appIdentifier: "com.apple.facetime", attributes: [.displayName])
        #expect(app.encoded() == hex("01636F6D2E6170706C652E6661636574696D650000"))
        #expect(try ANCS.ControlPointCommand(decoding: hex("01636F6D0000")) == .getAppAttributes(appIdentifier: "com", attributes: [.displayName]))
        let decline = ANCS.ControlPointCommand.performNotificationAction(notificationUID: 3, action: .negative)
        #expect(decline.encoded() == hex("020300000001"))
        #expect(try ANCS.ControlPointCommand(decoding: hex("020102030400")) == .performNotificationAction(notificationUID: 0x0403_0201, action: .positive))
    }

    @Test("Malformed Control Point writes get the specified ANCS error", arguments: [
        ("", ANCS.ErrorCode.invalidCommand),  // empty
        ("05", .unknownCommand),  // CommandID 5 (the example's unknown command)
        ("FF0102", .unknownCommand),
        ("000300", .invalidCommand),  // short UID
        ("0003000000", .invalidCommand),  // no attribute asked
        ("000300000001", .invalidCommand),  // title without its maximum length
        ("00030000000120", .invalidCommand),  // half a maximum length
        ("000300000009", .invalidCommand),  // unknown attribute ID
        ("01636F6D", .invalidCommand),  // app identifier without its NUL
        ("01636F6D00", .invalidCommand),  // no app attribute
        ("01636F6D0001", .invalidCommand),  // unknown app attribute
        ("01FF00", .invalidCommand),  // app identifier not UTF-8
        ("0203000000", .invalidCommand),  // action missing
        ("02030000000100", .invalidCommand),  // trailing octet
        ("020300000002", .invalidParameter),  // reserved ActionID
    ])
    func controlPointMalformed(bytes: String, error: ANCS.ErrorCode) {
        #expect(throws: error) { try ANCS.ControlPointCommand(decoding: hex(bytes)) }
    }

    @Test("ANCS errors travel as ATT error codes 0xA0–0xA3 unchanged")
    func errorCodes() {
        for code in ANCS.ErrorCode.allCases {
            #expect(code.attError.rawValue == code.rawValue)
            #expect(ATT.ErrorCode(rawValue: code.rawValue) == .unlisted(code.rawValue))
            #expect(ANCS.ErrorCode(code.attError) == code)
        }
        #expect(ANCS.ErrorCode(.insufficientAuthentication) == nil)
    }
}
