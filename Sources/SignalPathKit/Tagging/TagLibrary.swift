import CTagLib

/// Reads and rewrites named fields of a file's tag through signalpath's TagLib shim
/// (`Sources/SignalPathTagLib`): the only Swift file that talks to it, and no C pointer leaves it.
///
/// TagLib 1.13's C binding sets only title, artist and the like, not a TXXX frame or an MP4
/// freeform atom, and Swift's C++ interoperability would have to be switched on in every module
/// that imports one that uses it (SignalPathKit, the executable, the tests); so a few C++ lines
/// built as a shared object of their own (`libSignalPathTagLib.so`, beside the executable or in
/// `PREFIX/lib/signalpath`) give C functions, which this file opens with `dlopen` on first use:
/// only `replaygain` loads TagLib, and no other command's start pays for it.
public enum TagLibrary {
    /// The file name of the shim.
    public static let libraryName = "libSignalPathTagLib.so"

    /// Every field of `container`'s tag in `path` as (key, first value), in the tag's order: for an
    /// MP4 the freeform atoms by their full names, for an MP3 its TXXX frames by description, then
    /// its APEv2 items.
    public static func fields(of path: String, container: TagContainer) throws(SignalPathError) -> [(key: String, value: String)] {
        let shim = try Shim.library()
        let collected = FieldList()
        var message = [CChar](repeating: 0, count: 512)
        let status = message.withUnsafeMutableBufferPointer { buffer in
            shim.read(
                path, container.code,
                { context, key, value in
                    guard let context, let key, let value else { return }
                    Unmanaged<FieldList>.fromOpaque(context).takeUnretainedValue().fields.append((String(cString: key), String(cString: value)))
                }, Unmanaged.passUnretained(collected).toOpaque(), buffer.baseAddress, buffer.count)
        }
        if status != 0 { throw failure(status, path: path, message: message) }
        return collected.fields
    }

    /// Removes every field named in `removing` (any case) from `container`'s tag in `path`, sets
    /// `setting`, and saves the file in place (`TagRewrite` hands it a copy).
    public static func rewrite(_ path: String, container: TagContainer, removing: [String], setting: [(key: String, value: String)]) throws(SignalPathError) {
        let shim = try Shim.library()
        var message = [CChar](repeating: 0, count: 512)
        let status = withCStrings(removing) { removed in
            withCStrings(setting.map(\.key)) { keys in
                withCStrings(setting.map(\.value)) { values in
                    message.withUnsafeMutableBufferPointer { buffer in
                        shim.write(path, container.code, removed, Int32(removing.count), keys, values, Int32(setting.count), buffer.baseAddress, buffer.count)
                    }
                }
            }
        }
        if status != 0 { throw failure(status, path: path, message: message) }
    }

    private final class FieldList {
        var fields: [(key: String, value: String)] = []
    }

    private static func failure(_ status: Int32, path: String, message: [CChar]) -> SignalPathError {
        let said = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        switch Int(status) {
        case Int(SP_TAG_UNREADABLE.rawValue): return .malformed(path: path, reason: "TagLib cannot read its tags: \(said)")
        case Int(SP_TAG_READ_ONLY.rawValue): return .permissionDenied(path: path)
        default: return .tagsNotWritten(path: path, reason: "TagLib could not write the tags: \(said)")
        }
    }

    /// `strings` as an array of C strings, valid inside `body`.
    private static func withCStrings<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> Result) -> Result {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}

extension TagContainer {
    /// The shim's number for the container (`sp_tag_container`).
    fileprivate var code: Int32 {
        switch self {
        case .flac: return Int32(SP_TAG_FLAC.rawValue)
        case .oggVorbis: return Int32(SP_TAG_OGG_VORBIS.rawValue)
        case .oggOpus: return Int32(SP_TAG_OGG_OPUS.rawValue)
        case .mp3: return Int32(SP_TAG_MPEG.rawValue)
        case .mp4: return Int32(SP_TAG_MP4.rawValue)
        }
    }
}

/// The shim's functions, looked up once after one `dlopen`.
private struct Shim: @unchecked Sendable {
    // @unchecked: C function pointers, immutable after loading.
    let read: sp_tag_read_fn
    let write: sp_tag_write_fn

    private static let loaded: Result<Shim, SignalPathError> = load()

    static func library() throws(SignalPathError) -> Shim {
        switch loaded {
        case .success(let shim): return shim
        case .failure(let error): throw error
        }
    }

    /// Beside the executable (the build directory, `make bench`'s copy), then where `make install`
    /// puts it, then the loader's own search (LD_LIBRARY_PATH).
    private static func candidates() -> [String] {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        var paths: [String] = []
        if length > 0 {
            let executable = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let slash = executable.lastIndex(of: "/") {
                let directory = String(executable[..<slash])
                paths += [directory + "/" + TagLibrary.libraryName, directory + "/../lib/signalpath/" + TagLibrary.libraryName]
            }
        }
        return paths.filter { access($0, R_OK) == 0 } + [TagLibrary.libraryName]
    }

    private static func load() -> Result<Shim, SignalPathError> {
        do throws(SignalPathError) {
            let library = try SharedLibrary(
                candidates()[0],
                need: "replaygain writes tags through \(TagLibrary.libraryName), built with signalpath (make build; Debian: apt-get install libtag1v5)")
            return .success(Shim(read: try library.function("sp_tag_read", sp_tag_read_fn.self), write: try library.function("sp_tag_write", sp_tag_write_fn.self)))
        } catch {
            return .failure(error)
        }
    }
}
