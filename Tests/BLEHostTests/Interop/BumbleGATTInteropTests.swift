import Foundation
import Testing

extension BumbleInterop {
    /// OUR command line's GATT client and server (`ble gatt dump`, `ble serve`) against
    /// Interop/bumble_gatt_peer.py over stock Bumble controllers (Core 5.4, Vol 3, Parts F
    /// and G): the dumped tree equals Bumble's own document of its database; Bumble's client
    /// finds our served tree, writes long values, gets the spec's errors and receives 10,000
    /// notifications and 10,000 indications in order.
    @Suite("GATT with Bumble")
    struct BumbleGATTInteropTests {
        static let bumbleServer = "C0:5B:00:00:00:21/random"
        static let ourAddress = "C0:5F:00:00:00:01"
        static let interopService = "D7A30001-6C5A-4A7E-9B1E-5F0C2A9E0001"
        static let longWrite = "D7A30003-6C5A-4A7E-9B1E-5F0C2A9E0001"
        static let notified = "D7A30004-6C5A-4A7E-9B1E-5F0C2A9E0001"
        static let indicated = "D7A30005-6C5A-4A7E-9B1E-5F0C2A9E0001"
        static let streamCount = 10_000

        @Test("ble gatt dump --json of Bumble's GATT server equals Bumble's own document of its database", arguments: [23, 517])
        func dumpEqualsBumbleDatabase(mtu: Int) async throws {
            let bench = try await BumbleBench(controllers: 2)
            defer { bench.stop() }
            let server = try bench.peer(on: 1, script: "bumble_gatt_peer.py", ["--role", "server"])
            defer { server.stop() }
            let database = try #require(await server.event("database", seconds: patience), "\(server.lines.all)")
            let expected = try #require(database["services"] as? [[String: Any]])
            let snoop = interopSnoopPath("gatt-dump-\(mtu)")
            let dump = try InteropProcess(try interopBLEExecutable(), [
                "gatt", "dump", Self.bumbleServer, "--json", "--mtu", "\(mtu)", "--timeout", "60",
                "--own-address", Self.ourAddress, "--hci", "tcp:127.0.0.1:\(bench.ports[0])", "--snoop", snoop,
            ], mergingStandardError: true)
            defer { dump.stop() }
            let line = try #require(await dump.lines.line(containing: "\"services\"", seconds: patience), "\(dump.lines.all)")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(document["mtu"] as? Int == mtu)
            let services = try #require(document["services"] as? [[String: Any]])
            #expect(services.count == expected.count)
            for (ours, theirs) in zip(services, expected) {
                #expect(canonicalJSON(withoutKey("propertyNames", in: ours)) == canonicalJSON(theirs))
            }
            // The 400-octet value crossed several Read Blob requests at either MTU.
            let long = services.flatMap { $0["characteristics"] as? [[String: Any]] ?? [] }
                .first { $0["uuid"] as? String == "A7E3C0DE-5B1E-4E6B-9F00-0000000000A2" }
            #expect((long?["value"] as? String)?.count == 800)
            #expect(await server.event("disconnected", seconds: patience) != nil)
            try await expectCleanCapture(snoop)
        }

