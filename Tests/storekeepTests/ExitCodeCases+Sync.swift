import Foundation
import Testing

/// The cases of the rows of `sync`, `apply`, `rekey`, `archive` and `peers` in docs/exit-codes.md.
extension ExitCodeCase {
    static let sync: [ExitCodeCase] = [
        .init("usage.unusable-content-name") { w in
            .init(arguments: ["rekey", try w.store(), "--container", try w.container(), "--to", ".hidden"], names: [".hidden"])
        },
        .init("usage.invalid-duration") { w in
            .init(arguments: ["archive", try w.store(), "--container", try w.container(), "--older-than", "soon"], names: ["--older-than", "soon"])
        },
        .init("usage.unknown-peer") { w in
            let container = try w.container()
            let (store, _) = try w.publishedLog(in: container)
            return .init(arguments: ["peers", "forget", store, "--container", container, "--peer", "Nobody"], names: ["Nobody"])
        },
        .init("usage.new-peer-id-not-needed") { w in
            let container = try w.container()
            let (store, _) = try w.publishedLog(in: container)
            return .init(arguments: ["sync", store, "--container", container, "--new-peer-id", "A2"], names: [store])
        },
        .init("input.unusable-log") { w in
            let container = try w.container()
            let (_, log) = try w.publishedLog(in: container)
            var bytes = try Data(contentsOf: URL(fileURLWithPath: log))
            bytes[bytes.count / 2] ^= 0x40
            try bytes.write(to: URL(fileURLWithPath: log))
            let b = try w.peer("B")
            return .init(arguments: ["sync", b, "--container", container], names: [URL(fileURLWithPath: log).lastPathComponent, "log.damaged"], output: .report)
        },
        .init("input.restored-store") { w in
            let container = try w.container()
            let (store, _) = try w.publishedLog(in: container)
            let backup = w.path("A.backup")
            try FileManager.default.copyItem(atPath: store, toPath: backup)
            try w.apply(store, [ExitCodeWorkspace.typeLine("T2")])
            try w.succeed(["sync", store, "--container", container])
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
            try FileManager.default.copyItem(atPath: backup, toPath: store)
            try w.apply(store, [ExitCodeWorkspace.typeLine("T3")])
            return .init(arguments: ["sync", store, "--container", container], names: [store, "restored from a backup", "--new-peer-id"])
        },
        .init("input.bad-change-line") { w in
            let file = try w.write("changes.jsonl", ExitCodeWorkspace.typeLine("T1") + "\n" + #"{"op":"insert","entity":"Nothing","values":{}}"# + "\n")
            return .init(arguments: ["apply", try w.store(), file], names: [file + ":2", "Nothing"])
        },
        .init("input.content-moved") { w in
            let container = try w.container()
            let a = try w.peer("A"), b = try w.peer("B", version: "SpeechTimer 1")
            try w.succeed(["sync", b, "--container", container])
            try w.succeed(["rekey", a, "--container", container, "--to", "speeches-2"])
            return .init(arguments: ["sync", b, "--container", container], names: ["content.moved", "speeches-2"], output: .report)
        },
        .init("input.already-rekeyed") { w in
            let container = try w.container()
            let a = try w.peer("A"), b = try w.peer("B")
            try w.succeed(["rekey", a, "--container", container, "--to", "speeches-2"])
            return .init(arguments: ["rekey", b, "--container", container, "--to", "speeches-3"], names: ["redirect.json", "speeches-2"])
        },
        .init("input.damaged-archive") { w in
            let archive = try w.write("logs.tar.zst", String(repeating: "not an archive ", count: 40))
            return .init(arguments: ["archive", "verify", archive], names: [archive])
        },
        .init("missing.container") { w in
            .init(arguments: ["sync", try w.store(), "--container", w.path("nowhere")], names: [w.path("nowhere")])
        },
        .init("missing.change-file") { w in
            .init(arguments: ["apply", try w.store(), w.path("nowhere.jsonl")], names: [w.path("nowhere.jsonl")])
        },
        .init("missing.archive") { w in
            .init(arguments: ["archive", "list", w.path("nowhere.tar.zst")], names: [w.path("nowhere.tar.zst")])
        },
        .init("output.restore-would-overwrite") { w in
            let container = try w.container()
            let archive = try w.archive(in: container)
            let target = try w.container("restored")
            try w.succeed(["archive", "restore", archive, "--container", target])
            // A file as archived is kept; one with other content is in the way.
            let enumerator = FileManager.default.enumerator(atPath: target)
            let log = try #require((enumerator?.allObjects as? [String])?.first { $0.hasSuffix(".sklog") })
            try Data("other content".utf8).write(to: URL(fileURLWithPath: "\(target)/\(log)"))
            return .init(arguments: ["archive", "restore", archive, "--container", target], names: [target, "--force"])
        },
        .init("busy.lock-timeout") { w in
            let store = try w.store()
            try w.lock(store, alive: true)
            return .init(arguments: ["sync", store, "--container", try w.container(), "--lock-timeout", "0"], names: [store])
        },
    ]
}
