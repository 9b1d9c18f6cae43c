/// The clipping rule on one channel's runs of full-scale samples, in order: runs less than
/// `EventSettings.clipMergeGap` apart are one event (as `analyze` counts its clipping events), so a
/// burst of clipped peaks is one row.
struct ClipClusters {
    struct Cluster: Equatable {
        var start: Int64, end: Int64, samples: Int64, runs: Int, peak: Float
    }

    /// Frames between runs that still join them.
    private let gap: Int64
    private var open: Cluster?

    init(gap: Int64) {
        self.gap = gap
    }

    /// Adds a run at least as long as the rule's shortest; the cluster it ends goes to `closed`.
    mutating func add(_ run: RunPiece, closed: (Cluster) -> Void) {
        if var cluster = open, run.start - cluster.end < gap {
            cluster.end = run.end
            cluster.samples += run.end - run.start
            cluster.runs += 1
            cluster.peak = max(cluster.peak, run.value)
            open = cluster
            return
        }
        close(closed)
        open = Cluster(start: run.start, end: run.end, samples: run.end - run.start, runs: 1, peak: run.value)
    }

    /// True when no run starting at `position` or later could join the open cluster.
    func canClose(at position: Int64) -> Bool {
        open.map { $0.end + gap <= position } ?? false
    }

    /// Hands the open cluster, if any, to `closed`.
    mutating func close(_ closed: (Cluster) -> Void) {
        guard let cluster = open else { return }
        open = nil
        closed(cluster)
    }
}
