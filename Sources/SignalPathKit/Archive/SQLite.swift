import CSQLite

/// One SQLite database connection: the only Swift file that talks to SQLite, and no SQLite pointer
/// leaves it. Used by one thread at a time (scan's writer thread, or a command's own task).
///
/// libsqlite3 is not linked but opened with `dlopen` on the first database: only scan, export and
/// merge need it. Chosen over GRDB.swift (in the package mirror): GRDB links SQLite into every
/// start of every command, adds a large dependency to build, and its pools and observation are
/// more than one writer and a few queries need; this file is the same one-door pattern as
/// SndFile.swift.
public final class SQLiteDatabase {
    /// A value in a row or a parameter.
    public enum Value: Sendable, Equatable {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
        case blob([UInt8])

        public var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
        public var real: Double? {
            switch self {
            case .real(let value): return value
            case .integer(let value): return Double(value)
            default: return nil
            }
        }
        public var text: String? { if case .text(let value) = self { value } else { nil } }
        public var blob: [UInt8]? { if case .blob(let value) = self { value } else { nil } }
    }

    public enum Mode: Sendable {
        case readOnly
        /// Opened for reading and writing, created when missing.
        case readWrite
    }

    /// The database's path, as the user named it (for messages).
    public let path: String
    private let library: SQLiteLibrary
    private var connection: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    public init(path: String, mode: Mode) throws(SignalPathError) {
        self.path = path
        library = try SQLiteLibrary.library()
        let flags = mode == .readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        var handle: OpaquePointer?
        let status = library.open(path, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        connection = handle
        guard status == SQLITE_OK else {
            let reason = handle.map { Self.text(library.errmsg($0)) } ?? Self.text(library.errstr(status))
            _ = library.close(handle)
            connection = nil
            throw .database(path: path, reason: "cannot open the database: \(reason)", kind: mode == .readOnly ? .unusable : .cannotCreate)
        }
        // A writer holding the lock briefly (a commit) is waited for rather than failed.
        _ = library.busyTimeout(handle, 5000)
    }

    deinit {
        for statement in statements.values { _ = library.finalize(statement) }
        _ = library.close(connection)
    }

    /// The version of the loaded SQLite library.
    public var libraryVersion: String { Self.text(library.libversion()) }

    /// Runs `sql` (one or more statements, no parameters).
    public func execute(_ sql: String) throws(SignalPathError) {
        var message: UnsafeMutablePointer<CChar>?
        let status = library.exec(connection, sql, nil, nil, &message)
        guard status == SQLITE_OK else {
            let reason = message.map { String(cString: $0) } ?? Self.text(library.errstr(status))
            free(message)
            throw failure(status, reason)
        }
    }

    /// Runs one statement with `parameters` (`?` in order), returning the rows changed.
    @discardableResult
    public func run(_ sql: String, _ parameters: [Value] = []) throws(SignalPathError) -> Int {
        try query(sql, parameters) { _ in }
        return Int(library.changes(connection))
    }

    /// Runs one query with `parameters`, calling `row` with each row's values in column order.
    public func query(_ sql: String, _ parameters: [Value] = [], row: ([Value]) throws(SignalPathError) -> Void) throws(SignalPathError) {
        let statement = try prepared(sql)
        defer {
            _ = library.reset(statement)
            _ = library.clearBindings(statement)
        }
        for (index, value) in parameters.enumerated() {
            let position = Int32(index + 1)
            let status: Int32
            switch value {
            case .null: status = library.bindNull(statement, position)
            case .integer(let number): status = library.bindInt64(statement, position, number)
            case .real(let number): status = library.bindDouble(statement, position, number)
            case .text(let string): status = library.bindText(statement, position, string, -1, sp_sqlite_transient())
            case .blob(let bytes):
                status = bytes.withUnsafeBytes { library.bindBlob(statement, position, $0.baseAddress, Int32($0.count), sp_sqlite_transient()) }
            }
            guard status == SQLITE_OK else { throw failure(status, Self.text(library.errmsg(connection))) }
        }
        let columns = library.columnCount(statement)
        while true {
            let status = library.step(statement)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw failure(status, Self.text(library.errmsg(connection))) }
            var values: [Value] = []
            values.reserveCapacity(Int(columns))
            for column in 0..<columns {
                switch library.columnType(statement, column) {
                case SQLITE_INTEGER: values.append(.integer(library.columnInt64(statement, column)))
                case SQLITE_FLOAT: values.append(.real(library.columnDouble(statement, column)))
                case SQLITE_NULL: values.append(.null)
                case SQLITE_BLOB:
                    let count = Int(library.columnBytes(statement, column))
                    let bytes = library.columnBlob(statement, column).map { [UInt8](UnsafeRawBufferPointer(start: $0, count: count)) }
                    values.append(.blob(bytes ?? []))
                default:
                    let count = Int(library.columnBytes(statement, column))
                    let text = library.columnText(statement, column).map { pointer in
                        String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
                    }
                    values.append(text.map(Value.text) ?? .null)
                }
            }
            try row(values)
        }
    }

    /// The rows of a query.
    public func rows(_ sql: String, _ parameters: [Value] = []) throws(SignalPathError) -> [[Value]] {
        var rows: [[Value]] = []
        try query(sql, parameters) { rows.append($0) }
        return rows
    }

