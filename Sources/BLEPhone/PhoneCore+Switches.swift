extension PhoneCore {
    /// Carries out the Settings switch, Control Center's Bluetooth button or Airplane Mode
    /// (§9, rule 16; TN3115's relaunch table, research §5).
    mutating func switchRadio(_ action: PhoneAction) {
        switch action {
        case let .bluetooth(on):
            bluetoothOn = on
            airplaneModeSwitchedBluetoothOff = false
            // The phone remembers Bluetooth switched on or off in Airplane Mode for the next time.
            if airplaneModeOn { bluetoothStaysOnInAirplaneMode = on }
        case let .controlCenterBluetooth(on):
            // Before iOS 11 the button was the switch itself.
            guard policy.relaunchProfile != .iOS10 else { return switchRadio(.bluetooth(on: on)) }
            controlCenterBluetoothOn = on
            if !on, policy.relaunchProfile == .iOS26 {
                dropBluetoothWork("iOS26 relaunches only apps using AccessorySetupKit after the Control Center button",
                                  sparingAccessorySetupKit: true)
            }
        case let .airplaneMode(on):
            guard on != airplaneModeOn else { return }
            airplaneModeOn = on
            if on, bluetoothOn, !bluetoothStaysOnInAirplaneMode {
                bluetoothOn = false
                airplaneModeSwitchedBluetoothOff = true
            } else if on, bluetoothOn, policy.relaunchProfile == .iOS10 {
                dropBluetoothWork("iOS10 relaunches no app after Airplane Mode", sparingAccessorySetupKit: false)
            } else if !on, airplaneModeSwitchedBluetoothOff {
                bluetoothOn = true
                airplaneModeSwitchedBluetoothOff = false
            }
        default:
            return
        }
    }

    /// The system gives up the Bluetooth work it keeps for terminated apps: no event of it
    /// relaunches them until the user opens them again.
    private mutating func dropBluetoothWork(_ reason: String, sparingAccessorySetupKit: Bool) {
        for name in appNames {
            guard var app = apps[name], case .terminated = app.state else { continue }
            if sparingAccessorySetupKit, app.description.usesAccessorySetupKit { continue }
            app.bluetoothWorkDropped = reason
            store(app)
        }
    }
}
