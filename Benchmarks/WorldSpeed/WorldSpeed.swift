import BLEController
import BLEWire
import BLEWorld
import Glibc

/// Simulated seconds per wall-clock second for two workloads of the simulated world, as one
/// JSON object: (a) two devices streaming at the maximum rate (7.5 ms interval, 251-octet
/// PDUs on LE 2M), (b) 1,000 beacons advertising every 100 ms and one scanner.
@main
enum WorldSpeed {
    /// A host per device that sends commands and waits for their answers on the virtual clock.
    final class Hosts {
        let world: World
        var answered: [HCI.Opcode] = []
        var connectionHandles: [DeviceID: UInt16] = [:]
        var onCompletedPackets: ((Int) -> Void)?
        var reports = 0

        init(world: World) {
            self.world = world
            world.onHostPacket = { [unowned self] device, packet in
                guard case let .event(eventPacket) = packet, let event = try? HCI.Event(decoding: eventPacket) else { return }
                switch event {
                case let .commandComplete(done): answered.append(done.opcode)
                case let .commandStatus(status): answered.append(status.opcode)
                case let .leMeta(.connectionComplete(done)) where done.status == .success: connectionHandles[device] = done.connectionHandle
                case let .leMeta(.advertisingReport(report)): reports += report.reports.count
                case let .numberOfCompletedPackets(done):
                    onCompletedPackets?(done.entries.reduce(0) { $0 + Int($1.numCompletedPackets) })
                default: break
                }
            }
        }

        func add(_ name: String, x: Double, y: Double, address: UInt64, seed: UInt64) -> DeviceID {
            let controller = Controller(configuration: ControllerConfiguration(publicAddress: BluetoothAddress(address), seed: seed))
            let device = world.addDevice(DeviceDescription(name: name, position: Vector3(x: x, y: y)), controller: controller)
            send(device, HCI.SetEventMask(eventMask: HCI.EventMask.defaultAfterReset.union(.leMeta)))
            return device
        }

        func send<Command: HCICommand>(_ device: DeviceID, _ command: Command) {
            world.sendToController(.command(HCI.CommandPacket(opcode: Command.opcode, parameters: command.encoded()[...])), device: device)
            world.run(until: world.now + 1_000)
        }

        func advertise(_ device: DeviceID, type: HCI.LESetAdvertisingParameters.AdvertisingType, interval: UInt16, data: [UInt8]) {
            send(device, HCI.LESetAdvertisingParameters(
                advertisingIntervalMin: interval, advertisingIntervalMax: interval, advertisingType: type,
                ownAddressType: .public, peerAddress: BluetoothAddress(0), advertisingChannelMap: .all,
                advertisingFilterPolicy: .acceptAll))
            send(device, HCI.LESetAdvertisingData(advertisingData: data[...]))
            send(device, HCI.LESetAdvertisingEnable(advertisingEnable: true))
        }
    }

    /// Runs `simulated` seconds and returns simulated seconds per wall second.
    static func speed(_ world: World, simulated seconds: Double) -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        world.run(until: world.now + Int64(seconds * 1_000_000))
        let elapsed = clock.now - start
        let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return seconds / wall
    }

    static func streaming(seconds: Double) -> (speed: Double, bytesPerSecond: Double) {
        let world = World(configuration: WorldConfiguration(seed: 1, capturesHCI: false))
        let hosts = Hosts(world: world)
        let peripheral = hosts.add("peripheral", x: 0, y: 0, address: 0xF0_00_00_00_00_01, seed: 1)
        let central = hosts.add("central", x: 1, y: 0, address: 0xF0_00_00_00_00_02, seed: 2)
        hosts.advertise(peripheral, type: .connectableUndirected, interval: 32, data: [0x02, 0x01, 0x06])
        hosts.send(central, HCI.LECreateConnection(
            leScanInterval: 0x0010, leScanWindow: 0x0010, peerAddressType: .public, peerAddress: BluetoothAddress(0xF0_00_00_00_00_01),
            ownAddressType: .public,
            connectionParameters: HCI.LEConnectionParameters(
                connectionIntervalMin: 6, connectionIntervalMax: 6, maxLatency: 0, supervisionTimeout: 200)))
        world.run(until: world.now + 1_000_000)
        guard let handle = hosts.connectionHandles[central] else { return (0, 0) }
        hosts.send(central, HCI.LESetDataLength(connectionHandle: handle, txOctets: 251, txTime: 2120))
        hosts.send(central, HCI.LESetPHY(connectionHandle: handle, txPHYs: .le2M, rxPHYs: .le2M))
        world.run(until: world.now + 500_000)
        var credits = 8
        var sent = 0
        let frame = [UInt8](repeating: 0xA5, count: 251)
        func pump() {
            while credits > 0 {
                credits -= 1
                sent += frame.count
                world.sendToController(.acl(HCI.ACLPacket(
                    connectionHandle: handle, packetBoundary: .firstNonAutomaticallyFlushable, data: frame[...])), device: central)
            }
        }
        hosts.onCompletedPackets = { count in
            credits += count
            pump()
        }
        pump()
        let before = sent
        let speed = speed(world, simulated: seconds)
        return (speed, Double(sent - before) / seconds)
    }

    static func beacons(count: Int, seconds: Double) -> (speed: Double, reportsPerSecond: Double) {
        let world = World(configuration: WorldConfiguration(seed: 2, capturesHCI: false))
        let hosts = Hosts(world: world)
        let scanner = hosts.add("scanner", x: 0, y: 0, address: 0xF0_00_00_00_00_00, seed: 0)
        var state: UInt64 = 12345
        func unit() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        for index in 1 ... count {
            let angle = unit() * 2 * Double.pi, radius = 1 + unit() * 29
            let beacon = hosts.add("beacon \(index)", x: radius * cosine(angle), y: radius * sine(angle),
                                   address: 0xC0_00_00_00_00_00 + UInt64(index), seed: UInt64(index))
            hosts.advertise(beacon, type: .nonConnectableUndirected, interval: 160,
                            data: [0x02, 0x01, 0x04, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15] + [UInt8](repeating: 7, count: 21))
        }
        hosts.send(scanner, HCI.LESetScanParameters(
            leScanType: .passive, leScanInterval: 0x4000, leScanWindow: 0x4000, ownAddressType: .public,
            scanningFilterPolicy: .basicUnfiltered))
        hosts.send(scanner, HCI.LESetScanEnable(leScanEnable: true, filterDuplicates: false))
        world.run(until: world.now + 500_000)
        let before = hosts.reports
        let speed = speed(world, simulated: seconds)
        return (speed, Double(hosts.reports - before) / seconds)
    }

    static func cosine(_ x: Double) -> Double { Glibc.cos(x) }
    static func sine(_ x: Double) -> Double { Glibc.sin(x) }

    static func main() {
        let stream = streaming(seconds: 20)
        let crowd = beacons(count: 1000, seconds: 10)
        print("{\"streaming\": {\"simulatedSecondsPerWallSecond\": \(stream.speed), \"payloadBytesPerSimulatedSecond\": \(stream.bytesPerSecond)}, "
            + "\"beacons1000\": {\"simulatedSecondsPerWallSecond\": \(crowd.speed), \"reportsPerSimulatedSecond\": \(crowd.reportsPerSecond)}}")
    }
}
