import BLEHost

/// The habits of a host that differ from one system to another while the specification
/// allows each: the ATT MTU it offers, the connection parameters it starts a link with, and
/// how it answers a peripheral's request for others.
public struct HostProfile: Hashable, Sendable {
    /// The ATT receive MTU offered in the MTU exchange (Core 5.4, Vol 3, Part F, §3.4.2).
    public var attMTU: Int
    /// How connection parameter requests of peripherals are answered (Vol 3, Part A, §4.20).
    public var parameterUpdates: ConnectionParameterUpdatePolicy
    /// The parameters a central connection starts with.
    public var initialConnection: ConnectionParameterRequest
    /// The LL data length (payload octets) asked for once a link is up, if any
    /// (``Connection/requestDataLength(octets:)``).
    public var dataLength: Int?
    /// Whether a write without response longer than one Write Command carries (ATT_MTU − 3)
    /// is cut to that length and sent without a word, as Core Bluetooth did in the iOS 7
    /// era; otherwise the longer write is not sent.
    public var cutsLongWritesWithoutResponse: Bool

    /// A profile.
    public init(attMTU: Int, parameterUpdates: ConnectionParameterUpdatePolicy, initialConnection: ConnectionParameterRequest,
                dataLength: Int? = nil, cutsLongWritesWithoutResponse: Bool = false) {
        self.attMTU = attMTU
        self.parameterUpdates = parameterUpdates
        self.initialConnection = initialConnection
        self.dataLength = dataLength
        self.cutsLongWritesWithoutResponse = cutsLongWritesWithoutResponse
    }

    /// SwiftBLE's own: the largest MTU (517), every valid request accepted, the default
    /// connection parameters.
    public static let standard = HostProfile(attMTU: 517, parameterUpdates: .acceptValid, initialConnection: ConnectionParameterRequest())

    /// An iPhone's, as observed (iOS research §9, rules 18 and 19): ATT MTU 185, requests
    /// checked against the Accessory Design Guidelines, links started at a 30 ms interval,
    /// latency 0, a 720 ms supervision timeout, and an LL data length update to 251 octets.
    public static let iPhone = HostProfile(
        attMTU: 185, parameterUpdates: .accessoryDesignGuidelines,
        initialConnection: ConnectionParameterRequest(interval: .milliseconds(30) ... .milliseconds(30), latency: 0,
                                                      supervisionTimeout: .milliseconds(720)),
        dataLength: 251)

    /// An iPhone of the iOS 7 era: ATT MTU 23, the specification's minimum, so no larger MTU
    /// is agreed (Apple "would only support the minimum" when it started: Stack Overflow
    /// question 24349945, iOS 7.0 and 7.1.1; a write with response of 124 octets still went
    /// through as a long write), no LL data length update (LE Data Packet Length Extension
    /// came with Bluetooth 4.2 and the iPhone 6), and writes without response past 20 octets
    /// silently cut, as the field reports of the time describe. Connection parameters as
    /// ``iPhone``.
    public static let iPhoneIOS7 = HostProfile(
        attMTU: 23, parameterUpdates: .accessoryDesignGuidelines, initialConnection: iPhone.initialConnection,
        dataLength: nil, cutsLongWritesWithoutResponse: true)
}
