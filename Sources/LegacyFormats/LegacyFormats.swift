/// LegacyFormats: readers for what existed before storekeep (Xcode models, property lists, Core Data stores).
public enum LegacyFormats {}
