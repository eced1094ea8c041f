import BLEWire

/// Log lines for what the host's cores refused from a peer: the cores count (sans-IO, no
/// logging inside); the host compares their counters around each input and says what
/// was turned away, so an operator sees a hostile or broken peer (the SweynTooth faults,
/// docs/security.md) without a debugger.
extension Host {
    /// Logs on `ble.hci` what the driver's ACL reassembly dropped since `before`
    /// (Core 5.4, Vol 4, Part E, §5.4.2; Vol 3, Part A, §3.1).
    func logDriverRefusals(since before: HCIDriverCounters) {
        let after = driver.counters
        if after.continuationWithoutStart > before.continuationWithoutStart {
            HostLog.hci.notice("refused an ACL continuation with no L2CAP frame started", metadata: logMetadata())
        }
        if after.overlongFrames > before.overlongFrames {
            HostLog.hci.notice("refused an L2CAP frame running past its length field", metadata: logMetadata())
        }
        if after.incompleteFrames > before.incompleteFrames {
            HostLog.hci.notice("abandoned an L2CAP frame shorter than its length field", metadata: logMetadata())
        }
    }

    /// Logs on `ble.att` what `handle`'s ATT bearer ignored since `before` (Vol 3, Part F,
    /// §3.3.2: one request at a time; §3.4.1: a response answers our request or nothing).
    func logATTRefusals(since before: ATTBearerCounters?, link handle: UInt16) {
        guard let before, let after = attLinks[handle]?.bearer.counters else { return }
        if after.protocolViolations > before.protocolViolations {
            HostLog.att.notice("ignored an ATT request or indication sent before our answer to the previous one",
                               metadata: logMetadata(handle))
        }
        if after.unmatchedResponsesIgnored > before.unmatchedResponsesIgnored {
            HostLog.att.notice("ignored an ATT response to no request of ours", metadata: logMetadata(handle))
        }
    }
}
