/// One file's row in a scan database (`files`; docs/SCAN.md has the schema).
public struct ScanRecord: Sendable, Equatable {
    public enum Status: String, Sendable {
        case ok
        case error
    }

    /// Absolute path, normalised (`ScanPath.absolute`).
    public var path: String
    public var sizeBytes: Int64
    /// Modification time, nanoseconds since the epoch.
    public var modifiedNanoseconds: Int64
    /// SHA-256 of the bytes, 64 hexadecimal digits (with `--content-hash`).
    public var contentSHA256: String?
    public var status: Status
    /// For `error`: the exit code that file alone would give, its category and the reason.
    public var errorCode: Int?
    public var errorCategory: String?
    public var errorMessage: String?
    /// When the row was written: ISO 8601 UTC with microseconds (sorts as text).
    public var analyzedAt: String
    public var toolVersion: String
    public var settingsKey: String
    public var durationSeconds: Double?
    public var integratedLUFS: Double?
    public var truePeakDBTP: Double?
    /// With a profile: whether the file met it.
    public var passed: Bool?
    /// Whether the file holds fewer frames than its header promises (nil: not known, as for a file
    /// that could not be opened), the frames promised (nil unless truncated) and those present.
    public var truncated: Bool?
    public var framesPromised: Int64?
    public var framesPresent: Int64?
    /// With `--md5`: the audio MD5 (nil where the format has none), and the MD5 the file carries
    /// with what comparing it found (`ScanRecord+Identity`).
    public var audioMD5: String?
    public var embeddedMD5: String?
    public var embeddedMD5Status: String?
    /// With `--fingerprint`: Chromaprint's fingerprint as fpcalc prints it, its 32-bit
    /// sub-fingerprints and the seconds it covers.
    public var fingerprint: String?
    public var fingerprintRaw: [UInt32]?
    public var fingerprintSeconds: Double?
    /// The full record: analyze's JSON object for the file (plus `check` and `events` when asked for).
    public var resultJSON: String?

    public init(
        path: String, sizeBytes: Int64, modifiedNanoseconds: Int64, contentSHA256: String?, status: Status, errorCode: Int? = nil,
        errorCategory: String? = nil, errorMessage: String? = nil, analyzedAt: String, toolVersion: String, settingsKey: String,
        durationSeconds: Double? = nil, integratedLUFS: Double? = nil, truePeakDBTP: Double? = nil, passed: Bool? = nil, truncated: Bool? = nil, framesPromised: Int64? = nil,
        framesPresent: Int64? = nil, audioMD5: String? = nil, embeddedMD5: String? = nil, embeddedMD5Status: String? = nil,
        fingerprint: String? = nil, fingerprintRaw: [UInt32]? = nil, fingerprintSeconds: Double? = nil,
        resultJSON: String? = nil
    ) {
        self.path = path
        self.sizeBytes = sizeBytes
        self.modifiedNanoseconds = modifiedNanoseconds
        self.contentSHA256 = contentSHA256
        self.status = status
        self.errorCode = errorCode
        self.errorCategory = errorCategory
        self.errorMessage = errorMessage
        self.analyzedAt = analyzedAt
        self.toolVersion = toolVersion
        self.settingsKey = settingsKey
        self.durationSeconds = durationSeconds
        self.integratedLUFS = integratedLUFS
        self.truePeakDBTP = truePeakDBTP
        self.passed = passed
        self.truncated = truncated
        self.framesPromised = framesPromised
        self.framesPresent = framesPresent
        self.audioMD5 = audioMD5
        self.embeddedMD5 = embeddedMD5
        self.embeddedMD5Status = embeddedMD5Status
        self.fingerprint = fingerprint
        self.fingerprintRaw = fingerprintRaw
        self.fingerprintSeconds = fingerprintSeconds
        self.resultJSON = resultJSON
    }

    /// The columns of `files`, in order: the one list the schema, inserts, reads and exports use.
    public static let columns = [
        "path", "size_bytes", "mtime_ns", "content_sha256", "status", "error_code", "error_category", "error_message", "analyzed_at",
        "tool_version", "settings_key", "duration_s", "integrated_lufs", "true_peak_dbtp", "passed", "truncated", "frames_promised", "frames_present",
        "audio_md5", "embedded_md5", "embedded_md5_status", "fingerprint", "fingerprint_raw", "fingerprint_duration_s", "result_json",
    ]

    /// The columns whose integers are booleans (0 or 1): exports write them as true and false.
    public static let booleanColumns: Set<String> = ["passed", "truncated"]

    /// The values in `columns`' order.
    public var values: [SQLiteDatabase.Value] {
        func real(_ value: Double?) -> SQLiteDatabase.Value { value.flatMap { $0.isFinite ? .real($0) : nil } ?? .null }
        func text(_ value: String?) -> SQLiteDatabase.Value { value.map(SQLiteDatabase.Value.text) ?? .null }
        func integer(_ value: Int64?) -> SQLiteDatabase.Value { value.map(SQLiteDatabase.Value.integer) ?? .null }
        func boolean(_ value: Bool?) -> SQLiteDatabase.Value { value.map { .integer($0 ? 1 : 0) } ?? .null }
        return [
            .text(path), .integer(sizeBytes), .integer(modifiedNanoseconds), text(contentSHA256), .text(status.rawValue),
            integer(errorCode.map { Int64($0) }), text(errorCategory), text(errorMessage), .text(analyzedAt), .text(toolVersion),
            .text(settingsKey), real(durationSeconds), real(integratedLUFS), real(truePeakDBTP), boolean(passed), boolean(truncated),
            integer(framesPromised), integer(framesPresent), text(audioMD5), text(embeddedMD5), text(embeddedMD5Status), text(fingerprint),
            fingerprintRaw.map { .blob(Self.bytes(ofRaw: $0)) } ?? .null, real(fingerprintSeconds), text(resultJSON),
        ]
    }

    /// A row read back (`SELECT` of `columns`), or nil when its values do not fit.
    public init?(values: [SQLiteDatabase.Value]) {
        guard values.count == Self.columns.count, let path = values[0].text, let size = values[1].integer, let mtime = values[2].integer,
            let status = values[4].text.flatMap(Status.init(rawValue:)), let analyzedAt = values[8].text, let toolVersion = values[9].text,
            let settingsKey = values[10].text
        else { return nil }
        self.init(
            path: path, sizeBytes: size, modifiedNanoseconds: mtime, contentSHA256: values[3].text, status: status,
            errorCode: values[5].integer.map { Int($0) }, errorCategory: values[6].text, errorMessage: values[7].text, analyzedAt: analyzedAt,
            toolVersion: toolVersion, settingsKey: settingsKey, durationSeconds: values[11].real, integratedLUFS: values[12].real,
            truePeakDBTP: values[13].real, passed: values[14].integer.map { $0 != 0 }, truncated: values[15].integer.map { $0 != 0 },
            framesPromised: values[16].integer, framesPresent: values[17].integer, audioMD5: values[18].text, embeddedMD5: values[19].text,
            embeddedMD5Status: values[20].text, fingerprint: values[21].text, fingerprintRaw: values[22].blob.map(Self.raw(ofBytes:)),
            fingerprintSeconds: values[23].real, resultJSON: values[24].text)
    }
}
