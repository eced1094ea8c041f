/// Who plays which role in a chat session, decided from advertisements alone (sans-IO).
///
/// Every chat device advertises the discovery service with its ``ChatAdvertisement`` in
/// the local name. The first to send becomes the session's peripheral: it publishes the
/// session service and advertises an invitation naming its partner. A device that sees an
/// invitation naming it connects as the central. When two devices invite each other at
/// once, the one with the lower ``ChatDeviceID`` stays peripheral and the other gives way.
/// Once decided, roles stay for the life of the session, so a lost link is re-established
/// the same way: the peripheral keeps inviting, the central reconnects when it sees it.
public struct ChatRendezvous: Sendable {
    /// A role in the session, with the partner.
    public enum Role: Hashable, Sendable {
        /// We publish the session service and wait for `partner` to connect.
        case peripheral(partner: ChatDeviceID)
        /// We connect to `partner`'s session service.
        case central(partner: ChatDeviceID)

        /// The partner, whatever the role.
        public var partner: ChatDeviceID {
            switch self {
            case let .peripheral(partner), let .central(partner): partner
            }
        }
    }

    /// What the app should do now.
    public enum Decision: Hashable, Sendable {
        /// Nothing changes.
        case none
        /// Publish the session service and advertise an invitation to the partner.
        case invite(ChatDeviceID)
        /// Connect to the partner as central (stop inviting if we were).
        case connect(ChatDeviceID)
    }

    /// This device's identifier.
    public let me: ChatDeviceID
    /// The role taken, once decided.
    public private(set) var role: Role?
    /// Chat devices seen, with their display names.
    public private(set) var names: [ChatDeviceID: String] = [:]

    /// A device that has not chosen a role yet.
    public init(me: ChatDeviceID) {
        self.me = me
    }

    /// The user sends the first message to `partner`: become the peripheral, unless a role
    /// was taken already (then the message waits for that session).
    public mutating func startSession(with partner: ChatDeviceID) -> Decision {
        guard role == nil, partner != me else { return .none }
        role = .peripheral(partner: partner)
        return .invite(partner)
    }

    /// An advertisement from a chat device was seen.
    public mutating func discovered(_ advertisement: ChatAdvertisement) -> Decision {
        guard advertisement.device != me else { return .none }
        names[advertisement.device] = advertisement.name
        guard advertisement.invites == me else { return .none }
        let inviter = advertisement.device
        switch role {
        case nil:
            role = .central(partner: inviter)
            return .connect(inviter)
        case .peripheral(inviter)?:
            // Both invited: the lower identifier stays peripheral.
            guard inviter < me else { return .none }
            role = .central(partner: inviter)
            return .connect(inviter)
        case .central(inviter)?:
            return .connect(inviter)
        default:
            return .none
        }
    }
}
