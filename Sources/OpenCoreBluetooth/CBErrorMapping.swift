import BLE

/// The Core Bluetooth error for a front-door failure.
enum CBErrorMapping {
    static func error(_ failure: BLEError) -> any Error {
        switch failure {
        case let .att(code, _): return CBATTError(code)
        case let .disconnected(reason):
            return CBError(reason == .connectionTimeout ? .connectionTimeout : .peripheralDisconnected, reason: failure.description)
        case .gattTimedOut: return CBError(.connectionTimeout, reason: failure.description)
        case .valueTooLong: return CBATTError(.invalidAttributeValueLength, reason: failure.description)
        case .invalidParameters: return CBError(.invalidParameters, reason: failure.description)
        case .cancelled: return CBError(.operationCancelled, reason: failure.description)
        case .connectionFailed, .timeout: return CBError(.connectionFailed, reason: failure.description)
        case .pairingFailed, .pairingTimedOut: return CBError(.encryptionTimedOut, reason: failure.description)
        case .closed, .controllerUnavailable: return CBError(.notConnected, reason: failure.description)
        default: return CBError(.unknown, reason: failure.description)
        }
    }
}
