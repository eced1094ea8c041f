@testable import BLE
import SimulatedTesting
import Testing

@Suite("The accept queue behind incoming connections and channels", .simulated, .timeLimit(.minutes(3)))
struct MailboxTests {
    @Test("elements come out in order, each to one of several waiting readers")
    func orderAndFanOut() async throws {
        let mailbox = Mailbox<Int>()
        let readers = (0..<3).map { _ in Task { await mailbox.next() } }
        for value in 1...3 { mailbox.put(value) }
        var got: [Int] = []
        for reader in readers { if let value = await reader.value { got.append(value) } }
        #expect(got.sorted() == [1, 2, 3])
        mailbox.put(4)
        mailbox.put(5)
        #expect(await mailbox.next() == 4)
        #expect(await mailbox.next() == 5)
    }

    @Test("finishing hands out what is queued, then nil, and refuses new elements")
    func finish() async {
        let mailbox = Mailbox<Int>()
        mailbox.put(1)
        mailbox.finish()
        #expect(!mailbox.put(2))
        #expect(await mailbox.next() == 1)
        #expect(await mailbox.next() == nil)
    }

    @Test("a cancelled reader gets nil and does not swallow a later element")
    func cancelledReader() async {
        let mailbox = Mailbox<Int>()
        let reader = Task { await mailbox.next() }
        reader.cancel()
        #expect(await reader.value == nil)
        mailbox.put(7)
        #expect(await mailbox.next() == 7)
    }
}
