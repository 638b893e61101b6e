extension Array {
    /// Appends `element` and drops the oldest elements (the first ones) past `limit` (at least 1): the bounded
    /// histories of a play (its variant switches, the ABR machine's decisions) keep their newest entries.
    mutating func appendKeepingNewest(_ element: Element, limit: Int) {
        append(element)
        let limit = Swift.max(1, limit)
        if count > limit { removeFirst(count - limit) }
    }
}
