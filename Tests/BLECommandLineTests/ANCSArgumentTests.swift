@testable import BLECommandLine
import BLEProfiles
import Testing

/// `ble ancs`'s option values: the notification a `--notification` describes, the errors
/// that name what is wrong, and the lengths the consumer asks for.
@Suite("ble ancs arguments")
struct ANCSArgumentTests {
    @Test("--notification takes the specification's category names as well as ours", arguments: [
        ("IncomingCall", ANCS.CategoryID.incomingCall), ("incomingCall", ANCS.CategoryID.incomingCall),
        ("VoiceMail", ANCS.CategoryID.voicemail), ("HealthAndFitness", ANCS.CategoryID.healthAndFitness),
        ("BusinessAndFinance", ANCS.CategoryID.businessAndFinance), ("Other", ANCS.CategoryID.other), ("6", ANCS.CategoryID.email),
    ])
    func specificationNames(name: String, category: ANCS.CategoryID) throws {
        let command = try ANCSProviderCommand.parse(["--notification", "\(name):com.example.app:Title:Body"])
        #expect(command.notifications.map(\.notification.category) == [category])
        #expect(command.notifications.first?.notification.message == "Body")
    }

    @Test("an invalid --notification says which part is wrong and what is accepted")
    func invalidSaysWhy() {
        do {
            _ = try ANCSProviderCommand.parse(["--notification", "Call:com.apple.mobilephone:Alice"])
            Issue.record("an unknown category was accepted")
        } catch {
            let message = ANCSProviderCommand.message(for: error)
            #expect(message.contains("\"Call\" is not a category"), "\(message)")
            #expect(message.contains("IncomingCall, MissedCall, VoiceMail"), "\(message)")
            #expect(message.contains("incomingCall"), "\(message)")
        }
        do {
            _ = try ANCSProviderCommand.parse(["--notification", "IncomingCall"])
            Issue.record("a notification without app and title was accepted")
        } catch {
            #expect(ANCSProviderCommand.message(for: error).contains("CATEGORY:APP:TITLE[:MESSAGE]"))
        }
    }

    @Test("ancs consumer --message-length asks for longer messages; a length ANCS cannot carry is refused")
    func messageLength() throws {
        #expect(try ANCSConsumerCommand.parse([]).configuration.messageLength == 512)
        #expect(try ANCSConsumerCommand.parse(["--message-length", "2000"]).configuration.messageLength == 2000)
        for refused in ["0", "65536", "-1"] {
            #expect(throws: (any Error).self) { try ANCSConsumerCommand.parse(["--message-length", refused]) }
        }
    }
}
