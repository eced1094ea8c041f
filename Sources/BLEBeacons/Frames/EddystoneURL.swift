/// An Eddystone-URL frame (google/eddystone, eddystone-url): frame type 0x10, TX power at
/// 0 m, a URL scheme prefix code and 1 to 17 octets of compressed URL.
///
/// Compression: the prefix code stands for `http://www.` (0), `https://www.` (1),
/// `http://` (2) or `https://` (3); in the rest, codes 0x00–0x0D stand for `.com/`,
/// `.org/`, `.edu/`, `.net/`, `.info/`, `.biz/`, `.gov/` and the same seven without the
/// slash; other octets are the URL's printable US-ASCII characters (0x21–0x7E). Codes
/// 0x0E–0x20 and 0x7F–0xFF are reserved, so a frame holding one is not an Eddystone-URL.
public struct EddystoneURL: Hashable, Sendable {
    /// The scheme prefixes, indexed by their code.
    public static let schemePrefixes = ["http://www.", "https://www.", "http://", "https://"]
    /// The expansions of codes 0x00–0x0D, indexed by code.
    public static let expansions = [".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/",
                                    ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov"]
    /// The most octets of compressed URL after the scheme code.
    public static let maximumEncodedLength = 17

    /// The calibrated TX power at 0 m, in dBm.
    public var txPower: Int8
    /// The scheme prefix code, 0–3.
    public private(set) var schemeCode: UInt8
    /// The compressed URL after the scheme code, as sent.
    public private(set) var encodedURL: [UInt8]

    /// Compresses `url` (the longest matching scheme prefix, then the longest expansion at
    /// each position); throws when it has no `http`/`https` scheme, holds a character
    /// outside printable US-ASCII, or needs more than 17 octets after the scheme.
    public init(url: String, txPower: Int8) throws(BeaconFrameError) {
        let characters = Array(url.utf8)
        var scheme: (code: Int, length: Int)?
        for (code, prefix) in Self.schemePrefixes.enumerated() where characters.starts(with: prefix.utf8) {
            if prefix.utf8.count > (scheme?.length ?? 0) { scheme = (code, prefix.utf8.count) }
        }
        guard let scheme else {
            throw BeaconFrameError(format: "Eddystone-URL", field: "url", reason: .unencodable("\"\(url)\" starts with none of http://, https://"))
        }
        var encoded: [UInt8] = []
        var index = scheme.length
        while index < characters.count {
            let rest = characters[index...]
            var best: (code: Int, length: Int)?
            for (code, expansion) in Self.expansions.enumerated() where rest.starts(with: expansion.utf8) {
                if expansion.utf8.count > (best?.length ?? 0) { best = (code, expansion.utf8.count) }
            }
            if let best {
                encoded.append(UInt8(best.code))
                index += best.length
                continue
            }
            let character = characters[index]
            guard (0x21 ... 0x7E).contains(character) else {
                throw BeaconFrameError(format: "Eddystone-URL", field: "url",
                                       reason: .unencodable("character 0x\(String(character, radix: 16)) is not printable US-ASCII"))
            }
            encoded.append(character)
            index += 1
        }
        guard (1 ... Self.maximumEncodedLength).contains(encoded.count) else {
            throw BeaconFrameError(format: "Eddystone-URL", field: "url",
                                   reason: .unencodable("compresses to \(encoded.count) octet(s); the frame holds 1 to 17"))
        }
        self.txPower = txPower
        schemeCode = UInt8(scheme.code)
        encodedURL = encoded
    }

    /// Decodes service data after the UUID: frame type 0x10, TX power, a scheme code of
    /// 0–3 and 1 to 17 octets free of reserved codes.
    public init(serviceData data: ArraySlice<UInt8>) throws(BeaconFrameError) {
        try EddystoneFrame.checkLength(data, 4 ... 3 + Self.maximumEncodedLength, format: "Eddystone-URL")
        var cursor = OctetCursor(data)
        let type = cursor.uint8()
        guard type == EddystoneFrame.urlType else {
            throw BeaconFrameError(format: "Eddystone-URL", field: "frameType", reason: .wrongType(UInt64(type)))
        }
        txPower = cursor.int8()
        schemeCode = cursor.uint8()
        guard Int(schemeCode) < Self.schemePrefixes.count else {
            throw BeaconFrameError(format: "Eddystone-URL", field: "schemeCode", reason: .reservedValue(UInt64(schemeCode)))
        }
        encodedURL = Array(cursor.remaining)
        for octet in encodedURL where !(Int(octet) < Self.expansions.count || (0x21 ... 0x7E).contains(octet)) {
            throw BeaconFrameError(format: "Eddystone-URL", field: "encodedURL", reason: .reservedValue(UInt64(octet)))
        }
    }

    /// The URL, expanded.
    public var url: String {
        var text = Self.schemePrefixes[Int(schemeCode) % Self.schemePrefixes.count]
        for octet in encodedURL {
            if Int(octet) < Self.expansions.count {
                text += Self.expansions[Int(octet)]
            } else {
                text.unicodeScalars.append(Unicode.Scalar(octet))
            }
        }
        return text
    }

    /// The service data after the UUID.
    public var serviceData: [UInt8] {
        [EddystoneFrame.urlType, UInt8(bitPattern: txPower), schemeCode] + encodedURL
    }
}
