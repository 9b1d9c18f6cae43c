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
        guard let function = optionalFunction(symbol, type) else { throw .unavailable(path: name, reason: "\(name) lacks \(symbol)") }
        return function
    }

    /// The function `symbol` as `type`, nil when the library lacks it.
    func optionalFunction<F>(_ symbol: String, _ type: F.Type) -> F? {
        dlsym(handle, symbol).map { unsafeBitCast($0, to: type) }
    }
}

/// A C library's table of functions, opened with `dlopen` when a command first needs it and kept
/// for the process, a failure too (reported to every later caller). A door declares its table
/// (the functions typed from its header's declarations), `init(_:)` looking them up, and
/// `static let loaded = load()`: Swift runs a static's initialiser once, on first access, safely
/// from any thread.
protocol LazyLibrary: Sendable {
    /// The file `dlopen` opens (with its ABI version: `libz.so.1`).
    static var libraryName: String { get }
    /// What needs the library and how to install it, for the error.
    static var need: String { get }
    /// The table's functions, looked up in `library`.
    init(_ library: SharedLibrary) throws(SignalPathError)
    /// The table or why there is none: `static let loaded = load()`.
    static var loaded: Result<Self, SignalPathError> { get }
}

extension LazyLibrary {
    /// Opens the library and looks its functions up; what `loaded` keeps.
    static func load() -> Result<Self, SignalPathError> {
        Result { () throws(SignalPathError) -> Self in try Self(SharedLibrary(libraryName, need: need)) }
    }

    /// The table, loaded on the first call.
    static func library() throws(SignalPathError) -> Self { try loaded.get() }
}
