import Streaming
import Testing

@Suite("Streaming module")
struct StreamingModuleTests {
    @Test("the module links") func links() { #expect(String(describing: Streaming.self) == "Streaming") }
}
