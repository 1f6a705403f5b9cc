import InviteKit

/// What an `assert` predicate reads of one client at one moment: its group's state as its node
/// holds it, its observation window, and its work still to do (the node's, plus mail not taken).
struct ConformanceClientState {
    var group: MarmotMLSGroup?
    var window: ConformanceClient.Window
    var pendingWork = 0

    init(window: ConformanceClient.Window) { self.window = window }
}
