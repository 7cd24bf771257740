import Testing
@Test func placeholderObjectModel() {}
