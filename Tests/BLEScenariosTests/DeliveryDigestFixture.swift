import Foundation

/// What every scenario in Scenarios/ delivered in its first ``DeliveryDigestTests/seconds``
/// simulated seconds. Written by `SWIFTBLE_RECORD_DELIVERY=1 swift test --filter DeliveryDigestTests`.
enum DeliveryDigestFixture {
    static let recorded: [String: DeliveryDigest] = [
        "bus-fleet": DeliveryDigest(receptions: 81, transmissions: 2181, collisions: 0,
                                   receptionDigest: 0x2f52ae77292b9554, timelineDigest: 0xc2e67c3704bfc46b),
        "bus-route": DeliveryDigest(receptions: 389, transmissions: 3438, collisions: 0,
                                   receptionDigest: 0xf225d4099f0df8c9, timelineDigest: 0x1547e283083dfca3),
        "bus-route-pocket": DeliveryDigest(receptions: 216, transmissions: 3438, collisions: 0,
                                   receptionDigest: 0xd1c2a7b413a75fb, timelineDigest: 0xca796bdf617becdc),
        "bus-stop": DeliveryDigest(receptions: 186, transmissions: 2289, collisions: 0,
                                   receptionDigest: 0xc1a193d4a2ffc121, timelineDigest: 0x8bdb5211a2fdea4f),
        "bus-stop-coded": DeliveryDigest(receptions: 384, transmissions: 764, collisions: 0,
                                   receptionDigest: 0xecb41febb9020bd, timelineDigest: 0x8186f176985dba5c),
        "bus-stop-pocket": DeliveryDigest(receptions: 72, transmissions: 573, collisions: 0,
                                   receptionDigest: 0x6237c4564c8f3849, timelineDigest: 0x45a696272d1c7282),
        "call-notification-light": DeliveryDigest(receptions: 0, transmissions: 0, collisions: 0,
                                   receptionDigest: 0x0, timelineDigest: 0xbc6a492583d3baad),
        "car": DeliveryDigest(receptions: 11, transmissions: 633, collisions: 0,
                                   receptionDigest: 0x58d9730e47692099, timelineDigest: 0x4df2bd9e804b36f9),
        "car-pocket": DeliveryDigest(receptions: 1, transmissions: 633, collisions: 0,
                                   receptionDigest: 0xfb1f21f2beb80af0, timelineDigest: 0x762d768b6e204ef8),
        "car-pocket-20": DeliveryDigest(receptions: 0, transmissions: 630, collisions: 0,
                                   receptionDigest: 0x0, timelineDigest: 0xce19b451c7be3bff),
        "cheating": DeliveryDigest(receptions: 762, transmissions: 1146, collisions: 0,
                                   receptionDigest: 0x798a728f1ff48ad5, timelineDigest: 0x47e8a51daf150e6f),
        "crowd": DeliveryDigest(receptions: 7582, transmissions: 68621, collisions: 15277,
                                   receptionDigest: 0xadd60ae32fffd45b, timelineDigest: 0x16eb6e63df0e0078),
        "flat": DeliveryDigest(receptions: 122, transmissions: 294, collisions: 0,
                                   receptionDigest: 0xb800e6ad5aaa8f25, timelineDigest: 0x1c1ff16442de59d9),
        "heart-rate-force-quit": DeliveryDigest(receptions: 0, transmissions: 572, collisions: 0,
                                   receptionDigest: 0x0, timelineDigest: 0x69919180bed9bfe9),
        "heart-rate-restore": DeliveryDigest(receptions: 0, transmissions: 572, collisions: 0,
                                   receptionDigest: 0x0, timelineDigest: 0xf639961fb707f062),
        "heart-rate-run": DeliveryDigest(receptions: 0, transmissions: 1146, collisions: 0,
                                   receptionDigest: 0x0, timelineDigest: 0xb0b07d79dca0daa),
        "neighbourhood": DeliveryDigest(receptions: 3, transmissions: 3445, collisions: 0,
                                   receptionDigest: 0xa4459c2ca9b013fe, timelineDigest: 0x5961dc931175ea89),
        "ride-log": DeliveryDigest(receptions: 0, transmissions: 3432, collisions: 0,
                                   receptionDigest: 0x0, timelineDigest: 0xc5abf86beb386e9),
        "shop": DeliveryDigest(receptions: 44, transmissions: 705, collisions: 1,
                                   receptionDigest: 0xcb4b1399294eb7da, timelineDigest: 0x498a079b9157ba4),
        "stolen-car": DeliveryDigest(receptions: 0, transmissions: 294, collisions: 0,
                                   receptionDigest: 0x0, timelineDigest: 0x7359e2a3e0a68b10),
        "walk": DeliveryDigest(receptions: 263, transmissions: 573, collisions: 0,
                                   receptionDigest: 0x3dd572f927b4e541, timelineDigest: 0xeba1da35f58005c1),
    ]

    /// Writes this file again with `measured`.
    static func write(_ measured: [String: DeliveryDigest], to file: URL) throws {
        var lines = [
            "import Foundation",
            "",
            "/// What every scenario in Scenarios/ delivered in its first ``DeliveryDigestTests/seconds``",
            "/// simulated seconds. Written by `SWIFTBLE_RECORD_DELIVERY=1 swift test --filter DeliveryDigestTests`.",
            "enum DeliveryDigestFixture {",
            "    static let recorded: [String: DeliveryDigest] = [",
        ]
        for (name, digest) in measured.sorted(by: { $0.key < $1.key }) {
            lines.append("        \"\(name)\": DeliveryDigest(receptions: \(digest.receptions), transmissions: \(digest.transmissions), "
                + "collisions: \(digest.collisions),")
            lines.append("                                   receptionDigest: 0x\(String(digest.receptionDigest, radix: 16)), "
                + "timelineDigest: 0x\(String(digest.timelineDigest, radix: 16))),")
        }
        lines += ["    ]", "", ""]
        let source = try String(contentsOf: file, encoding: .utf8)
        guard let writer = source.range(of: "    /// Writes this file again") else { return }
        try (lines.joined(separator: "\n") + source[writer.lowerBound...]).write(to: file, atomically: true, encoding: .utf8)
    }
}
