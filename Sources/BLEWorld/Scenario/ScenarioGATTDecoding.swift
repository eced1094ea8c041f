// The `gatt:` list of a scenario device: the standard services a real host serves on it.

import BLEWire

extension DeviceSection {
    /// The profile names of `gatt: [heart-rate, battery]`, or none without the key. The
    /// names stay strings here (the world knows no services); the host that serves them
    /// refuses unknown ones when it starts. A device that serves GATT must advertise
    /// connectably (`type: ind`), or no central could ever reach its server, and a random
    /// address of its must be static: its host sets it as its random static address
    /// (Core 5.4, Vol 3, Part C, §10.8.1), which a private one is not.
    static func gattProfiles(_ fields: YAMLFields, address: BluetoothAddress?, advertising: ScenarioAdvertising?,
                             explicitHost: ScenarioDevice.HostKind?) throws -> [String] {
        guard fields.has("gatt") else { return [] }
        let names = try fields.optional("gatt", [String].self, expected: "a list of standard service names") ?? []
        guard !names.isEmpty else {
            throw fields.error("gatt", "the list is empty; name at least one standard service (e.g. battery) or leave gatt out")
        }
        if let blank = names.firstIndex(where: { $0.trimmingWhitespace().isEmpty }) {
            throw fields.error("gatt", "entry \(blank + 1) is empty; give a standard service's name such as heart-rate")
        }
        if let duplicate = names.enumerated().first(where: { names[..<$0.offset].contains($0.element) }) {
            throw fields.error("gatt", "\"\(duplicate.element)\" is listed twice; each service is served once")
        }
        if let explicitHost {
            throw fields.error("host", "a device with host: \(explicitHost.rawValue) cannot also have gatt "
                               + "(its GATT server is that host's)")
        }
        guard let advertising else {
            throw fields.error("gatt", "a device that serves GATT needs advertise (type: ind) so that centrals can find "
                               + "and connect to it")
        }
        guard advertising.kind == .ind else {
            throw fields.error("gatt", "a device that serves GATT must advertise connectably (type: ind), not "
                               + advertising.kind.rawValue)
        }
        if let address, let subtype = address.randomSubtype, subtype != .static {
            throw fields.error("address", "\(address) is a private random address (top bits "
                               + (subtype == .resolvablePrivate ? "01" : "00") + "); a device that serves GATT "
                               + "advertises with a random static one, starting C0–FF")
        }
        return names
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    fileprivate func trimmingWhitespace() -> Substring {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else { return "" }
        return self[first ... last]
    }
}
