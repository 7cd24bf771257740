import ObjectModel

/// Small models built in code for the ObjectModel tests.
enum SampleModels {
    static let speechType = EntityDescription(
        name: "SpeechType",
        attributes: [
            .init(name: "name", type: .string),
            .init(name: "greenSeconds", type: .double),
        ],
        relationships: [.init(name: "speeches", destination: "Speech", inverseName: "type", isToMany: true, isOptional: true, deletionRule: .deny)],
        facts: StorekeepFacts(seedKey: ["name"]))

    static let speech = EntityDescription(
        name: "Speech", className: "Speech",
        attributes: [
            .init(name: "title", type: .string),
            .init(name: "duration", type: .double, defaultValueString: "0.0", defaultValue: .double(0)),
            .init(name: "recording", type: .binary, isOptional: true, allowsExternalBinaryDataStorage: true),
        ],
        relationships: [.init(name: "type", destination: "SpeechType", inverseName: "speeches", maxCount: 1)])

    static let settings = EntityDescription(
        name: "Settings", attributes: [.init(name: "theme", type: .string)],
        facts: StorekeepFacts(isSingleton: true))

    static var speechTimer: ManagedModel {
        ManagedModel(name: "SpeechTimer", versionName: "SpeechTimer 1", entities: [speechType, speech, settings])
    }

    /// Media (abstract, seed key `code`, unique `code`) ← Video ← Clip; Audio without facts of its own.
    static var media: ManagedModel {
        let media = EntityDescription(
            name: "Media", isAbstract: true,
            attributes: [.init(name: "code", type: .string), .init(name: "title", type: .string)],
            uniquenessConstraints: [["code"]],
            facts: StorekeepFacts(seedKey: ["code"], invalidRecordPolicy: .nullify))
        let video = EntityDescription(
            name: "Video", parentName: "Media",
            attributes: [.init(name: "length", type: .double)],
            uniquenessConstraints: [["title", "length"]])
        let clip = EntityDescription(
            name: "Clip", parentName: "Video", attributes: [.init(name: "start", type: .double)],
            facts: StorekeepFacts(invalidRecordPolicy: .delete))
        let audio = EntityDescription(name: "Audio", parentName: "Media")
        return ManagedModel(name: "Media", versionName: "Media", entities: [media, video, clip, audio])
    }
}
