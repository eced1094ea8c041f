@testable import BLE
@testable import BLEHost
import BLEWorld
import SimulatedTesting
import Testing

/// The front door's periodic sync (``Central/synchronize(to:sid:skip:timeout:findWithin:)``):
/// another device's train received whole, the sync ended by leaving the loop, and what it
/// refuses before anything reaches the controller, each in a sentence.
@Suite("Central periodic sync", .simulated, .timeLimit(.minutes(3)))
struct PeriodicSyncTests {
    @Test("A central follows another device's 400-octet train: each event whole, with its set and interval; a break ends the sync")
    func followsTrain() async throws {
        let world = try await SharedWorld.make(devices: 2, extended: true)
        let data = (0 ..< 400).map { UInt8(truncatingIfNeeded: $0 &* 11) }
        // The front door has no periodic advertising of its own: the advertiser's host sends the train.
        try await world.devices[1].core.host.startAdvertising(GAPAdvertisingParameters(
            kind: .nonConnectable, extended: GAPExtendedAdvertising(sid: 9, periodic: GAPPeriodicAdvertising(interval: 40, data: data))))
        let central = world.devices[0].central
        var received: [PeriodicAdvertisement] = []
        for try await event in try await central.synchronize(to: world.addresses[1], sid: 9) {
            received.append(event)
            if received.count == 2 { break }
        }
        #expect(received.count == 2)
        #expect(received.allSatisfy { $0.bytes == data && !$0.truncated && $0.sid == 9 && $0.address == world.addresses[1] })
        #expect(received.first?.interval == .milliseconds(50) && received.first?.phy == .le1M)
        let host = world.devices[0].core.host
        // Leaving the loop ends the sync (Terminate Sync) and the scan made for it, a moment later.
        var settled = false
        for _ in 0 ..< 600 where !settled {
            try await host.clock.sleep(for: .milliseconds(10))  // re-check interval, not a wait for an outcome
            let (syncs, scanning) = await (host.gap.periodicSyncHandles, host.gap.isScanning)
            settled = syncs.isEmpty && !scanning
        }
        #expect(settled)
        await world.close()
    }

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
