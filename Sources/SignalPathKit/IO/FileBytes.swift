import Dispatch

/// Immutable bytes read from a file: a DispatchIO buffer or a recycled read buffer, passed on
/// without copying, or an array.
///
/// A value type with reference storage, like `ArraySlice`: sub-ranges (`self[range]`) share the
/// storage and are zero-based. The storage is never mutated after creation, which is why the
/// unchecked `Sendable` is sound (`DispatchData` itself is not marked `Sendable` on Linux).
public struct FileBytes: @unchecked Sendable {
    private enum Storage {
        case dispatch(DispatchData)
        case pooled(ReadBuffer)
        case array([UInt8])
    }

    private let storage: Storage
    /// The bytes of the storage this value shows.
    private let window: Range<Int>

    /// No bytes.
    public static let empty = FileBytes([])

    public init(_ bytes: [UInt8]) {
        storage = .array(bytes)
        window = 0..<bytes.count
    }

    /// Wraps what a DispatchIO read delivered. Data in one contiguous region (what a single read
    /// gives) is kept as is; data in several regions is flattened once, so that every later
    /// access is a plain pointer.
    init(_ data: DispatchData) {
        var regions = 0
        data.enumerateBytes { _, _, stop in
            regions += 1
            if regions > 1 { stop = true }
        }
        if regions <= 1 {
            storage = .dispatch(data)
        } else {
            storage = .array(
                [UInt8](unsafeUninitializedCapacity: data.count) { buffer, initialized in
                    initialized = data.copyBytes(to: buffer)
                })
        }
        window = 0..<data.count
    }

    /// The bytes a large read delivered into `buffer`.
    init(_ buffer: ReadBuffer) {
        storage = .pooled(buffer)
        window = 0..<buffer.count
    }

    private init(storage: Storage, window: Range<Int>) {
        self.storage = storage
        self.window = window
    }

    public var count: Int { window.count }
    public var isEmpty: Bool { window.isEmpty }

    /// The bytes at positions `bounds` (zero-based), sharing this value's storage.
    public subscript(bounds: Range<Int>) -> FileBytes {
        precondition(bounds.lowerBound >= 0 && bounds.upperBound <= count, "range outside the bytes")
        return FileBytes(storage: storage, window: window.lowerBound + bounds.lowerBound..<window.lowerBound + bounds.upperBound)
    }

    /// Calls `body` with a pointer to the bytes, valid only during the call.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        switch storage {
        case .array(let array):
            return array.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[window])) }
        case .pooled(let buffer):
            return buffer.withUnsafeBytes(in: window, body)
        case .dispatch(let data):
            // Through the region itself: DispatchData.withUnsafeBytes maps the data, which copies
            // it whenever the object is a composite, as a DispatchIO read's result usually is.
            var result: Result?
            data.enumerateBytes { region, _, stop in
                result = body(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(region)[window]))
                stop = true
            }
            return result ?? body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
    }

    /// A copy as an array.
    public var array: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Whether this value shares storage larger than itself (a sub-range of a bigger buffer), which
    /// keeps the whole buffer alive.
    var isPartOfLargerStorage: Bool {
        switch storage {
        case .array(let array): return array.count != window.count
        case .pooled(let buffer): return buffer.count != window.count
        case .dispatch(let data): return data.count != window.count
        }
    }
}

extension FileBytes: Equatable {
    /// Equal when the bytes are equal, wherever they are stored.
    public static func == (lhs: FileBytes, rhs: FileBytes) -> Bool {
        lhs.count == rhs.count && lhs.withUnsafeBytes { a in rhs.withUnsafeBytes { b in a.elementsEqual(b) } }
    }
}

extension FileBytes: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: UInt8...) {
        self.init(elements)
    }
}
