import Foundation

/// The processor cores this process may use, read once.
///
/// `ProcessInfo.activeProcessorCount` reads the cgroup quota and CPU set from files on every call on Linux, which
/// costs more than a small map's clustering; parallel paths ask this instead.
public enum Cores {
    /// The number of cores available to the process, at least 1.
    public static let available = max(1, ProcessInfo.processInfo.activeProcessorCount)
}
