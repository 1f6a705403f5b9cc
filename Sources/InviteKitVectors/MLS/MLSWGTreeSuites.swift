import InviteKitMLS
import Foundation
import InviteKitCrypto
import InviteKitNostr

/// The mlswg interop vectors for the ratchet tree (files under `vectors/external/mls/`, format in
/// the mlswg `test-vectors.md`):
/// - `mlswg-tree-math`: node counts, root, left, right, parent and sibling (RFC 9420 Appendix C);
/// - `mlswg-tree-operations`: Add, Update and Remove applied to a tree, with tree hashes
///   before and after (RFC 9420 §7.7, §7.8, §12.1);
/// - `mlswg-tree-validation`: resolutions and tree hashes of every node, parent hashes and leaf
///   signatures (RFC 9420 §4.1.1, §7.8, §7.9.2, §7.3);
/// - `mlswg-treekem`: UpdatePath processing by every member and creation (RFC 9420 §7.4–§7.6).
///
/// Cases for cipher suites other than 1 and 3 are skipped: they are outside the Marmot profile.
package enum MLSWGTreeSuites {
    /// One result per suite whose file is present under `directory` (the `vectors/` root).
    package static func run(directory: URL) -> [VectorSuiteResult] {
        let dir = directory.appendingPathComponent("external/mls")
        var out: [VectorSuiteResult] = []
        let suites: [(String, String, ([[String: Any]]) -> VectorSuiteResult)] = [
            ("mlswg-tree-math", "tree-math.json", treeMath),
            ("mlswg-tree-operations", "tree-operations.json", treeOperations),
            ("mlswg-tree-validation", "tree-validation.json", treeValidation),
            ("mlswg-treekem", "treekem.json", treeKEM),
        ]
        for (name, file, body) in suites {
            let url = dir.appendingPathComponent(file)
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            guard let cases = MLSVectorSuites.loadJSON(url) as? [[String: Any]], !cases.isEmpty else {
                out.append(.unreadable(name, "\(file) is unreadable or empty"))
                continue
            }
            out.append(body(cases))
        }
        return out
    }

    static func skipReason(_ suite: CipherSuite) -> String? {
        suite.isSupported ? nil : "cipher suite \(suite.rawValue) is outside the Marmot profile"
    }

    static func hex(_ c: [String: Any], _ key: String) throws -> [UInt8] {
        guard let s = c[key] as? String, let b = Hex.decode(s) else { throw MLSError(.invalidValue, "vector field \(key)") }
        return b
    }

    static func uint(_ any: Any?) -> UInt32? { (any as? NSNumber)?.uint32Value }

    // MARK: tree-math

    static func treeMath(_ cases: [[String: Any]]) -> VectorSuiteResult {
        var r = VectorSuiteResult(suite: "mlswg-tree-math")
        for (i, c) in cases.enumerated() {
            r.check("case \(i)") { try treeMathProblem(c) }
        }
        return r
    }

    static func treeMathProblem(_ c: [String: Any]) throws -> String? {
        guard let n = uint(c["n_leaves"]), n > 0, n.nonzeroBitCount == 1 else { return "n_leaves" }
        let width = TreeMath.nodeWidth(leafCount: n)
        if uint(c["n_nodes"]) != width { return "n_nodes" }
        let root = TreeMath.root(leafCount: n)
        if uint(c["root"]) != root { return "root" }
        let columns: [(String, (UInt32) -> UInt32?)] = [
            ("left", { TreeMath.isLeaf($0) ? nil : TreeMath.left($0) }),
            ("right", { TreeMath.isLeaf($0) ? nil : TreeMath.right($0) }),
            ("parent", { $0 == root ? nil : TreeMath.parent($0) }),
            ("sibling", { $0 == root ? nil : TreeMath.sibling($0) }),
        ]
        for (name, f) in columns {
            guard let list = c[name] as? [Any], list.count == Int(width) else { return "\(name) length" }
            for x in 0..<width where uint(list[Int(x)]) != f(x) { return "\(name)[\(x)]" }
        }
        return nil
    }

    // MARK: tree-operations

    static func treeOperations(_ cases: [[String: Any]]) -> VectorSuiteResult {
        var r = VectorSuiteResult(suite: "mlswg-tree-operations")
        for (i, c) in cases.enumerated() {
            let suite = CipherSuite(rawValue: (c["cipher_suite"] as? NSNumber)?.uint16Value ?? 0)
            if let why = skipReason(suite) { r.skip(why); continue }
            r.check("case \(i)") { try treeOperationProblem(c) }
        }
        return r
    }

    static func treeOperationProblem(_ c: [String: Any]) throws -> String? {
        var tree = try RatchetTree(tlsSerialized: try hex(c, "tree_before"))
        if tree.treeHash != (try hex(c, "tree_hash_before")) { return "tree_hash_before" }
        guard let sender = uint(c["proposal_sender"]) else { return "proposal_sender" }
        var reader = TLSReader(try hex(c, "proposal"))
        switch try reader.readUInt16() {
        case 1: tree.addLeaf(try KeyPackage(from: &reader).leafNode)
        case 2: try tree.updateLeaf(sender, with: try LeafNode(from: &reader))
        case 3: try tree.removeLeaf(try reader.readUInt32())
        case let t: return "proposal type \(t)"
        }
        try reader.finish()
        if tree.tlsSerialized != (try hex(c, "tree_after")) { return "tree_after" }
        if tree.treeHash != (try hex(c, "tree_hash_after")) { return "tree_hash_after" }
        if tree.treeHashes() != tree.computeTreeHashes() { return "cached tree hashes went stale" }
        return nil
    }

    // MARK: tree-validation

    static func treeValidation(_ cases: [[String: Any]]) -> VectorSuiteResult {
        var r = VectorSuiteResult(suite: "mlswg-tree-validation")
        for (i, c) in cases.enumerated() {
            let suite = CipherSuite(rawValue: (c["cipher_suite"] as? NSNumber)?.uint16Value ?? 0)
            if let why = skipReason(suite) { r.skip(why); continue }
            r.check("case \(i) (suite \(suite.rawValue))") { try treeValidationProblem(c, suite: suite) }
        }
        return r
    }

    static func treeValidationProblem(_ c: [String: Any], suite: CipherSuite) throws -> String? {
        let tree = try RatchetTree(tlsSerialized: try hex(c, "tree"))
        guard let resolutions = c["resolutions"] as? [[Any]], let hashes = c["tree_hashes"] as? [String] else { return "fields" }
        if resolutions.count != tree.nodes.count || hashes.count != tree.nodes.count { return "node count" }
        let mine = tree.treeHashes()
        for x in 0..<UInt32(tree.nodes.count) {
            if tree.resolution(of: x) != resolutions[Int(x)].compactMap(uint) { return "resolution of node \(x)" }
            if Hex.decode(hashes[Int(x)]) != mine[Int(x)] { return "tree hash of node \(x)" }
        }
        try tree.validate(suite: suite, groupID: try hex(c, "group_id"), expectedTreeHash: mine[Int(tree.root)])
        return nil
    }

    // MARK: treekem

    static func treeKEM(_ cases: [[String: Any]]) -> VectorSuiteResult {
        var r = VectorSuiteResult(suite: "mlswg-treekem")
        for (i, c) in cases.enumerated() {
            let suite = CipherSuite(rawValue: (c["cipher_suite"] as? NSNumber)?.uint16Value ?? 0)
            if let why = skipReason(suite) { r.skip(why); continue }
            r.check("case \(i) (suite \(suite.rawValue))") { try treeKEMProblem(c, suite: suite) }
        }
        return r
    }

    /// `GroupContext` (RFC 9420 §8.1) with no extensions, as the treekem vectors define it.
    static func groupContext(suite: CipherSuite, groupID: [UInt8], epoch: UInt64, treeHash: [UInt8],
                             confirmedTranscriptHash: [UInt8]) -> [UInt8] {
        var w = TLSWriter()
        w.writeUInt16(1)
        suite.encode(to: &w)
        w.writeOpaque(groupID)
        w.writeUInt64(epoch)
        w.writeOpaque(treeHash)
        w.writeOpaque(confirmedTranscriptHash)
        w.writeVector { _ in }
        return w.bytes
    }

    static func treeKEMProblem(_ c: [String: Any], suite: CipherSuite) throws -> String? {
        let tree = try RatchetTree(tlsSerialized: try hex(c, "ratchet_tree"))
        let groupID = try hex(c, "group_id")
        let cth = try hex(c, "confirmed_transcript_hash")
        guard let epoch = (c["epoch"] as? NSNumber)?.uint64Value,
              let privs = c["leaves_private"] as? [[String: Any]], let paths = c["update_paths"] as? [[String: Any]] else { return "fields" }
        var states: [UInt32: TreePrivateState] = [:]
        var signers: [UInt32: Ed25519.PrivateKey] = [:]
        for p in privs {
            guard let index = uint(p["index"]), let secrets = p["path_secrets"] as? [[String: Any]] else { return "leaves_private" }
            var state = TreePrivateState(leafIndex: index, leafKey: try X25519.PrivateKey(rawRepresentationChecked: try hex(p, "encryption_priv")))
            for s in secrets {
                guard let node = uint(s["node"]) else { return "path_secrets node" }
                state.pathKeys[node] = try TreeKEM.nodeKey(pathSecret: SecureBytes(copying: try hex(s, "path_secret")))
            }
            do { try state.verifyConsistency(with: tree) } catch { return "leaf \(index) private state: \(error)" }
            // The state must survive its persistence form unchanged.
            let restored = try TreePrivateState(serialized: state.serialized())
            guard restored.serialized().exportBytes() == state.serialized().exportBytes() else { return "private state round trip" }
            states[index] = restored
            signers[index] = try Ed25519.PrivateKey(rawRepresentation: try hex(p, "signature_priv"))
        }
        for (n, u) in paths.enumerated() {
            guard let sender = uint(u["sender"]), let expectedSecrets = u["path_secrets"] as? [Any] else { return "update_paths[\(n)]" }
            let path = try UpdatePath(tlsSerialized: try hex(u, "update_path"))
            var merged = tree
            do { try TreeKEM.merge(path, from: sender, into: &merged, groupID: groupID) } catch { return "path \(n) merge: \(error)" }
            if merged.treeHash != (try hex(u, "tree_hash_after")) { return "path \(n) tree_hash_after" }
            if merged.treeHashes() != merged.computeTreeHashes() { return "path \(n) cached tree hashes went stale" }
            let context = groupContext(suite: suite, groupID: groupID, epoch: epoch, treeHash: merged.treeHash, confirmedTranscriptHash: cth)
            let commitSecret = try hex(u, "commit_secret")
            for leaf in tree.occupiedLeaves where leaf != sender {
                guard let state = states[leaf] else { return "no private state for leaf \(leaf)" }
                let out = try TreeKEM.decrypt(path, from: sender, tree: merged, privateState: state, groupContext: context, suite: suite)
                guard Int(leaf) < expectedSecrets.count, let want = expectedSecrets[Int(leaf)] as? String,
                      Hex.decode(want) == out.pathSecret.exportBytes() else { return "path \(n) leaf \(leaf) path secret" }
                if out.commitSecret.exportBytes() != commitSecret { return "path \(n) leaf \(leaf) commit secret" }
                try out.privateState.verifyConsistency(with: merged)
            }
            // Our own UpdatePath from the same sender must be processed the same way by everyone.
            guard let signer = signers[sender] else { return "no signature key for leaf \(sender)" }
            let pending = try TreeKEM.preparePath(tree: tree, leafIndex: sender, suite: suite, groupID: groupID, signingKey: signer)
            let newContext = groupContext(suite: suite, groupID: groupID, epoch: epoch, treeHash: pending.tree.treeHash, confirmedTranscriptHash: cth)
            let mine = try UpdatePath(tlsSerialized: try pending.updatePath(groupContext: newContext).tlsSerialized)
            try pending.privateState.verifyConsistency(with: pending.tree)
            var theirs = tree
            try TreeKEM.merge(mine, from: sender, into: &theirs, groupID: groupID)
            if theirs.treeHash != pending.tree.treeHash { return "path \(n) own path: merged tree differs" }
            try theirs.verifyParentHashes()
            for leaf in tree.occupiedLeaves where leaf != sender {
                let out = try TreeKEM.decrypt(mine, from: sender, tree: theirs, privateState: states[leaf]!, groupContext: newContext, suite: suite)
                if out.commitSecret.exportBytes() != pending.commitSecret.exportBytes() { return "path \(n) own path: leaf \(leaf) commit secret" }
            }
        }
        return nil
    }
}
