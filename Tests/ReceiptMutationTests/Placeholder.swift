import Testing
@Test func mutationModuleBuilds() { #expect(Bool(true)) }
