import BLEWire

// When the controller's advertising or scanning state is in doubt.
//
// The specification leaves a command without an answer to the host (Vol 4, Part E, §4.4
// gives no timeout; hosts use about two seconds). A command the host gave up on may still
// be carried out late, or never; and a setup command that fails leaves the enable queued
// behind it to be carried out. Counting on either outcome can leave GAP saying "off" while
// the controller advertises, after which every start is refused and nothing stops it. So
// GAP never guesses:
// - a start abandoned after its commands went out is followed by a disable, so the
//   controller ends disabled whatever it did with the commands before it;
// - a disable that went unanswered leaves the state in doubt: GAP counts it off, and the
//   next start or stop sends a disable first.
// Disabling is harmless when already disabled (§7.8.9, §7.8.11), which is what makes the
// extra disable safe.

extension GAPCore {
    /// Whether `failure` means the controller did not answer (the driver gave up waiting),
    /// as opposed to answering with an error status.
    static func unanswered(_ failure: GAPError) -> Bool {
        if case .driver = failure { return true }
        return false
    }

    /// A disable to send before a start, when a doubt needs settling.
    mutating func advertisingResync() -> [GAPOutput] {
        guard advertisingInDoubt else { return [] }
        return [advertisingDisable(for: .advertisingSetup)]
    }

    /// A disable to send before a scan starts, when a doubt needs settling.
    mutating func scanningResync() -> [GAPOutput] {
        guard scanningInDoubt else { return [] }
        return [scanDisable(for: .scanParameters)]
    }

    /// The start failed after its commands went out: advertising counts as off, a disable
    /// follows the commands already queued, and the failure is reported.
    mutating func abandonAdvertisingStart(_ failure: GAPError) -> [GAPOutput] {
        advertising = .off
        advertisingInDoubt = true
        return [
            advertisingDisable(for: .advertisingEnable(false)),
            .event(.procedureFailed(.advertising, failure)),
        ]
    }

    /// The scan failed to start after its commands went out: as
    /// ``abandonAdvertisingStart(_:)``, for scanning.
    mutating func abandonScanningStart(_ failure: GAPError) -> [GAPOutput] {
        scanning = .off
        scanningInDoubt = true
        return [
            scanDisable(for: .scanEnable(false)),
            .event(.procedureFailed(.scanning, failure)),
        ]
    }
}
