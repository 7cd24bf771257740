import CZstd
import Foundation

/// Takes a body of concatenated zstd frames as it arrives, block by block, and hands on each
/// frame decompressed as soon as the whole frame has arrived: a baseline body written a part per
/// frame is read back a part at a time. (Read whole, the same frames decompress as one stream.)
final class ZstdFrameSplitter {
    private var buffer: [UInt8] = []
    private var start = 0
    private var rawLeft: Int
    private let damaged: (String) -> ContainerError

    /// The largest frame taken: a part of a baseline body is a few megabytes and one item; a frame
    /// claiming more is damage, not a part (the whole-body reader has the same limit).
    static let frameLimit = 1 << 31

    /// A splitter for a body that decompresses to `rawBytes` bytes in all; `damaged` makes the
    /// error for a body that is not such frames.
    init(rawBytes: Int, damaged: @escaping (String) -> ContainerError) {
        rawLeft = rawBytes
        self.damaged = damaged
    }

    /// Adds `bytes` of the body, handing every frame now whole to `handOn`, decompressed.
    func append(_ bytes: UnsafeRawBufferPointer, handOn: ([UInt8]) throws -> Void) throws {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
        try handOnWholeFrames(handOn)
    }

    /// The body has ended: nothing may be left over, and the frames must have given every byte.
    func finish() throws {
        guard start == buffer.count else { throw damaged("its body ends inside a zstd frame, or holds bytes that are not one") }
        guard rawLeft == 0 else { throw damaged("its frames give \(rawLeft) bytes fewer than its header says") }
    }

    private func handOnWholeFrames(_ handOn: ([UInt8]) throws -> Void) throws {
        while start < buffer.count {
            let part: [UInt8]? = try buffer.withUnsafeBytes { all in
                let rest = UnsafeRawBufferPointer(rebasing: all[start...])
                guard let base = rest.baseAddress else { return nil }
                let frameBytes = ZSTD_findFrameCompressedSize(base, rest.count)
                // Not whole yet (or not a frame: then the body's end says so).
                guard ZSTD_isError(frameBytes) == 0, frameBytes <= rest.count else { return nil }
                let content = ZSTD_getFrameContentSize(base, frameBytes)
                // UInt64.max and UInt64.max - 1: a frame that does not say its size, or no frame.
                guard content < UInt64.max - 1 else { throw damaged("a zstd frame of its body does not say its size") }
                guard content <= UInt64(rawLeft) else { throw damaged("its frames give more bytes than its header says") }
                guard content <= UInt64(Self.frameLimit) else { throw damaged("a zstd frame of its body claims \(content) bytes") }
                guard let output = ZstdCodec.decompress(UnsafeRawBufferPointer(start: base, count: frameBytes), size: Int(content)) else {
                    throw damaged("a zstd frame of its body does not decompress")
                }
                start += frameBytes
                return output
            }
            guard let part else { return }
            rawLeft -= part.count
            if !part.isEmpty { try handOn(part) }
        }
    }
}
