/// A C library opened with `dlopen` when a command first needs it, and its functions looked up by
/// name: what the C doors of libraries only some commands use (SQLite, zlib) share. Each door
/// types the functions from its header's declarations (`sp_NAME_fn`) and keeps them to itself.
struct SharedLibrary: @unchecked Sendable {
    // @unchecked: the handle is never closed and only read (dlsym is thread-safe).
    let name: String
    private let handle: UnsafeMutableRawPointer

    /// Opens `name`; `need` says what needs it and how to install it, for the error.
    init(_ name: String, need: String) throws(SignalPathError) {
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            throw .unavailable(path: name, reason: "\(need): \(reason)")
        }
        self.name = name
        self.handle = handle
    }

    /// The function `symbol` as `type` (its header's declaration).
    func function<F>(_ symbol: String, _ type: F.Type) throws(SignalPathError) -> F {
        guard let pointer = dlsym(handle, symbol) else { throw .unavailable(path: name, reason: "\(name) lacks \(symbol)") }
        return unsafeBitCast(pointer, to: type)
    }
}
