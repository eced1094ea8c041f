import ArgumentParser
import BLEHost
import BLEStorage
import BLEWire
import Foundation

/// `ble bonds stress-write --file PATH --records N --seed S` (hidden): the helper process
/// of the bond store's crash-safety test. It writes two stores A and B made from the seed
/// to `PATH.a` and `PATH.b` as references, writes A to PATH, prints `READY`, then saves B,
/// A, B, … to PATH until killed (or `--count` saves). Whenever it is killed, PATH must hold
/// exactly A or B.
struct BondsStressWriteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stress-write",
        abstract: "Write a bond store in a loop, for crash-safety tests.",
        shouldDisplay: false
    )

    @Option(name: .long, help: "The store file to write.")
    var file: String

    @Option(name: .long, help: "The number of bonds in each store.")
    var records = 20

    @Option(name: .long, help: "The seed the two stores are made from.")
    var seed: UInt64 = 1

    @Option(name: .long, help: "Stop after this many saves (default: until killed).")
    var count: Int?

    func validate() throws {
        guard (0 ... 10_000).contains(records) else { throw ValidationError("--records must be from 0 to 10000.") }
    }

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() throws {
        var generator = GAPRandom(seed: seed)
        let stores = [Self.sampleStore(records: records, using: &generator), Self.sampleStore(records: records, using: &generator)]
        let target = BondStoreFile(path: file)
        try saveBondStore(stores[0], to: BondStoreFile(path: file + ".a"))
        try saveBondStore(stores[1], to: BondStoreFile(path: file + ".b"))
        try saveBondStore(stores[0], to: target)
        FileHandle.standardOutput.write(Data("READY\n".utf8))
        var saves = 0
        while count.map({ saves < $0 }) ?? true {
            saves += 1
            try saveBondStore(stores[saves % 2], to: target)
        }
    }

    /// A store of `records` bonds with random keys, as pairing would leave it.
    static func sampleStore(records: Int, using generator: inout GAPRandom) -> BondStore {
        func key() -> UInt128 { UInt128(generator.next()) << 64 | UInt128(generator.next()) }
        var store = BondStore(localIdentityAddress: GAPRandomStaticAddress.generate(using: &generator),
                              localIdentityResolvingKey: key())
        for index in 0 ..< records {
            let secure = index % 2 == 0
            let identity = GAPRandomStaticAddress.generate(using: &generator)
            store.insert(BondRecord(
                identityAddress: identity, peerIdentifier: BondRecord.makePeerIdentifier(using: &generator),
                secureConnectionsLongTermKey: secure ? key() : nil, keySize: 16,
                securityLevel: secure ? .authenticatedSecureConnections : .authenticated,
                peerKeys: BondKeys(longTermKey: secure ? nil : BondLongTermKey(key: key(), ediv: UInt16(truncatingIfNeeded: generator.next()),
                                                                               rand: generator.next()),
                                   identityResolvingKey: key(), signingKey: BondSigningKey(key: key(), signCounter: UInt32(index))),
                localKeys: BondKeys(identityResolvingKey: key()),
                clientConfigurations: [UInt16(3 + index): 1], databaseHash: (0 ..< 16).map { _ in UInt8(truncatingIfNeeded: generator.next()) },
                created: 1_700_000_000 + Int64(index), updated: 1_700_000_000 + Int64(index)
            ))
        }
        return store
    }
}
