import Dispatch
import Foundation

/// The hidden temporary files and staging directories a command has made and
/// not yet published, so that an interrupted run (Ctrl-C, SIGTERM) leaves
/// none behind. `AtomicFile`, `StagedOutputs` and the commands' staging
/// directories register what they create and unregister it once renamed
/// into place or removed.
///
/// `installSignalHandlers()` (the `dualcam` command calls it first thing)
/// turns SIGINT and SIGTERM into dispatch sources on a background queue:
/// there, with the main thread still busy, every registered path is removed
/// and the process exits with 128 + the signal number (130, 143), as the
/// default action would have, minus the debris.
public enum StagingRegistry {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var paths: Set<String> = []
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
    nonisolated(unsafe) private static var interruptHandler: (@Sendable () -> Void)?

    /// While set, SIGINT calls `handler` instead of removing the staging and
    /// exiting: for a command that stops gracefully on Ctrl-C (`capture`
    /// finishes the current pair and its files). SIGTERM still exits.
    public static func setInterruptHandler(_ handler: (@Sendable () -> Void)?) {
        lock.lock(); defer { lock.unlock() }
        interruptHandler = handler
    }

    /// Remembers `url` (a file or a directory) for removal on a signal.
    public static func register(_ url: URL) {
        lock.lock(); defer { lock.unlock() }
        paths.insert(url.path)
    }

    /// Forgets `url` (published or removed).
    public static func unregister(_ url: URL) {
        lock.lock(); defer { lock.unlock() }
        paths.remove(url.path)
    }

    /// What is registered now (for tests).
    public static var registered: Set<String> {
        lock.lock(); defer { lock.unlock() }
        return paths
    }

    /// Removes everything registered (files and directories, recursively).
    public static func removeAll() {
        lock.lock(); defer { lock.unlock() }
        for path in paths { try? FileManager.default.removeItem(atPath: path) }
        paths.removeAll()
    }

    /// Handles SIGINT and SIGTERM as described above; idempotent.
    public static func installSignalHandlers() {
        lock.lock(); defer { lock.unlock() }
        guard sources.isEmpty else { return }
        for signo in [SIGINT, SIGTERM] {
            signal(signo, SIG_IGN)  // delivered to the dispatch source instead
            let source = DispatchSource.makeSignalSource(signal: signo, queue: .global())
            source.setEventHandler {
                lock.lock()
                let graceful = signo == SIGINT ? interruptHandler : nil
                lock.unlock()
                if let graceful { return graceful() }
                removeAll()
                _exit(128 + signo)
            }
            source.resume()
            sources.append(source)
        }
    }
}
