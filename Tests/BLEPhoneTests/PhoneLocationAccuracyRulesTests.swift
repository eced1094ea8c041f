import BLEPhone
import Testing

/// The phone's Precise Location switch and temporary full accuracy (docs/phone.md, "Reduced
/// accuracy"), as rules on their own.
@Suite("Location accuracy rules")
struct PhoneLocationAccuracyRulesTests {
    @Test("Precise Location off comes with the first Allow; region events are refused; temporary full accuracy needs a declared purpose, the foreground and reduced accuracy, and ends with suspension")
    func accuracyRules() throws {
        var phone = PhoneCore()
        try phone.install(AppDescription(name: "Maps", locationAccuracy: .reduced, temporaryLocationUsageDescriptions: ["Navigation": "Directions."]))
        try phone.install(AppDescription(name: "Bus"))
        _ = try phone.handle(.launch("Maps"), at: 0)
        _ = try phone.handle(.launch("Bus"), at: 0)
        #expect(phone.locationAccuracy(of: "Maps") == .full, "not chosen before the prompt")
        #expect(try phone.requestTemporaryFullLocationAccuracy(for: "Maps", purposeKey: "Navigation")
            == .notPrompted("the app has no location authorization (notDetermined)"))
        _ = try phone.requestLocationAuthorization(for: "Maps", always: true)
        _ = try phone.requestLocationAuthorization(for: "Bus", always: true)
        #expect(phone.locationAccuracy(of: "Maps") == .reduced && phone.locationAccuracy(of: "Bus") == .full)
        #expect(phone.locationRefusal(for: "Maps")?.contains("reduced (approximate) accuracy") == true)
        #expect(phone.locationRefusal(for: "Bus") == nil)

        #expect(try phone.requestTemporaryFullLocationAccuracy(for: "Maps", purposeKey: "Racing")
            == .notPrompted("the app's NSLocationTemporaryUsageDescriptionDictionary has no purpose key \"Racing\""))
        #expect(try phone.requestTemporaryFullLocationAccuracy(for: "Bus", purposeKey: "Navigation")
            == .notPrompted("the app's NSLocationTemporaryUsageDescriptionDictionary has no purpose key \"Navigation\""))
        #expect(try phone.requestTemporaryFullLocationAccuracy(for: "Maps", purposeKey: "Navigation") == .prompted(granted: true))
        #expect(phone.locationAccuracy(of: "Maps") == .full && phone.locationRefusal(for: "Maps") == nil)
        #expect(try phone.requestTemporaryFullLocationAccuracy(for: "Maps", purposeKey: "Navigation") == .notPrompted("the app has full accuracy already"))

        // Backgrounded it is still in use; suspended, the grant ends.
        _ = try phone.handle(.background("Maps"), at: 0)
        #expect(phone.locationAccuracy(of: "Maps") == .full)
        _ = phone.advance(to: phone.nextDeadline ?? 0)
        #expect(try phone.state(of: "Maps") == .suspended)
        #expect(phone.locationAccuracy(of: "Maps") == .reduced)
        #expect(try phone.requestTemporaryFullLocationAccuracy(for: "Maps", purposeKey: "Navigation") == .notPrompted("the app is not in the foreground"))
        // Granted again in the foreground, it ends with the app too.
        _ = try phone.handle(.foreground("Maps"), at: 10_000_000)
        #expect(try phone.requestTemporaryFullLocationAccuracy(for: "Maps", purposeKey: "Navigation") == .prompted(granted: true))
        _ = try phone.handle(.terminate("Maps", .forceQuit), at: 10_000_000)
        _ = try phone.handle(.launch("Maps"), at: 20_000_000)
        #expect(phone.locationAccuracy(of: "Maps") == .reduced, "the Precise Location switch itself is kept")
        #expect(throws: PhoneError.unknownApp("Nope")) { try phone.requestTemporaryFullLocationAccuracy(for: "Nope", purposeKey: "Navigation") }
    }

    @Test("Precise Location in Settings: no switch before the user allows location; off and on change the accuracy; off ends a temporary grant")
    func settingsSwitch() throws {
        var phone = PhoneCore()
        try phone.install(AppDescription(name: "Maps", temporaryLocationUsageDescriptions: ["Navigation": "Directions."]))
        _ = try phone.handle(.launch("Maps"), at: 0)
        #expect(try !phone.setPreciseLocation(false, for: "Maps"), "not determined: Settings shows no switch")
        #expect(phone.locationAccuracy(of: "Maps") == .full)
        _ = try phone.requestLocationAuthorization(for: "Maps", always: false)
        #expect(try phone.setPreciseLocation(false, for: "Maps"))
        #expect(phone.locationAccuracy(of: "Maps") == .reduced)
        #expect(phone.locationRefusal(for: "Maps")?.contains("reduced (approximate) accuracy") == true)
        #expect(try !phone.setPreciseLocation(false, for: "Maps"), "off already")
        #expect(try phone.requestTemporaryFullLocationAccuracy(for: "Maps", purposeKey: "Navigation") == .prompted(granted: true))
        #expect(try phone.setPreciseLocation(false, for: "Maps"), "the user's Settings end the temporary grant")
        #expect(phone.locationAccuracy(of: "Maps") == .reduced)
        #expect(try phone.setPreciseLocation(true, for: "Maps"))
        #expect(phone.locationAccuracy(of: "Maps") == .full && phone.locationRefusal(for: "Maps") == nil)
        #expect(throws: PhoneError.unknownApp("Bus")) { try phone.setPreciseLocation(true, for: "Bus") }
    }
}

