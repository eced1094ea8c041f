import BLEChat
import Foundation
import Testing

@Suite("Chat script")
struct ChatScriptTests {
    @Test("A script's messages depend only on its seed and stay within the sizes")
    func deterministic() {
        let script = ChatScript(count: 200, sizes: 1 ... 2000, seed: 7)
        let again = ChatScript(count: 200, sizes: 1 ... 2000, seed: 7)
        let other = ChatScript(count: 200, sizes: 1 ... 2000, seed: 8)
        #expect(script.messages == again.messages)
        #expect(script.messages != other.messages)
        #expect(script.messages.allSatisfy { (1 ... 2000).contains($0.count) })
        #expect(Set(script.messages.map(\.count)).count > 100)
    }

    @Test("The digest is 64-bit FNV-1a in 16 hexadecimal digits")
    func digest() {
        #expect(ChatScript.digest(Data()) == "cbf29ce484222325")
        #expect(ChatScript.digest(Data("a".utf8)) == "af63dc4c8601ec8c")
    }
}
