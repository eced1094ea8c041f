extension BTSnoop.PacketDescription {
    /// A Security Manager Protocol PDU (Core 5.4, Vol 3, Part H, §3.5–§3.6): "SMP" and its
    /// name, the pairing feature exchange written out as `btmon` does (IO capability, OOB
    /// data, the authentication requirement bits, key distribution), keys and values as
    /// their octets in wire order, the rest through ``generic(_:)``.
    public static func smp(_ pdu: SMP.PDU) -> BTSnoop.PacketDescription {
        let described = genericCase(pdu, prefix: "SMP ")
        switch pdu {
        case let .pairingRequest(request):
            return BTSnoop.PacketDescription(described.title, pairingFeatures(
                request.ioCapability, request.oobDataFlag, request.authenticationRequirements, request.maximumEncryptionKeySize,
                request.initiatorKeyDistribution, request.responderKeyDistribution))
        case let .pairingResponse(response):
            return BTSnoop.PacketDescription(described.title, pairingFeatures(
                response.ioCapability, response.oobDataFlag, response.authenticationRequirements, response.maximumEncryptionKeySize,
                response.initiatorKeyDistribution, response.responderKeyDistribution))
        case let .securityRequest(request):
            return BTSnoop.PacketDescription(described.title, [
                Field("Authentication requirement", authenticationRequirements(request.authenticationRequirements)),
            ])
        case let .pairingFailed(failed):
            return BTSnoop.PacketDescription(described.title, [
                Field("Reason", failed.reason.name + " (\(hex(failed.reason.rawValue, digits: 2)))"),
            ])
        default:
            return described
        }
    }

    /// The six fields of a Pairing Request or Response (§3.5.1, §3.5.2).
    private static func pairingFeatures(
        _ io: SMP.IOCapability, _ oob: SMP.OOBDataFlag, _ authentication: SMP.AuthenticationRequirements, _ keySize: UInt8,
        _ initiator: SMP.KeyDistribution, _ responder: SMP.KeyDistribution
    ) -> [Field] {
        [
            Field("IO capability", ioCapability(io)),
            Field("OOB data", (oob == .present ? "Authentication data from remote device present" : "Authentication data not present")
                  + " (\(hex(oob.rawValue, digits: 2)))"),
            Field("Authentication requirement", authenticationRequirements(authentication)),
            Field("Max encryption key size", "\(keySize)"),
            Field("Initiator key distribution", keyDistribution(initiator)),
            Field("Responder key distribution", keyDistribution(responder)),
        ]
    }

    /// IO Capability (Table 3.4) by the specification's name: `NoInputNoOutput (0x03)`.
    static func ioCapability(_ capability: SMP.IOCapability) -> String {
        let name: String
        switch capability {
        case .displayOnly: name = "DisplayOnly"
        case .displayYesNo: name = "DisplayYesNo"
        case .keyboardOnly: name = "KeyboardOnly"
        case .noInputNoOutput: name = "NoInputNoOutput"
        case .keyboardDisplay: name = "KeyboardDisplay"
        }
        return name + " (\(hex(capability.rawValue, digits: 2)))"
    }

    /// AuthReq (Figure 3.3) as `btmon` spells it: `Bonding, No MITM, SC, No Keypresses (0x09)`.
    static func authenticationRequirements(_ value: SMP.AuthenticationRequirements) -> String {
        var parts = [value.bondingFlags == 0x01 ? "Bonding" : value.bondingFlags == 0 ? "No bonding" : "Reserved bonding"]
        parts.append(value.contains(.mitm) ? "MITM" : "No MITM")
        parts.append(value.contains(.secureConnections) ? "SC" : "Legacy")
        parts.append(value.contains(.keypress) ? "Keypresses" : "No Keypresses")
        if value.contains(.ct2) { parts.append("CT2") }
        return parts.joined(separator: ", ") + " (\(hex(value.rawValue, digits: 2)))"
    }

    /// Key distribution (Figure 3.11) as `btmon` spells it: `EncKey IdKey (0x03)`.
    static func keyDistribution(_ value: SMP.KeyDistribution) -> String {
        let names = [(SMP.KeyDistribution.encryptionKey, "EncKey"), (.identityKey, "IdKey"), (.signingKey, "Sign"), (.linkKey, "LinkKey")]
            .filter { value.contains($0.0) }.map(\.1)
        return (names.isEmpty ? "" : names.joined(separator: " ") + " ") + "(\(hex(value.rawValue, digits: 2)))"
    }
}
