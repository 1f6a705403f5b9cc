import InviteKitCrypto
import InviteKitMLS

/// What a scenario run recorded, in MDK's trace vocabulary (`vector.rs` at v0.9.14,
/// `ScenarioTrace`): acknowledgements, expected errors, admin-policy reads, probes and client
/// observations.
struct ConformanceTrace {
    struct PendingResolution: Equatable {
        let stepIndex: Int
        let client: String
        let pending: String
        let resolution: String
    }

    struct ErrorObservation: Equatable {
        let stepIndex: Int
        let client: String
        let operation: String
        let error: String
    }

    struct AdminPolicy {
        let client: String
        let admins: [String]
    }

    struct Probe {
        struct Edge {
            let sender: String
            let recipient: String
            let delivered: Bool
        }

        let clients: [String]
        let edges: [Edge]
    }

    /// A client's canonical group state, for exact equivalence: everything two members on one
    /// branch share, the exporter as a commitment (never the secret itself).
    struct Canonical: Equatable {
        let epoch: UInt64
        let members: [[UInt8]]
        let name: String
        let description: String
        let admins: [[UInt8]]
        let exporterCommitment: [UInt8]

        init(group g: MarmotGroup<MLSGroupState>) {
            epoch = g.epoch
            members = g.state.memberIdentities.sorted { $0.lexicographicallyPrecedes($1) }
            name = g.groupData.name
            description = g.groupData.description
            admins = g.groupData.admins.sorted { $0.lexicographicallyPrecedes($1) }
            let exported = g.state.exporter(label: "invitekit conformance equivalence", context: [], length: 32)
            exporterCommitment = exported.withUnsafeBytes { SHA256.hash(Array($0)) }
        }
    }

    struct Observation {
        let client: String
        var epoch: UInt64 = 0
        var memberCount = 0
        var groupName = ""
        var groupDescription = ""
        var window = ConformanceClient.Window()
        var canonical: Canonical?
        /// Buffered events, unacknowledged commits and undelivered mail: work still to do.
        var pendingWork: Int?

        init(client: String) { self.client = client }
    }

    var pendingResolutions: [PendingResolution] = []
    var errors: [ErrorObservation] = []
    var adminPolicies: [AdminPolicy] = []
    var probes: [Probe] = []
    var observations: [Observation] = []

    func latest(_ client: String) -> Observation? { observations.last { $0.client == client } }
    func latestExact(_ client: String) -> Observation? { observations.last { $0.client == client && $0.canonical != nil } }
}
