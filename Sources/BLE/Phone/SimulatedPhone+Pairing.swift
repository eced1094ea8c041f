import BLEAdapter
import BLEHost
import Foundation
import Synchronization

/// The pairing dialog of iOS (Settings' "Bluetooth Pairing Request") on the phone's timeline.
extension SimulatedPhone {
    /// The system alert's title, as iOS words it.
    static let pairingTitle = "Bluetooth Pairing Request"

    /// How long a dialog stays on screen at most: SMP's 30-second timer (Core 5.4, Vol 3,
    /// Part H, §3.4) ends the pairing, and the dialog with it, a moment later.
    static let pairingDialogLifetime = Duration.microseconds(SMPPairing.timeout) + .seconds(1)

    /// Has the phone's device pair as an iPhone does and show each step of a pairing on the
    /// timeline as a system alert of "Bluetooth": the code it shows for the peer to type
    /// (Passkey Entry), the code it asks for and what `user` types (read from the other
    /// phone, the user's eyes being the only channel), the number both show and whether
    /// `user` taps Pair (Numeric Comparison), Pair or Cancel for Just Works (iOS asks even
    /// with no number to compare), and the outcome. The user answers after
    /// ``PairingUser/delay``; one who ignores a dialog lets the pairing time out, and an
    /// answer after the pairing ended is not given (the dialog is gone). An iPhone has a
    /// display and a keyboard (KeyboardDisplay) and asks for protection against a man in
    /// the middle. In a scenario's world, a passkey a GATT device with `security:` shows on
    /// its display (``BLEAdapter/AccessoryDisplay``) is on the timeline too, as the system's
    /// line "“NAME” shows CODE", and `user` reads it there to type it on the phone.
    /// Replaces the device's pairing handlers; does nothing on a phone with no device.
    public func showsPairingDialogs(user: PairingUser, options: PairingOptions = PairingOptions(io: .keyboardDisplay, mitm: true)) async {
        guard let device else { return }
        for display in device.scenarioPlace?.displays ?? [] {
            display.watch { [weak self] passkey in
                self?.systemNote("“\(display.deviceName)” shows " + Self.code(passkey) + " on its display")
                user.sees(passkey)
            }
        }
        var options = options
        options.confirmsJustWorks = true
        let dialogs = PairingDialogs()
        let handlers = PairingHandlers(
            displayPasskey: { [weak self] connection, passkey in
                self?.systemAlert("\(Self.pairingTitle): “\(connection.peer)” would like to pair with your iPhone. Enter code "
                                  + Self.code(passkey) + " on “\(connection.peer)”.", for: "Bluetooth")
                user.sees(passkey)
            },
            enterPasskey: { [weak self] connection in
                guard let self else { return nil }
                let opened = dialogs.open(connection.peer.description)
                systemAlert("\(Self.pairingTitle): enter the code shown on “\(connection.peer)”.", for: "Bluetooth")
                var typed: UInt32?
                if user.answer == .pair { typed = await user.types(within: Self.pairingDialogLifetime, on: clock) }
                guard await answers(user, opened, dialogs) else { return nil }
                systemAlert(typed.map { "the user types " + Self.code($0) } ?? "the user taps Cancel", for: "Bluetooth")
                return typed
            },
            confirmNumber: { [weak self] connection, number in
                guard let self else { return false }
                let opened = dialogs.open(connection.peer.description)
                systemAlert("\(Self.pairingTitle): “\(connection.peer)” would like to pair with your iPhone. "
                            + "Confirm that “\(connection.peer)” shows " + Self.code(number) + ".", for: "Bluetooth")
                return await tapsPairOrCancel(user, opened, dialogs)
            },
            confirmPairing: { [weak self] connection in
                guard let self else { return false }
                let opened = dialogs.open(connection.peer.description)
                systemAlert("\(Self.pairingTitle): “\(connection.peer)” would like to pair with your iPhone.", for: "Bluetooth")
                return await tapsPairOrCancel(user, opened, dialogs)
            },
            paired: { [weak self] connection, result in
                dialogs.close(connection.peer.description)
                self?.systemAlert("paired with “\(connection.peer)”" + (result.method.map { " (\($0))" } ?? ""), for: "Bluetooth")
            },
            pairingFailed: { [weak self] connection, error in
                dialogs.close(connection.peer.description)
                self?.systemAlert("pairing with “\(connection.peer)” failed: \(error)", for: "Bluetooth")
            })
        await device.setPairing(options: options, handlers: handlers)
    }

    /// The user's Pair or Cancel on a dialog, on the timeline; `false` (the pairing goes on
    /// failing) when the dialog went before the user answered.
    private func tapsPairOrCancel(_ user: PairingUser, _ opened: PairingDialogs.Dialog, _ dialogs: PairingDialogs) async -> Bool {
        guard await answers(user, opened, dialogs) else { return false }
        systemAlert(user.accepts ? "the user taps Pair" : "the user taps Cancel", for: "Bluetooth")
        return user.accepts
    }

    /// Waits as long as the user takes (a user who ignores the dialog, until it is gone)
    /// and says whether the dialog is still on screen for the answer.
    private func answers(_ user: PairingUser, _ opened: PairingDialogs.Dialog, _ dialogs: PairingDialogs) async -> Bool {
        let wait = user.answer == .ignore ? Self.pairingDialogLifetime : min(user.delay, Self.pairingDialogLifetime)
        if wait > .zero { try? await clock.sleep(for: wait) }
        return user.answer != .ignore && dialogs.isOpen(opened)
    }

    /// Puts `message` on the timeline as the system's, at the phone's time.
    private func systemNote(_ message: String) {
        let now = clock.microseconds
        state.withLock { $0.timeline.append(PhoneTimelineEntry(time: now, output: .system(message))) }
    }

    /// Six digits, leading zeros kept, as both the dialog and the spec write a passkey.
    static func code(_ value: UInt32) -> String { String(format: "%06u", value) }
}

/// The pairing dialogs a phone shows, per peer: a pairing's end (paired, failed, timed out)
/// takes its dialog off the screen, so that an answer after it is not given.
final class PairingDialogs: Sendable {
    /// One dialog: its peer and how many pairings with the peer had ended when it opened.
    struct Dialog {
        var peer: String
        var ended: Int
    }

    private let ended = Mutex<[String: Int]>([:])

    /// A dialog opens for a pairing with `peer`.
    func open(_ peer: String) -> Dialog { Dialog(peer: peer, ended: ended.withLock { $0[peer, default: 0] }) }

    /// The pairing with `peer` ended: its dialog goes.
    func close(_ peer: String) { ended.withLock { $0[peer, default: 0] += 1 } }

    /// Whether `dialog`'s pairing is still under way.
    func isOpen(_ dialog: Dialog) -> Bool { ended.withLock { $0[dialog.peer, default: 0] } == dialog.ended }
}
