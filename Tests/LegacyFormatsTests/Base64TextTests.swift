import Foundation
@testable import LegacyFormats
import Testing

/// `<data>` text is decoded by ``Base64Text``: every text a writer makes gives its bytes back,
/// and a text that does not say exactly which bytes it holds is refused.
@Suite("Base64 text of <data>")
struct Base64TextTests {
    @Test func textAsWritersWrapItGivesTheBytesBack() {
        var generator = SystemRandomNumberGenerator()
        var lengths = Array(0...70)
        lengths += [255, 256, 257, 4_095, 40_000]
        for length in lengths {
            let bytes = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let wrappings: [Data.Base64EncodingOptions] = [[], [.lineLength64Characters, .endLineWithLineFeed],
                                                          [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed]]
            for options in wrappings {
                // plistlib and Apple indent every line of the text with tabs.
                let text = "\n\t\t" + bytes.base64EncodedString(options: options).replacingOccurrences(of: "\n", with: "\n\t\t") + "\n\t"
                #expect(Base64Text.decode(Array(text.utf8)) == bytes, "length \(length), options \(options.rawValue)")
            }
        }
    }

    @Test func theUnusedBitsOfAPaddedGroupAreIgnoredAsEveryDecoderDoes() {
        #expect(Base64Text.decode(Array("QR==".utf8)) == Data([0x41]))
        #expect(Base64Text.decode(Array("QUJ=".utf8)) == Data([0x41, 0x42]))
    }

    /// Foundation (Swift 6.3 on Linux) reads `====`, `QU=D` and `QQ=A` as bytes it makes up; all
    /// are refused here.
    @Test(arguments: ["QQ=", "QQ", "QUI", "Q===", "=", "QQ==QQ==", "QQ==x", "QQ== =", "-_==", "QQ\u{0}=", "====", "QU=D", "QQ=A", "QUJD=QUJD"])
    func textThatDoesNotSayWhichBytesIsRefused(text: String) {
        #expect(Base64Text.decode(Array(text.utf8)) == nil)
    }

    @Test func anXMLFileWithBadBase64NamesTheProblem() throws {
        let fixture = try PropertyListFixture()
        let url = try fixture.write("bad.plist", "<plist><dict><key>a</key><data>QU=D</data></dict></plist>")
        let error = PropertyListFixture.error { _ = try PropertyListDocument.open(at: url).value(atKeyPath: "a") }
        #expect(error?.problem.contains("does not hold valid base64 (whole groups of four characters") == true, "\(String(describing: error))")
    }
}
