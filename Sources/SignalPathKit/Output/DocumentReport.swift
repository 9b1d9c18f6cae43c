/// A result that is one document over a whole database (a scan's summary, its groups of
/// duplicates) rather than an entry per file: its report for people and the members of its JSON
/// document. The command hands it to its writer, which picks the form (`ResultWriter`) and puts
/// the `schema` first; a command never switches over formats itself.
public protocol DocumentReport {
    /// The report for people, each line ended; empty when there is nothing to list.
    var documentText: String { get }
    /// The members of the JSON document after its `schema`.
    var documentMembers: [JSONValue.Member] { get }
}
