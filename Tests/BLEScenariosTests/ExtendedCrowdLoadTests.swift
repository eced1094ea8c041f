import BLEController
import BLEWire
import BLEWorld
import Testing

/// A hall of 1,000 extended advertisers, each with 1,000 octets of advertising data, and four
/// gateways scanning extended on LE 1M: the data rides on the secondary channels in an
/// AUX_ADV_IND and a chain of AUX_CHAIN_INDs (Core 5.4, Vol 6, Part B, §2.3.4 and §4.4.2.4),
/// while the primary channels carry only the short ADV_EXT_IND pointing to it. The test counts
/// what each channel kind carries and loses, and how many 1,000-octet advertisements the
/// gateways put back together; docs/extended-advertising.md quotes the figures.
@Suite("A crowd of extended advertisers with large data")
struct ExtendedCrowdLoadTests {
    /// What a run measured.
    struct Load: CustomStringConvertible {
        var primaryTransmissions = 0
        var secondaryTransmissions = 0
        var primaryReceptions = 0
        var secondaryReceptions = 0
        var primaryCollisions = 0
        var secondaryCollisions = 0
        /// Advertisements a gateway reported whole (every fragment, 1,000 octets).
        var whole = 0
        /// Advertisements whose chain broke (the last report marked truncated).
        var truncated = 0
        /// Advertisements reported complete whose data is not the advertiser's 1,000 octets. An
        /// AUX_CHAIN_IND carries no AdvA, only the ADI (Vol 6, Part B, §2.3.4), and every set
        /// here has SID 0 and DID 0, so a packet of another advertiser's chain caught in the
        /// window on the same channel continues a chain as if it were its own (and an earlier
        /// advertisement whose end was never reported joins the next one).
        var mixed = 0
        /// Of ``mixed``, those whose first 242 octets (the AUX_ADV_IND's, sent with AdvA) are
        /// the advertiser's own: the rest came from another chain.
        var mixedWithOwnStart = 0
        /// Advertisements the gateways gave up unfinished (too many waiting at once).
        var dropped = 0

        var description: String {
            "on the air: \(primaryTransmissions) primary, \(secondaryTransmissions) secondary; received by the gateways: "
                + "\(primaryReceptions) primary, \(secondaryReceptions) secondary; lost to collisions there: \(primaryCollisions) primary, "
                + "\(secondaryCollisions) secondary; advertisements reassembled whole: \(whole), truncated: \(truncated), complete but mixed with another's chain: \(mixed) "
                + "(\(mixedWithOwnStart) with their own AUX_ADV_IND), dropped unfinished: \(dropped)"
        }
    }

    static let advertisers = 1_000
    static let dataLength = 1_000

    /// 1,000 octets of advertising data: four Manufacturer Specific Data structures of 250
    /// octets (length, type 0xFF, company 0xFFFF, 246 octets), numbered by the advertiser.
    static func data(for index: Int) -> [UInt8] {
        (0 ..< 4).flatMap { part -> [UInt8] in
            [249, 0xFF, 0xFF, 0xFF] + (0 ..< 246).map { UInt8(truncatingIfNeeded: index &+ part &+ $0) }
        }
    }

    /// The hall: a 40 × 25 grid of advertisers 1 m apart at 2.5 m, each advertising every
    /// second from a moment of its own, and four gateways at 1.2 m, one in each quarter.
    static func scenario(secondaryPHY: ScenarioPHY) -> Scenario {
        var devices: [ScenarioDevice] = []
        for index in 0 ..< advertisers {
            let position = Vector3(x: Double(index % 40) - 19.5, y: Double(index / 40) - 12, z: 2.5)
            var device = ScenarioDevice(
                name: "advertiser \(index)", address: BluetoothAddress(0xC0_00_00_00_00_00 + UInt64(index + 1), kind: .random),
                description: DeviceDescription(name: "advertiser \(index)", position: position), txPowerDBm: -12,
                advertising: ScenarioAdvertising(kind: .nonconnInd, intervalMilliseconds: 1_000,
                                                 data: ScenarioAdvertisingContent(raw: data(for: index)),
                                                 extended: ScenarioAdvertising.Extended(primaryPHY: .le1M, secondaryPHY: secondaryPHY)))
            device.start = .randomInFirstInterval
            devices.append(device)
        }
        for (index, corner) in [(-10.0, -6.0), (10, -6), (-10, 6), (10, 6)].enumerated() {
            devices.append(ScenarioDevice(
                name: "gateway \(index)", address: BluetoothAddress(0x00_1B_DC_00_00_01 + UInt64(index)),
                description: DeviceDescription(name: "gateway \(index)", position: Vector3(x: corner.0, y: corner.1, z: 1.2)),
                scanning: ScenarioScanning(intervalMilliseconds: 100, windowMilliseconds: 100, extendedPHYs: [.le1M])))
        }
        var radio = RadioModel()
        radio.shadowingSigmaDB = 2
        return Scenario(name: "extended crowd", seed: 1_000, radio: radio, devices: devices)
    }

