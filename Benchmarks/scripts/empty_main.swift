// The start-up floor of a Swift program on this machine (run_bench.py builds it as signalpath is
// built: optimised, the standard library linked in, an async main): it does nothing.
@main
struct EmptyMain {
    static func main() async {}
}
