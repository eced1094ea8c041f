import BLE
import BLEWorld
import SimulatedTesting
import Testing

/// The front door's periodic sync (``Central/synchronize(to:sid:skip:timeout:findWithin:)``):
/// what it refuses before anything reaches the controller, each in a sentence.
@Suite("Central periodic sync refusals", .simulated, .timeLimit(.minutes(3)))
struct PeriodicSyncTests {
    @Test("A SID above 15 or a skip above 499 is invalid; a controller without periodic advertising is named")
    func refusals() async throws {
        let world = try await SharedWorld.make(devices: 1)
        let central = world.devices[0].central
        let advertiser = BluetoothAddress(0xC0FF_EE00_0001)
        #expect(await Self.refusal(central, advertiser, sid: 16)
            == .invalidParameters("SID 16 is above 15 (0x0F): an advertising set's SID has 4 bits"))
        #expect(await Self.refusal(central, advertiser, sid: 1, skip: 500) == .invalidParameters("a skip of 500 events is outside 0 to 499"))
        let unsupported = await Self.refusal(central, advertiser, sid: 1)
        if case let .procedureFailed(why)? = unsupported {
            #expect(why.contains("LE features bit 13"), "\(why)")
        } else {
            Issue.record("a controller that does not claim periodic advertising was not refused: \(String(describing: unsupported))")
        }
        await world.close()
    }

    /// What `synchronize` throws for these arguments, `nil` when it does not.
    private static func refusal(_ central: Central, _ address: BluetoothAddress, sid: UInt8, skip: Int = 0) async -> BLEError? {
        do {
            _ = try await central.synchronize(to: address, sid: sid, skip: skip)
            return nil
        } catch {
            return error
        }
    }
}
