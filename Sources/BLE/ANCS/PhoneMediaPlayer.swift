import BLEProfiles
import Synchronization

/// A phone's now-playing state — the player, its queue and the track — and the remote
/// commands it takes: what an ``AMSProvider`` serves as Apple Media Service.
public final class PhoneMediaPlayer: Sendable {
    /// What is playing.
    public struct NowPlaying: Sendable, Hashable {
        /// The player app's name.
        public var playerName = "Music"
        /// 0 paused, 1 playing, 2 rewinding, 3 fast-forwarding.
        public var playbackState: UInt8 = 0
        /// 1 at normal speed, 0 when paused.
        public var playbackRate = 0.0
        /// Seconds into the track.
        public var elapsed = 0.0
        /// 0 to 1.
        public var volume = 0.5
        /// The track's zero-based index in the queue.
        public var queueIndex = 0
        /// Tracks in the queue.
        public var queueCount = 0
        /// 0 off, 1 one, 2 all.
        public var shuffleMode: UInt8 = 0
        /// 0 off, 1 one, 2 all.
        public var repeatMode: UInt8 = 0
        /// The track's artist.
        public var artist = ""
        /// The track's album.
        public var album = ""
        /// The track's title.
        public var title = ""
        /// The track's length in seconds.
        public var duration = 0.0

        /// Nothing playing.
        public init() {}

        /// The value of `attribute` of `entity` as AMS sends it (a UTF-8 string); `nil` for
        /// an attribute the entity does not define.
        public func value(of entity: AMS.EntityID, _ attribute: UInt8) -> String? {
            switch entity {
            case .player:
                switch AMS.PlayerAttributeID(rawValue: attribute) {
                case .name: return playerName
                case .playbackInfo: return AMS.PlaybackInfo(state: playbackState, rate: playbackRate, elapsed: elapsed).text
                case .volume: return Self.decimal(volume)
                case nil: return nil
                }
            case .queue:
                switch AMS.QueueAttributeID(rawValue: attribute) {
                case .index: return String(queueIndex)
                case .count: return String(queueCount)
                case .shuffleMode: return String(shuffleMode)
                case .repeatMode: return String(repeatMode)
                case nil: return nil
                }
            case .track:
                switch AMS.TrackAttributeID(rawValue: attribute) {
                case .artist: return artist
                case .album: return album
                case .title: return title
                case .duration: return Self.decimal(duration)
                case nil: return nil
                }
            }
        }

        /// Every (entity, attribute) whose value differs between `self` and `other`.
        func changes(from other: NowPlaying) -> [(AMS.EntityID, UInt8)] {
            AMS.EntityID.allCases.flatMap { entity in
                (0 ... 3).compactMap { attribute -> (AMS.EntityID, UInt8)? in
                    let here = value(of: entity, UInt8(attribute))
                    return here != nil && here != other.value(of: entity, UInt8(attribute)) ? (entity, UInt8(attribute)) : nil
                }
            }
        }

        private static func decimal(_ value: Double) -> String {
            AMS.PlaybackInfo(state: 0, rate: 0, elapsed: value).text.split(separator: ",").last.map(String.init) ?? "0.000"
        }
    }

    /// A change the provider passes on.
    enum Change: Sendable {
        case attributes([(AMS.EntityID, UInt8)])
        case supportedCommands
    }

    private struct State {
        var nowPlaying = NowPlaying()
        var supported: [AMS.RemoteCommandID] = AMS.RemoteCommandID.allCases.filter { $0.rawValue <= 6 }
        var observers: [UInt64: AsyncStream<Change>.Continuation] = [:]
        var nextObserver: UInt64 = 0
    }

    private let state = Mutex(State())
    private let commandContinuation: AsyncStream<AMS.RemoteCommandID>.Continuation
    /// The remote commands accessories sent, in order. One reader.
    public let commands: AsyncStream<AMS.RemoteCommandID>
    /// Whether the player carries remote commands out itself (play, pause, toggle, next,
    /// previous, volume up and down); set to `false` to act on ``commands`` instead.
    public let actsOnCommands: Bool

    /// A player with nothing playing.
    public init(actsOnCommands: Bool = true) {
        self.actsOnCommands = actsOnCommands
        (commands, commandContinuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// What is playing now.
    public var nowPlaying: NowPlaying { state.withLock { $0.nowPlaying } }

    /// Changes what is playing; accessories registered for a changed attribute are told.
    public func update(_ body: (inout NowPlaying) -> Void) {
        state.withLock { state in
            let before = state.nowPlaying
            body(&state.nowPlaying)
            let changed = state.nowPlaying.changes(from: before)
            guard !changed.isEmpty else { return }
            for observer in state.observers.values { observer.yield(.attributes(changed)) }
        }
    }

    /// The commands the player takes (Remote Command notifications list them).
    public var supportedCommands: [AMS.RemoteCommandID] {
        get { state.withLock { $0.supported } }
        set {
            state.withLock { state in
                state.supported = newValue
                for observer in state.observers.values { observer.yield(.supportedCommands) }
            }
        }
    }

    func observe() -> (AsyncStream<Change>, UInt64) {
        let (stream, continuation) = AsyncStream<Change>.makeStream(bufferingPolicy: .unbounded)
        let id = state.withLock { state in
            defer { state.nextObserver += 1 }
            state.observers[state.nextObserver] = continuation
            return state.nextObserver
        }
        return (stream, id)
    }

    func stopObserving(_ id: UInt64) {
        state.withLock { $0.observers.removeValue(forKey: id) }?.finish()
    }

    /// Takes a remote command: passes it on and, if the player acts on commands, carries it out.
    func received(_ command: AMS.RemoteCommandID) {
        commandContinuation.yield(command)
        guard actsOnCommands else { return }
        update { now in
            switch command {
            case .play: (now.playbackState, now.playbackRate) = (1, 1)
            case .pause: (now.playbackState, now.playbackRate) = (0, 0)
            case .togglePlayPause: (now.playbackState, now.playbackRate) = now.playbackState == 1 ? (0, 0) : (1, 1)
            case .nextTrack: now.queueIndex = min(now.queueIndex + 1, max(0, now.queueCount - 1)); now.elapsed = 0
            case .previousTrack: now.queueIndex = max(0, now.queueIndex - 1); now.elapsed = 0
            case .volumeUp: now.volume = min(1, now.volume + 0.0625)
            case .volumeDown: now.volume = max(0, now.volume - 0.0625)
            default: break
            }
        }
    }
}
