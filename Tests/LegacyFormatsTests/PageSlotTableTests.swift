@testable import LegacyFormats
import Testing

/// The page cache's page → slot table answers as a dictionary would through any sequence of
/// inserts and removals, including long probe runs that wrap around the end of the table.
@Suite("PageSlotTable")
struct PageSlotTableTests {
    @Test func itAgreesWithADictionaryThroughRandomChurn() {
        var generator = SystemRandomNumberGenerator()
        for capacity in [1, 3, 8, 64] {
            var table = PageSlotTable(capacity: capacity)
            var model: [Int64: Int] = [:]
            for step in 0..<20_000 {
                // Pages drawn from a small range collide often; a few from far away test the hash.
                let page = step % 7 == 0 ? Int64.random(in: 0..<(1 << 40), using: &generator) : Int64.random(in: 0..<200, using: &generator)
                if model[page] != nil {
                    table.remove(page)
                    model[page] = nil
                } else if model.count < capacity {
                    table.insert(page, slot: step % 1_000)
                    model[page] = step % 1_000
                } else if let evicted = model.keys.randomElement(using: &generator) {
                    table.remove(evicted)
                    model[evicted] = nil
                }
                #expect(table.slot(of: page) == model[page])
            }
            for page in Int64(0)..<200 { #expect(table.slot(of: page) == model[page]) }
            for (page, slot) in model { #expect(table.slot(of: page) == slot) }
        }
    }

    @Test func removingAnAbsentPageChangesNothing() {
        var table = PageSlotTable(capacity: 4)
        table.insert(10, slot: 1)
        table.insert(11, slot: 2)
        table.remove(12)
        #expect(table.slot(of: 10) == 1)
        #expect(table.slot(of: 11) == 2)
        #expect(table.slot(of: 12) == nil)
    }
}
