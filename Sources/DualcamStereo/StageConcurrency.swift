import Dispatch

/// Two independent stages of one estimate run at once on the machine's
/// cores. Each stage writes only its own result, so the results do not
/// depend on the interleaving.
enum StagePair {
    /// Runs `first` and `second` concurrently (`DispatchQueue.concurrentPerform`)
    /// and returns both results; rethrows `first`'s error, else `second`'s.
    static func run<A, B>(_ first: () throws -> A, _ second: () throws -> B) throws -> (A, B) {
        var a: Result<A, Error>?, b: Result<B, Error>?
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            if index == 0 { a = Result { try first() } } else { b = Result { try second() } }
        }
        return (try a!.get(), try b!.get())
    }
}
