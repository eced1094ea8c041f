extension PhoneAction {
    /// The action a scenario file names with `do:` for `app` (`launch`, `foreground`,
    /// `background`, `suspend`, `terminate` (by the system), `crash`, `forceQuit`,
    /// `beginBackgroundTask`, `endBackgroundTask`); `nil` for any other word.
    public init?(named verb: String, app: String) {
        switch verb {
        case "launch": self = .launch(app)
        case "foreground": self = .foreground(app)
        case "background": self = .background(app)
        case "suspend": self = .suspend(app)
        case "terminate": self = .terminate(app, .system)
        case "crash": self = .terminate(app, .crash)
        case "forceQuit": self = .terminate(app, .forceQuit)
        case "beginBackgroundTask": self = .beginBackgroundTask(app)
        case "endBackgroundTask": self = .endBackgroundTask(app)
        default: return nil
        }
    }
}

extension BackgroundModes {
    /// The modes an Info.plist's `UIBackgroundModes` names; names that are no mode are left out.
    public init(names: [String]) {
        self = []
        for name in names { if let mode = BackgroundModes(name: name) { insert(mode) } }
    }
}
