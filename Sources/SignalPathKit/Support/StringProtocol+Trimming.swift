extension StringProtocol {
    /// The text without leading and trailing whitespace.
    func trimmingSpaces() -> SubSequence {
        var text = self[...]
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text
    }
}
