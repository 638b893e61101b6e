import Feed
import Testing

/// The planner's rules for a grid (``FeedLayout``), input by input, without media.
@Suite("Prefetch planner: grids")
struct PrefetchPlannerGridTests {
    static func grid(_ kinds: String, columns: Int = 2, rows: Int = 2) -> PrefetchPlanner {
        PrefetchPlanner(entries: PrefetchPlannerTests.feed(kinds), layout: .grid(columns: columns, rows: rows))
    }

    @Test("every visible item is active; the next row is prepared; the budget counts the screen and the row once")
    func firstScreen() {
        var planner = Self.grid("vvvvvvivvv")
        let actions = planner.scroll(to: 0)
        // Budget 5: the screen 2 + the prepared row 2 + the image 1 (item 6, the window's fourth item ahead).
        #expect(
            actions == [
                .activate(index: 0), .activate(index: 1), .activate(index: 2), .activate(index: 3),
                .prepare(index: 4), .prepare(index: 5), .start(index: 6, byteLimit: nil),
            ])
        #expect(planner.visible == 0..<4)
        #expect(planner.ranked() == [4, 5, 6, 7])
    }

    @Test("a scroll by a row: the row left is deactivated, the prepared row becomes active, the next one prepared")
    func scrollARow() {
        var planner = Self.grid("vvvvvvvvvv")
        _ = planner.scroll(to: 0)
        let actions = planner.scroll(to: 2, speed: 1)
        #expect(
            actions == [
                .deactivate(index: 0), .deactivate(index: 1), .activate(index: 4), .activate(index: 5),
                .prepare(index: 6), .prepare(index: 7),
            ])
        #expect(planner.visible == 2..<6)
        #expect((2..<6).allSatisfy { planner.state(of: $0) == .active })
        // Back up a row: the row above comes back, the one below leaves, the prepared row (6, 7) is let go and the
        // one above prepared.
        let back = planner.scroll(to: 0, speed: 1)
        #expect(back.contains(.deactivate(index: 4)) && back.contains(.deactivate(index: 5)))
        #expect(back.contains(.activate(index: 0)) && back.contains(.activate(index: 1)))
        #expect(back.contains(.release(index: 6)) && back.contains(.release(index: 7)))
        #expect(planner.direction == -1)
    }

    @Test("at the end of the entries the last row is short; a page that comes fills it")
    func shortLastRow() {
        var planner = Self.grid("vvvvv")
        _ = planner.scroll(to: 4)
        #expect(planner.visible == 4..<5)
        let actions = planner.append(PrefetchPlannerTests.feed("vvvvvv"))
        #expect(planner.visible == 4..<8)
        #expect(actions.prefix(3) == [.activate(index: 5), .activate(index: 6), .activate(index: 7)])
    }

    @Test("the layout clamps to 1-3 columns and rows and says the players it needs")
    func layout() {
        #expect(FeedLayout.grid(columns: 2, rows: 2).playersNeeded == 6)
        #expect(FeedLayout.grid(columns: 9, rows: 0).visibleCount == 3)
        #expect(FeedLayout.single.visibleCount == 1 && !FeedLayout.single.isGrid)
        #expect(FeedLayout.grid(columns: 3, rows: 1).rowStart(of: 7) == 6)
        var configuration = FeedConfiguration()
        configuration.layout = .grid(columns: 3, rows: 3)
        #expect(configuration.effectivePoolSize == 12)
        configuration.layout = .single
        #expect(configuration.effectivePoolSize == 5)
    }
}
