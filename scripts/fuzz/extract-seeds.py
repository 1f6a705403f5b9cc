#!/usr/bin/env python3
"""Cuts libFuzzer seed corpora out of vectors/ into Fuzz/corpus/<target>/.

Deterministic: file names are the SHA-1 of the contents (as libFuzzer names its own finds), so
re-running changes nothing. Harnesses with a mode byte get it prepended here (see each
Fuzz/Sources/<target>/Harness.swift). Seeds that only a fixture can make (MLS objects, framed
gift-wrap and invite modes) are written by the targets themselves; see run.sh.

Usage: scripts/fuzz/extract-seeds.py [--root DIR]
"""
import hashlib, json, os, sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
if "--root" in sys.argv:
    ROOT = os.path.abspath(sys.argv[sys.argv.index("--root") + 1])
VEC = os.path.join(ROOT, "vectors")
OUT = os.path.join(ROOT, "Fuzz", "corpus")
MAX_SEED = 16 * 1024  # keep the committed corpus small


def load(rel):
    with open(os.path.join(VEC, rel)) as f:
        return json.load(f)


def compact(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()


seeds = {}


def add(target, data, mode=None):
    if isinstance(data, str):
        data = data.encode()
    if mode is not None:
        data = bytes([mode]) + data
    if len(data) <= MAX_SEED:
        seeds.setdefault(target, set()).add(bytes(data))


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def field(num, payload):
    return varint(num << 3 | 2) + varint(len(payload)) + payload


# NIP-59 example: events and their plaintexts.
n59 = load("external/nip59-example.json")
for name in ("gift_wrap", "seal"):
    add("fuzz-event-json", compact(n59[name]))
add("fuzz-event-json", n59["rumor_plaintext"])
add("fuzz-event-json", n59["seal_plaintext"])
add("fuzz-event-json", compact(dict(n59["rumor"], tags=[["p", "a" * 64, "wss://r"], ["e", "b" * 64]])))
add("fuzz-gift-wrap", compact(n59["gift_wrap"]), 0)
add("fuzz-gift-wrap", n59["seal_plaintext"], 1)
add("fuzz-gift-wrap", n59["rumor_plaintext"], 2)

# NIP-19 examples, valid and not.
for ex in load("external/nip19-examples.json")["examples"]:
    add("fuzz-bech32", ex["bech32"])
    add("fuzz-bech32", "nostr:" + ex["bech32"])

# NIP-44: payloads (mode 0), nonce||plaintext (mode 1), nonce||padded region (mode 2).
n44 = load("external/nip44.vectors.json")["v2"]
for case in n44["valid"]["encrypt_decrypt"]:
    add("fuzz-nip44", case["payload"], 0)
    add("fuzz-nip44", bytes.fromhex(case["nonce"]) + case["plaintext"].encode(), 1)
for case in n44["invalid"]["decrypt"]:
    add("fuzz-nip44", case["payload"], 0)
nonce = bytes(range(32))
add("fuzz-nip44", nonce + b"\x00\x05hello" + bytes(25), 2)
add("fuzz-nip44", nonce + b"\x00\x00\x00\x01\x00\x00" + bytes(40), 2)

# Invites.
for case in load("invites/whistle-codes.json")["cases"]:
    for key in ("code", "url"):
        if key in case:
            add("fuzz-whistle-code", case[key])
for case in load("invites/approval-urls.json")["cases"]:
    add("fuzz-approval-url", case["url"])
for case in load("invites/signed-invites.json")["cases"]:
    for key in ("slug", "url"):
        if key in case:
            add("fuzz-signed-invite", case[key], 0)
    if "payload" in case:
        add("fuzz-signed-invite", bytes.fromhex(case["payload"]), 1)
for case in load("invites/negative.json")["cases"]:
    kind, text = case["kind"], case["input"]
    if kind in ("whistle_code", "whistle_url"):
        add("fuzz-whistle-code", text)
    elif kind == "approval_url":
        add("fuzz-approval-url", text)
    elif kind == "signed_link":
        add("fuzz-signed-invite", text, 0)
    elif kind == "payload":
        try:
            add("fuzz-signed-invite", bytes.fromhex(text), 1)
        except ValueError:
            pass

# MLS KeyPackages (MLSMessage-wrapped in the vector file): a handful is plenty.
for case in load("external/mls-key-packages.json")[:6]:
    raw = bytes.fromhex(case["mls_key_package"])
    add("fuzz-keypackage-tls", raw)
    add("fuzz-keypackage-tls", raw[4:])  # the bare KeyPackage
    add("fuzz-keypackage-event", raw, 1)

# Content types: EncodedContent protobufs and InviteJoinError JSON.
join_errors = [
    {"errorType": "conversation_expired", "inviteTag": "AbCdEfGhIj", "timestamp": "2025-01-02T03:04:05Z"},
    {"errorType": "single_use_consumed", "inviteTag": "t", "timestamp": "2025-01-02T03:04:05.123Z", "reason": "used"},
    {"errorType": "something_new", "inviteTag": "x", "timestamp": "2025-01-02T03:04:05+02:00", "reason": None},
]
for e in join_errors:
    add("fuzz-invite-join-error", compact(e))
type_id = field(1, b"convos.org") + field(2, b"invite_join_error") + bytes([0x18, 1, 0x20, 0])
for e in join_errors:
    add("fuzz-encoded-content", field(1, type_id) + field(2, field(1, b"k") + field(2, b"v"))
        + field(3, b"fallback") + field(4, compact(e)))
add("fuzz-encoded-content", field(1, type_id) + field(4, b"x") + bytes([0x28, 1]))

# RFC 9420 engine (mlswg test vectors): every wire format of MLSMessage, ratchet trees, signed
# messages of the message-protection suite. A few cases each; libFuzzer finds the rest.
msgs = load("external/mls/messages.json")
for case in msgs[:4]:
    for k in ("mls_welcome", "mls_group_info", "mls_key_package", "public_message_application",
              "public_message_proposal", "public_message_commit", "private_message"):
        raw = bytes.fromhex(case[k])
        add("fuzz-mls-message", raw)
        add("fuzz-mls-commit", raw, 0)
    add("fuzz-mls-commit", bytes.fromhex(case["commit"]), 1)
    add("fuzz-mls-commit", bytes.fromhex(case["mls_welcome"]), 3)
    add("fuzz-mls-commit", bytes.fromhex(case["add_proposal"]), 2)
    add("fuzz-mls-commit", bytes.fromhex(case["group_context_extensions_proposal"]), 2)
    add("fuzz-mls-private", bytes.fromhex(case["private_message"]), 0)
    add("fuzz-ratchet-tree", bytes.fromhex(case["ratchet_tree"]))
for case in load("external/mls/tree-validation.json")[:12]:
    add("fuzz-ratchet-tree", bytes.fromhex(case["tree"]))
for case in load("external/mls/welcome.json"):
    add("fuzz-mls-message", bytes.fromhex(case["welcome"]))
    add("fuzz-mls-commit", bytes.fromhex(case["welcome"]), 3)
for case in load("external/mls/message-protection.json")[:3]:
    for k in ("proposal_pub", "proposal_priv", "commit_pub", "commit_priv", "application_priv"):
        add("fuzz-mls-message", bytes.fromhex(case[k]))
        add("fuzz-mls-private", bytes.fromhex(case[k]), 0)

# MDK 0.8.0 samples (copied from the interop work into Fuzz/corpus/mdk-samples/, see its NOTE.md):
# kind-445 events from another group (their content must not open under our key) and MDK Welcomes.
mdk = os.path.join(ROOT, "Fuzz", "corpus", "mdk-samples")
if os.path.isdir(mdk):
    for name in sorted(os.listdir(mdk)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(mdk, name)) as f:
            ev = json.load(f)
        if ev.get("kind") == 445:
            add("fuzz-group-event", ev["content"], 0)
            add("fuzz-group-event", compact(ev), 2)
            add("fuzz-event-json", compact(ev))
        elif ev.get("kind") == 444:
            try:
                import base64
                welcome = base64.b64decode(ev["content"], validate=True)
            except Exception:
                welcome = bytes.fromhex(ev["content"])
            add("fuzz-mls-message", welcome)
            add("fuzz-mls-commit", welcome, 3)
        elif ev.get("kind") in (443, 30443):
            add("fuzz-keypackage-event", compact(ev), 0)

# Invite links v1: the draft's fixture, one seed per record mode of fuzz-invite-link's harness.
links = load("marmot/invite-links/invite-links-v1.json")
for key, mode in [("code_hex", 0), ("entry_hex", 2), ("component_hex", 3), ("request_hex", 4), ("refresh_hex", 4),
                  ("withdrawal_hex", 5), ("preview_hex", 6), ("status_hex", 7), ("retired_status_hex", 7),
                  ("grant_record_hex", 8), ("forward_record_hex", 8)]:
    add("fuzz-invite-link", bytes.fromhex(links[key]), mode)
add("fuzz-invite-link", links["code_bech32m"], 1)
add("fuzz-invite-link", links["code_bech32m"].upper(), 1)
add("fuzz-invite-link", bytes.fromhex(links["preview_nonce_hex"]) + bytes.fromhex(links["preview_ciphertext_hex"]), 13)

written = 0
for target, items in sorted(seeds.items()):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    for data in items:
        path = os.path.join(d, hashlib.sha1(data).hexdigest())
        if not os.path.exists(path):
            with open(path, "wb") as f:
                f.write(data)
            written += 1
print(f"extract-seeds: {sum(len(v) for v in seeds.values())} seeds for {len(seeds)} targets ({written} new) in {OUT}")
