import Foundation

/// Length-limited canonical Huffman codes.
enum HuffmanCode {
    /// Code lengths for symbol frequencies, none longer than `limit`, always a complete code of at least two symbols
    /// (zlib's inflater rejects incomplete code-length codes).
    static func lengths(_ frequencies: [Int], limit: Int) -> [Int] {
        let lengths = [UInt8](unsafeUninitializedCapacity: frequencies.count) { buffer, initialized in
            frequencies.withUnsafeBufferPointer {
                HuffmanCode.lengths($0.baseAddress!, count: $0.count, limit: limit, into: buffer.baseAddress!)
            }
            initialized = frequencies.count
        }
        return lengths.map(Int.init)
    }

    /// Code lengths for `count` symbol frequencies (below 2^40 each, `count` at most 320) into `lengths`: rounded
    /// lengths where they apply (a small block, where sorting would cost as much as coding it), else minimum-redundancy
    /// lengths limited to `limit` bits.
    static func lengths(
        _ frequencies: UnsafePointer<Int>, count: Int, limit: Int, into lengths: UnsafeMutablePointer<UInt8>
    ) {
        if roundedLengths(frequencies, count: count, limit: limit, into: lengths) { return }
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * count + 4) { buffer in
            // Keys pack weight and symbol (symbols are below 2^16) so one integer sort orders by weight, then symbol.
            let keys = buffer.baseAddress!, scratch = keys + count + 2
            var used = 0
            for symbol in 0..<count {
                lengths[symbol] = 0
                if frequencies[symbol] > 0 {
                    keys[used] = frequencies[symbol] << 16 | symbol
                    used += 1
                }
            }
            var filler = 0
            while used < 2 {
                while frequencies[filler] > 0 || (used == 1 && keys[0] & 0xFFFF == filler) { filler += 1 }
                keys[used] = 1 << 16 | filler
                used += 1
            }
            radixSort(keys, count: used, scratch: scratch)
            // Symbols go to the scratch half; the weights are turned into depths in place.
            for index in 0..<used {
                scratch[index] = keys[index] & 0xFFFF
                keys[index] >>= 16
            }
            minimumRedundancyDepths(keys, count: used)

            var deepest = 0
            for index in 0..<used { deepest = max(deepest, keys[index]) }
            if deepest > limit {
                // Move over-long codes to the limit, then lengthen shorter codes until the Kraft sum is exact again.
                withUnsafeTemporaryAllocation(of: Int.self, capacity: limit + 2) { countBuffer in
                    let counts = countBuffer.baseAddress!
                    counts.initialize(repeating: 0, count: limit + 2)
                    for index in 0..<used { counts[min(keys[index], limit)] += 1 }
                    var total = 0
                    for length in 1...limit { total += counts[length] << (limit - length) }
                    while total > 1 << limit {
                        counts[limit] -= 1
                        for length in stride(from: limit - 1, to: 0, by: -1) where counts[length] > 0 {
                            counts[length] -= 1
                            counts[length + 1] += 2
                            break
                        }
                        total -= 1
                    }
                    // Symbols are in ascending frequency: the longest codes go to the rarest.
                    var position = 0
                    for length in stride(from: limit, through: 1, by: -1) {
                        for _ in 0..<counts[length] {
                            keys[position] = length
                            position += 1
                        }
                    }
                }
            }
            for index in 0..<used { lengths[scratch[index]] = UInt8(keys[index]) }
        }
    }

    /// Near-minimal code lengths without sorting, when the frequencies add up to at most 2^`limit` and two or more
    /// symbols occur: each symbol's length is log2(total / frequency) rounded up, which leaves room in the code
    /// (Kraft sum at most 1), then codes are shortened while the room allows, first those rounded up the most, so
    /// the code is complete. Returns false, writing nothing, when it does not apply.
    static func roundedLengths(
        _ frequencies: UnsafePointer<Int>, count: Int, limit: Int,
        into lengths: UnsafeMutablePointer<UInt8>
    ) -> Bool {
        var total = 0, used = 0
        for symbol in 0..<count {
            total += frequencies[symbol]
            used += frequencies[symbol] > 0 ? 1 : 0
        }
        guard used >= 2, total <= 1 << limit else { return false }
        let totalLog = Int.bitWidth - 1 - total.leadingZeroBitCount
        // 2^32 / total, to divide by the total with a multiplication (at worst one less than the true quotient).
        let reciprocal = (1 << 32) / total
        // Each list is kept as four, by symbol modulo 4, so that consecutive symbols (often in the same list) never
        // wait for each other's count to be stored; a list's symbols are visited sub-list by sub-list.
        let subListSize = count / 4 + 1
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 32 * subListSize + 32) { buffer in
            // Symbols whose code can get shorter, by r = frequency · 2^(l - 1) / total, which is in [1/2, 1): list k
            // holds r from (8 + k)/16, so the codes nearest to deserving one bit less come first.
            let lists = buffer.baseAddress!, listCounts = lists + 32 * subListSize
            listCounts.initialize(repeating: 0, count: 32)
            let clamped = HuffmanCode.shorteningList
            // The Kraft sum in units of 2^-limit: a code of length l takes 2^(limit - l) of the 2^limit.
            var room = 1 << limit
            // Masks and sign bits rather than conditions: the compiler turns selects in a loop into branches, and these
            // go either way at random.
            for symbol in 0..<count {
                let frequency = frequencies[symbol]
                let kept = (0 &- frequency) >> 63  // all ones for a used symbol
                // The least l with frequency · 2^l ≥ total: the difference of the floors of their logarithms, or one
                // more (for a used symbol at least 1, as no frequency is the whole total).
                let floorLength = totalLog &- (Int.bitWidth - 1 - frequency.leadingZeroBitCount)
                let length =
                    (floorLength &+ Int(bitPattern: UInt(bitPattern: (frequency &<< floorLength) &- total) >> 63))
                    & kept
                lengths[symbol] = UInt8(truncatingIfNeeded: length)
                room &-= (1 &<< (limit &- length)) & kept
                // Written always, counted only for a code that can shorten (length 2 or more).
                let sixteenths = ((frequency &<< (length &+ 3)) &* reciprocal) >> 32
                let subList = Int(clamped[sixteenths & 31]) &<< 2 | symbol & 3
                lists[subList &* subListSize &+ listCounts[subList]] = symbol
                listCounts[subList] &+= Int(bitPattern: UInt(bitPattern: 1 &- length) >> 63)
            }
            // Shortening a code of length l takes another 2^(limit - l) and saves `frequency` bits: greedily, by r,
            // each code once a round while the room allows (a shortened code's r halves, below every other's). A round
            // always shortens something while room is left: the room is a multiple of the longest code's step.
            while room > 0 {
                for subList in stride(from: 31, through: 0, by: -1) {
                    for index in 0..<listCounts[subList] {
                        let symbol = lists[subList &* subListSize &+ index]
                        let length = Int(lengths[symbol]), step = 1 &<< (limit &- length)
                        // Shortened if longer than 1 and the room holds the step: both as sign bits.
                        let shorten = Int(bitPattern: UInt(bitPattern: (1 &- length) & (step &- room &- 1)) >> 63)
                        room &-= step & (0 &- shorten)
                        lengths[symbol] = UInt8(truncatingIfNeeded: length &- shorten)
                    }
                }
            }
            return true
        }
    }

    /// The shortening list (0…7) of a code by the sixteenths of r it has (8…15; below 8 only when unused or from the
    /// reciprocal's rounding), indexed by those sixteenths modulo 32: a lookup, where clamping became two branches.
    nonisolated(unsafe) private static let shorteningList: UnsafePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 32)
        for sixteenths in 0..<32 { table[sixteenths] = UInt8(min(max(sixteenths - 8, 0), 7)) }
        return UnsafePointer(table)
    }()

    /// Sorts packed `weight << 16 | symbol` keys by weight, keeping symbol order among equal weights, with counting
    /// passes: a comparison sort cost more than the rest of building a code.
    static func radixSort(_ keys: inout [Int]) {
        let count = keys.count
        var scratch = [Int](repeating: 0, count: count)
        keys.withUnsafeMutableBufferPointer { keyBuffer in
            scratch.withUnsafeMutableBufferPointer {
                radixSort(keyBuffer.baseAddress!, count: count, scratch: $0.baseAddress!)
            }
        }
    }

    /// Sorts `count` keys in place, using `scratch` (as large) as the other buffer: insertion sort for a few keys,
    /// otherwise counting passes over as many weight bits as the heaviest key has, at most 9 a pass.
    static func radixSort(_ keys: UnsafeMutablePointer<Int>, count: Int, scratch: UnsafeMutablePointer<Int>) {
        guard count > 1 else { return }
        if count <= 32 {
            for index in 1..<count {
                let key = keys[index]
                var position = index
                while position > 0 && keys[position - 1] > key {
                    keys[position] = keys[position - 1]
                    position -= 1
                }
                keys[position] = key
            }
            return
        }
        var heaviest = 0
        for index in 0..<count { heaviest = max(heaviest, keys[index] >> 16) }
        let weightBits = Int.bitWidth - heaviest.leadingZeroBitCount
        guard weightBits <= 27 else {
            var buffer = UnsafeMutableBufferPointer(start: keys, count: count)
            buffer.sort()
            return
        }
        let passes = max(1, (weightBits + 8) / 9), digitBits = max(1, (weightBits + passes - 1) / passes)
        let buckets = 1 << digitBits, mask = buckets - 1
        withUnsafeTemporaryAllocation(of: Int.self, capacity: buckets + 1) { countBuffer in
            let counts = countBuffer.baseAddress!
            var source = keys, target = scratch
            for pass in 0..<passes {
                let shift = 16 + pass * digitBits
                counts.initialize(repeating: 0, count: buckets + 1)
                for index in 0..<count { counts[((source[index] >> shift) & mask) + 1] += 1 }
                for digit in 1...buckets { counts[digit] += counts[digit - 1] }
                for index in 0..<count {
                    let key = source[index], digit = (key >> shift) & mask
                    target[counts[digit]] = key
                    counts[digit] += 1
                }
                swap(&source, &target)
            }
            if passes % 2 == 1 { keys.update(from: scratch, count: count) }
        }
    }

    /// Moffat and Katajainen's in-place computation of minimum-redundancy code lengths:
    /// `weights` ascending on entry, the code length of each on return. Needs at least two weights, and room for one
    /// more (`weights[count]` is overwritten).
    static func minimumRedundancyDepths(_ weights: UnsafeMutablePointer<Int>, count: Int) {
        // Phase 1: combine the two lightest items repeatedly; internal nodes keep pointers to their parents. Each
        // choice between the next internal node and the next leaf is a select, not a branch: they are unpredictable.
        // `weights[count]` is a sentinel heavier than anything, so running out of leaves needs no test.
        weights[count] = Int.max
        weights[0] += weights[1]
        var root = 0, leaf = 2
        for next in stride(from: 1, to: count - 1, by: 1) {
            let firstRoot = weights[root], firstLeaf = weights[leaf]
            let takeRoot = firstRoot < firstLeaf
            weights[next] = takeRoot ? firstRoot : firstLeaf
            weights[root] = takeRoot ? next : firstRoot
            root += takeRoot ? 1 : 0
            leaf += takeRoot ? 0 : 1
            // The second child: an internal node only if one is left before `next` (which now holds the first child).
            let secondRoot = weights[root], secondLeaf = weights[leaf]
            let takeSecondRoot = root < next && secondRoot < secondLeaf
            weights[next] += takeSecondRoot ? secondRoot : secondLeaf
            weights[root] = takeSecondRoot ? next : weights[root]
            root += takeSecondRoot ? 1 : 0
            leaf += takeSecondRoot ? 0 : 1
        }
        // Phase 2: depths of internal nodes from the parent pointers.
        weights[count - 2] = 0
        for next in stride(from: count - 3, through: 0, by: -1) { weights[next] = weights[weights[next]] + 1 }
        // Phase 3: depths of the leaves, shallowest for the heaviest.
        var available = 1, used = 0, depth = 0
        var node = count - 2, next = count - 1
        while available > 0 {
            while node >= 0 && weights[node] == depth {
                used += 1
                node -= 1
            }
            while available > used {
                weights[next] = depth
                next -= 1
                available -= 1
            }
            available = 2 * used
            depth += 1
            used = 0
        }
    }

    /// Canonical codes for code lengths, bit-reversed for deflate's least-significant-first bit order.
    static func codes(_ lengths: [Int]) -> [UInt32] {
        let table = [UInt64](unsafeUninitializedCapacity: lengths.count) { buffer, initialized in
            let bytes = lengths.map { UInt8($0) }
            bytes.withUnsafeBufferPointer {
                HuffmanCode.table(lengths: $0.baseAddress!, count: $0.count, into: buffer.baseAddress!)
            }
            initialized = lengths.count
        }
        return table.map { UInt32(truncatingIfNeeded: $0) }
    }

    /// Each symbol's canonical code, bit-reversed, beside its length: `code | length << 32` (lengths at most 15; 0 for
    /// unused symbols). Branch-free per symbol: used and unused symbols interleave unpredictably.
    static func table(lengths: UnsafePointer<UInt8>, count: Int, into table: UnsafeMutablePointer<UInt64>) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 17) { buffer in
            let nextCode = buffer.baseAddress!
            nextCode.initialize(repeating: 0, count: 17)
            for symbol in 0..<count { nextCode[Int(lengths[symbol])] += 1 }
            // Counts per length become the first code of each length (unused symbols count at length 0, which no code
            // has).
            var code: UInt32 = 0, previousCount: UInt32 = 0
            for length in 1...16 {
                let lengthCount = nextCode[length]
                code = (code + previousCount) << 1
                nextCode[length] = code
                previousCount = lengthCount
            }
            let reversedBytes = bitReversedBytes
            for symbol in 0..<count {
                let length = Int(lengths[symbol])
                let value = nextCode[length]
                nextCode[length] = value &+ 1
                // The code's 16 bits reversed, then the top `length` of them: nothing for length 0.
                let reversed =
                    UInt32(reversedBytes[Int(value & 0xFF)]) << 8 | UInt32(reversedBytes[Int((value >> 8) & 0xFF)])
                table[symbol] = UInt64(reversed &>> UInt32(16 - length)) | UInt64(length) << 32
            }
        }
    }

    /// Every byte with its bits in reverse order.
    nonisolated(unsafe) private static let bitReversedBytes: UnsafePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        for byte in 0..<256 {
            var reversed = 0
            for bit in 0..<8 where byte & (1 << bit) != 0 { reversed |= 1 << (7 - bit) }
            table[byte] = UInt8(reversed)
        }
        return UnsafePointer(table)
    }()
}
