import Foundation
import Testing
@testable import StoreMaintenance

@Suite struct CanonicalUUIDTextTests {
    @Test(arguments: [
        "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "E621e1f8-C36C-495a-93FC-0c247A3E6E5F",
        "not-a-uuid", "", "E621E1F8C36C495A93FC0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5G", "{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}",
        "E621E1F8-C36C-495A-93FC_0C247A3E6E5F", "ÉÉ21E1F8-C36C-495A-93FC-0C247A3E6E5F",
    ])
    func sameAsFoundation(text: String) {
        #expect(CanonicalUUIDText.canonical(text) == (UUID(uuidString: text)?.uuidString ?? text))
    }
}
