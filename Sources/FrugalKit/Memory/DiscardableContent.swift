/// Content that may be thrown away while nobody is using it, like `NSDiscardableContent`:
/// bracket each use with `beginContentAccess` and `endContentAccess`.
public protocol DiscardableContent: AnyObject {
    /// Pins the content for use. False when it was discarded (it must be rebuilt; it is now
    /// pinned and zero-filled).
    func beginContentAccess() -> Bool
    /// Unpins it: from now on the kernel may discard it.
    func endContentAccess()
    /// Discards it now if it is not in use.
    func discardContentIfPossible()
    /// Whether the content is known to be discarded.
    var isContentDiscarded: Bool { get }
}
