import SignalPathAVX2

extension SIMD4 where Scalar == Float {
    /// The largest lane, spelled out: the generic reduction is not specialised.
    var largestLane: Float { Swift.max(Swift.max(self[0], self[1]), Swift.max(self[2], self[3])) }
}

extension LevelStatistics {
    /// True when no sample of `samples` is NaN or infinite; four at a time.
    static func allFinite(_ samples: UnsafeBufferPointer<Float>) -> Bool {
        guard let base = samples.baseAddress else { return true }
        var index = 0
        var finite = SIMDMask<SIMD4<Int32>>(repeating: true)
        while index &+ 4 <= samples.count {
            let value = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD4<Float>.self)
            let magnitude = value.replacing(with: -value, where: value .< 0)
            finite = finite .& (magnitude .< .infinity)  // NaN fails the comparison too
            index &+= 4
        }
        while index < samples.count {
            if !samples[index].isFinite { return false }
            index &+= 1
        }
        return all(finite)
    }

    /// The running state of one `accumulate` call, with indices into its samples.
    struct Pass {
        /// 128 where it was 64: the per-block work (the call, the sign changes into the block, the
        /// peak and audibility tests) was as much again as the block's arithmetic; 256 was no
        /// faster (docs/DECISIONS.md#level-blocks).
        static let blockSize = 128

        var minimum: Float, maximum: Float, peak: Float
        var peakIndex = -1
        var sum = 0.0, squares = 0.0
        var crossings: Int64 = 0
        var previousNegative: Bool
        var firstAudible = -1, lastAudible = -1
        /// The last block seen to hold an audible sample: `lastAudible` is found there at the end.
        var lastAudibleBlock = -1
        var lowestBit: Int
        var nonFinite: Int64 = 0
        /// Full-scale runs of this pass: the one touching its start stays open for the merge.
        var clip: ClipRuns
        var run: Int64 = 0
        var seenBelowFullScale = false
        let rules: Rules

        init(statistics: LevelStatistics, rules: Rules, first: Float) {
            minimum = statistics.minimum
            maximum = statistics.maximum
            peak = statistics.peak
            previousNegative = (statistics.lastSample ?? first) < 0
            lowestBit = statistics.lowestBitExponent
            clip = ClipRuns(minimumRun: rules.minimumClipRun, eventGap: rules.clipEventGap)
            self.rules = rules
        }

        /// A block of `blockSize` finite samples at `start`. Its largest magnitude is max(−lowest,
        /// highest) of the extremes it finds anyway, not a separate pass
        /// (docs/DECISIONS.md#level-blocks).
        mutating func block(_ samples: UnsafePointer<Float>, _ start: Int) {
            let block = samples + start
            let (lowest, highest, sums, squareSums, changes) =
                Self.wide ? LevelBlockAVX2.summarize(block, count: Self.blockSize) : LevelBlock.summarize(block, count: Self.blockSize)
            // Sign changes into the block and within its first four samples.
            var negative = previousNegative
            for index in 0..<4 {
                let next = block[index] < 0
                if next != negative { crossings += 1 }
                negative = next
            }
            crossings += Int64(changes)
            previousNegative = block[Self.blockSize - 1] < 0
            let largestMagnitude = Swift.max(-lowest, highest)
            minimum = Swift.min(minimum, lowest)
            maximum = Swift.max(maximum, highest)
            sum += sums.sum()
            squares += squareSums.sum()
            if largestMagnitude > peak {
                peak = largestMagnitude
                peakIndex = start + (0..<Self.blockSize).first { abs(block[$0]) == largestMagnitude }!
            }
            if largestMagnitude >= rules.silenceThreshold {
                if firstAudible < 0 { firstAudible = start + (0..<Self.blockSize).first { abs(block[$0]) >= rules.silenceThreshold }! }
                lastAudibleBlock = start
            }
            if largestMagnitude >= rules.fullScale {
                let first = Int64(start) - nonFinite
                for index in 0..<Self.blockSize { clipStep(abs(block[index]), at: first + Int64(index)) }
            } else {
                clipStep(0, at: Int64(start) - nonFinite)  // every sample of the block is below full scale: one step says so
            }
            if lowestBit > rules.finestBitExponent {
                // Integer PCM of up to 24 bits: the quick path, unless the block holds other values.
                let found = rules.finestBitExponent >= Self.integerFinestBit ? Self.integerLowestBit(block) : nil
                lowestBit = min(lowestBit, found ?? Self.lowestBit(block))
            }
        }

        /// Whether `block` runs `LevelBlockAVX2`: on processors with AVX2, where the one source it
        /// shares with `LevelBlock` gives the same bits with fewer instructions.
        static let wide = ProcessorFeatures.hasX86_64_v3

        /// The finest bit `integerLowestBit` sees: 2⁻²³, the last of 24-bit PCM.
        static let integerFinestBit = -23

        /// `lowestBit` for a block whose samples are all multiples of 2⁻²³ in (−1, 1), as integer
        /// PCM of up to 24 bits decodes: 1 + |x| then holds |x|·2²³ exactly in its significand, so
        /// one OR over the block and its trailing zeros give the answer (about half the generic
        /// loop's instructions; it is the whole-file search of a 24-bit file padded from 16 bits).
        /// Nil when some sample is no such value (full scale, or finer bits): `lowestBit` decides.
        static func integerLowestBit(_ block: UnsafePointer<Float>) -> Int? {
            var union = SIMD4<UInt32>(repeating: 0)
            var exact = SIMDMask<SIMD4<Int32>>(repeating: true)
            for offset in stride(from: 0, to: blockSize, by: 4) {
                let value = UnsafeRawPointer(block + offset).loadUnaligned(as: SIMD4<Float>.self)
                let magnitude = value.replacing(with: -value, where: value .< 0)
                let shifted = magnitude + 1
                exact = exact .& (shifted - 1 .== magnitude) .& (magnitude .< 1)
                union |= unsafeBitCast(shifted, to: SIMD4<UInt32>.self) & 0x7F_FFFF
            }
            guard all(exact) else { return nil }
            let bits = (union[0] | union[1]) | (union[2] | union[3])
            return bits == 0 ? .max : bits.trailingZeroBitCount + integerFinestBit
        }

        /// The exponent of the lowest set bit over the block's non-zero samples (Int.max if none).
        static func lowestBit(_ block: UnsafePointer<Float>) -> Int {
            var lowest = SIMD4<Int32>(repeating: .max)
            for offset in stride(from: 0, to: blockSize, by: 4) {
                let bits = UnsafeRawPointer(block + offset).loadUnaligned(as: SIMD4<UInt32>.self) & 0x7FFF_FFFF
                let exponent = bits &>> 23
                var significand = bits & 0x7F_FFFF
                significand.replace(with: significand | 0x80_0000, where: exponent .!= 0)
                // The lowest set bit alone, as a Float (exact: a power of two ≤ 2²³): its exponent is
                // the number of trailing zeros.
                let lowestSet = SIMD4<Int32>(truncatingIfNeeded: significand & (0 &- significand))
                let asFloat = SIMD4<Float>(Float(lowestSet[0]), Float(lowestSet[1]), Float(lowestSet[2]), Float(lowestSet[3]))
                let trailingZeros = SIMD4<Int32>(truncatingIfNeeded: (unsafeBitCast(asFloat, to: SIMD4<UInt32>.self) &>> 23)) &- 127
                let biased = SIMD4<Int32>(truncatingIfNeeded: exponent)
                var position = biased.replacing(with: 1, where: biased .== 0) &- 150 &+ trailingZeros
                position.replace(with: .max, where: bits .== 0)
                lowest.replace(with: position, where: position .< lowest)
            }
            let result = lowest.min()
            return result == .max ? .max : Int(result)
        }

        /// One sample's step of the full-scale run tracking (`magnitude` 0 for "below full scale");
        /// `position` counts the pass' finite samples before it, where a run it ends stops.
        mutating func clipStep(_ magnitude: Float, at position: Int64) {
            if magnitude >= rules.fullScale {
                run += 1
            } else if !seenBelowFullScale {
                clip.leading = run
                seenBelowFullScale = true
                run = 0
            } else if run > 0 {
                clip.close(run, endingAt: position)
                run = 0
            }
        }

        /// The samples of `range`, one at a time: blocks with NaN or infinities, and the tail.
        mutating func sampleBySample(_ samples: UnsafePointer<Float>, _ range: Range<Int>) {
            let threshold = rules.silenceThreshold
            for index in range {
                let x = samples[index]
                guard x.isFinite else {
                    nonFinite += 1
                    continue
                }
                let value = Double(x)
                sum += value
                squares += value * value
                minimum = Swift.min(minimum, x)
                maximum = Swift.max(maximum, x)
                let magnitude = abs(x)
                if magnitude > peak {
                    peak = magnitude
                    peakIndex = index
                }
                let negative = x < 0
                if negative != previousNegative { crossings += 1 }
                previousNegative = negative
                if magnitude >= threshold {
                    if firstAudible < 0 { firstAudible = index }
                    lastAudible = index
                    lastAudibleBlock = -1
                }
                clipStep(magnitude, at: Int64(index) - nonFinite)
                let bits = x.bitPattern & 0x7FFF_FFFF
                if bits != 0 {
                    let exponent = Int(bits >> 23)
                    let significand = (bits & 0x7F_FFFF) | (exponent != 0 ? 0x80_0000 : 0)
                    lowestBit = Swift.min(lowestBit, Swift.max(exponent, 1) - 150 + significand.trailingZeroBitCount)
                }
            }
        }

        /// Settles `lastAudible` when the last audible sample was in a block summarised as a whole.
        mutating func findLastAudible(_ samples: UnsafePointer<Float>) {
            guard lastAudibleBlock >= 0 else { return }
            let start = lastAudibleBlock
            lastAudible = start + (0..<Self.blockSize).last { abs(samples[start + $0]) >= rules.silenceThreshold }!
        }
    }
}
