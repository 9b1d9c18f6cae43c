import SignalPathKit

/// Runs `work` on each file, up to `workers` files at once, and hands each result to `deliver` in
/// the order the files were named (`FileBatch.runSideBySide`, `check`, `replaygain`): a slow file
/// never reorders the output, and a failed one is delivered in its place.
func forEachFileInOrder<File: Sendable, Value: Sendable>(
    _ files: [File], workers: Int, _ work: @escaping @Sendable (File) async throws(SignalPathError) -> Value,
    deliver: (Result<Value, SignalPathError>) -> Void
) async {
    await withTaskGroup(of: (Int, Result<Value, SignalPathError>).self) { group in
        var next = 0
        var inOrder = InOrderMerger<Result<Value, SignalPathError>>()
        func start() {
            let index = next
            next += 1
            group.addTask {
                do throws(SignalPathError) {
                    return (index, .success(try await work(files[index])))
                } catch {
                    return (index, .failure(error))
                }
            }
        }
        while next < min(files.count, workers) { start() }
        while let (index, result) = await group.next() {
            inOrder.add(result, index: index, merge: deliver)
            if next < files.count { start() }
        }
    }
}
