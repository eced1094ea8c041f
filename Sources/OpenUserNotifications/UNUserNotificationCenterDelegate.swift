/// What the system tells the app about its notifications (UserNotifications'
/// `UNUserNotificationCenterDelegate`,
/// https://developer.apple.com/documentation/usernotifications/unusernotificationcenterdelegate),
/// on the main queue.
///
/// On Apple platforms these are `@objc optional` requirements; Linux has no Objective-C
/// runtime, so every method has a default (in an extension) and a class implements the
/// ones it wants with Apple's signatures. A method spelled otherwise is a new method that
/// is never called, as with Apple's optional requirements. Set the delegate before the
/// app's launch ends (in its launch entry point), as Apple asks, or a tap that launched the
/// app waits for it.
public protocol UNUserNotificationCenterDelegate: NSObjectProtocol {
    /// A notification arrived while the app is in the foreground; call `completionHandler`
    /// with how to show it (`.banner`, `.list`, `.sound`, `.badge`), or with none to show
    /// nothing (`userNotificationCenter:willPresentNotification:withCompletionHandler:`).
    /// Without this method, the notification is not shown (Apple's rule).
    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification,
                                withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void)
    /// The user opened the app from a notification (`response.actionIdentifier` is
    /// ``UNNotificationDefaultActionIdentifier``); call `completionHandler` when done
    /// (`userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:`).
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
                                withCompletionHandler completionHandler: @escaping () -> Void)
    /// The user asked for the app's notification settings from the system's
    /// (`userNotificationCenter:openSettingsForNotification:`). Never called on the
    /// simulated phone, which has no settings screen.
    func userNotificationCenter(_ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?)
}

extension UNUserNotificationCenterDelegate {
    /// Not implemented: the notification is not shown (no options).
    public func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification,
                                       withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void) {
        completionHandler([])
    }

    /// Not implemented: the response is done with.
    public func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
                                       withCompletionHandler completionHandler: @escaping () -> Void) {
        completionHandler()
    }

    /// Not implemented: nothing happens.
    public func userNotificationCenter(_ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?) {}
}
