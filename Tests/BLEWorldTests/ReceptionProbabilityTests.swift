import BLEController
import BLEWorld
import Foundation
import Testing

/// The coverage probe and the per-packet reception probability: what `ble sim map` asks of
/// the world, checked against the packets the world really delivers.
@Suite("World reception probability and coverage probe")
struct ReceptionProbabilityTests {
    /// The distance at which a 0 dBm packet arrives `margin` dB above −95 dBm on the default path loss.
    private func distance(margin: Double) -> Double { pow(10, (95 - 40 - margin) / 25) }

    @Test("A receiver that is not in the world gets the power a device standing there gets")
    func probeMatchesDevice() {
        let world = World(configuration: WorldConfiguration(seed: 11))
        let beacon = world.addDevice(DeviceDescription(name: "beacon", position: Vector3(x: 0, y: 0, z: 2.5), headingDegrees: 30,
                                                       antenna: .directional(beamwidthDegrees: 90, frontToBackDB: 20), antennaGainDBi: 2),
                                     controller: TestListener())
        world.addObstacle(Obstacle(name: "wall", shape: .box(min: Vector3(x: 4, y: -10, z: 0), max: Vector3(x: 4.2, y: 10, z: 3)), lossDB: 12))
        let phone = DeviceDescription(name: "phone", position: .zero, headingDegrees: 200, antennaGainDBi: -1, bodyLossDB: 15)
        for (x, y) in [(10.0, 3.0), (-6.0, 2.0), (1.0, -8.0), (3.0, 0.5), (20.0, 20.0)] {
            var description = phone
            description.position = Vector3(x: x, y: y, z: 1.2)
            let device = world.addDevice(description, controller: TestListener())
            let direct = world.receivedPowerDBm(from: beacon, to: device, txPowerDBm: -4)
            let probe = world.receivedPowerDBm(from: beacon, txPowerDBm: -4, receiver: phone, at: description.position)
            #expect(direct.map { abs($0 - probe) < 1e-9 } == true, "at (\(x), \(y)): \(String(describing: direct)) vs \(probe)")
        }
    }

    @Test("Without shadowing or fading a packet arrives exactly when its mean power reaches the sensitivity")
    func step() {
        let radio = RadioModel()
        #expect(radio.receptionProbability(meanPowerDBm: -95, sensitivityDBm: -95) == 1)
        #expect(radio.receptionProbability(meanPowerDBm: -95.01, sensitivityDBm: -95) == 0)
        let ideal = World(configuration: WorldConfiguration(seed: 1, timing: .ideal))
        #expect(ideal.receptionProbability(meanPowerDBm: -150, sensitivityDBm: -95) == 1)
    }

    @Test("The probability rises with the margin and is a half at the sensitivity with shadowing alone",
          arguments: [RadioModel(shadowingSigmaDB: 4), RadioModel(fastFading: true), RadioModel(shadowingSigmaDB: 4, fastFading: true)])
    func monotone(radio: RadioModel) {
        let margins = stride(from: -20.0, through: 20, by: 1).map { radio.receptionProbability(meanPowerDBm: -95 + $0, sensitivityDBm: -95) }
        #expect(zip(margins, margins.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(margins.first! < 0.1 && margins.last! > 0.9)
        if !radio.fastFading { #expect(abs(margins[20] - 0.5) < 1e-9) }
    }

    @Test("The share of packets the world delivers near the sensitivity is the predicted probability",
          arguments: [RadioModel(shadowingSigmaDB: 4), RadioModel(fastFading: true), RadioModel(shadowingSigmaDB: 3, fastFading: true)])
    func deliveredShare(radio: RadioModel) {
        let world = World(configuration: WorldConfiguration(seed: 2026, radio: radio, capturesHCI: false))
        let beacon = world.addDevice(DeviceDescription(name: "beacon", position: .zero), controller: TestBeacon(tag: 1, interval: 10_000))
        let margins: [Double] = [-4, 0, 3, 8]
        let listeners = margins.map { margin in
            world.addDevice(DeviceDescription(name: "margin \(margin)", position: Vector3(x: distance(margin: margin), y: 0)),
                            controller: TestListener())
        }
        let log = HostLog(world: world)
        world.run(until: 20_000_000)
        for (margin, listener) in zip(margins, listeners) {
            let mean = world.receivedPowerDBm(from: beacon, to: listener, txPowerDBm: 0) ?? -.infinity
            let predicted = world.receptionProbability(meanPowerDBm: mean, sensitivityDBm: -95)
            let share = Double(log.heard(by: listener).count) / 2_000
            print("margin \(margin) dB: delivered \(share), predicted \(String(format: "%.3f", predicted))")
            // 2000 packets: a binomial share's standard deviation is at most 0.011.
            #expect(abs(share - predicted) < 0.04, "margin \(margin) dB: delivered \(share), predicted \(predicted)")
        }
    }
}
