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

    /// A profile.
    public init(attMTU: Int, parameterUpdates: ConnectionParameterUpdatePolicy, initialConnection: ConnectionParameterRequest,
                dataLength: Int? = nil) {
        self.attMTU = attMTU
        self.parameterUpdates = parameterUpdates
        self.initialConnection = initialConnection
        self.dataLength = dataLength
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
}
