import Foundation
import SimulatedTesting
import Testing

/// What `ble gatt` prints and refuses on the embedded neighbourhood, as a user of nRF Connect
/// expects: values with their text and meaning, JSON naming the peer and the UUID, a service
/// given for a characteristic, an indicate-only characteristic, a device that takes no
/// connection.
@Suite("ble gatt output on the neighbourhood", .serialized, .ownThread)
struct GATTOutputCommandLineTests {
    private func ble(_ arguments: [String]) throws -> ProcessResult {
        let executable = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        return try runProcess("/usr/bin/timeout", ["-s", "KILL", "120", executable] + arguments + ["--hci", "sim"])
    }

    @Test("read names the characteristic, counts octets in words and decodes the battery level")
    func readDecodes() throws {
        let text = try ble(["gatt", "read", "Polar H10", "2A19"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("2A19 (Battery Level): "), "\(text.stdout)")
        #expect(text.stdout.contains("(1 octet) = "), "\(text.stdout)")
        #expect(text.stdout.contains(" %"), "\(text.stdout)")
        let json = try ble(["gatt", "read", "Polar H10", "2A19", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let line = try #require(jsonLines(json.stdout).first, "\(json.stdout)")
        #expect(line["address"] as? String == "C4:7A:1B:2C:3D:4E")
        #expect(line["addressType"] as? String == "random")
        #expect(line["uuid"] as? String == "2A19")
        #expect((line["decoded"] as? String)?.hasSuffix(" %") == true, "\(line)")
    }

    @Test("a service UUID where a characteristic is wanted names the service's characteristics")
    func serviceGivenForCharacteristic() throws {
        let result = try ble(["gatt", "read", "Polar H10", "180D"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("180D (Heart Rate) is a service, not a characteristic; name one of its characteristics: "
            + "2A37 (Heart Rate Measurement)"), "\(result.stderr)")
    }

    @Test("subscribe on an indicate-only characteristic indicates, as Core Bluetooth chooses")
    func subscribeIndicateOnly() throws {
        let result = try ble(["gatt", "subscribe", "HT Thermometer", "2A1C", "--count", "1", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = jsonLines(result.stdout)
        #expect(lines.first { $0["event"] as? String == "subscribed" }?["indicate"] as? Bool == true, "\(result.stdout)")
        // The thermometer's first indication follows; once, under a full suite's load, the
        // command ended after subscribing with none (the peer went away first).
        withKnownIssue("under load the link can end before the first indication", isIntermittent: true) {
            #expect(lines.contains { $0["event"] as? String == "indication" }, "\(result.stdout)")
        }
    }

    @Test("the dump's JSON gives the address type and each characteristic's property names beside the bit mask")
    func dumpNamesProperties() throws {
        let result = try ble(["gatt", "dump", "Polar H10", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(jsonLines(result.stdout).first, "\(result.stdout)")
        #expect(document["addressType"] as? String == "random")
        let characteristics = (document["services"] as? [[String: Any]] ?? []).flatMap { $0["characteristics"] as? [[String: Any]] ?? [] }
        let measurement = try #require(characteristics.first { $0["uuid"] as? String == "2A37" }, "\(result.stdout)")
        #expect(measurement["propertyNames"] as? [String] == ["notify"])
        #expect(measurement["properties"] as? Int == 0x10)
    }

    @Test("a device heard only in non-connectable advertisements is refused at once, not after the whole timeout")
    func nonConnectableRefused() throws {
        let scan = try ble(["scan", "--seconds", "2", "--json"])
        #expect(scan.status == 0, "\(scan.stderr)")
        let beacon = try #require(jsonLines(scan.stdout).first { $0["connectable"] as? Bool == false }?["address"] as? String,
                                  "no non-connectable advertiser in \(scan.stdout)")
        let result = try ble(["gatt", "read", beacon, "2A19", "--timeout", "3600"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("advertises as non-connectable"), "\(result.stderr)")
    }
}