    /// Runs the hall for `seconds` and counts.
    static func run(secondaryPHY: ScenarioPHY, seconds: Double) throws -> Load {
        let scenario = scenario(secondaryPHY: secondaryPHY)
        let world = World(configuration: scenario.worldConfiguration)
        let built = try scenario.build(into: world)
        let gateways = Set((0 ..< 4).compactMap { built.id(of: "gateway \($0)") })
        var load = Load()
        // Each gateway joins its reports' fragments as scenario observers and gateways do
        // (ScannedAdvertisement.Reassembly, the host's reassembler).
        var reassemblies: [DeviceID: ScannedAdvertisement.Reassembly] = [:]
        built.onHostPacket = { device, packet in
            guard gateways.contains(device), case let .event(eventPacket) = packet, let event = try? HCI.Event(decoding: eventPacket),
                  let advertisements = reassemblies[device, default: ScannedAdvertisement.Reassembly()].advertisements(in: event) else { return }
            for advertisement in advertisements {
                if advertisement.truncated {
                    load.truncated += 1
                } else {
                    // Whole means byte for byte the advertiser's 1,000 octets.
                    let index = Int(truncatingIfNeeded: advertisement.address.value &- 0xC0_00_00_00_00_01)
                    let own = data(for: index)
                    if advertisement.data == own {
                        load.whole += 1
                    } else {
                        load.mixed += 1
                        if advertisement.data.prefix(242) == own.prefix(242) { load.mixedWithOwnStart += 1 }
                    }
                }
            }
        }
        world.run(until: Microseconds(seconds * 1_000_000))
        load.dropped = reassemblies.values.reduce(0) { $0 + $1.counts.dropped }
        #expect(built.failures.isEmpty, "\(built.failures)")
        let channels = world.channelStatistics
        load.primaryTransmissions = ChannelStatistics.sum(channels.transmissions, over: ChannelStatistics.primary)
        load.secondaryTransmissions = ChannelStatistics.sum(channels.transmissions, over: ChannelStatistics.secondary)
        load.primaryReceptions = ChannelStatistics.sum(channels.receptions, over: ChannelStatistics.primary)
        load.secondaryReceptions = ChannelStatistics.sum(channels.receptions, over: ChannelStatistics.secondary)
        load.primaryCollisions = ChannelStatistics.sum(channels.collisions, over: ChannelStatistics.primary)
        load.secondaryCollisions = ChannelStatistics.sum(channels.collisions, over: ChannelStatistics.secondary)
        return load
    }

    @Test("1,000 advertisers of 1,000 octets: every event is three ADV_EXT_INDs and a five-PDU chain on the secondary channels, and gateways reassemble the data")
    func secondaryChannelLoad() throws {
        let seconds = 5.0
        let oneMegabit = try Self.run(secondaryPHY: .le1M, seconds: seconds)
        print("extended crowd, 1,000 × 1,000 octets, \(seconds) s, secondary LE 1M: \(oneMegabit)")
        let twoMegabit = try Self.run(secondaryPHY: .le2M, seconds: seconds)
        print("extended crowd, 1,000 × 1,000 octets, \(seconds) s, secondary LE 2M: \(twoMegabit)")
        for load in [oneMegabit, twoMegabit] {
            // Three ADV_EXT_INDs per advertising event, and the chain: AUX_ADV_IND and
            // AUX_CHAIN_INDs, each with at most 254 − 10 octets of data beside its header.
            // The run stops in the middle of a few chains, which then lack their last PDUs.
            let events = load.primaryTransmissions / 3
            #expect(load.primaryTransmissions == 3 * events)
            let unsent = 5 * events - load.secondaryTransmissions
            #expect(unsent >= 0 && unsent < 4 * 25, "\(load.secondaryTransmissions) secondary PDUs for \(events) events")
            #expect(load.whole > 0)
            // Chains mixed with another advertiser's packets are rare beside whole ones.
            #expect(load.mixed * 20 < load.whole)
            #expect(load.secondaryReceptions > load.primaryReceptions)
        }
    }
}
