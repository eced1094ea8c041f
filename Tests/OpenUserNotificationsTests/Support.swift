import BLE
import Foundation
import OpenUserNotifications
import SimulatedTesting
import Synchronization

/// A delegate that records the user's taps and does not implement `willPresent`.
@MainActor
final class TapDelegate: NSObject, UNUserNotificationCenterDelegate {
    var responses: [(identifier: String, action: String, title: String)] = []

    nonisolated func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
                                            withCompletionHandler completionHandler: @escaping () -> Void) {
        let line = (response.notification.request.identifier, response.actionIdentifier, response.notification.request.content.title)
        MainActor.assumeIsolated { responses.append(line) }
        completionHandler()
    }
}

/// A delegate that shows foreground notifications as a banner in the list, with sound.
/// (A subclass of ``TapDelegate`` would not do: a protocol's default implementation chosen
/// for a class is not overridden by its subclasses' methods.)
@MainActor
final class BannerDelegate: NSObject, UNUserNotificationCenterDelegate {
    nonisolated func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification,
                                            withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void) {
        completionHandler([.banner, .list, .sound])
    }
}

/// Waits on the test's clock until `condition` holds, up to `seconds` of virtual time.
@MainActor
func wait(upTo seconds: Double = 60, until condition: () -> Bool) async throws {
    let deadline = testClock.microseconds + Int64(seconds * 1e6)
    while !condition(), testClock.microseconds < deadline {
        try await testClock.sleep(for: .milliseconds(100))
    }
}

/// Scenarios/walk.yaml with the walker at 2 m/s, in a temporary file the caller removes:
/// the phone hears the shop's beacon (UUID ``walkUUID``, major 1) from about 6 s in.
func walkFile() throws -> String {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let text = try String(contentsOf: root.appendingPathComponent("Scenarios/walk.yaml"), encoding: .utf8)
    let original = "      waypoints: [[40, 0.05, 1.2]]\n      speed: 1\n"
    guard text.components(separatedBy: original).count == 2 else { throw CocoaError(.fileReadCorruptFile) }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("notify-walk-\(UUID().uuidString).yaml").path
    try text.replacingOccurrences(of: original, with: "      waypoints: [[40, 0.05, 1.2]]\n      speed: 2\n")
        .write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// The walk scenario's beacon UUID.
let walkUUID = UUID(uuidString: "5A4BCFCE-174E-4BAC-A814-092E77F6B7E5") ?? UUID()
