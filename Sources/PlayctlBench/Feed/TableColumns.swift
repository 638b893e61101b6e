extension String {
    /// Right-aligned in `width` columns (as it is when longer).
    func rightAligned(_ width: Int) -> String {
        String(repeating: " ", count: max(width - count, 0)) + self
    }

    /// Left-aligned in `width` columns (as it is when longer).
    func leftAligned(_ width: Int) -> String {
        self + String(repeating: " ", count: max(width - count, 0))
    }
}
