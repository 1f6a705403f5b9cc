// A child process for the store's crash tests: runs one step of a node's work against the
// database at argv[1], and dies by SIGKILL wherever INVITEKIT_FAILPOINT says. The parent test
// reopens the database and checks that the step happened entirely or not at all.
import Foundation
import InviteKitCrypto
import InviteKitStore

let args = CommandLine.arguments
guard args.count >= 3 else {
    FileHandle.standardError.write(Data("usage: invitekit-store-crash DB STEP\n".utf8))
    exit(2)
}
let path = args[1]
let step = args[2]
let now: Int64 = 1_700_000_000

do {
    let store = try Store.open(path: path)
    switch step {
    case "open":
        break
    case "decide":
        // One join request: record it, burn the single-use tag, keep the pending commit, queue the Commit.
        let outcome: String = try store.write { tx in
            guard try tx.processedRequests.record(ProcessedRequest(rumorID: "rumor-1", wrapID: "wrap-1", outcome: "accepted",
                                                                   groupID: "g1", processedAt: now)) else { return "duplicate" }
            tx.failPoint("decide.after_record")
            guard try tx.consumedTags.consume("creator:tag-1", requestID: "rumor-1", now: now) else { return "consumed" }
            tx.failPoint("decide.after_consume")
            try tx.pendingCommits.insert(PendingCommitRecord(commitEventID: "commit-1", groupID: "g1", epoch: 1, requestID: "rumor-1",
                                                             payload: SecureBytes(copying: [1, 2, 3]), createdAt: now))
            try tx.outbound.enqueue(eventID: "commit-1", eventJSON: "{}", kind: 445, purpose: "commit", relays: ["ws://a", "ws://b"], now: now)
            tx.failPoint("decide.before_commit")
            return "accepted"
        }
        FailPoint.hit("decide.after_tx")
        print(outcome)
    case "confirm":
        // The Commit's OK arrived: apply it and release the Welcome behind it.
        try store.write { tx in
            try tx.outbound.apply(.sent(now: now), eventID: "commit-1", relay: "ws://a")
            try tx.outbound.apply(.ok(accepted: true, message: "", now: now), eventID: "commit-1", relay: "ws://a")
            tx.failPoint("confirm.after_ack")
            try tx.pendingCommits.resolve(commitEventID: "commit-1", as: .confirmed, now: now)
            try tx.groups.updateState(id: "g1", state: SecureBytes(copying: [2]), epoch: 2, now: now)
            tx.failPoint("confirm.after_apply")
            try tx.outbound.enqueue(eventID: "welcome-1", eventJSON: "{}", kind: 1059, purpose: "welcome", relays: ["ws://a"],
                                    gateEventID: "commit-1", now: now)
            tx.failPoint("confirm.before_commit")
        }
        print("confirmed")
    case "message":
        let fresh: Bool = try store.write { tx in
            let fresh = try tx.messages.insert(StoredMessage(eventID: "msg-1", groupID: "g1", sender: Array(repeating: 7, count: 32),
                                                             createdAt: now, kind: 9, content: "hello", outgoing: true, status: .pending))
            tx.failPoint("message.after_insert")
            try tx.outbound.enqueue(eventID: "msg-1", eventJSON: "{}", kind: 445, purpose: "message", relays: ["ws://a"], now: now)
            tx.failPoint("message.before_commit")
            return fresh
        }
        print(fresh ? "stored" : "duplicate")
    case "keypackage":
        try store.write { tx in
            try tx.keyPackages.save(reference: [9, 9], eventID: "kp-1", bundle: SecureBytes(copying: [4, 5, 6]), lastResort: false, now: now)
            tx.failPoint("keypackage.after_save")
            try tx.outbound.enqueue(eventID: "kp-1", eventJSON: "{}", kind: 443, purpose: "key_package", relays: ["ws://a"], now: now)
            tx.failPoint("keypackage.before_commit")
        }
        print("published")
    case "welcome":
        // The joiner processed a Welcome: the join ends, the KeyPackage is retired, the group is stored.
        try store.write { tx in
            try tx.pendingJoins.markJoined(id: "join-1", groupID: "g2", now: now)
            tx.failPoint("welcome.after_mark")
            try tx.keyPackages.consume(reference: [9, 9])
            try tx.groups.save(StoredGroup(id: "g2", nostrGroupID: "n2", name: nil, engine: "test", engineVersion: 1,
                                           state: SecureBytes(copying: [1]), epoch: 1, currentTag: nil, relays: [], updatedAt: now))
            tx.failPoint("welcome.before_commit")
        }
        print("joined")
    default:
        FileHandle.standardError.write(Data("unknown step \(step)\n".utf8))
        exit(2)
    }
} catch let error as StoreError {
    print("error \(error.code.rawValue)")
    exit(1)
} catch {
    print("error \(error)")
    exit(1)
}
