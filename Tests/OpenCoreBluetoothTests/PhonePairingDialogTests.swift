import BLE
import Foundation
import OpenCoreBluetooth
import SimulatedTesting
import Testing
import WorldTesting

/// The pairing dialog of two simulated iPhones on their timelines (docs/phone.md), the test
/// answering as the user who holds both, on virtual time.
@Suite("The pairing dialog on two simulated iPhones", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct PhonePairingDialogTests {
    /// The "Bluetooth" system alerts on `phone`'s timeline, in order.
    private func dialog(_ phone: SimulatedPhone) -> [String] {
        phone.timeline.compactMap { entry in
            if case let .alert(app: "Bluetooth", message) = entry.output { message } else { nil }
        }
    }

    /// Two phones in one world, both showing pairing dialogs to `user`; the second connects
    /// to the first and pairs with `options` on both.
    private func pair(_ user: PairingUser, options: PairingOptions) async throws -> (SimulatedPhone, SimulatedPhone, Result<PairingResult, BLEError>, DevicesWorld) {
        let world = try await DevicesWorld.make(devices: 2)
        let host = SimulatedPhone(device: world.devices[0])
        let guest = SimulatedPhone(device: world.devices[1])
        await host.showsPairingDialogs(user: user, options: options)
        await guest.showsPairingDialogs(user: user, options: options)
        _ = try await world.devices[0].peripheral.advertise(name: "Alice's iPhone", interval: .milliseconds(20))
        let connection = try await world.devices[1].central.connect(to: world.addresses[0], parameters: .fast,
                                                                     timeout: .seconds(devicesWorldPatience))
        let result: Result<PairingResult, BLEError>
        do {
            result = .success(try await connection.pair())
        } catch {
            result = .failure(error)
        }
        try await testClock.sleep(for: .seconds(1))
        return (host, guest, result, world)
    }

    @Test("Secure Connections: both phones show the same six digits, the user taps Pair on both, and they pair by numeric comparison")
    func numericComparison() async throws {
        let (host, guest, result, world) = try await pair(PairingUser(), options: PairingOptions(io: .keyboardDisplay, mitm: true))
        #expect((try? result.get())?.method == .numericComparison, "\(result)")
        for phone in [host, guest] {
            let lines = dialog(phone)
            #expect(lines.count == 3, "\(lines)")
            #expect(lines.first?.hasPrefix("Bluetooth Pairing Request: ") == true)
            #expect(lines.dropFirst().first == "the user taps Pair")
            #expect(lines.last?.hasPrefix("paired with") == true)
        }
        let code = { (line: String?) in line?.split(separator: " ").last }
        #expect(code(dialog(host).first) == code(dialog(guest).first), "the same number on both screens")
        await world.close()
    }

    @Test("Legacy pairing: one phone shows a code, the user types it on the other, and they pair by passkey entry; a mistyped code fails on both", arguments: [false, true])
    func passkeyEntry(mistypes: Bool) async throws {
        let options = PairingOptions(io: .keyboardDisplay, mitm: true, legacyOnly: true)
        let (host, guest, result, world) = try await pair(PairingUser(mistypes: mistypes), options: options)
        let lines = dialog(host) + dialog(guest)
        let shown = try #require(lines.first { $0.contains("Enter code ") })
        let code = String(shown.split(separator: "Enter code ")[1].prefix(6))
        if mistypes {
            #expect((try? result.get()) == nil)
            #expect(!lines.contains("the user types \(code)"), "\(lines)")
            #expect(lines.contains { $0.hasPrefix("pairing with") && $0.contains("failed") }, "\(lines)")
        } else {
            let method = (try? result.get())?.method
            #expect(method == .passkeyCentralDisplays || method == .passkeyPeripheralDisplays, "\(result)")
            #expect(lines.contains("the user types \(code)"), "\(lines)")
            #expect(dialog(host).last?.hasPrefix("paired with") == true && dialog(guest).last?.hasPrefix("paired with") == true)
        }
        await world.close()
    }
}
