import Testing
@Test func diffModuleBuilds() { #expect(Bool(true)) }
