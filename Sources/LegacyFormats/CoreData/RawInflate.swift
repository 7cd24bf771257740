import CZlib
import Foundation

/// Inflates raw DEFLATE data (no zlib header or trailer), as `Z_MODELCACHE.Z_CONTENT` holds.
enum RawInflate {
    /// The inflated bytes, or `nil` when `data` is not valid raw DEFLATE or inflates past `limit` bytes.
    static func inflate(_ data: Data, limit: Int = 256 << 20) -> Data? {
        guard !data.isEmpty else { return nil }
        var stream = z_stream()
        // windowBits -15: raw DEFLATE with a 32 KiB window.
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = [UInt8](data)
        let inputCount = input.count
        var status: Int32 = Z_OK
        input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = uInt(inputCount)
            repeat {
                let produced: Int = chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = uInt(chunkBuffer.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return chunkBuffer.count - Int(stream.avail_out)
                }
                output.append(contentsOf: chunk[0..<produced])
                if output.count > limit { status = Z_MEM_ERROR }
            } while status == Z_OK && (stream.avail_in > 0 || stream.avail_out == 0)
        }
        return status == Z_STREAM_END ? output : nil
    }
}
