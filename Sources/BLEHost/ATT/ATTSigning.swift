import BLECrypto
import BLEWire

/// The data signing of signed ATT writes (Core 5.4, Vol 3, Part H, §2.4.5; Part F,
/// §3.3.1): the signer keeps a SignCounter per CSRK, increments it per signed PDU, and
/// appends the counter and a 64-bit MAC to the PDU.
///
/// The message authenticated is the PDU (opcode, handle, value) followed by the counter
/// in its little-endian wire form; Part H writes multi-octet values most significant
/// octet first, so AES-CMAC sees those octets in reverse order, under the CSRK as a
/// 128-bit value. The MAC is the 64 most significant bits of the CMAC, sent
/// little-endian like every other field.
public enum ATTSigning {
    /// The Authentication Signature of a signed PDU.
    /// - Parameters:
    ///   - pdu: the PDU without its signature: opcode, handle and value.
    ///   - csrk: the Connection Signature Resolving Key of the signer.
    ///   - signCounter: the signer's counter for this PDU.
    /// - Returns: the counter and MAC to append.
    public static func signature(of pdu: some Collection<UInt8>, csrk: UInt128, signCounter: UInt32) -> ATT.AuthenticationSignature {
        var message = Array(pdu)
        message.reserveCapacity(message.count + 4)
        var counter = signCounter
        for _ in 0 ..< 4 {
            message.append(UInt8(truncatingIfNeeded: counter))
            counter >>= 8
        }
        message.reverse()
        // AES-CMAC only throws when the crypto backend fails, which it cannot for a
        // 128-bit key; a zero MAC would then simply fail verification on the other side.
        let tag = (try? BLECrypto.aesCMAC(key: csrk, message: message)) ?? 0
        return ATT.AuthenticationSignature(signCounter: signCounter, messageAuthenticationCode: UInt64(truncatingIfNeeded: tag >> 64))
    }

    /// Whether a received Signed Write Command carries the signature `csrk` gives for it.
    /// The caller also checks that the counter is above the last one accepted (Part C,
    /// §10.4.2), which this does not know.
    public static func verify(_ command: ATT.SignedWriteCommand, csrk: UInt128) -> Bool {
        var writer = ByteWriter(capacity: 3 + command.attributeValue.count)
        writer.write(ATT.SignedWriteCommand.opcode.rawValue)
        writer.write(command.attributeHandle)
        writer.write(contentsOf: command.attributeValue)
        return signature(of: writer.bytes, csrk: csrk, signCounter: command.authenticationSignature.signCounter)
            == command.authenticationSignature
    }

    /// A signed Write Command ready to send (§3.4.5.4).
    /// - Parameters:
    ///   - handle: the attribute to write.
    ///   - value: the value, at most ATT_MTU − 15 octets.
    ///   - csrk: the signer's CSRK.
    ///   - signCounter: the signer's counter for this PDU.
    public static func signedWriteCommand(handle: ATT.Handle, value: [UInt8], csrk: UInt128, signCounter: UInt32) -> ATT.SignedWriteCommand {
        var writer = ByteWriter(capacity: 3 + value.count)
        writer.write(ATT.SignedWriteCommand.opcode.rawValue)
        writer.write(handle)
        writer.write(contentsOf: value)
        return ATT.SignedWriteCommand(attributeHandle: handle, attributeValue: value[...],
                                      authenticationSignature: signature(of: writer.bytes, csrk: csrk, signCounter: signCounter))
    }
}
