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
