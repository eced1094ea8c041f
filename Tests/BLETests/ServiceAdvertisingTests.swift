import BLE
import SimulatedTesting
import Testing

/// Core Bluetooth's advertising budget and overflow area in the front door.
@Suite("Service advertising in Core Bluetooth's layout", .simulated, .timeLimit(.minutes(3)))
struct ServiceAdvertisingTests {
    static let first = BluetoothUUID("9F37E282-60B6-42B1-A02F-7341DA5E2EBA")!
    static let second = BluetoothUUID("890AA912-C414-440D-88A2-C7F66179589B")!

    @Test("two 128-bit UUIDs and an 8-character name: first UUID advertised, name and overflow area in the scan response")
    func budget() throws {
        let layout = ServiceAdvertisingLayout(name: "ChatRoom", serviceUUIDs: [Self.first, Self.second])
        #expect(layout.advertised == [Self.first])
        #expect(layout.overflow == [Self.second])
        #expect(layout.advertisingData.structures.map(\.type) == [.flags, .incompleteList128BitServiceUUIDs])
        #expect(layout.advertisingData.serviceUUIDs == [Self.first])
        #expect(layout.advertisingData.encodedLength == 21)
        #expect(layout.scanResponse.localName == "ChatRoom")
        #expect(layout.scanResponse.structures.first?.type == .completeLocalName)
        #expect(layout.scanResponse.encodedLength == 31, "10 octets of name and 21 of overflow area fill the scan response")
        let area = try #require(ServiceOverflowArea(layout.scanResponse))
        #expect(area.mayContain(Self.second))
        #expect(!area.mayContain(Self.first) || ServiceOverflowArea.bit(for: Self.first) == ServiceOverflowArea.bit(for: Self.second))
        #expect(area.bitmap.map { $0.nonzeroBitCount }.reduce(0, +) == 1)
        let manufacturer = try #require(layout.scanResponse.manufacturerData)
        #expect(manufacturer.companyIdentifier == 0x004C)
        #expect(Array(manufacturer.data).first == 0x01)
        #expect(manufacturer.data.count == 17)
    }

    @Test("16-bit UUIDs share one complete list; a long name is shortened to the room left")
    func shortUUIDs() {
        let layout = ServiceAdvertisingLayout(name: String(repeating: "n", count: 40), serviceUUIDs: [0x180D, 0x180F, 0x180D])
        #expect(layout.advertised == [BluetoothUUID(0x180D), BluetoothUUID(0x180F)])
        #expect(layout.overflow.isEmpty)
        #expect(layout.advertisingData.structures.map(\.type) == [.flags, .completeList16BitServiceUUIDs])
        #expect(layout.scanResponse.structures.map(\.type) == [.shortenedLocalName])
        #expect(layout.scanResponse.localName == String(repeating: "n", count: 29))
    }

    @Test("the bit of a UUID is FNV-1a of its 16 octets modulo 128")
    func overflowBit() {
        // The documented function, computed here octet by octet.
        func fnv(_ octets: [UInt8]) -> Int {
            var hash: UInt32 = 2_166_136_261
            for octet in octets { hash = (hash ^ UInt32(octet)) &* 16_777_619 }
            return Int(hash % 128)
        }
        let uuid = Self.first
        let octets = (0 ..< 16).map { UInt8(truncatingIfNeeded: uuid.value >> UInt128(8 * (15 - $0))) }
        #expect(ServiceOverflowArea.bit(for: uuid) == fnv(octets))
        #expect(octets.first == 0x9F)
        var area = ServiceOverflowArea()
        area.insert(BluetoothUUID(0x180D))
        #expect(area.mayContain(BluetoothUUID(0x180D)))
        #expect(ServiceOverflowArea(area.structure.encodedAdvertisingData) == area)
    }

    @Test("a scan for the overflowed UUID finds the advertiser, reporting it as overflow")
    func scanMatchesOverflow() async throws {
        let world = try await SharedWorld.make(devices: 2)
        let (advertiser, scanner) = (world.devices[0], world.devices[1])
        let (session, _) = try await advertiser.peripheral.advertiseServices(
            name: "ChatRoom", serviceUUIDs: [Self.first, Self.second], interval: .milliseconds(20))
        let found = try await within {
            for await advertisement in try await scanner.central.scan(filter: ScanFilter(serviceUUIDs: [Self.second])) {
                return advertisement
            }
            throw TimedOut()
        }
        #expect(found.address.value == world.addresses[0].value)
        #expect(found.localName == "ChatRoom")
        #expect(found.serviceUUIDs == [Self.first])
        #expect(found.overflowServiceUUIDs(among: [Self.first, Self.second]) == [Self.second])
        try await session.stop()
        await world.close()
    }
}

extension AdvertisingData.Structure {
    /// Advertising data holding only this structure.
    var encodedAdvertisingData: AdvertisingData { AdvertisingData([self]) }
}
