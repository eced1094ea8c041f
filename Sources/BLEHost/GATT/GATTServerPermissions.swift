import BLEWire

extension GATTServer {
    /// A read or a write, for the permission checks.
    enum Access {
        case read
        case write
    }

    /// The error an access to `attribute` gets on a link with `security`, or `nil` when it
    /// is allowed (Core 5.4, Vol 3, Part F, §3.2.5; Part C, §10.3.1).
    ///
    /// The checks run in this order: access (Read/Write Not Permitted unless the permissions
    /// allow it or set a condition on it, ``GATTPermissions/allowsReading``); then, when the
    /// attribute needs encryption or authentication, an unencrypted link gets Insufficient
    /// Encryption if a key exists to encrypt with, else Insufficient Authentication; an
    /// unauthenticated key where authentication is needed gets Insufficient
    /// Authentication; a key shorter than the attribute's minimum gets Encryption Key Size
    /// Too Short; last, authorization (Insufficient Authorization).
    func permissionError(_ access: Access, _ attribute: GATTAttribute, connection: UInt16, security: LinkSecurity) -> ATT.ErrorCode? {
        let permissions = attribute.permissions
        let needed: (allowed: Bool, encryption: GATTPermissions, authentication: GATTPermissions, authorization: GATTPermissions)
        switch access {
        case .read: needed = (permissions.allowsReading, .readEncryptionRequired, .readAuthenticationRequired, .readAuthorizationRequired)
        case .write: needed = (permissions.allowsWriting, .writeEncryptionRequired, .writeAuthenticationRequired, .writeAuthorizationRequired)
        }
        guard needed.allowed else {
            return access == .read ? .readNotPermitted : .writeNotPermitted
        }
        let needsAuthentication = permissions.contains(needed.authentication)
        if permissions.contains(needed.encryption) || needsAuthentication {
            guard security.isEncrypted else { return security.hasKey ? .insufficientEncryption : .insufficientAuthentication }
            if needsAuthentication && security.level < .authenticated { return .insufficientAuthentication }
            if security.keySize < attribute.minimumKeySize { return .encryptionKeySizeTooShort }
        }
        if permissions.contains(needed.authorization) && clients[connection]?.isAuthorized != true {
            return .insufficientAuthorization
        }
        return nil
    }

    /// The value the server holds for `attribute` as `connection` sees it: per-client for
    /// configuration descriptors and Client Supported Features; `nil` for dynamic values.
    func heldValue(_ attribute: GATTAttribute, connection: UInt16) -> [UInt8]? {
        switch attribute.role {
        case let .clientCharacteristicConfiguration(valueHandle, _):
            let bits = clients[connection]?.record.clientConfigurations[valueHandle] ?? 0
            return [UInt8(truncatingIfNeeded: bits), UInt8(truncatingIfNeeded: bits >> 8)]
        case .clientSupportedFeatures:
            return [clients[connection]?.record.clientSupportedFeatures ?? 0]
        default:
            guard case let .stored(value) = attribute.value else { return nil }
            return value
        }
    }

    /// The value of `attribute` from `offset` on: held by the server, or the app's answer
    /// in `answers`, or "ask the app".
    func lookupValue(_ attribute: GATTAttribute, offset: Int, connection: UInt16,
                     answers: [ReadKey: Result<[UInt8], ATT.ErrorCode>]) -> ValueLookup {
        if let held = heldValue(attribute, connection: connection) {
            guard offset <= held.count else { return .error(.invalidOffset) }
            return .value(Array(held[offset...]))
        }
        switch answers[ReadKey(handle: attribute.handle, offset: offset)] {
        case let .success(value)?: return .value(value)
        case let .failure(code)?: return .error(code)
        case nil: return .needsApp
        }
    }
}
