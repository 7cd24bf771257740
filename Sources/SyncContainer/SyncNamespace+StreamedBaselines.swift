import Foundation
import ObjectModel

extension SyncNamespace {
    /// Publishes a format-1 baseline whose body is produced in parts (``BaselineEncoder``'s,
    /// each ending after a whole item), so that a body of any size is written with the memory of
    /// one part: each part is compressed as one zstd frame into `scratch` (a file of the caller's,
    /// beside its store; removed afterwards), then the header, the frames and the checksum are
    /// written durably under the baseline's name. A baseline of the same name (an earlier run's
    /// that was stopped) is kept. Read whole, the frames decompress as one body; read with
    /// ``readBaseline(_:parts:)``, a part at a time.
    ///
    /// - Parameters:
    ///   - header: the header, asked for once the body is written (its counts are known then);
    ///     its compression and sizes are set here.
    ///   - produce: writes the body, handing each part to the closure it is given.
    /// - Returns: the file's path and the SHA-256 of its bytes.
    /// - Throws: ``ContainerError`` (`io`, a full disk), what `produce` throws.
    @discardableResult
    public func publishBaseline(scratch: String, header: () throws -> BaselineHeader,
                                body produce: (_ part: @escaping ([UInt8]) throws -> Void) throws -> Void) throws -> (path: String, sha256: String) {
        unlink(scratch)
        defer { unlink(scratch) }
        let frames = try BlockFileWriter(creating: scratch, for: scratch)
        var rawBytes = 0, storedBytes = 0
        do {
            try produce { part in
                guard !part.isEmpty else { return }
                let frame = ZstdCodec.compress(part)
                guard !frame.isEmpty else { throw ContainerError(.io, path: scratch, message: "zstd could not compress a part of the baseline", hint: "run the command again") }
                try frame.withUnsafeBytes { try frames.write($0) }
                rawBytes += part.count
                storedBytes += frame.count
            }
            try frames.finish(syncing: false)
        } catch {
            frames.abandon()
            throw error
        }
        var made = try header()
        made.compression = "zstd"
        made.rawBytes = rawBytes
        made.bodyBytes = storedBytes
        let path = "\(baselineFolder)/\(made.fileName)"
        let prefix = try FramedFile.prefix(signature: Self.baselineSignature, header: made)
        let box = DigestBox(SHA256())
        var sha256 = ""
        do {
            try storage.write(to: path, replacing: false) { sink in
                try prefix.withUnsafeBytes { bytes in
                    box.digest?.update(bytes: bytes)
                    try sink(bytes)
                }
                try BlockFileReader.hash(scratch, bytes: Int64(storedBytes), into: box, handingTo: sink)
                guard let digest = box.digest.take() else {
                    throw ContainerError(.io, path: scratch, message: "its digest was taken twice", hint: "run the command again")
                }
                var whole = digest.copy()
                let trailer = digest.finalize()
                try trailer.withUnsafeBytes { try sink($0) }
                trailer.withUnsafeBytes { whole.update(bytes: $0) }
                sha256 = whole.finalizeHex()
            }
        } catch let error as ContainerError where error.reason == .wouldOverwrite {
            // Made by an earlier run that was stopped: the same content (its name says what it covers).
            return (path, try verifyBaseline(made.fileName).sha256)
        }
        return (path, sha256)
    }

    /// Reads a format-1 baseline a block at a time and hands its body on a part at a time: each
    /// zstd frame decompressed (a body written whole is one part; an uncompressed body is handed
    /// on whole once its checksum matched). The checksum of the whole file is compared at its end,
    /// after the parts before it were handed on: a caller that merges them merges in one
    /// transaction, undone when this throws.
    ///
    /// - Returns: the header, as checked.
    /// - Throws: ``ContainerError`` (`damagedLog`, `foreignLog`, `missingLog`); what `parts` throws.
    public func readBaseline(_ name: String, parts: ([UInt8]) throws -> Void) throws -> BaselineHeader {
        let path = "\(baselineFolder)/\(name)"
        var splitter: ZstdFrameSplitter?
        var whole: [UInt8] = []
        var checked = false
        func check(_ header: BaselineHeader) throws {
            guard !checked else { return }
            try requireFormatOne(header, path: path)
            checked = true
        }
        let damaged = { (problem: String) in FramedFile.damaged("baseline", path: path, problem) }
        let (header, _) = try FramedFileStreamReader<BaselineHeader>.read(path, storage: storage, signature: Self.baselineSignature, what: "baseline") { header, block in
            try check(header)
            if header.compression == "zstd" {
                if splitter == nil { splitter = ZstdFrameSplitter(rawBytes: header.rawBytes, damaged: damaged) }
                try splitter?.append(block, handOn: parts)
            } else {
                guard whole.count + block.count <= ZstdFrameSplitter.frameLimit else { throw damaged("its body is larger than \(ZstdFrameSplitter.frameLimit) bytes") }
                whole.append(contentsOf: block)
            }
        }
        try check(header)
        if header.compression == "zstd" {
            try (splitter ?? ZstdFrameSplitter(rawBytes: header.rawBytes, damaged: damaged)).finish()
        } else {
            guard whole.count == header.rawBytes else { throw damaged("its body is not the size its header says") }
            if !whole.isEmpty { try parts(whole) }
        }
        return header
    }
}
