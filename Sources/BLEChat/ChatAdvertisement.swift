import Foundation

/// What a chat device puts in its advertised local name: its display name, its
/// ``ChatDeviceID`` and, while it waits as the peripheral of a session, the identifier of
/// the partner it invites — `"Alice#0A1B2C3D"` or `"Alice#0A1B2C3D>5E6F7081"`.
///
/// Core Bluetooth's peripheral manager advertises only a local name and service UUIDs
/// (`CBAdvertisementDataLocalNameKey`, `CBAdvertisementDataServiceUUIDsKey`), so the name
/// is the one place for app data. With one 128-bit service UUID in the advertisement the
/// name goes to the scan response, whose 31 bytes leave 29 for it (Core 5.4, Vol 3,
/// Part C, §11; Supplement Part A, §1.2): 18 for the identifiers and separators, 11 for the
/// display name, which is cut to fit.
public struct ChatAdvertisement: Hashable, Sendable {
    /// The longest display name carried; longer ones are cut (in UTF-8 bytes, at a
    /// character boundary).
    public static let maximumNameBytes = 11

    /// The display name the user chose (possibly cut).
    public var name: String
    /// The advertiser's identifier.
    public var device: ChatDeviceID
    /// The partner this device waits for as the peripheral of a session, if any.
    public var invites: ChatDeviceID?

    /// An advertisement's content; `name` is cut to ``maximumNameBytes``.
    public init(name: String, device: ChatDeviceID, invites: ChatDeviceID? = nil) {
        self.name = Self.cut(name.replacingOccurrences(of: "#", with: ""))
        self.device = device
        self.invites = invites
    }

    /// The local name to advertise.
    public var localName: String {
        var text = name + "#" + device.description
        if let invites { text += ">" + invites.description }
        return text
    }

    /// Decodes an advertised local name; `nil` when it is not a chat device's.
    public init?(localName: String) {
        guard let hash = localName.lastIndex(of: "#") else { return nil }
        let tail = localName[localName.index(after: hash)...]
        let parts = tail.split(separator: ">", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, let device = ChatDeviceID(parts[0]) else { return nil }
        var invites: ChatDeviceID?
        if parts.count == 2 {
            guard let invited = ChatDeviceID(parts[1]) else { return nil }
            invites = invited
        }
        self.name = String(localName[..<hash])
        self.device = device
        self.invites = invites
    }

    private static func cut(_ name: String) -> String {
        var result = ""
        for character in name {
            if result.utf8.count + String(character).utf8.count > maximumNameBytes { break }
            result.append(character)
        }
        return result
    }
}
