import BLE
import BLEProfiles
import NotificationLight
import SimulatedTesting
import Testing

@Suite("The notification light example against a phone", .simulated, .serialized, .timeLimit(.minutes(5)))
struct NotificationLightTests {
    @Test("A ringing call flashes red, a missed call shows amber, an unread message blue once the missed call is cleared")
    func callMissedThenMessage() async throws {
        let world = try await SharedWorld.make(devices: 2)
        let (phone, lamp) = (world.devices[0], world.devices[1])
        let center = PhoneNotificationCenter()
        let provider = try await ANCSProvider.start(on: phone, center: center)
        let (states, continuation) = AsyncStream.makeStream(of: LightState.self, bufferingPolicy: .unbounded)
        let light = try await NotificationLight.start(on: lamp) { continuation.yield($0) }
        var shown = states.makeAsyncIterator()
        /// The colour once the light shows `colour`, skipping states on the way.
        func next(_ colour: LightState.Colour) async -> LightState? {
            while let state = await shown.next() {
                if state.colour == colour { return state }
            }
            return nil
        }
        _ = try await within { try await provider.connectToAccessory() }
        #expect(await next(.off) != nil)
        let call = center.add(PhoneNotification(category: .incomingCall, appIdentifier: "com.apple.mobilephone", title: "Riker",
                                                positiveActionLabel: "Answer", negativeActionLabel: "Decline"))
        #expect(await next(.flashingRed)?.ringing == true)
        center.remove(call)
        let missed = center.add(PhoneNotification(category: .missedCall, appIdentifier: "com.apple.mobilephone", title: "Riker"))
        let amber = await next(.amber)
        #expect(amber?.ringing == false && amber?.counts[.missedCall] == 1)
        center.add(PhoneNotification(category: .social, appIdentifier: "com.apple.MobileSMS", title: "Troi", message: "Are you there?"))
        center.remove(missed)
        let blue = await next(.blue)
        #expect(blue?.counts[.social] == 1 && blue?.counts[.missedCall] == 0)
        #expect(blue?.description == "blue (social 1)")
        await light.stop()
        provider.stop()
        await world.close()
    }
}
