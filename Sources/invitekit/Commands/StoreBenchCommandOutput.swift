import InviteKitBench

/// Prints ``StoreBenchmarks`` for `bench --store`.
enum StoreBenchCommandOutput {
    static func run(count: Int, json: Bool) throws {
        let report = try StoreBenchmarks.run(count: count)
        if json {
            var o = JSONOutput()
            o.add("decisions_per_s", report.decisionsPerSecond)
            o.add("decisions_with_reply_per_s", report.decisionsWithReplyPerSecond)
            o.add("messages_per_s", report.messagesPerSecond)
            o.add("messages_immediate_per_s", report.messagesImmediatePerSecond)
            o.add("messages_batched_per_s", report.messagesBatchedPerSecond)
            o.add("catch_up_count", report.catchUpCount)
            o.add("catch_up_skipped", report.catchUpSkipped)
            o.add("catch_up_s", report.catchUpSeconds)
            o.add("catch_up_peak_growth_kib", report.catchUpPeakGrowthKiB)
            o.add("cold_catch_up_s", report.coldCatchUpSeconds)
            o.add("cold_catch_up_peak_growth_kib", report.coldCatchUpPeakGrowthKiB)
            o.add("peak_rss_kib", report.peakRSSKiB)
            StdIO.printLine(o.string)
        } else {
            for (name, value) in report.lines { StdIO.printLine(name.padding(toLength: 52, withPad: " ", startingAt: 0) + value) }
        }
        if report.catchUpSkipped != report.catchUpCount { throw CLIFailure("catch-up skipped \(report.catchUpSkipped) of \(report.catchUpCount)") }
    }
}
