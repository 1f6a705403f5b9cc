#!/usr/bin/env python3
"""An independent check of InviteKit's current-profile Marmot output (PROTOCOL §5.12), from the
spec alone and not from InviteKit's Swift code: hashlib for NIP-01 ids and KeyPackageRefs,
coincurve (libsecp256k1) for BIP-340, and a TLS reader written here.

It checks the spec's account-identity-proof signing vector, then the KeyPackage event, Welcome
rumor and kind-445 event in vectors/marmot/current/events.json: ids and signatures, the
KeyPackage's tags against the decoded package, and the leaf's 0x8009 proof over its MLS key.
Exit status 0 when everything holds; prints one line per check."""
import base64, hashlib, json, sys
from pathlib import Path
from coincurve import PublicKeyXOnly

ROOT = Path(__file__).resolve().parents[2]
failures = 0

def check(name, ok, detail=""):
    global failures
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else ": " + detail))
    failures += 0 if ok else 1

def event_id(pubkey, created_at, kind, tags, content):
    data = json.dumps([0, pubkey, created_at, kind, tags, content], separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(data.encode()).hexdigest()

def schnorr_ok(pubkey_hex, sig_hex, msg_hex):
    try:
        return PublicKeyXOnly(bytes.fromhex(pubkey_hex)).verify(bytes.fromhex(sig_hex), bytes.fromhex(msg_hex))
    except Exception:
        return False

class Reader:
    def __init__(self, b): self.b, self.i = b, 0
    def take(self, n):
        if self.i + n > len(self.b): raise ValueError("truncated")
        v = self.b[self.i:self.i + n]; self.i += n; return v
    def u8(self): return self.take(1)[0]
    def u16(self): return int.from_bytes(self.take(2), "big")
    def u64(self): return int.from_bytes(self.take(8), "big")
    def varint(self):
        first = self.b[self.i]; prefix = first >> 6
        n = {0: 1, 1: 2, 2: 4}[prefix]
        v = int.from_bytes(self.take(n), "big") & ((1 << (8 * n - 2)) - 1)
        return v
    def opaque(self): return self.take(self.varint())
    def vector(self, element):
        sub = Reader(self.opaque()); out = []
        while sub.i < len(sub.b): out.append(element(sub))
        return out

def opaque(b):
    n = len(b)
    return (bytes([n]) if n < 64 else (0x4000 | n).to_bytes(2, "big") if n < 16384 else (0x80000000 | n).to_bytes(4, "big")) + b

def proof_event_id(signer_hex, created_at, signature_key):
    tags = [["d", "marmot.account-identity-proof.v2"], ["component", "0x8009"], ["ciphersuite", "0x0001"],
            ["signature_scheme", "0x0807"], ["mls_signature_key", signature_key.hex()]]
    return event_id(signer_hex, created_at, 450, tags, "Authorize this MLS leaf key for my Marmot account")

# 1. The spec's signing vector.
v = json.loads((ROOT / "vectors/marmot/current/account-identity-proof.json").read_text())
eid = proof_event_id(v["signer_pubkey"], v["created_at"], bytes.fromhex(v["mls_signature_key"]))
check("proof vector: event id", eid == v["event_id"], eid)
check("proof vector: BIP-340 signature", schnorr_ok(v["signer_pubkey"], v["signature"], eid))
component = bytes.fromhex(v["signer_pubkey"]) + v["created_at"].to_bytes(8, "big") + bytes.fromhex(v["signature"])
check("proof vector: 104-byte component", component.hex() == v["component"] and len(component) == 104)

events = json.loads((ROOT / "vectors/marmot/current/events.json").read_text())

def signed_event_ok(e):
    return event_id(e["pubkey"], e["created_at"], e["kind"], e["tags"], e["content"]) == e["id"] and schnorr_ok(e["pubkey"], e["sig"], e["id"])

# 2. The KeyPackage event.
kp_event = events["keypackage_event"]
check("KeyPackage event: id and signature", signed_event_ok(kp_event))
raw = base64.b64decode(kp_event["content"], validate=True)
r = Reader(raw)
check("KeyPackage event: MLSMessage(key_package)", r.u16() == 1 and r.u16() == 5)
kp_start = r.i
version, suite = r.u16(), r.u16()
init_key = r.opaque()
leaf_start = r.i
encryption_key, signature_key = r.opaque(), r.opaque()
cred_type, identity = r.u16(), r.opaque()
caps = [r.vector(lambda s: s.u16()) for _ in range(5)]
source = r.u8()
not_before, not_after = (r.u64(), r.u64()) if source == 1 else (None, None)
leaf_exts = r.vector(lambda s: (s.u16(), s.opaque()))
r.opaque()  # leaf signature
kp_exts = r.vector(lambda s: (s.u16(), s.opaque()))
r.opaque()  # KeyPackage signature
check("KeyPackage: nothing after it", r.i == len(raw))
kp_bytes = raw[kp_start:]
tags = {t[0]: t[1:] for t in kp_event["tags"]}
names = [t[0] for t in kp_event["tags"]]
check("KeyPackage event: tag names and order",
      names == ["d", "mls_protocol_version", "i", "mls_ciphersuite", "mls_extensions", "mls_proposals", "app_components"], str(names))
ref = hashlib.sha256(opaque(b"MLS 1.0 KeyPackage Reference") + opaque(kp_bytes)).hexdigest()
check("KeyPackage event: i is the KeyPackageRef", tags["i"] == [ref])
check("KeyPackage event: mls_ciphersuite", tags["mls_ciphersuite"] == ["0x%04x" % suite] and suite == 1)
check("KeyPackage event: mls_extensions = leaf capabilities", sorted(tags["mls_extensions"]) == sorted("0x%04x" % x for x in caps[2]))
check("KeyPackage event: mls_proposals = leaf capabilities", sorted(tags["mls_proposals"]) == sorted("0x%04x" % x for x in caps[3]))
dictionary = dict((t, d) for t, d in leaf_exts)
check("leaf: one app_data_dictionary (0x0006)", list(dictionary) == [0x0006])
entries = Reader(dictionary[0x0006]).vector(lambda s: (s.u16(), s.opaque()))
ids = [i for i, _ in entries]
check("leaf dictionary: ascending ids 0x0001, 0x0002, 0x8009", ids == [0x0001, 0x0002, 0x8009], str(ids))
entry = dict(entries)
supported = Reader(entry[0x0001]).vector(lambda s: s.u16())
check("KeyPackage event: app_components = supported ids from 0x8000",
      tags["app_components"] == ["0x%04x" % x for x in supported if x >= 0x8000] and 0x8009 in supported)
proof = entry[0x8009]
signer, created_at, sig = proof[:32], int.from_bytes(proof[32:40], "big"), proof[40:]
check("proof: 104 bytes, signer = credential = event author", len(proof) == 104 and signer == identity and identity.hex() == kp_event["pubkey"])
check("proof: BIP-340 over the kind-450 id of this leaf's MLS key",
      schnorr_ok(signer.hex(), sig.hex(), proof_event_id(signer.hex(), created_at, signature_key)))
check("lifetime: range at most 7,261,200 s", not_after - not_before <= 7_261_200)
check("KeyPackage: last resort as the empty component 0x0004", kp_exts == [(0x0006, bytes.fromhex("03000400"))], str(kp_exts))
check("KeyPackage event: no relays, client or encoding tag", not ({"relays", "client", "encoding"} & set(names)))

# 3. Welcome rumor and kind-445 events.
rumor = events["welcome_rumor"]
check("Welcome rumor: id, kind 444, tags exactly e and relays",
      event_id(rumor["pubkey"], rumor["created_at"], rumor["kind"], rumor["tags"], rumor["content"]) == rumor["id"]
      and rumor["kind"] == 444 and [t[0] for t in rumor["tags"]] == ["e", "relays"])
ge = events["group_event"]
check("kind 445: id, signature, exactly one h tag", signed_event_ok(ge) and ge["kind"] == 445 and [t[0] for t in ge["tags"]] == ["h"])

print(f"{failures} failed")
sys.exit(1 if failures else 0)
