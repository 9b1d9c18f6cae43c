/// A window function applied to each segment before the FFT.
///
/// Coefficients are periodic ("DFT-even", as `scipy.signal.get_window` makes them for spectral
/// analysis): the symmetric window of length N + 1 without its last point.
public enum Window: Sendable, Equatable {
    case rectangular
    case hann
    case hamming
    case blackman
    /// 4-term Blackman–Harris (−92 dB side lobes).
    case blackmanHarris
    /// Flat-top (scipy's 5-term `flattop`): amplitude accurate within 0.01 dB anywhere between bins.
    case flatTop
    /// Kaiser with shape parameter β.
    case kaiser(beta: Double)
    /// Gaussian exp(−½(α·n/(N/2))²), with n measured from the centre; α = 2.5 by default.
    case gaussian(alpha: Double)

    /// Parses `hann`, `blackman-harris`, `flat-top`, `kaiser:8.6`, `gaussian:2.5`, …
    public init?(name: String) {
        // Empty pieces kept, so that `kaiser:` (a parameter left out) is refused, not taken as `kaiser`.
        let parts = name.lowercased().split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard !parts.isEmpty else { return nil }  // "" and ":" (found by the fuzzer)
        let parameter = parts.count > 1 ? Double(parts[1]) : nil
        if parts.count > 1 && parameter == nil { return nil }
        switch parts[0] {
        case "rectangular", "rect", "boxcar", "none": self = .rectangular
        case "hann", "hanning": self = .hann
        case "hamming": self = .hamming
        case "blackman": self = .blackman
        case "blackman-harris", "blackmanharris", "bh4": self = .blackmanHarris
        case "flat-top", "flattop": self = .flatTop
        case "kaiser": self = .kaiser(beta: parameter ?? 8.6)
        case "gaussian", "gauss": self = .gaussian(alpha: parameter ?? 2.5)
        default: return nil
        }
        if case .kaiser(let beta) = self, !(beta >= 0 && beta <= 100) { return nil }
        if case .gaussian(let alpha) = self, !(alpha > 0 && alpha <= 100) { return nil }
    }

    /// The name `init(name:)` reads back: `hann`, `kaiser:8.6`.
    public var name: String {
        switch self {
        case .rectangular: return "rectangular"
        case .hann: return "hann"
        case .hamming: return "hamming"
        case .blackman: return "blackman"
        case .blackmanHarris: return "blackman-harris"
        case .flatTop: return "flat-top"
        case .kaiser(let beta): return "kaiser:\(UnitFormat.shortest(beta))"
        case .gaussian(let alpha): return "gaussian:\(UnitFormat.shortest(alpha))"
        }
    }

    /// Half the width of the main lobe in bins: how far a pure tone spreads. Peaks closer than this
    /// to a stronger one are its skirt, not tones of their own.
    public var mainLobeHalfWidth: Int {
        switch self {
        case .rectangular: return 1
        case .hann, .hamming: return 2
        case .blackman: return 3
        case .blackmanHarris: return 4
        case .flatTop: return 5
        case .kaiser(let beta): return Int((1 + (beta / Double.pi) * (beta / Double.pi)).squareRoot().rounded(.up))
        case .gaussian(let alpha): return max(2, Int((alpha * 1.2).rounded(.up)))
        }
    }

    /// The `size` periodic coefficients. Every window here is symmetric about its middle
    /// (w[n] = w[size − n]), so the first half is computed and mirrored: exactly symmetric (which
    /// `WindowResponse` relies on), and half the Bessel series of a Kaiser window.
    public func coefficients(size: Int) -> [Float] {
        precondition(size > 0)
        let first = halfCoefficients(size: size)
        return (0..<size).map { index in index < first.count ? first[index] : first[size - index] }
    }

    /// Coefficients 0...size/2 of `coefficients(size:)`.
    private func halfCoefficients(size: Int) -> [Float] {
        let n = Double(size)
        let count = size / 2 + 1
        func cosineSum(_ a: [Double]) -> [Float] {
            (0..<count).map { index in
                var value = 0.0
                for (term, coefficient) in a.enumerated() {
                    let sign: Double = term % 2 == 0 ? 1 : -1
                    value += sign * coefficient * cos(2 * Double.pi * Double(term) * Double(index) / n)
                }
                return Float(value)
            }
        }
        switch self {
        case .rectangular: return [Float](repeating: 1, count: count)
        case .hann: return cosineSum([0.5, 0.5])
        case .hamming: return cosineSum([0.54, 0.46])
        case .blackman: return cosineSum([0.42, 0.5, 0.08])
        case .blackmanHarris: return cosineSum([0.35875, 0.48829, 0.14128, 0.01168])
        case .flatTop: return cosineSum([0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368])
        case .kaiser(let beta):
            // Symmetric over N + 1 points, of which the first N are taken.
            let norm = Window.besselI0(beta)
            return (0..<count).map { index in
                let ratio = 2 * Double(index) / n - 1
                return Float(Window.besselI0(beta * (1 - ratio * ratio).squareRoot()) / norm)
            }
        case .gaussian(let alpha):
            return (0..<count).map { index in
                let x = alpha * (Double(index) - n / 2) / (n / 2)
                return Float(exp(-0.5 * x * x))
            }
        }
    }

    /// Modified Bessel function of the first kind, order 0 (power series; converges for all x).
    static func besselI0(_ x: Double) -> Double {
        var sum = 1.0, term = 1.0
        let quarterSquare = x * x / 4
        for k in 1..<500 {
            term *= quarterSquare / Double(k * k)
            sum += term
            if term < sum * 1e-17 { break }
        }
        return sum
    }
}

/// A window's coefficients with the sums every scaling needs.
public struct WindowTable: Sendable {
    public let window: Window
    public let coefficients: [Float]
    /// Σw: a sine of amplitude A on a bin centre gives |X| = A·Σw/2.
    public let sum: Double
    /// Σw²: white noise of variance σ² gives E|X|² = σ²·Σw².
    public let sumOfSquares: Double

    private struct Key: Hashable {
        var window: String
        var size: Int
    }
    private static let cache = ProcessCache<Key, WindowTable>()

    /// The table for `window` of `size`, computed once per process (a Kaiser window of 8192 points
    /// takes a Bessel series per point).
    public static func shared(_ window: Window, size: Int) -> WindowTable {
        cache.value(for: Key(window: window.name, size: size)) { WindowTable(window, size: size) }
    }

    public init(_ window: Window, size: Int) {
        self.window = window
        coefficients = window.coefficients(size: size)
        sum = coefficients.reduce(0) { $0 + Double($1) }
        sumOfSquares = coefficients.reduce(0) { $0 + Double($1) * Double($1) }
    }

    public var size: Int { coefficients.count }
    /// Coherent gain: the mean coefficient (0.5 for Hann).
    public var coherentGain: Double { sum / Double(size) }
    /// Equivalent noise bandwidth in bins of the window's own length: N·Σw²/(Σw)² (1.5 for Hann).
    public var enbwBins: Double { Double(size) * sumOfSquares / (sum * sum) }

    /// Equivalent noise bandwidth in Hz: fs·Σw²/(Σw)², whatever the zero-padding.
    public func enbwHertz(sampleRate: Int) -> Double { Double(sampleRate) * sumOfSquares / (sum * sum) }
}
