import CZstd
import Foundation

/// zstd compression of log bodies (libzstd's one-shot API).
enum ZstdCodec {
    /// `bytes` compressed at `level`.
    static func compress(_ bytes: [UInt8], level: Int32 = 3) -> [UInt8] {
        let bound = ZSTD_compressBound(bytes.count)
        var output = [UInt8](repeating: 0, count: bound)
        let written = output.withUnsafeMutableBytes { target in
            bytes.withUnsafeBytes { source in
                ZSTD_compress(target.baseAddress, bound, source.baseAddress, source.count, level)
            }
        }
        guard ZSTD_isError(written) == 0 else { return [] }
        output.removeSubrange(written...)
        return output
    }

    /// `bytes` decompressed, which must give exactly `size` bytes.
    static func decompress(_ bytes: UnsafeRawBufferPointer, size: Int) -> [UInt8]? {
        guard size >= 0 else { return nil }
        var output = [UInt8](repeating: 0, count: size)
        let written = output.withUnsafeMutableBytes { target in
            ZSTD_decompress(target.baseAddress, size, bytes.baseAddress, bytes.count)
        }
        guard ZSTD_isError(written) == 0, written == size else { return nil }
        return output
    }
}