    /// The names of a query's columns (a statement that is prepared, not run).
    public func columnNames(_ sql: String) throws(SignalPathError) -> [String] {
        let statement = try prepared(sql)
        return (0..<library.columnCount(statement)).map { Self.text(library.columnName(statement, $0)) }
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    public func transaction<Result>(_ body: () throws(SignalPathError) -> Result) throws(SignalPathError) -> Result {
        try execute("BEGIN IMMEDIATE")
        do throws(SignalPathError) {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// A C string SQLite returned (nil only when it is out of memory).
    private static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? "(no message)"
    }

    private func prepared(_ sql: String) throws(SignalPathError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let status = library.prepare(connection, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw failure(status, Self.text(library.errmsg(connection))) }
        statements[sql] = statement
        return statement
    }

    /// SQLite's status as signalpath's error: damage and foreign files are unusable data (65), SQL
    /// that does not compile a usage error (64), everything else a failed read or write (74).
    private func failure(_ status: Int32, _ reason: String) -> SignalPathError {
        let primary = status & 0xff
        switch primary {
        case SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_SCHEMA: return .database(path: path, reason: reason, kind: .unusable)
        // SQL that does not compile: only a user's own expression (export --where) can be that.
        case SQLITE_ERROR: return .database(path: path, reason: reason, kind: .badQuery)
        default: return .database(path: path, reason: reason, kind: .io)
        }
    }
}

/// libsqlite3's functions, looked up once with `dlsym` after one `dlopen`.
private struct SQLiteLibrary: LazyLibrary, @unchecked Sendable {
    // @unchecked: C function pointers, immutable after loading; SQLite is built thread-safe and
    // each connection is used by one thread at a time.
    let open: sp_sqlite3_open_v2_fn
    let close: sp_sqlite3_close_v2_fn
    let errmsg: sp_sqlite3_errmsg_fn
    let errstr: sp_sqlite3_errstr_fn
    let busyTimeout: sp_sqlite3_busy_timeout_fn
    let exec: sp_sqlite3_exec_fn
    let prepare: sp_sqlite3_prepare_v2_fn
    let finalize: sp_sqlite3_finalize_fn
    let reset: sp_sqlite3_reset_fn
    let clearBindings: sp_sqlite3_clear_bindings_fn
    let step: sp_sqlite3_step_fn
    let bindNull: sp_sqlite3_bind_null_fn
    let bindInt64: sp_sqlite3_bind_int64_fn
    let bindDouble: sp_sqlite3_bind_double_fn
    let bindText: sp_sqlite3_bind_text_fn
    let bindBlob: sp_sqlite3_bind_blob_fn
    let columnCount: sp_sqlite3_column_count_fn
    let columnType: sp_sqlite3_column_type_fn
    let columnInt64: sp_sqlite3_column_int64_fn
    let columnDouble: sp_sqlite3_column_double_fn
    let columnText: sp_sqlite3_column_text_fn
    let columnBlob: sp_sqlite3_column_blob_fn
    let columnBytes: sp_sqlite3_column_bytes_fn
    let columnName: sp_sqlite3_column_name_fn
    let changes: sp_sqlite3_changes_fn
    let libversion: sp_sqlite3_libversion_fn

    static let libraryName = "libsqlite3.so.0"

    static let loaded = load()
    static let need = "results databases need SQLite (Debian: apt-get install libsqlite3-0)"

    init(_ library: SharedLibrary) throws(SignalPathError) {
        open = try library.function("sqlite3_open_v2", sp_sqlite3_open_v2_fn.self)
        close = try library.function("sqlite3_close_v2", sp_sqlite3_close_v2_fn.self)
        errmsg = try library.function("sqlite3_errmsg", sp_sqlite3_errmsg_fn.self)
        errstr = try library.function("sqlite3_errstr", sp_sqlite3_errstr_fn.self)
        busyTimeout = try library.function("sqlite3_busy_timeout", sp_sqlite3_busy_timeout_fn.self)
        exec = try library.function("sqlite3_exec", sp_sqlite3_exec_fn.self)
        prepare = try library.function("sqlite3_prepare_v2", sp_sqlite3_prepare_v2_fn.self)
        finalize = try library.function("sqlite3_finalize", sp_sqlite3_finalize_fn.self)
        reset = try library.function("sqlite3_reset", sp_sqlite3_reset_fn.self)
        clearBindings = try library.function("sqlite3_clear_bindings", sp_sqlite3_clear_bindings_fn.self)
        step = try library.function("sqlite3_step", sp_sqlite3_step_fn.self)
        bindNull = try library.function("sqlite3_bind_null", sp_sqlite3_bind_null_fn.self)
        bindInt64 = try library.function("sqlite3_bind_int64", sp_sqlite3_bind_int64_fn.self)
        bindDouble = try library.function("sqlite3_bind_double", sp_sqlite3_bind_double_fn.self)
        bindText = try library.function("sqlite3_bind_text", sp_sqlite3_bind_text_fn.self)
        bindBlob = try library.function("sqlite3_bind_blob", sp_sqlite3_bind_blob_fn.self)
        columnCount = try library.function("sqlite3_column_count", sp_sqlite3_column_count_fn.self)
        columnType = try library.function("sqlite3_column_type", sp_sqlite3_column_type_fn.self)
        columnInt64 = try library.function("sqlite3_column_int64", sp_sqlite3_column_int64_fn.self)
        columnDouble = try library.function("sqlite3_column_double", sp_sqlite3_column_double_fn.self)
        columnText = try library.function("sqlite3_column_text", sp_sqlite3_column_text_fn.self)
        columnBlob = try library.function("sqlite3_column_blob", sp_sqlite3_column_blob_fn.self)
        columnBytes = try library.function("sqlite3_column_bytes", sp_sqlite3_column_bytes_fn.self)
        columnName = try library.function("sqlite3_column_name", sp_sqlite3_column_name_fn.self)
        changes = try library.function("sqlite3_changes", sp_sqlite3_changes_fn.self)
        libversion = try library.function("sqlite3_libversion", sp_sqlite3_libversion_fn.self)
    }
}
