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
///
/// The main thread keeps running meanwhile, so the removal is made safe
/// against it: once a signal is being handled, `register` parks the caller
/// (nothing new is staged), a directory is renamed out of its writers' way
/// before it is removed (a writer's next file then fails instead of landing
/// in a half-removed directory), removal passes repeat until one finds
/// nothing, and `parkIfExiting()` (the command's exit paths call it) keeps
/// an exit status of the run's own (0, or 1 from a write the removal made
/// fail) from overtaking the signal's.
public enum StagingRegistry {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var paths: Set<String> = []
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
    nonisolated(unsafe) private static var interruptHandler: (@Sendable () -> Void)?
    nonisolated(unsafe) private static var exiting = false

    /// While set, SIGINT calls `handler` instead of removing the staging and
    /// exiting: for a command that stops gracefully on Ctrl-C (`capture`
    /// finishes the current pair and its files). SIGTERM still exits.
    public static func setInterruptHandler(_ handler: (@Sendable () -> Void)?) {
        lock.lock(); defer { lock.unlock() }
        interruptHandler = handler
    }

    /// Remembers `url` (a file or a directory) for removal on a signal.
    /// While a signal is being handled, parks the caller until the process exits.
    public static func register(_ url: URL) {
        lock.lock()
        if exiting { lock.unlock(); parkUntilExit() }
        paths.insert(url.path)
        lock.unlock()
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
    /// Passes repeat (20 ms apart, at most 25) until one finds nothing left,
    /// so that a file a writer was creating during a pass goes too.
    public static func removeAll() {
        lock.lock(); defer { lock.unlock() }
        for pass in 0..<25 {
            if pass > 0 { usleep(20_000) }
            var found = false
            for path in paths where removeOutOfTheWay(path) { found = true }
            if !found { break }
        }
        paths.removeAll()
    }

    /// Removes `path` if it exists; true if it did. A directory is first
    /// renamed to a fresh hidden name beside it: writers address files by the
    /// old path, so none can add to it while it is being emptied.
    private static func removeOutOfTheWay(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return false }
        var target = path
        if isDirectory.boolValue {
            let url = URL(fileURLWithPath: path)
            let moved = url.deletingLastPathComponent()
                .appendingPathComponent(".\(url.lastPathComponent).removing-\(UUID().uuidString)").path
            if rename(path, moved) == 0 { target = moved }
        }
        // A file created in the directory while it was emptied makes this
        // fail (not empty): the next pass finds the renamed directory gone
        // from `path`, so retry here until it is removed or time is up.
        for attempt in 0..<25 {
            if attempt > 0 { usleep(2_000) }
            try? FileManager.default.removeItem(atPath: target)
            if !FileManager.default.fileExists(atPath: target) { break }
        }
        return true
    }

    /// If a signal is being handled, parks the caller until the handler
    /// exits the process; otherwise returns at once. The command calls it
    /// before exiting on its own.
    public static func parkIfExiting() {
        lock.lock()
        let parked = exiting
        lock.unlock()
        if parked { parkUntilExit() }
    }

    private static func parkUntilExit() -> Never {
        while true { sleep(60) }
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
                if graceful == nil { exiting = true }
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
