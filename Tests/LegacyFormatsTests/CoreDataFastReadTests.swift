import Foundation
import GRDB
@testable import LegacyFormats
import ObjectModel
import Testing

/// The read path's shortcuts give what the plain definitions give.
@Suite struct CoreDataFastReadTests {
    @Test(.enabled(if: CoreDataCorpus.isPresent, CoreDataCorpus.absentMessage))
    func globalIDPrefixesWriteTheReadersIDs() throws {
        let reader = try CoreDataStoreReader.open(at: try #require(CoreDataCorpus.stores["Recipes"]))
        defer { reader.close() }
        #expect(reader.globalID(entity: "Recipe", primaryKey: 42) == "x-coredata://\(reader.storeUUID)/Recipe/p42")
        var prefixes = GlobalIDPrefixes(storeUUID: reader.storeUUID)
        for entity in reader.model.entities.map(\.name) + ["Other"] {
            for primaryKey: Int64 in [0, 1, 42, Int64.max, -7] {
                #expect(prefixes.globalID(entity: entity, primaryKey: primaryKey) == reader.globalID(entity: entity, primaryKey: primaryKey))
            }
        }
    }

    @Test func eachStorageClassDecodesAsTheGeneralDecoder() throws {
        let decoder = StoredValueDecoder(externalFolders: [])
        let types: [AttributeType] = [.boolean, .date, .double, .float, .decimal, .integer16, .integer32, .integer64, .string, .uri, .uuid, .binary, .transformable]
        /// The value, or the reason it is refused: both paths must agree on either.
        func outcome(_ body: () throws(StoredValueDecoder.Failure) -> AttributeValue) -> String {
            do { return "\(try body())" } catch { return "\(error)" }
        }
        for type in types {
            for integer: Int64 in [0, 1, -3, 1 << 40, 70_000, (1 << 53) + 1] {
                #expect(outcome { () throws(StoredValueDecoder.Failure) in try decoder.decode(integer: integer, type: type) }
                    == outcome { () throws(StoredValueDecoder.Failure) in try decoder.decode(integer.databaseValue, type: type, allowsExternalStorage: false) })
            }
            for real in [0.0, 2.5, -1e300, 7.0, .infinity] {
                #expect(outcome { () throws(StoredValueDecoder.Failure) in try decoder.decode(real: real, type: type) }
                    == outcome { () throws(StoredValueDecoder.Failure) in try decoder.decode(real.databaseValue, type: type, allowsExternalStorage: false) })
            }
            for text in ["", "x", "6F9619FF-8B86-D011-B42D-00C04FC964FF", "12.5"] {
                #expect(outcome { () throws(StoredValueDecoder.Failure) in try decoder.decode(text: Array(text.utf8), type: type) }
                    == outcome { () throws(StoredValueDecoder.Failure) in try decoder.decode(text.databaseValue, type: type, allowsExternalStorage: false) })
            }
        }
    }
}
