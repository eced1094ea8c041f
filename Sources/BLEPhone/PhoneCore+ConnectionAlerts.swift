extension PhoneCore {
    /// `app` connects to `peripheral` asking for the connection alerts `kinds` (the words
    /// its `CBConnectPeripheralOptionNotifyOn…` options choose, such as "Notification
    /// from"); an empty set withdraws its requests for that peripheral. The requests last
    /// until the app ends or asks again.
    public mutating func requestConnectionAlerts(_ kinds: Set<String>, peripheral: String, for app: String) {
        connectionAlertRequests[peripheral, default: [:]][app] = kinds.isEmpty ? nil : kinds
        if connectionAlertRequests[peripheral]?.isEmpty == true { connectionAlertRequests[peripheral] = nil }
    }

    /// The system's connection alert `message` of kind `kind` for `app` about `peripheral`
    /// at `now` (§9, rule 5): shown (an ``PhoneOutput/alert(app:message:)``) only while the
    /// app is suspended, and, when several apps asked for this alert of this peripheral,
    /// only for the one among them most recently in the foreground. Apple,
    /// `CBConnectPeripheralOptionNotifyOnConnectionKey` and its siblings: "If more than one
    /// app has requested notification for a given peripheral, the one that was most recently
    /// in the foreground will receive the alert." When that app runs, it hears the event
    /// itself and no alert shows (our reading of "receive").
    public func connectionAlert(_ message: String, kind: String, peripheral: String, for app: String, at now: Int64) -> [PhoneOutput] {
        guard let asking = apps[app], asking.state == .suspended else { return [] }
        let rivals = (connectionAlertRequests[peripheral] ?? [:]).filter { $0.value.contains(kind) }.keys
        let recency = { (name: String) -> UInt64 in self.apps[name]?.lastForeground ?? 0 }
        let latest = rivals.filter { $0 != app }.max { recency($0) < recency($1) }
        guard latest.map({ recency($0) <= recency(app) }) ?? true else { return [] }
        return [.alert(app: app, message: message)]
    }

    /// `app` ended: the alerts it asked for end with its connections.
    mutating func forgetConnectionAlerts(of app: String) {
        for peripheral in connectionAlertRequests.keys { requestConnectionAlerts([], peripheral: peripheral, for: app) }
    }
}
