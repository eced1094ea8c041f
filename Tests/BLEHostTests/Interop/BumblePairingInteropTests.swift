import Foundation
import Testing

extension BumbleInterop {
    /// OUR pairing and bonds (`ble pair`, `ble gatt read --bonds`, `ble serve --bonds`) against
    /// Interop/bumble_pair_peer.py over stock Bumble controllers (Core 5.4, Vol 3, Part H): every
    /// cell of the matrix pairs with the expected method and level, the encryption-required
    /// value reads, a bond re-encrypts on reconnection without a new pairing (Bumble counts its
    /// pairings), and a wrong passkey or OOB value fails with Confirm Value Failed (0x04) on
    /// both sides. Secure Connections OOB data goes both ways: Bumble's as `--oob-peer`, ours
    /// (`--oob-show`) to Bumble's stdin before pairing starts.
    @Suite("Pairing with Bumble")
    struct BumblePairingInteropTests {
        static let bumblePeripheral = "C0:5B:00:00:00:31/random"
        static let ourAddress = "C0:5F:00:00:00:01"
        static let secretHex = "736563726574"

        @Test("our central pairs with Bumble's peripheral, reads the protected value, and reconnects with the bond",
              arguments: BumblePairingCase.matrix + BumblePairingCase.wrongPasskeys + BumblePairingCase.wrongOutOfBands)
        func ourCentral(cell: BumblePairingCase) async throws {
            let bench = try await BumbleBench(controllers: 2)
            defer { bench.stop() }
            let peer = try bench.peer(on: 1, script: "bumble_pair_peer.py", ["--role", "peripheral"] + cell.bumble(asCentral: false))
            defer { peer.stop() }
            let advertising = try #require(await peer.event("advertising", seconds: patience), "\(peer.lines.all)")
            let handle = try #require(advertising["handle"] as? Int)
            let bonds = interopSnoopPath("pair-bonds-\(UInt32.random(in: 0 ... .max))") + ".json"
            defer { try? FileManager.default.removeItem(atPath: bonds) }
            var common = ["--own-address", Self.ourAddress, "--hci", "tcp:127.0.0.1:\(bench.ports[0])", "--timeout", "60",
                          "--bonds", bonds] + cell.ours(asCentral: true)
            if cell.handsOverOutOfBand {
                // Bumble's OOB data, as it printed it; a wrong-value cell changes a bit of its C.
                let theirs = try #require(await peer.event("oob", seconds: patience), "\(peer.lines.all)")
                let data = try #require(Self.outOfBand(theirs["confirm"], theirs["random"], tampered: cell.wrongOutOfBand))
                common += ["--oob-peer", data]
            }
            let snoop = interopSnoopPath("pair-central")
            let pair = try InteropProcess(try interopBLEExecutable(), ["pair", Self.bumblePeripheral, "--json", "--snoop", snoop] + common,
                                          mergingStandardError: true)
            defer { pair.stop() }
            try await Self.handOverOutOfBand(cell, from: pair, to: peer, count: 1)
            try await Self.forwardPasskey(cell, ourSide: pair, displaying: cell.weDisplay(asCentral: true), to: peer)
            if cell.fails {
                let failure = try #require(await pair.lines.line(containing: "Pairing failed", seconds: patience), "\(pair.lines.all)")
                #expect(failure.contains("Confirm Value Failed (0x04)"))
                if cell.wrongOutOfBand {
                    // SC: we hold Bumble's changed C and check it; legacy: Bumble, the responder, checks Mconfirm.
                    #expect(failure.contains(cell.secureConnections ? "we sent" : "the device sent"), "\(failure)")
                }
                let theirs = try #require(await peer.event("failed", seconds: patience), "\(peer.lines.all)")
                #expect(theirs["reason"] as? Int == 4)
                await Self.exited(pair)
                return
            }
            let line = try #require(await pair.lines.line(containing: "\"event\": \"paired\"", seconds: patience), "\(pair.lines.all)")
            let outcome = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(outcome["method"] as? String == cell.methodName)
            #expect(outcome["level"] as? Int == cell.level)
            #expect(outcome["keySize"] as? Int == 16)
            #expect(outcome["sc"] as? Bool == cell.secureConnections)
            #expect(outcome["bonded"] as? Bool == cell.bonding)
            #expect(outcome["saved"] as? Bool == cell.bonding)
            let theirs = try #require(await peer.event("paired", seconds: patience), "\(peer.lines.all)")
            #expect(theirs["sc"] as? Bool == cell.secureConnections)
            if cell.model == .numericComparison {
                // Both users were shown the same number.
                let ours = await pair.lines.line(containing: "compare", seconds: patience)
                let number = (await peer.event("compare", seconds: patience))?["value"] as? Int
                #expect(ours.flatMap { shownDigits($0, event: "compare") }.flatMap { Int($0) } == number, "\(pair.lines.all)")
            }
            await Self.exited(pair)
            try await expectCleanCapture(snoop)

            // Reconnect and read the protected value: with a bond the link is encrypted with
            // the stored key, without one the refused read pairs again (the upgrade handler).
            let read = try InteropProcess(try interopBLEExecutable(), ["gatt", "read", Self.bumblePeripheral,
                                                                        String(format: "0x%04X", handle), "--mtu", "23"] + common,
                                          mergingStandardError: true)
            defer { read.stop() }
            try await Self.handOverOutOfBand(cell, from: read, to: peer, count: 2)
            try await Self.forwardPasskey(cell, ourSide: read, displaying: cell.weDisplay(asCentral: true) && !cell.bonding, to: peer)
            #expect(await read.lines.line(containing: Self.secretHex, seconds: patience) != nil, "\(read.lines.all)")
            await Self.exited(read)
            #expect(read.lines.all.contains { $0.contains("Encrypted with the stored bond") } == cell.bonding, "\(read.lines.all)")
            // Bumble prints the second link's events on its own output, which can come after
            // our read has exited: wait for them (at most `patience`) before counting.
            await peer.waitForEvents("encrypted", count: 2, seconds: patience)
            let pairings = peer.events.filter { $0["event"] as? String == "paired" }.count
            let encryptions = peer.events.filter { $0["event"] as? String == "encrypted" }.count
            #expect(pairings == (cell.bonding ? 1 : 2), "\(peer.lines.all)")
            #expect(encryptions == 2, "\(peer.lines.all)")
        }

