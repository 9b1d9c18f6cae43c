/// A comparison as compare writes it: judged against `--max-residual` when one is given.
public struct ComparisonReport: Report {
    public let comparison: SignalComparison
    public let maximumResidual: Double?

    public init(comparison: SignalComparison, maximumResidual: Double?) {
        self.comparison = comparison
        self.maximumResidual = maximumResidual
    }

    public var reportText: String? { comparison.text(maximumResidual: maximumResidual) }

    /// One row per pair.
    public func appendRecords(to table: inout DelimitedText, header: Bool, path: String?) {
        if header { table.append(SignalComparison.csvHeader) }
        table.append(comparison.csvRow(maximumResidual: maximumResidual))
    }

    public var jsonMembers: [JSONValue.Member] { comparison.jsonMembers(maximumResidual: maximumResidual) }
}
