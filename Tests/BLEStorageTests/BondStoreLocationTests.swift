import BLEStorage
import BLEWire
import Foundation
import Testing

/// Where the default bond store lives: named after the controller's address, else its spec.
@Suite("Bond store location")
struct BondStoreLocationTests {
    @Test("the controller's public address names the file, whatever spec reached it")
    func namedAfterAddress() throws {
        let home = try ScratchDirectory()
        let environment = ["HOME": home.path]
        let address = BluetoothAddress(0xC0_5B_1E_00_00_01)
        let first = BondStoreLocation.defaultPath(hci: "tcp:127.0.0.1:40123", controllerAddress: address, environment: environment)
        let second = BondStoreLocation.defaultPath(hci: "tcp:127.0.0.1:40991", controllerAddress: address, environment: environment)
        #expect(first == home.path + "/.local/share/swiftble/bonds-C0-5B-1E-00-00-01.json")
        #expect(first == second)
    }

    @Test("no address, or the all-zero one, names the file after the spec")
    func namedAfterSpec() throws {
        let home = try ScratchDirectory()
        let environment = ["HOME": home.path]
        let expected = home.path + "/.local/share/swiftble/bonds-hci-0.json"
        #expect(BondStoreLocation.defaultPath(hci: "hci:0", environment: environment) == expected)
        #expect(BondStoreLocation.defaultPath(hci: "hci:0", controllerAddress: BluetoothAddress(0), environment: environment) == expected)
    }

    @Test("a store named after the spec stays in use until one named after the address exists")
    func specStoreKept() throws {
        let home = try ScratchDirectory()
        let directory = home.path + "/swiftble"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let environment = ["XDG_DATA_HOME": home.path]
        let address = BluetoothAddress(0x00_1B_DC_07_32_EF)
        let bySpec = directory + "/bonds-hci-0.json"
        let byAddress = directory + "/bonds-00-1B-DC-07-32-EF.json"
        #expect(BondStoreLocation.defaultPath(hci: "hci:0", controllerAddress: address, environment: environment) == byAddress)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: bySpec))
        #expect(BondStoreLocation.defaultPath(hci: "hci:0", controllerAddress: address, environment: environment) == bySpec)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: byAddress))
        #expect(BondStoreLocation.defaultPath(hci: "hci:0", controllerAddress: address, environment: environment) == byAddress)
    }

    @Test("SWIFTBLE_BONDS names the file outright, so the controller need not be asked")
    func environmentWins() {
        let environment = ["SWIFTBLE_BONDS": "/tmp/mine.json", "HOME": "/root"]
        #expect(BondStoreLocation.defaultPath(hci: "sim", controllerAddress: BluetoothAddress(0x11), environment: environment) == "/tmp/mine.json")
        #expect(!BondStoreLocation.needsControllerAddress(environment: environment))
        #expect(BondStoreLocation.needsControllerAddress(environment: ["HOME": "/root"]))
        #expect(!BondStoreLocation.needsControllerAddress(environment: [:]))
    }
}
