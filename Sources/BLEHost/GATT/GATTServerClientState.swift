import BLEWire

extension GATTServer {
    /// What the server knows about one client (one connection).
    struct ClientState: Sendable {
        /// ATT_MTU: 23 until an Exchange MTU (Core 5.4, Vol 3, Part F, §3.2.8).
        var mtu = GATTServer.defaultMTU
        /// Whether the client has sent its one Exchange MTU Request (§3.4.2.1).
        var hasExchangedMTU = false
        /// Configurations, features and signing key: what a bond keeps.
        var record = GATTServerClientRecord()
        /// Whether the app authorized this client (Part F, §3.2.5).
        var isAuthorized = false
        /// Prepared writes waiting for Execute Write (§3.4.6).
        var prepareQueue: [PreparedWrite] = []
        /// A request waiting for the app's answer; one at most, as a client has at most
        /// one request outstanding (§3.3.2).
        var parked: ParkedRequest?
    }

    /// One Prepare Write Request's part.
    struct PreparedWrite: Sendable {
        let handle: ATT.Handle
        let offset: Int
        let value: [UInt8]
    }

    /// Which value an app read answers: reads at different offsets are different answers.
    struct ReadKey: Hashable, Sendable {
        let handle: ATT.Handle
        let offset: Int
    }

    /// A request held until the app answers.
    enum ParkedRequest: Sendable {
        /// A read-type request, run again with every answer so far until it completes.
        case read(ParkedRead)
        /// A Write Request to a dynamic value.
        case write(id: GATTAppRequest.ID, handle: ATT.Handle)
        /// An Execute Write Request whose dynamic parts the app is writing.
        case execute(ParkedExecute)
    }

    /// A read-type request and the app's answers so far.
    struct ParkedRead: Sendable {
        let request: ATT.PDU
        let security: LinkSecurity
        var answers: [ReadKey: Result<[UInt8], ATT.ErrorCode>]
        let awaiting: GATTAppRequest.ID
        let awaitingKey: ReadKey
    }

    /// An Execute Write Request: the app writes in flight and the writes the server
    /// applies once they all succeed.
    struct ParkedExecute: Sendable {
        /// The app writes, in queue order, with their answers once given.
        var appWrites: [(id: GATTAppRequest.ID, handle: ATT.Handle, error: ATT.ErrorCode?, answered: Bool)]
        /// Validated new values of server-held attributes, in queue order.
        let staged: [(handle: ATT.Handle, value: [UInt8])]
    }

    /// How a read-type request went: a PDU to send, or a value only the app knows.
    enum ReadOutcome {
        case response([UInt8])
        case needsApp(ReadKey)
    }

    /// A value as the server can give it: octets, an error, or "ask the app".
    enum ValueLookup {
        case value([UInt8])
        case error(ATT.ErrorCode)
        case needsApp
    }
}
