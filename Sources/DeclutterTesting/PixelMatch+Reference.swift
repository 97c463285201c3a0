extension PixelMatch {
    /// pixelmatch 7.2's comparison written out as it is, one pixel after another: the version to read and the one
    /// ``FastPass`` is tested against. Its colour, anti-aliasing and drawing functions are shared with ``FastPass``.
    struct ReferencePass {
        let options: PixelMatch
        let one: UnsafePointer<UInt8>
        let two: UnsafePointer<UInt8>
        /// The diff image's pixels as little-endian RGBA words, zeroed beforehand; nil when only counting.
        let output: UnsafeMutablePointer<UInt32>?
        let width: Int
        let height: Int
        let mask: PixelMask?

        var words1: UnsafePointer<UInt32> { UnsafeRawPointer(one).assumingMemoryBound(to: UInt32.self) }
        var words2: UnsafePointer<UInt32> { UnsafeRawPointer(two).assumingMemoryBound(to: UInt32.self) }

        /// 35215 is the largest possible YIQ distance.
        var maximumDelta: Double { 35215 * options.threshold * options.threshold }

        func run() -> Int {
            let count = width * height
            let a32 = words1, b32 = words2
            var identical = true
            for index in 0..<count where a32[index] != b32[index] {
                identical = false
                break
            }
            if identical {
                if let output {
                    for y in 0..<height {
                        for x in 0..<width { drawUnchanged(x, y, output) }
                    }
                }
                return 0
            }
            let maximumDelta = maximumDelta
            let alternate = options.alternateDiffColor ?? options.diffColor
            var mismatched = 0
            for y in 0..<height {
                for x in 0..<width {
                    if let mask, mask.ignores(x: x, y: y) {
                        if let output { drawIgnored(x, y, output) }
                        continue
                    }
                    let index = y * width + x, position = index * 4
                    let delta =
                        a32[index] == b32[index] ? 0 : colorDelta(one, two, position, position, brightnessOnly: false)
                    if abs(delta) > maximumDelta {
                        if !options.includeAntialiasing
                            && (antialiased(one, x, y, a32, b32) || antialiased(two, x, y, b32, a32))
                        {
                            // Anti-aliasing: drawn, not counted, and left out of a mask.
                            if let output, !options.diffMask { output[index] = Self.word(options.antialiasingColor) }
                        } else {
                            if let output { output[index] = Self.word(delta < 0 ? alternate : options.diffColor) }
                            mismatched += 1
                        }
                    } else if let output, !options.diffMask {
                        output[index] = greyWord(position)
                    }
                }
            }
            return mismatched
        }

        /// Draws a pixel of identical images: hatched when ignored, else the faded original (nothing in a mask).
        func drawUnchanged(_ x: Int, _ y: Int, _ output: UnsafeMutablePointer<UInt32>) {
            if let mask, mask.ignores(x: x, y: y) {
                drawIgnored(x, y, output)
            } else if !options.diffMask {
                output[y * width + x] = greyWord((y * width + x) * 4)
            }
        }

        /// Draws an ignored pixel: diagonal stripes 3 of every 8 pixels wide in the hatch colour, between them what an
        /// equal pixel shows (the faded original, or nothing in a mask).
        func drawIgnored(_ x: Int, _ y: Int, _ output: UnsafeMutablePointer<UInt32>) {
            let index = y * width + x
            if Self.isStripe(x, y) {
                output[index] = Self.word(options.hatchColor)
            } else if !options.diffMask {
                output[index] = greyWord(index * 4)
            }
        }

        /// Whether (x, y) lies on one of the hatch's stripes, which run from top right to bottom left.
        @inline(__always)
        static func isStripe(_ x: Int, _ y: Int) -> Bool { (x + y) & 7 < 3 }

        /// Whether the pixel at (x, y) of `image` looks like anti-aliasing: it has both darker and brighter
        /// neighbours, few equal ones, and the darkest or brightest neighbour sits in a flat area of both images.
        func antialiased(
            _ image: UnsafePointer<UInt8>, _ x1: Int, _ y1: Int,
            _ a32: UnsafePointer<UInt32>, _ b32: UnsafePointer<UInt32>
        ) -> Bool {
            let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0), x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
            let position = (y1 * width + x1) * 4
            var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
            var darkest = 0.0, brightest = 0.0
            var darkestX = 0, darkestY = 0, brightestX = 0, brightestY = 0
            for x in x0...x2 {
                for y in y0...y2 where x != x1 || y != y1 {
                    let delta = colorDelta(image, image, position, (y * width + x) * 4, brightnessOnly: true)
                    if delta == 0 {
                        zeroes += 1
                        if zeroes > 2 { return false }
                    } else if delta < darkest {
                        darkest = delta
                        darkestX = x
                        darkestY = y
                    } else if delta > brightest {
                        brightest = delta
                        brightestX = x
                        brightestY = y
                    }
                }
            }
            if darkest == 0 || brightest == 0 { return false }
            return (hasManySiblings(a32, darkestX, darkestY) && hasManySiblings(b32, darkestX, darkestY))
                || (hasManySiblings(a32, brightestX, brightestY) && hasManySiblings(b32, brightestX, brightestY))
        }

        /// Whether a pixel has three or more identical neighbours (image edges count as one).
        func hasManySiblings(_ image: UnsafePointer<UInt32>, _ x1: Int, _ y1: Int) -> Bool {
            Self.hasManySiblings(image, x1, y1, width: width, height: height)
        }

        /// ``hasManySiblings(_:_:_:)`` in an image of the given size.
        static func hasManySiblings(
            _ image: UnsafePointer<UInt32>, _ x1: Int, _ y1: Int, width: Int, height: Int
        ) -> Bool {
            let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0), x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
            let value = image[y1 * width + x1]
            var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
            for x in x0...x2 {
                for y in y0...y2 where x != x1 || y != y1 {
                    if value == image[y * width + x] { zeroes += 1 }
                    if zeroes > 2 { return true }
                }
            }
            return false
        }

        /// The squared YIQ distance of two pixels, negative when the second is darker; or, for
        /// `brightnessOnly`, the signed brightness difference. `k` also places the checkerboard.
        @inline(__always)
        func colorDelta(
            _ image1: UnsafePointer<UInt8>, _ image2: UnsafePointer<UInt8>, _ k: Int, _ m: Int, brightnessOnly: Bool
        ) -> Double {
            let r1 = Double(image1[k]), g1 = Double(image1[k + 1]), b1 = Double(image1[k + 2]),
                a1 = Double(image1[k + 3])
            let r2 = Double(image2[m]), g2 = Double(image2[m + 1]), b2 = Double(image2[m + 2]),
                a2 = Double(image2[m + 3])
            var dr = r1 - r2, dg = g1 - g2, db = b1 - b2
            let da = a1 - a2
            if dr == 0 && dg == 0 && db == 0 && da == 0 { return 0 }
            if a1 < 255 || a2 < 255 {
                var rb = 255.0, gb = 255.0, bb = 255.0
                if options.checkerboard {
                    rb = 48 + 159 * Double(k % 2)
                    gb = 48 + 159 * Double(Int(Double(k) / 1.618033988749895) % 2)
                    bb = 48 + 159 * Double(Int(Double(k) / 2.618033988749895) % 2)
                }
                dr = (r1 * a1 - r2 * a2 - rb * da) / 255
                dg = (g1 * a1 - g2 * a2 - gb * da) / 255
                db = (b1 * a1 - b2 * a2 - bb * da) / 255
            }
            let y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
            if brightnessOnly { return y }
            let i = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189
            let q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
            let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
            return y > 0 ? -delta : delta
        }

        /// The first image's brightness at byte `position` faded towards white by `alpha`, stored truncated as
        /// pixelmatch's byte arrays do, as an opaque grey word.
        @inline(__always)
        func greyWord(_ position: Int) -> UInt32 {
            let luminance =
                Double(one[position]) * 0.29889531 + Double(one[position + 1]) * 0.58662247
                + Double(one[position + 2]) * 0.11448223
            let value = 255 + (luminance - 255) * options.alpha * Double(one[position + 3]) / 255
            let grey = UInt32(UInt8(clamping: Int(value)))
            return (0xFF00_0000 | grey << 16 | grey << 8 | grey).littleEndian
        }

        /// An opaque colour as the little-endian RGBA word the diff image stores.
        @inline(__always)
        static func word(_ color: RGB) -> UInt32 {
            (0xFF00_0000 | UInt32(color.blue) << 16 | UInt32(color.green) << 8 | UInt32(color.red)).littleEndian
        }
    }
}
