extension BTSnoop {
    /// A packet as a person reads it, the way `btmon -r` prints one: its name in words
    /// ("LE Advertising Report", "ATT Read By Group Type Request") and its fields, each
    /// named and formatted — addresses with their type, RSSI in dBm, handles and opcodes in
    /// hex, data in hex, advertising data decoded into its AD structures, and the raw number
    /// beside a meaning where it helps (`Success (0x00)`).
    ///
    /// Nothing in a description is a Swift type's `description`: the families with their own
    /// describers (HCI commands and events, ATT, SMP, L2CAP signaling, advertising data) are
    /// written by hand, and anything else goes through ``PacketDescription/generic(_:)``, which
    /// walks the value with `Mirror` and names what it finds in words.
    public struct PacketDescription: Hashable, Sendable {
        /// One named value, with the values inside it (an AD structure's fields, a report of
        /// an advertising event, a bit of a flags octet) below it.
        public struct Field: Hashable, Sendable {
            /// The field's name in words: "Address", "RSSI", "Handle range".
            public var name: String
            /// The value formatted for a person; empty when only `children` say it.
            public var value: String
            /// What the value holds, indented below it.
            public var children: [Field]

            /// A field named `name` with `value` and the fields below it.
            public init(_ name: String, _ value: String, _ children: [Field] = []) {
                self.name = name
                self.value = value
                self.children = children
            }

            /// `Name: value`, or the name alone when the value is empty.
            public var text: String { value.isEmpty ? name : "\(name): \(value)" }
        }

        /// What the packet is, in words: "LE Set Scan Parameters", "Command Complete (Reset)".
        public var title: String
        /// Its fields in wire order.
        public var fields: [Field]

        /// A description titled `title` with `fields`.
        public init(_ title: String, _ fields: [Field] = []) {
            self.title = title
            self.fields = fields
        }

        /// The fields as indented lines, two spaces per level from `indent`, children below
        /// their parent, as `btmon -r` lays them out.
        public func fieldLines(indent: Int = 0) -> [String] {
            var lines: [String] = []
            func append(_ fields: [Field], depth: Int) {
                for field in fields {
                    lines.append(String(repeating: " ", count: indent + 2 * depth) + field.text)
                    append(field.children, depth: depth + 1)
                }
            }
            append(fields, depth: 0)
            return lines
        }
    }
}

extension BTSnoop.PacketDescription {
    /// `camelCase` and `UpperCamelCase` names as words: `leScanInterval` → "LE Scan
    /// Interval", `exchangeMTURequest` → "Exchange MTU Request", `numberOfCompletedPackets`
    /// → "Number of Completed Packets". Acronyms the specification spells in capitals stay so.
    /// With `sentence`, only the first word is capitalized, as `btmon` names fields:
    /// `peerAddressType` → "Peer address type".
    public static func words(_ name: String, sentence: Bool = false) -> String {
        var parts: [String] = []
        var current = ""
        let characters = Array(name.drop { $0 == "_" || $0 == "." })
        for (index, character) in characters.enumerated() {
            if character == "_" {
                if !current.isEmpty { parts.append(current) }
                current = ""
                continue
            }
            let previous = index > 0 ? characters[index - 1] : nil
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            let startsWord: Bool
            if character.isUppercase {
                // A capital after a lower-case letter or digit starts a word; so does the last
                // capital of an acronym when a lower-case letter follows (MTURequest → MTU Request).
                startsWord = (previous.map { $0.isLowercase || $0.isNumber } ?? false)
                    || ((previous?.isUppercase ?? false) && (next?.isLowercase ?? false))
            } else if character.isNumber {
                startsWord = previous.map { $0.isLetter && !acronymDigits.contains(String(current.suffix(1)) + String(character)) } ?? false
            } else {
                startsWord = false
            }
            if startsWord, !current.isEmpty {
                parts.append(current)
                current = ""
            }
            current.append(character)
        }
        if !current.isEmpty { parts.append(current) }
        let spelled = parts.enumerated().map { index, part -> String in
            if let acronym = acronyms[part.lowercased()] { return acronym }
            if index > 0, sentence || lowerCaseWords.contains(part.lowercased()) { return part.lowercased() }
            return part.prefix(1).uppercased() + part.dropFirst()
        }
        return spelled.joined(separator: " ").replacing("DH Key", with: "DHKey")
            .replacing("LE 1 M", with: "LE 1M").replacing("LE 2 M", with: "LE 2M")
    }

    /// A stored property's name as a field name: `connectionInterval` → "Connection interval".
    public static func fieldName(_ label: String) -> String { words(label, sentence: true) }

    /// Words the specification spells in capitals (or its own way), by their lower-case form.
    private static let acronyms: [String: String] = [
        "le": "LE", "att": "ATT", "smp": "SMP", "hci": "HCI", "l2cap": "L2CAP", "gatt": "GATT",
        "mtu": "MTU", "mps": "MPS", "cid": "CID", "psm": "PSM", "spsm": "SPSM", "rssi": "RSSI", "uuid": "UUID",
        "rx": "RX", "tx": "TX", "id": "ID", "io": "IO", "oob": "OOB", "mitm": "MITM", "phy": "PHY", "phys": "PHYs",
        "irk": "IRK", "ltk": "LTK", "csrk": "CSRK", "ediv": "EDIV", "rand": "Rand", "dh": "DH", "bd": "BD",
        "addr": "ADDR", "acl": "ACL", "leacl": "LE ACL", "sco": "SCO", "iso": "ISO", "lmp": "LMP", "ll": "LL", "ct2": "CT2",
        "ind": "IND", "rsp": "RSP", "req": "REQ", "br": "BR", "edr": "EDR", "p256": "P-256", "cte": "CTE",
        "sid": "SID", "ad": "AD", "ok": "OK", "ms": "ms", "dbm": "dBm",
    ]

    /// Small words kept in lower case inside a name, as the specification writes them.
    private static let lowerCaseWords: Set<String> = ["of", "and", "or", "for", "the", "in", "on"]

    /// Letter–digit pairs that belong to one word (`p256`, `ct2`, `l2cap`'s `l2`).
    private static let acronymDigits: Set<String> = ["p2", "t2", "l2", "v2", "1m", "2m"]
}
