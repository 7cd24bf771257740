import Testing
@Test func placeholderSyncStore() {}
