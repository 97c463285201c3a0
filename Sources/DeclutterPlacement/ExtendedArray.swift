/// The elements of an array shared with its caller, then those appended here: appending never copies the shared part.
///
/// Merging keeps its input views and hulls followed by each cluster as it is made. As one array, the first append
/// copied every input element into a buffer twice as long (the input is still the caller's): 144 MB for the views of a
/// million-point world map, the largest block of its placement's working memory.
struct ExtendedArray<Element> {
    /// The shared elements, numbered first.
    let base: [Element]
    /// The elements appended, numbered from `base.count` on.
    private(set) var appended: [Element] = []

    init(_ base: [Element]) { self.base = base }

    /// How many elements there are.
    var count: Int { base.count + appended.count }

    /// The element numbered `index`.
    subscript(index: Int) -> Element {
        index < base.count ? base[index] : appended[index - base.count]
    }

    /// Appends an element, numbered `count` before the call.
    mutating func append(_ element: Element) { appended.append(element) }
}
