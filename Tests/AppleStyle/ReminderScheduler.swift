// Written as iOS apps commonly schedule a local notification: ask for permission, then add
// a request with a time trigger; as the notification centre's delegate, show it while the
// app is open and hear the user's tap. Only the import differs.
#if canImport(UserNotifications)
import UserNotifications
#else
import OpenUserNotifications
#endif

class ReminderScheduler: NSObject, UNUserNotificationCenterDelegate {
    var presented: [String] = []
    var opened: [String] = []

    func start() {
        let center = UNUserNotificationCenter.current()
        center.delegate = self
        center.requestAuthorization(options: [.alert, .sound, .badge]) { granted, error in
            guard granted, error == nil else { return }
            let content = UNMutableNotificationContent()
            content.title = "Time to stretch"
            content.body = "You have been sitting for an hour."
            content.sound = UNNotificationSound.default
            content.badge = 1
            content.userInfo = ["kind": "stretch"]
            let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 5, repeats: false)
            let request = UNNotificationRequest(identifier: "stretch", content: content, trigger: trigger)
            center.add(request) { error in
                if let error = error {
                    print("could not schedule the reminder: \(error.localizedDescription)")
                }
            }
        }
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification,
                                withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void) {
        presented.append(notification.request.identifier)
        completionHandler([.banner, .list, .sound])
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
                                withCompletionHandler completionHandler: @escaping () -> Void) {
        if response.actionIdentifier == UNNotificationDefaultActionIdentifier {
            opened.append(response.notification.request.identifier)
        }
        completionHandler()
    }
}
