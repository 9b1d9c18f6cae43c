extension SIMD8 where Scalar == Float {
    /// The largest of the eight lanes, as a tree of pairwise `max` (what the kernels that keep
    /// eight running maxima reduce them with; SignalPathKit's four-lane twin is
    /// `SIMD4.largestLane`).
    @inline(__always)
    var largestLane: Float {
        max(max(max(self[0], self[1]), max(self[2], self[3])), max(max(self[4], self[5]), max(self[6], self[7])))
    }
}
