import CZlib
import Foundation

/// Inflates a whole zlib stream with zlib itself, the reference the codec's output is checked against, into a buffer of
/// `capacity` bytes: zlib's status and the bytes it wrote. `checkingAdler32: false` skips the stream's checksum, for
/// streams written without one.
func zlibInflate(_ stream: [UInt8], capacity: Int, checkingAdler32: Bool = true) -> (status: Int32, bytes: [UInt8]) {
    var output = [UInt8](repeating: 0, count: capacity)
    var zstream = z_stream()
    guard inflateInit_(&zstream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
        return (Z_STREAM_ERROR, [])
    }
    defer { inflateEnd(&zstream) }
    if !checkingAdler32 { inflateValidate(&zstream, 0) }
    let status = stream.withUnsafeBufferPointer { input in
        output.withUnsafeMutableBufferPointer { target in
            zstream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            zstream.avail_in = UInt32(input.count)
            zstream.next_out = target.baseAddress
            zstream.avail_out = UInt32(target.count)
            return inflate(&zstream, Z_FINISH)
        }
    }
    return (status, Array(output.prefix(Int(zstream.total_out))))
}
