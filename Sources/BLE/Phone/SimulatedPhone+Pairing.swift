import Foundation

/// The pairing dialog of iOS (Settings' "Bluetooth Pairing Request") on the phone's timeline.
extension SimulatedPhone {
    /// The system alert's title, as iOS words it.
    static let pairingTitle = "Bluetooth Pairing Request"

    /// Has the phone's device pair as an iPhone does and show each step of a pairing on the
    /// timeline as a system alert of "Bluetooth": the code it shows for the peer to type
    /// (Passkey Entry), the code it asks for and what `user` types (read from the other
    /// phone, the user's eyes being the only channel), the number both show and whether
    /// `user` taps Pair (Numeric Comparison), and the outcome. An iPhone has a display and
    /// a keyboard (KeyboardDisplay) and asks for protection against a man in the middle.
    /// Replaces the device's pairing handlers; does nothing on a phone with no device.
    public func showsPairingDialogs(user: PairingUser, options: PairingOptions = PairingOptions(io: .keyboardDisplay, mitm: true)) async {
        guard let device else { return }
        let handlers = PairingHandlers(
            displayPasskey: { [weak self] connection, passkey in
                self?.systemAlert("\(Self.pairingTitle): “\(connection.peer)” would like to pair with your iPhone. Enter code "
                                  + Self.code(passkey) + " on “\(connection.peer)”.", for: "Bluetooth")
                user.sees(passkey)
            },
            enterPasskey: { [weak self] connection in
                self?.systemAlert("\(Self.pairingTitle): enter the code shown on “\(connection.peer)”.", for: "Bluetooth")
                let typed = await user.types()
                self?.systemAlert(typed.map { "the user types " + Self.code($0) } ?? "the user taps Cancel", for: "Bluetooth")
                return typed
            },
            confirmNumber: { [weak self] connection, number in
                self?.systemAlert("\(Self.pairingTitle): “\(connection.peer)” would like to pair with your iPhone. "
                                  + "Confirm that “\(connection.peer)” shows " + Self.code(number) + ".", for: "Bluetooth")
                self?.systemAlert(user.accepts ? "the user taps Pair" : "the user taps Cancel", for: "Bluetooth")
                return user.accepts
            },
            paired: { [weak self] connection, result in
                self?.systemAlert("paired with “\(connection.peer)”" + (result.method.map { " (\($0))" } ?? ""), for: "Bluetooth")
            },
            pairingFailed: { [weak self] connection, error in
                self?.systemAlert("pairing with “\(connection.peer)” failed: \(error)", for: "Bluetooth")
            })
        await device.setPairing(options: options, handlers: handlers)
    }

    /// Six digits, leading zeros kept, as both the dialog and the spec write a passkey.
    static func code(_ value: UInt32) -> String { String(format: "%06u", value) }
}
