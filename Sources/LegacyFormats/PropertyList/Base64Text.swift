import Foundation

/// The base64 text of an XML property list's `<data>`, decoded in one pass over the element's
/// text: spaces, tabs and line breaks (where writers wrap it) are skipped, nothing else is.
///
/// Strict where a lenient decoder would make up bytes: the text must be whole quantums of four
/// characters of the standard alphabet, `=` only as the padding of the last one (`QQ==`, `QUI=`).
/// Foundation's `Data(base64Encoded:)` (Swift 6.3 on Linux) reads `QU=D` as two bytes and `====`
/// as one; here they are refused, since a value that cannot be carried exactly is never replaced
/// by another. The unused low bits of a padded quantum are ignored, as every decoder does.
enum Base64Text {
    private static let whitespace: UInt8 = 0xFE
    private static let padding: UInt8 = 0xFD
    private static let invalid: UInt8 = 0xFF

    /// Each byte's 6-bit value, or one of the markers above.
    private static let table: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (value, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(character)] = UInt8(value)
        }
        for character in [0x20, 0x0A, 0x0D, 0x09] { table[character] = whitespace }
        table[0x3D] = padding
        return table
    }()

    /// The bytes `text` encodes, or `nil` when it is not base64 as described above.
    static func decode(_ text: [UInt8]) -> Data? {
        var data = Data(count: text.count / 4 * 3 + 3)
        let written: Int? = text.withUnsafeBufferPointer { input in
            data.withUnsafeMutableBytes { output in
                table.withUnsafeBufferPointer { table in
                    decode(input, into: output.bindMemory(to: UInt8.self), table: table)
                }
            }
        }
        guard let written else { return nil }
        data.count = written
        return data
    }

    private static func decode(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>,
                               table: UnsafeBufferPointer<UInt8>) -> Int? {
        var quantum: UInt32 = 0
        var characters = 0
        var pads = 0
        var written = 0
        var finished = false
        for byte in input {
            let value = table[Int(byte)]
            if value < 64 {
                guard pads == 0, !finished else { return nil }
                quantum = quantum << 6 | UInt32(value)
                characters += 1
                if characters == 4 {
                    output[written] = UInt8(truncatingIfNeeded: quantum >> 16)
                    output[written + 1] = UInt8(truncatingIfNeeded: quantum >> 8)
                    output[written + 2] = UInt8(truncatingIfNeeded: quantum)
                    written += 3
                    characters = 0
                    quantum = 0
                }
            } else if value == whitespace {
                continue
            } else if value == padding {
                pads += 1
                guard !finished, characters >= 2, characters + pads <= 4 else { return nil }
                if characters + pads == 4 {
                    let aligned = quantum << (6 * UInt32(4 - characters))
                    output[written] = UInt8(truncatingIfNeeded: aligned >> 16)
                    if characters == 3 { output[written + 1] = UInt8(truncatingIfNeeded: aligned >> 8) }
                    written += characters - 1
                    finished = true
                }
            } else {
                return nil
            }
        }
        guard characters == 0 || finished else { return nil }
        return written
    }
}
