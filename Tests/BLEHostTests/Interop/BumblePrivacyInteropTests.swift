import BLEHost
import BLETransport
import BLEWire
import Foundation
import Testing

extension BumbleInterop {
    /// Privacy against Bumble 0.0.236: a Bumble host with LE privacy advertises from
    /// resolvable private addresses of its IRK; our `Host` runs on a stock Bumble controller,
    /// which claims LL Privacy and takes the resolving list but ignores it
    /// (docs/bumble-quirks.md), so our host must notice and resolve in the host.
    @Suite("Privacy against Bumble")
    struct BumblePrivacyInteropTests {
        static let bumbleIRK: UInt128 = 0x4142_4344_4546_4748_494A_4B4C_4D4E_4F50
        static let bumbleIdentity = BluetoothAddress(0xC05B_0000_0009, kind: .random)
        static let ourIRK: UInt128 = 0x5152_5354_5556_5758_595A_5B5C_5D5E_5F60

        @Test("a bonded Bumble peer's rotating private addresses are resolved in our host to its identity; Bumble's controller is detected as not resolving")
        func resolvesBumblePeerInHost() async throws {
            let link = try await BumbleControllerInteropTests.Link()
            defer { link.controllers.stop() }
            let transport = try await InteropTransport(port: link.ports[0])
            // Bumble never answers LE Read Local Resolvable Address (docs/bumble-quirks.md):
            // the probe costs one command timeout, so a short one (3 s, as a real host's 2 s).
            let host = Host(transport: transport, configuration: HCIDriverConfiguration(commandTimeout: 3_000_000))
            _ = try await host.start()
            try await host.enablePrivacy(irk: Self.ourIRK, rotation: .seconds(30))
            await host.setResolvingList([ResolvingListEntry(identityAddress: Self.bumbleIdentity, identityResolvingKey: Self.bumbleIRK)])
            #expect(await !host.resolvesAddressesInController, "Bumble's controller ignores the list: resolved in the host")

            let hex = String(Self.bumbleIRK, radix: 16).leftPadded(32)
            let peer = try InteropProcess(link.python, [
                interopPackageRoot().appendingPathComponent("Interop/bumble_privacy_peer.py").path,
                "--port", "\(link.ports[1])", "--irk", hex, "--address", "\(Self.bumbleIdentity)", "--rpa-timeout", "2",
            ])
            defer { peer.stop() }
            let advertising = try #require(await peer.event("advertising", seconds: patience), "\(peer.lines.all)")
            let text = try #require(advertising["address"] as? String)
            let first = try #require(BluetoothAddress(String(text.prefix(17)), kind: .random))
            #expect(try ResolvablePrivateAddress.matches(first, irk: Self.bumbleIRK), "Bumble advertises a private address of its IRK")

            let reports = try await host.startScanning(GAPScanParameters(active: false, allowDuplicates: true))
            let before = try await firstElement(of: reports, within: patience) { $0.data.localName == "BumblePrivate" }
            #expect(before.address == Self.bumbleIdentity)
            #expect(before.addressType == .randomIdentity)
            // After Bumble's next address, still its identity.
            _ = try #require(await peer.event("rotated", seconds: patience), "Bumble did not rotate: \(peer.lines.all)")
            let after = try await firstElement(of: reports, within: patience) { report in
                report.data.localName == "BumblePrivate" && report.time > before.time
            }
            #expect(after.address == Self.bumbleIdentity)
            try await host.stopScanning()
            await host.close()
        }
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
