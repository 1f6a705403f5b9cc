/// Every layer's benchmark cases.
package enum BenchRegistry {
    package static func cases() throws -> [BenchCase] {
        try NostrBenchmarks.cases() + InviteBenchmarks.cases() + MLSBenchmarks.cases() + ConvergenceBenchmarks.cases() + GroupScaleBenchmarks.cases()
            + LargeGroupBenchmarks.cases()
    }
}
