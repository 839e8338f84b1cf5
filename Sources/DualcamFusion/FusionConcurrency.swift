import Dispatch
import Foundation

/// Independent fusion stages run at once on the machine's cores. Every
/// stage writes only its own outputs, so results do not depend on the
/// interleaving (the fusion benchmark's target is per frame on 2 cores).
enum Concurrently {
    /// Runs the closures concurrently (`DispatchQueue.concurrentPerform`);
    /// rethrows the error of the lowest-numbered failing closure.
    static func run(_ tasks: [() throws -> Void]) throws {
        var errors = [Error?](repeating: nil, count: tasks.count)
        errors.withUnsafeMutableBufferPointer { errors in
            DispatchQueue.concurrentPerform(iterations: tasks.count) { i in
                do { try tasks[i]() } catch { errors[i] = error }
            }
        }
        if let first = errors.lazy.compactMap({ $0 }).first { throw first }
    }

    /// `body` over two halves of 0..<count on two threads (each index in exactly one).
    static func inHalves(_ count: Int, _ body: (Range<Int>) -> Void) {
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            body(half == 0 ? 0..<(count / 2) : (count / 2)..<count)
        }
    }
}

/// A stage started on a global queue while the calling thread goes on with
/// other work (there `concurrentPerform` would run a nested
/// `concurrentPerform`, like the sample verifier's, on one thread); `wait`
/// joins it and rethrows its error.
final class BackgroundStage: @unchecked Sendable {
    private let group = DispatchGroup()
    private var error: Error?

    init(_ body: @escaping () throws -> Void) {
        DispatchQueue.global(qos: .userInitiated).async(group: group) {
            do { try body() } catch { self.error = error }
        }
    }

    func wait() throws {
        group.wait()
        if let error { throw error }
    }
}
