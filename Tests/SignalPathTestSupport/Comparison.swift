/// Where two sample arrays first differ, or nil when they are equal. Tests compare with this rather
/// than `==` so a failure reports one line instead of rendering two arrays of a million elements.
public func firstDifference<T: Equatable>(_ actual: [T], _ expected: [T]) -> String? {
    if actual.count != expected.count {
        let prefix = min(actual.count, expected.count)
        return "counts differ: \(actual.count) vs \(expected.count)" + (firstDifference(Array(actual[..<prefix]), Array(expected[..<prefix])).map { "; " + $0 } ?? "")
    }
    guard let index = actual.indices.first(where: { actual[$0] != expected[$0] }) else { return nil }
    return "first difference at index \(index): \(actual[index]) vs \(expected[index])"
}

/// Compares Float arrays bit for bit (so NaNs compare, and −0 differs from +0).
public func firstBitDifference(_ actual: [Float], _ expected: [Float]) -> String? {
    firstDifference(actual.map(\.bitPattern), expected.map(\.bitPattern))
}