        @Test("Bumble's central pairs with ble serve, reads the protected value, and reconnects with the bond",
              arguments: BumblePairingCase.matrix + BumblePairingCase.wrongPasskeys + BumblePairingCase.wrongOutOfBands)
        func bumbleCentral(cell: BumblePairingCase) async throws {
            let bench = try await BumbleBench(controllers: 2)
            defer { bench.stop() }
            let bonds = interopSnoopPath("serve-bonds-\(UInt32.random(in: 0 ... .max))") + ".json"
            defer { try? FileManager.default.removeItem(atPath: bonds) }
            let snoop = interopSnoopPath("pair-serve")
            var ours = cell.ours(asCentral: false)
            let theirs = cell.bumble(asCentral: true)
            let connections = cell.fails ? "1" : "2"
            // With SC OOB data to hand over, Bumble's central starts first (it prints its data, and
            // waits for ours before connecting; the value handle follows on its stdin).
            var early: InteropProcess?
            if cell.handsOverOutOfBand {
                let central = try bench.peer(on: 1, script: "bumble_pair_peer.py", [
                    "--role", "central", Self.ourAddress, "--connections", connections,
                ] + theirs)
                early = central
                let data = try #require(await central.event("oob", seconds: patience), "\(central.lines.all)")
                ours += ["--oob-peer", try #require(Self.outOfBand(data["confirm"], data["random"], tampered: false))]
            }
            defer { early?.stop() }
            let serve = try InteropProcess(try interopBLEExecutable(), [
                "serve", interopPackageRoot().appendingPathComponent("Interop/pair-server.yaml").path, "--own-address", Self.ourAddress,
                "--hci", "tcp:127.0.0.1:\(bench.ports[0])", "--snoop", snoop, "--bonds", bonds,
            ] + ours, mergingStandardError: true)
            defer { serve.stop() }
            let database = try #require(await serve.event("database", seconds: patience), "\(serve.lines.all)")
            let handle = try #require(Self.valueHandle(in: database), "\(database)")
            #expect(await serve.event("advertising", seconds: patience) != nil, "\(serve.lines.all)")
            let central: InteropProcess
            if let early {
                central = early
                central.send("handle \(handle)")
                // Our data as ble serve logged it; a wrong-value cell changes a bit of our C.
                let data = try #require(await serve.event("oob", seconds: patience), "\(serve.lines.all)")
                central.send("oob " + (try #require(Self.outOfBand(data["confirm"], data["random"], tampered: cell.wrongOutOfBand))))
            } else {
                central = try bench.peer(on: 1, script: "bumble_pair_peer.py", [
                    "--role", "central", Self.ourAddress, "--handle", "\(handle)", "--connections", connections,
                ] + theirs)
            }
            defer { central.stop() }
            try await Self.forwardPasskey(cell, ourSide: serve, displaying: cell.weDisplay(asCentral: false), to: central, times: cell.bonding ? 1 : 2)
            let done = try #require(await central.event("done", seconds: patience), "\(central.lines.all)\n\(serve.lines.all)")
            if cell.fails {
                #expect((await central.event("failed", seconds: patience))?["reason"] as? Int == 4, "\(central.lines.all)")
                let failed = try #require(await serve.event("pairingFailed", seconds: patience), "\(serve.lines.all)")
                #expect(failed["reason"] as? Int == 4)
                if cell.wrongOutOfBand {
                    // SC: Bumble holds our changed C and checks it; legacy: we, the responder, check Mconfirm.
                    #expect(failed["sent"] as? Bool == !cell.secureConnections, "\(failed)")
                }
                serve.stop()
                return
            }
            #expect(done["pairings"] as? Int == (cell.bonding ? 1 : 2), "\(central.lines.all)")
            let reads = central.events.filter { $0["event"] as? String == "read" }.compactMap { $0["value"] as? String }
            #expect(reads == [Self.secretHex, Self.secretHex], "\(central.lines.all)")
            let paired = try #require(await serve.event("paired", seconds: patience), "\(serve.lines.all)")
            #expect(paired["method"] as? String == cell.methodName)
            #expect(paired["level"] as? Int == cell.level)
            #expect(paired["sc"] as? Bool == cell.secureConnections)
            #expect(paired["bonded"] as? Bool == cell.bonding)
            #expect(paired["saved"] as? Bool == cell.bonding)
            let encrypted = serve.events.filter { $0["event"] as? String == "encrypted" }
            #expect(encrypted.count == 2, "\(serve.lines.all)")
            #expect(encrypted.allSatisfy { $0["level"] as? Int == cell.level }, "\(serve.lines.all)")
            serve.stop()
            try await expectCleanCapture(snoop)
        }

        /// When our side displays a passkey, types it into Bumble (its stdin: `passkey N`),
        /// or the wrong one for a wrong-passkey cell.
        static func forwardPasskey(_ cell: BumblePairingCase, ourSide: InteropProcess, displaying: Bool, to bumble: InteropProcess,
                                   times: Int = 1) async throws {
            guard displaying else { return }
            for index in 0 ..< times {
                // The n-th "passkey N" line: wait until that many were printed.
                var shown: [String] = []
                for _ in 0 ..< 600 where shown.count <= index {
                    shown = ourSide.lines.all.compactMap { shownDigits($0, event: "passkey") }
                    if shown.count <= index { try await Task.sleep(for: .milliseconds(100)) }  // polling the child's output in a test
                }
                let digits = try #require(shown.count > index ? shown[index] : nil, "\(ourSide.lines.all)")
                bumble.send(cell.wrongPasskey ? "passkey \(BumblePairingCase.wrong)" : "passkey \(digits)")
            }
        }

        /// `C:R` from an "oob" event's confirm and random (32 hex digits each, most significant
        /// first); `tampered` flips the lowest bit of C.
        static func outOfBand(_ confirm: Any?, _ random: Any?, tampered: Bool) -> String? {
            guard var confirm = confirm as? String, let random = random as? String, confirm.count == 32, random.count == 32,
                  let last = confirm.last?.hexDigitValue else { return nil }
            if tampered { confirm = String(confirm.dropLast()) + String(last ^ 1, radix: 16) }
            return "\(confirm):\(random)"
        }

        /// Secure Connections OOB from our command (`ble pair`/`ble gatt` with `--oob-show`): reads
        /// the `oob address … c C r R …` line, gives C:R to Bumble's stdin, waits until Bumble has
        /// taken it (its `count`-th "oobPeer" event), then presses Return for our command.
        static func handOverOutOfBand(_ cell: BumblePairingCase, from ours: InteropProcess, to bumble: InteropProcess,
                                      count: Int) async throws {
            guard cell.handsOverOutOfBand else { return }
            let line = try #require(await ours.lines.line(containing: "oob address", seconds: patience), "\(ours.lines.all)")
            let words = line.split(separator: " ").map(String.init)
            let confirm = words.firstIndex(of: "c").flatMap { $0 + 1 < words.count ? words[$0 + 1] : nil }
            let random = words.firstIndex(of: "r").flatMap { $0 + 1 < words.count ? words[$0 + 1] : nil }
            bumble.send("oob " + (try #require(outOfBand(confirm, random, tampered: false), "\(line)")))
            for _ in 0 ..< 600 where bumble.events.filter({ $0["event"] as? String == "oobPeer" }).count < count {
                try await Task.sleep(for: .milliseconds(100))  // polling the child's output in a test
            }
            #expect(bumble.events.filter { $0["event"] as? String == "oobPeer" }.count >= count, "\(bumble.lines.all)")
            ours.send("")
        }

        /// Waits until `process` closed its output (it exited), at most `patience` seconds.
        static func exited(_ process: InteropProcess) async {
            _ = await process.lines.line(containing: "\u{1}never printed", seconds: patience)
        }

        /// The value handle of the protected characteristic in `ble serve`'s database document.
        static func valueHandle(in database: [String: Any]) -> Int? {
            let services = database["services"] as? [[String: Any]] ?? []
            let characteristics = services.flatMap { $0["characteristics"] as? [[String: Any]] ?? [] }
            return characteristics.first { ($0["uuid"] as? String)?.uppercased() == "D7A30001-6C5A-4A7E-9B1E-5F0C2A9E00F1" }?["valueHandle"] as? Int
        }
    }
}

/// The six digits of a line `ble` prints to show a passkey or a number to compare: `passkey
/// 012345` on a terminal, `{"event": "passkey", "passkey": "012345"}` among JSON lines.
func shownDigits(_ line: some StringProtocol, event: String) -> String? {
    if let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] {
        return object["event"] as? String == event ? object[event] as? String : nil
    }
    guard line.hasPrefix(event + " ") else { return nil }
    return String(line).split(separator: " ").last.map(String.init)
}
