import ObjectModel

/// Small code-built model versions for the store-migration tests.
enum StoreMigrationModels {
    /// Version 1: `Book` (title required, pages Integer 16, isbn optional, note optional), `Shelf`
    /// with an ordered to-many `books`, `Tag` many-to-many with `Book`.
    static func version1() -> ManagedModel {
        ManagedModel(name: "Library", versionName: "Library 1", entities: [
            EntityDescription(name: "Book", attributes: [
                .init(name: "title", type: .string),
                .init(name: "pages", type: .integer16, isOptional: true),
                .init(name: "isbn", type: .string, isOptional: true),
                .init(name: "note", type: .string, isOptional: true),
                .init(name: "weight", type: .float, isOptional: true),
            ], relationships: [
                .init(name: "shelf", destination: "Shelf", inverseName: "books", isOptional: true),
                .init(name: "tags", destination: "Tag", inverseName: "books", isToMany: true, isOptional: true),
            ]),
            EntityDescription(name: "Shelf", attributes: [.init(name: "label", type: .string)], relationships: [
                .init(name: "books", destination: "Book", inverseName: "shelf", isToMany: true, isOrdered: true, isOptional: true),
            ]),
            EntityDescription(name: "Tag", attributes: [.init(name: "name", type: .string)], relationships: [
                .init(name: "books", destination: "Book", inverseName: "tags", isToMany: true, isOptional: true),
            ]),
            EntityDescription(name: "Scratch", attributes: [.init(name: "text", type: .string, isOptional: true)]),
        ])
    }

    /// Version 2, inferable from 1: `title` renamed `name` (elementID), `pages` widened to
    /// Integer 32, `isbn` required with a default, `note` removed, `weight` Float → Double,
    /// `rating` added, `Scratch` removed, `Shelf` renamed `Case` (elementID), `Author` added.
    static func version2() -> ManagedModel {
        ManagedModel(name: "Library", versionName: "Library 2", entities: [
            EntityDescription(name: "Book", attributes: [
                .init(name: "name", type: .string, elementID: "title"),
                .init(name: "pages", type: .integer32, isOptional: true),
                .init(name: "isbn", type: .string, defaultValueString: "none", defaultValue: .string("none")),
                .init(name: "weight", type: .double, isOptional: true),
                .init(name: "rating", type: .integer16, isOptional: true),
            ], relationships: [
                .init(name: "shelf", destination: "Case", inverseName: "books", isOptional: true),
                .init(name: "tags", destination: "Tag", inverseName: "books", isToMany: true, isOptional: true),
            ]),
            EntityDescription(name: "Case", attributes: [.init(name: "label", type: .string)], relationships: [
                .init(name: "books", destination: "Book", inverseName: "shelf", isToMany: true, isOrdered: true, isOptional: true),
            ], elementID: "Shelf"),
            EntityDescription(name: "Tag", attributes: [.init(name: "name", type: .string)], relationships: [
                .init(name: "books", destination: "Book", inverseName: "tags", isToMany: true, isOptional: true),
            ]),
            EntityDescription(name: "Author", attributes: [.init(name: "name", type: .string, isOptional: true)]),
        ])
    }

    /// Version 3, not inferable from 2: `pages` becomes a String, `format` is new and required
    /// without a default.
    static func version3() -> ManagedModel {
        var model = version2()
        model.versionName = "Library 3"
        model.entities[0].attributes[1] = .init(name: "pages", type: .string, isOptional: true)
        model.entities[0].attributes.append(.init(name: "format", type: .string))
        return model
    }

    /// A step file completing 2 → 3.
    static let step2to3 = """
        # Library 2 → 3: pages become text, every book gets a format.
        from: Library 2
        to: Library 3
        entities:
          - entity: Book
            attributes:
              pages:
                convert: integer-to-string
                default: "?"
              format:
                value: paper     # no book had one before
        """
}
