import Testing
@Test func placeholderStoreMaintenance() {}
