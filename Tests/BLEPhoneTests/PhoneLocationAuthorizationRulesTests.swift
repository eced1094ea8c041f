import BLEPhone
import Testing

/// The phone's keeping of location authorization (research §7, "Authorization"; §9, rule
/// 22), on the phone's system alone.
@Suite("The simulated iPhone's location authorization")
struct PhoneLocationAuthorizationRulesTests {
    @Test("Rule 22: When In Use lets location events through only in the foreground; Always at any time; none without an answer or when denied")
    func refusals() throws {
        var phone = PhoneCore()
        try phone.install(AppDescription(name: "Map", locationAuthorization: .whenInUse))
        try phone.install(AppDescription(name: "Bus"))
        try phone.install(AppDescription(name: "No", locationAuthorization: .denied))
        for name in ["Map", "Bus", "No"] { _ = try phone.handle(.launch(name), at: 0) }
        #expect(phone.locationRefusal(for: "Bus") == "the app has no location authorization")
        #expect(try phone.requestLocationAuthorization(for: "Map", always: true) == .whenInUse)
        #expect(try phone.requestLocationAuthorization(for: "Bus", always: true) == .always)
        #expect(try phone.requestLocationAuthorization(for: "No", always: false) == .denied)
        #expect(phone.locationRefusal(for: "Map") == nil)
        #expect(phone.locationRefusal(for: "Bus") == nil)
        #expect(phone.locationRefusal(for: "No") != nil)
        _ = try phone.handle(.background("Map"), at: 0)
        _ = try phone.handle(.background("Bus"), at: 0)
        #expect(phone.locationRefusal(for: "Map")?.contains("When In Use") == true)
        #expect(phone.locationRefusal(for: "Bus") == nil)
        // A terminated app keeps its authorization: it is the phone's.
        _ = try phone.handle(.terminate("Bus", .forceQuit), at: 0)
        #expect(phone.locationAuthorization(of: "Bus") == .always)
        #expect(throws: PhoneError.unknownApp("Nope")) { try phone.requestLocationAuthorization(for: "Nope", always: true) }
    }

    @Test("An authorization set as in Settings, without a prompt, is the app's at once, kept across launches, and decides its location events")
    func setInSettings() throws {
        var phone = PhoneCore()
        try phone.install(AppDescription(name: "Bus"))
        try phone.setLocationAuthorization(.whenInUse, for: "Bus")
        #expect(phone.locationAuthorization(of: "Bus") == .whenInUse)
        _ = try phone.handle(.launch("Bus"), at: 0)
        #expect(phone.locationRefusal(for: "Bus") == nil)
        _ = try phone.handle(.background("Bus"), at: 1)
        #expect(phone.locationRefusal(for: "Bus")?.contains("When In Use") == true)
        // It is no longer not determined: asking for When In Use again shows nothing.
        _ = try phone.handle(.foreground("Bus"), at: 2)
        #expect(try phone.requestLocationAuthorization(for: "Bus", always: false) == nil)
        try phone.setLocationAuthorization(.denied, for: "Bus")
        _ = try phone.handle(.terminate("Bus", .system), at: 3)
        #expect(phone.locationAuthorization(of: "Bus") == .denied)
        #expect(phone.locationRefusal(for: "Bus") == "the user denied the app location authorization")
        #expect(throws: PhoneError.unknownApp("Nope")) { try phone.setLocationAuthorization(.always, for: "Nope") }
    }
}
