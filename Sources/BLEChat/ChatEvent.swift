import Foundation

/// What a chat app's Bluetooth side reports to its screen, whatever API it runs on.
public enum ChatEvent: Hashable, Sendable {
    /// A chat device advertised (the discovery screen's list).
    case discovered(name: String, device: ChatDeviceID)
    /// Our role in the session was decided.
    case role(ChatRendezvous.Role)
    /// A link to the partner is up (`central`: we connected to it).
    case linkUp(central: Bool)
    /// The link is gone, and why.
    case linkDown(reason: String)
    /// A message from the partner, in order, once.
    case message(Data)
    /// The partner acknowledged this many more of our messages.
    case acknowledged(Int)
    /// A manager changed state or something failed: one line for the log.
    case note(String)
}
