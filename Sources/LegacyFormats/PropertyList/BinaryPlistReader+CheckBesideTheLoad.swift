extension BinaryPlistReader {
    /// Checks object `reference` as a checking ``walk(_:node:shapeDepth:check:walk:)`` does, except
    /// the elements of the arrays at `paths` (key paths below this object), which a load reads
    /// with ``selectedValues(_:selection:walk:)`` or ``value(_:walk:)``, checking each.
    ///
    /// A path is followed as ``locate(_:)`` follows it, through the first of a repeated key; the
    /// second is checked here, since no load reads it. A mapped value that is not an array is
    /// checked here too (a load reading it as an array refuses it without looking inside).
    func check(_ reference: UInt64, leavingToTheLoad paths: [[String]], walk: inout BinaryWalk) throws(PropertyListError) {
        let object = try object(reference)
        if object.kind == 0xA, paths.contains(where: \.isEmpty) {
            try spendVisit(&walk)
            return
        }
        guard object.kind == 0xD, paths.contains(where: { !$0.isEmpty }) else {
            try self.walk(reference, node: nil, shapeDepth: 0, check: true, walk: &walk)
            return
        }
        try spendVisit(&walk)
        try push(object, walk: &walk)
        var followed: Set<String> = []
        for index in 0..<object.count {
            let key = try keyString(self.reference(in: object.payload, at: index))
            let valueReference = try self.reference(in: object.payload, at: object.count + index)
            let below = paths.compactMap { path in path.first == key ? Array(path.dropFirst()) : nil }
            if !below.isEmpty, followed.insert(key).inserted {
                try check(valueReference, leavingToTheLoad: below, walk: &walk)
            } else {
                try self.walk(valueReference, node: nil, shapeDepth: 0, check: true, walk: &walk)
            }
        }
        walk.ancestors.removeLast()
    }
}
