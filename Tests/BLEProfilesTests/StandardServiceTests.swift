import BLEHost
import BLEProfiles
import BLEWire
import Testing

@Suite("Standard services by name")
struct StandardServiceTests {
    @Test("Names are accepted in camelCase, kebab-case and snake_case, any case")
    func names() {
        #expect(StandardService(name: "battery") == .battery)
        #expect(StandardService(name: "deviceInformation") == .deviceInformation)
        #expect(StandardService(name: "device-information") == .deviceInformation)
        #expect(StandardService(name: "heart_rate") == .heartRate)
        #expect(StandardService(name: "HealthThermometer") == .healthThermometer)
        #expect(StandardService(name: "tx-power") == .txPower)
        #expect(StandardService(name: "thermometer") == nil)
        #expect(StandardService.deviceInformation.name == "device-information")
        #expect(StandardService.allCases.map(\.name) == ["battery", "device-information", "heart-rate", "health-thermometer",
                                                         "current-time", "immediate-alert", "link-loss", "tx-power"])
    }

    @Test("Every standard service has a default definition of its UUID with characteristics")
    func defaults() {
        let uuids: [StandardService: UInt16] = [
            .battery: 0x180F, .deviceInformation: 0x180A, .heartRate: 0x180D, .healthThermometer: 0x1809,
            .currentTime: 0x1805, .immediateAlert: 0x1802, .linkLoss: 0x1803, .txPower: 0x1804,
        ]
        for service in StandardService.allCases {
            let definition = service.defaultDefinition
            #expect(definition.uuid == BluetoothUUID(uuids[service] ?? 0), "\(service)")
            #expect(service.uuid == definition.uuid)
            #expect(definition.isPrimary && !definition.characteristics.isEmpty)
            #expect(StandardService(name: service.name) == service)
        }
    }

    @Test("Writes are checked per service: control point, alert level, read-only interval")
    func validateWrite() {
        #expect(StandardService.heartRate.validateWrite(to: 0x2A39, value: [0x02]).failure == .application(0x80))
        #expect(StandardService.heartRate.validateWrite(to: 0x2A39, value: [0x01]).failure == nil)
        #expect(StandardService.linkLoss.validateWrite(to: 0x2A06, value: [0x05]).failure == .outOfRange)
        #expect(StandardService.immediateAlert.validateWrite(to: 0x2A06, value: [0x02]).failure == nil)
        #expect(StandardService.healthThermometer.validateWrite(to: 0x2A21, value: [0x01, 0x00]).failure == .writeNotPermitted)
        #expect(StandardService.battery.validateWrite(to: 0x2A19, value: [0x01]).failure == nil)
    }
}

extension Result {
    /// The error, if this is a failure.
    var failure: Failure? {
        if case let .failure(error) = self { return error }
        return nil
    }
}