        @Test("Bumble's GATT client finds ble serve's tree, long writes of 1 to 512 octets read back, errors 0x03 and 0x07")
        func bumbleClientAgainstServe() async throws {
            let bench = try await BumbleBench(controllers: 2)
            defer { bench.stop() }
            let snoop = interopSnoopPath("gatt-serve")
            let serve = try startServe(bench, snoop: snoop, extra: [])
            defer { serve.stop() }
            let served = try #require(await serve.event("database", seconds: patience), "\(serve.lines.all)")
            #expect(await serve.event("advertising", seconds: patience) != nil, "\(serve.lines.all)")
            let ourServices = try #require(served["services"] as? [[String: Any]])
            // The file's own shape, independent of how the document is made: GAP, GATT and
            // its 3 services, 10 characteristics of its own, the 512-octet value.
            #expect(ourServices.count == 5)
            let fileCharacteristics = ourServices.dropFirst(2).flatMap { $0["characteristics"] as? [[String: Any]] ?? [] }
            #expect(fileCharacteristics.count == 10)
            let longValue = (0 ..< 512).map { String(format: "%02x", $0 & 0xFF) }.joined()
            #expect(fileCharacteristics.contains { $0["value"] as? String == longValue })

            let client = try bench.peer(on: 1, script: "bumble_gatt_peer.py", ["--role", "client", Self.ourAddress, "--mtu", "23",
                                                                              "--no-mtu-exchange"])
            defer { client.stop() }
            let found = try #require(await client.event("database", seconds: patience), "\(client.lines.all)")
            let theirs = try #require(found["services"] as? [[String: Any]])
            #expect(theirs.count == ourServices.count)
            for (mine, seen) in zip(ourServices, theirs) {
                // `propertyNames` is our dump's reading of `properties`, which both sides report.
                #expect(canonicalJSON(withoutKey("propertyNames", in: mine)) == canonicalJSON(seen))
            }

            // Long writes of every size (Prepare Write parts of 18 octets at ATT_MTU 23), each read
            // back with Read Long; the commands are queued at once and answered in order.
            let sizes = Array(1 ... 512)
            for (index, size) in sizes.enumerated() {
                let value = (0 ..< size).map { String(format: "%02x", ($0 * 31 + size) & 0xFF) }.joined()
                client.send(#"writeLong {"handle": "\#(Self.longWrite)", "hex": "\#(value)", "id": "w\#(index)"}"#)
                client.send(#"read {"handle": "\#(Self.longWrite)", "id": "r\#(index)"}"#)
            }
            for (index, size) in sizes.enumerated() {
                let value = (0 ..< size).map { String(format: "%02x", ($0 * 31 + size) & 0xFF) }.joined()
                let read = await client.lines.line(containing: "\"id\": \"r\(index)\"", seconds: patience)
                let object = read.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                #expect(object?["event"] as? String == "read", "\(size) octets: \(read ?? "no answer")")
                #expect(object?["value"] as? String == value, "\(size) octets read back differently")
            }
            // A read-only value refuses writes; a read past the end of the stored value fails.
            client.send(#"write {"handle": "2A29", "hex": "00", "id": "readOnly"}"#)
            let refused = await client.lines.line(containing: "\"id\": \"readOnly\"", seconds: patience)
            #expect(refused?.contains("\"code\": 3") == true, "\(refused ?? "no answer")")
            client.send(#"read {"handle": "\#(Self.longWrite)", "offset": 513, "id": "pastEnd"}"#)
            let pastEnd = await client.lines.line(containing: "\"id\": \"pastEnd\"", seconds: patience)
            #expect(pastEnd?.contains("\"code\": 7") == true, "\(pastEnd ?? "no answer")")
            // Our log shows the requests.
            #expect(await serve.lines.line(containing: "\"event\": \"write\"", seconds: patience) != nil)
            #expect(await serve.lines.line(containing: "\"event\": \"read\"", seconds: patience) != nil)
            #expect(await serve.lines.line(containing: "\"offset\": 513, \"value\": null, \"error\": 7", seconds: patience) != nil,
                    "\(serve.lines.all.suffix(5))")

            client.send("disconnect")
            #expect(await serve.event("disconnected", seconds: patience) != nil, "\(serve.lines.all.suffix(5))")
            serve.stop()
            try await expectCleanCapture(snoop)
        }

        @Test("ble serve --stream sends 10,000 notifications and 10,000 indications that Bumble's client receives in order, none lost",
              arguments: [false, true])
        func streamsToBumble(indicate: Bool) async throws {
            // 251-octet ACL buffers, as for the L2CAP bulk runs: 10,000 values at 27 octets
            // starve the tests beside them on a 2-core machine.
            let bench = try await BumbleBench(controllers: 2, leACLLength: 251)
            defer { bench.stop() }
            let uuid = indicate ? Self.indicated : Self.notified
            let snoop = interopSnoopPath("gatt-stream-\(indicate ? "indications" : "notifications")")
            let serve = try startServe(bench, snoop: snoop, extra: ["--stream", "\(uuid):\(Self.streamCount):20"])
            defer { serve.stop() }
            #expect(await serve.event("advertising", seconds: patience) != nil, "\(serve.lines.all)")
            let client = try bench.peer(on: 1, script: "bumble_gatt_peer.py", ["--role", "client", Self.ourAddress])
            defer { client.stop() }
            #expect(await client.event("database", seconds: patience) != nil, "\(client.lines.all)")
            let start = ContinuousClock.now
            client.send(#"subscribe {"handle": "\#(uuid)", "indicate": \#(indicate), "expect": \#(Self.streamCount)}"#)
            let received = try #require(await client.event("received", seconds: 600), "\(client.lines.all.suffix(5))")
            let took = seconds(since: start)
            #expect(received["count"] as? Int == Self.streamCount)
            #expect(received["kind"] as? String == (indicate ? "indication" : "notification"))
            #expect(received["firstSequence"] as? Int == 0)
            #expect(received["lastSequence"] as? Int == Self.streamCount - 1)
            #expect(received["missing"] as? Int == 0)
            #expect(received["outOfOrder"] as? Int == 0)
            let streamed = await serve.event("streamed", seconds: patience)
            #expect(streamed?["count"] as? Int == Self.streamCount)
            print("interop: ble serve → Bumble client: \(Self.streamCount) \(indicate ? "indications" : "notifications") of 20 octets in \(took) s")
            client.send("disconnect")
            #expect(await serve.event("disconnected", seconds: patience) != nil)
            serve.stop()
            try await expectCleanCapture(snoop)
        }

        @Test("ble gatt write, read and subscribe against ble serve: a write reads back, a read-only value says Write Not Permitted (0x03), notifications and indications arrive numbered")
        func commandsAgainstServe() async throws {
            let bench = try await BumbleBench(controllers: 2)
            defer { bench.stop() }
            let snoop = interopSnoopPath("gatt-commands")
            let serve = try startServe(bench, snoop: snoop, extra: [
                "--stream", "\(Self.notified):3:8", "--stream", "\(Self.indicated):2:6",
            ])
            defer { serve.stop() }
            #expect(await serve.event("advertising", seconds: patience) != nil, "\(serve.lines.all)")
            let served = "C0:5F:00:00:00:01/random"
            func ble(_ arguments: [String]) async throws -> [String] {
                let run = try InteropProcess(try interopBLEExecutable(), arguments + [
                    "--own-address", "C0:5F:00:00:00:09", "--hci", "tcp:127.0.0.1:\(bench.ports[1])", "--timeout", "60",
                ], mergingStandardError: true)
                defer { run.stop() }
                // No line holds a NUL: this returns when the process closes its output (it ended).
                _ = await run.lines.line(containing: "\u{0}", seconds: patience)
                return run.lines.all
            }
            let written = try await ble(["gatt", "write", served, Self.longWrite, "48656c6c6f", "--json"])
            #expect(written.contains { $0.contains(#""event": "written""#) && $0.contains(#""length": 5"#) }, "\(written)")
            let read = try await ble(["gatt", "read", served, Self.longWrite, "--json"])
            #expect(read.contains { $0.contains(#""value": "48656c6c6f""#) }, "\(read)")
            let long = String(repeating: "5a", count: 300)  // 300 octets: Write Long and Read Blob at ATT_MTU 23
            let wroteLong = try await ble(["gatt", "write", served, Self.longWrite, long, "--mtu", "23", "--json"])
            #expect(wroteLong.contains { $0.contains(#""long": true"#) }, "\(wroteLong)")
            let readLong = try await ble(["gatt", "read", served, Self.longWrite, "--mtu", "23", "--json"])
            #expect(readLong.contains { $0.contains(#""value": "\#(long)""#) }, "\(readLong)")
            let refused = try await ble(["gatt", "write", served, "2A29", "00"])
            #expect(refused.contains { $0.contains("Write Not Permitted (0x03)") }, "\(refused)")
            let notified = try await ble(["gatt", "subscribe", served, Self.notified, "--count", "3", "--json"])
            let values = notified.filter { $0.contains(#""event": "notification""#) }
            #expect(values.count == 3, "\(notified)")
            #expect(values.last?.contains(#""value": "0200000004050607""#) == true, "\(values)")
            let indicated = try await ble(["gatt", "subscribe", served, Self.indicated, "--indicate", "--count", "2", "--json"])
            let confirmed = indicated.filter { $0.contains(#""event": "indication""#) }
            #expect(confirmed.count == 2, "\(indicated)")
            #expect(confirmed.first?.contains(#""value": "000000000405""#) == true, "\(confirmed)")
            let dump = try await ble(["gatt", "dump", served])
            #expect(dump.contains { $0.contains("Primary service 180F (Battery)") }, "\(dump)")
            #expect(dump.contains { $0.contains("2A19 (Battery Level)") && $0.contains("= 64") }, "\(dump)")
            serve.stop()
            try await expectCleanCapture(snoop)
        }

        @Test("ble serve takes two clients at once and notifies a value one writes to the other, which subscribed")
        func writeNotifiedToSubscriber() async throws {
            let bench = try await BumbleBench(controllers: 3)
            defer { bench.stop() }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("swiftble-interop-\(getpid())-notify.yaml")
            try """
                name: Notify on write
                services:
                  - uuid: "FFF0"
                    characteristics:
                      - uuid: "FFF1"
                        properties: [read, write, notify]
                """.write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            let serve = try InteropProcess(try interopBLEExecutable(), [
                "serve", file.path, "--own-address", Self.ourAddress, "--hci", "tcp:127.0.0.1:\(bench.ports[0])",
            ], mergingStandardError: true)
            defer { serve.stop() }
            #expect(await serve.event("advertising", seconds: patience) != nil, "\(serve.lines.all)")
            let served = Self.ourAddress + "/random"
            let subscriber = try InteropProcess(try interopBLEExecutable(), [
                "gatt", "subscribe", served, "FFF1", "--count", "1", "--json", "--own-address", "C0:5F:00:00:00:02",
                "--hci", "tcp:127.0.0.1:\(bench.ports[1])", "--timeout", "60",
            ], mergingStandardError: true)
            defer { subscriber.stop() }
            #expect(await subscriber.event("subscribed", seconds: patience) != nil, "\(subscriber.lines.all)")
            let writer = try InteropProcess(try interopBLEExecutable(), [
                "gatt", "write", served, "FFF1", "68656c6c6f", "--json", "--own-address", "C0:5F:00:00:00:03",
                "--hci", "tcp:127.0.0.1:\(bench.ports[2])", "--timeout", "60",
            ], mergingStandardError: true)
            defer { writer.stop() }
            #expect(await writer.event("written", seconds: patience) != nil, "\(writer.lines.all)")
            let notified = await subscriber.event("notification", seconds: patience)
            #expect(notified?["value"] as? String == "68656c6c6f", "\(subscriber.lines.all)")
            #expect(await serve.lines.line(containing: #""connection": 2"#, seconds: patience) != nil, "\(serve.lines.all)")
        }

        private func startServe(_ bench: BumbleBench, snoop: String, extra: [String]) throws -> InteropProcess {
            try InteropProcess(try interopBLEExecutable(), [
                "serve", interopPackageRoot().appendingPathComponent("Interop/gatt-server.yaml").path,
                "--own-address", Self.ourAddress, "--hci", "tcp:127.0.0.1:\(bench.ports[0])", "--snoop", snoop,
            ] + extra, mergingStandardError: true)
        }
    }
}
