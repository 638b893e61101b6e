/// A grid's generated scroll (`--grid`): it moves by rows, a row of `columns` items at each swipe (a fling passes
/// 3 to 8 rows). (A script's steps name items, and the feed shows the row holding each.)
extension FeedScroll {
    /// This scroll, drawn over a feed's rows (as many "items" as it has rows), moved to each row's first item.
    func rows(of columns: Int) -> FeedScroll {
        guard columns > 1 else { return self }
        let steps = steps.map { step -> Step in
            var step = step
            let (index, overflow) = step.index.multipliedReportingOverflow(by: columns)
            step.index = overflow ? Int.max : index
            return step
        }
        return FeedScroll(steps: steps, end: end)
    }
}
