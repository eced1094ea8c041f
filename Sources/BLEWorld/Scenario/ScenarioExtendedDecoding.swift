import BLEController
import BLEWire

// The YAML form of Bluetooth 5 advertising and scanning: `advertise`'s extended, phy,
// secondaryPHY and codedS, and `scan`'s extended, phy and phys.

/// The keys that make a device's advertising or scanning extended, and their checks.
enum ExtendedKeys {
    /// `advertise`'s keys for an extended set.
    static let advertising = ["extended", "phy", "secondaryPHY", "codedS"]
    /// `scan`'s keys for an extended scan.
    static let scanning = ["extended", "phy", "phys"]

    /// A PHY named by `text`, else an error on field `name` listing `allowed`.
    static func phy(_ text: String, field name: String, allowed: [ScenarioPHY], in fields: YAMLFields,
                    why: String = "") throws -> ScenarioPHY {
        guard let phy = ScenarioPHY(rawValue: text.lowercased()), allowed.contains(phy) else {
            throw fields.error(name, "\"\(text)\" is not a PHY \(why)here; use "
                               + allowed.map(\.rawValue).joined(separator: " or "))
        }
        return phy
    }

    /// Whether the mapping asks for the extended commands: `extended: true`, or any of
    /// `phyKeys` (a PHY implies them); an error when it says `extended: false` beside a PHY key.
    static func isExtended(_ fields: YAMLFields, phyKeys: [String]) throws -> Bool {
        let phyKey = phyKeys.first(where: fields.has)
        guard let extended = try fields.optional("extended", Bool.self, expected: "true or false") else { return phyKey != nil }
        if !extended, let phyKey {
            throw fields.error(phyKey, "\(phyKey) needs the extended commands (the legacy ones use LE 1M only); drop extended: false")
        }
        return extended
    }

    /// The extended set `advertise` describes, or `nil` for legacy advertising.
    static func advertising(_ fields: YAMLFields) throws -> ScenarioAdvertising.Extended? {
        guard try isExtended(fields, phyKeys: ["phy", "secondaryPHY", "codedS"]) else { return nil }
        var primary = ScenarioPHY.le1M
        if let text = try fields.optional("phy", String.self, expected: "1m or coded") {
            primary = try phy(text, field: "phy", allowed: [.le1M, .leCoded], in: fields,
                              why: "for ADV_EXT_IND (LE 2M carries only the secondary channels' PDUs) ")
        }
        var secondary = primary
        if let text = try fields.optional("secondaryPHY", String.self, expected: "1m, 2m or coded") {
            secondary = try phy(text, field: "secondaryPHY", allowed: ScenarioPHY.allCases, in: fields)
        }
        var coding = LECoding.s8
        if let value = try fields.integer("codedS", Int.self) {
            guard let given = LECoding(rawValue: value) else {
                throw fields.error("codedS", "\(value) is not a coding of LE Coded; use 2 (500 kb/s) or 8 (125 kb/s, the longest reach)")
            }
            guard primary == .leCoded || secondary == .leCoded else {
                throw fields.error("codedS", "codedS applies to LE Coded; set phy: coded or secondaryPHY: coded, or drop codedS")
            }
            coding = given
        }
        return ScenarioAdvertising.Extended(primaryPHY: primary, secondaryPHY: secondary, coding: coding)
    }

    /// The PHYs of the extended scan `scan` describes, or `nil` for a legacy scan.
    static func scanning(_ fields: YAMLFields) throws -> [ScenarioPHY]? {
        guard try isExtended(fields, phyKeys: ["phy", "phys"]) else { return nil }
        if fields.has("phy"), fields.has("phys") { throw fields.error("phys", "give phy (one PHY) or phys (a list), not both") }
        let texts = try fields.optional("phys", [String].self, expected: "a list of PHYs, e.g. [1m, coded]")
            ?? fields.optional("phy", String.self, expected: "1m or coded").map { [$0] } ?? ["1m"]
        let key = fields.has("phys") ? "phys" : "phy"
        var phys: [ScenarioPHY] = []
        for text in texts {
            let phy = try phy(text, field: key, allowed: [.le1M, .leCoded], in: fields, why: "to scan on (LE 2M carries no advertising on the primary channels) ")
            guard !phys.contains(phy) else { throw fields.error(key, "\(phy.rawValue) is listed twice") }
            phys.append(phy)
        }
        guard !phys.isEmpty else { throw fields.error(key, "an extended scan needs at least one PHY: 1m, coded or both") }
        // The order HCI_LE_Set_Extended_Scan_Parameters gives them (Scanning_PHYs bit order).
        return phys.sorted { $0 == .le1M && $1 == .leCoded }
    }
}
