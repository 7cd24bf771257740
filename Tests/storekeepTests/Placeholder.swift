import Testing
@Test func placeholderstorekeep() {}
