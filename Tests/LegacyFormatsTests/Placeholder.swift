import Testing
@Test func placeholderLegacyFormats() {}
