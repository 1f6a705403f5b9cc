#!/usr/bin/env python3
"""Writes vectors/content/*.json and vectors/sealed/*.json.

Independent of the Swift code: protobuf bytes are assembled here from XMTP's schema, and the
sealed-kind gift wraps are made by rust-nostr (nostr-sdk) through scripts/peer/nostr_peer.py.
Run with the project venv:  .venv/bin/python scripts/vectors/generate_content_vectors.py
"""
import json, os, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)

def field_bytes(num, data):
    return varint(num << 3 | 2) + varint(len(data)) + data

def field_varint(num, v):
    return varint(num << 3 | 0) + varint(v)

def content_type(authority, type_id, major, minor):
    out = b""
    if authority: out += field_bytes(1, authority.encode())
    if type_id: out += field_bytes(2, type_id.encode())
    if major: out += field_varint(3, major)
    if minor: out += field_varint(4, minor)
    return out

def encoded_content(ct, parameters, fallback, content, compression):
    out = field_bytes(1, content_type(*ct))
    for k in sorted(parameters):
        entry = (field_bytes(1, k.encode()) if k else b"") + (field_bytes(2, parameters[k].encode()) if parameters[k] else b"")
        out += field_bytes(2, entry)
    if fallback is not None: out += field_bytes(3, fallback.encode())
    if content: out += field_bytes(4, content)
    if compression is not None: out += field_varint(5, compression)
    return out

def ec_case(name, ct, parameters, fallback, content, compression=None):
    return {"name": name, "type": "%s/%s:%d.%d" % ct, "parameters": parameters, "fallback": fallback,
            "content_hex": content.hex(), "compression": compression,
            "serialized_hex": encoded_content(ct, parameters, fallback, content, compression).hex()}

JE = ("convos.org", "invite_join_error", 1, 0)
JR = ("convos.org", "join_request", 1, 0)
error_json = b'{"errorType":"conversation_expired","inviteTag":"AbCdE12345","timestamp":"2026-11-18T11:06:40Z"}'

content = {
    "description": "EncodedContent (XMTP protobuf) serializations, content type ids and invite_join_error "
                   "JSON cases. serialized_hex is assembled by scripts/vectors/generate_content_vectors.py "
                   "from the schema, independently of the Swift code. Map entries are sorted by key.",
    "encoded_content": [
        ec_case("invite_join_error with fallback", JE, {}, "This invite is no longer valid", error_json),
        ec_case("parameters sorted, empty fallback kept", JE, {"b": "2", "a": "1"}, "", b"{}"),
        ec_case("join_request, no fallback", JR, {}, None, b'{"inviteSlug":"abc"}'),
        ec_case("compression field set", JR, {"encoding": "utf8"}, None, b"x", 1),
        ec_case("version 0.0 omitted", ("a.org", "t", 0, 0), {}, None, b""),
    ],
    "encoded_content_invalid": [
        {"name": "truncated length", "serialized_hex": "0a21", "error": "content_malformed_encoded_content"},
        {"name": "type field as varint", "serialized_hex": "0801", "error": "content_malformed_encoded_content"},
        {"name": "missing type", "serialized_hex": "2202" + b"{}".hex(), "error": "content_malformed_encoded_content"},
        {"name": "invalid UTF-8 authority", "serialized_hex": "0a030a01ff", "error": "content_malformed_encoded_content"},
        {"name": "unknown compression", "serialized_hex": field_bytes(1, content_type(*JR)).hex() + "2807", "error": "content_unsupported_compression"},
        {"name": "group wire type", "serialized_hex": "0b", "error": "content_malformed_encoded_content"},
    ],
    "content_type_ids": [
        {"text": "convos.org/invite_join_error:1.0", "valid": True, "authority": "convos.org", "type": "invite_join_error", "major": 1, "minor": 0},
        {"text": "xmtp.org/text:12.34", "valid": True, "authority": "xmtp.org", "type": "text", "major": 12, "minor": 34},
        {"text": "convos.org/join_request", "valid": False},
        {"text": "a/b:1.0.0", "valid": False},
        {"text": "/b:1.0", "valid": False},
        {"text": "a/b:x.0", "valid": False},
    ],
    "invite_join_error": [
        {"name": "all fields", "json": '{"errorType":"single_use_consumed","inviteTag":"T","timestamp":"2026-11-18T11:06:40Z","reason":"used"}',
         "valid": True, "errorType": "single_use_consumed", "inviteTag": "T", "timestamp_unix": 1795000000, "reason": "used",
         "user_message": "This invite was already used"},
        {"name": "fractional seconds", "json": '{"errorType":"conversation_not_found","inviteTag":"T","timestamp":"2026-11-18T11:06:40.250Z"}',
         "valid": True, "errorType": "conversation_not_found", "inviteTag": "T", "timestamp_unix": 1795000000.25, "reason": None,
         "user_message": "This conversation no longer exists"},
        {"name": "unknown type kept", "json": '{"errorType":"future_thing","inviteTag":"T","timestamp":"2026-11-18T11:06:40Z"}',
         "valid": True, "errorType": "future_thing", "inviteTag": "T", "timestamp_unix": 1795000000, "reason": None,
         "user_message": "Couldn't join this conversation"},
        {"name": "key order free, extra keys ignored", "json": '{"timestamp":"2026-11-18T11:06:40Z","x":1,"inviteTag":"T","errorType":"consent_not_allowed"}',
         "valid": True, "errorType": "consent_not_allowed", "inviteTag": "T", "timestamp_unix": 1795000000, "reason": None,
         "user_message": "You can't join this conversation"},
        {"name": "empty", "json": "", "valid": False, "error": "content_empty"},
        {"name": "not an object", "json": "[1]", "valid": False, "error": "content_invalid_json_format"},
        {"name": "missing timestamp", "json": '{"errorType":"generic_failure","inviteTag":"T"}', "valid": False, "error": "content_invalid_json_format"},
        {"name": "bad timestamp", "json": '{"errorType":"generic_failure","inviteTag":"T","timestamp":"18/11/2026"}', "valid": False, "error": "content_invalid_json_format"},
        {"name": "reason 501 chars", "json": '{"errorType":"generic_failure","inviteTag":"T","timestamp":"2026-11-18T11:06:40Z","reason":"%s"}' % ("r" * 501),
         "valid": False, "error": "content_invalid_json_format"},
        {"name": "errorType not a string", "json": '{"errorType":5,"inviteTag":"T","timestamp":"2026-11-18T11:06:40Z"}', "valid": False, "error": "content_invalid_json_format"},
    ],
}

def peer(cmd, req):
    out = subprocess.run([os.path.join(ROOT, ".venv/bin/python"), os.path.join(ROOT, "scripts/peer/nostr_peer.py"), cmd],
                         input=json.dumps(req).encode(), capture_output=True, check=True)
    return json.loads(out.stdout)

# Fixed keys (test-only).
SENDER = "7f7ff03d123792d6ac594bfa67bf6d0c0ab55b6b1fdb6249303fe861f1ccba9a"
RECIPIENT = "c15d2a640a7bd00f291e074e5e9f1a3c5e1d9e3e1b2f7e0f2e5c1a9d3b7e6f01"
OTHER = "0000000000000000000000000000000000000000000000000000000000000003"
def pub_of(secret):
    import nostr_sdk as ns
    return ns.Keys(ns.SecretKey.parse(secret)).public_key().to_hex()

def wrap(secret, rumor):
    return peer("wrap", {"secretKey": secret, "recipient": RECIPIENT_PUB, "rumor": rumor})

RECIPIENT_PUB = pub_of(RECIPIENT)
SENDER_PUB = pub_of(SENDER)
OTHER_PUB = pub_of(OTHER)
kp_event = {"id": "0" * 64, "pubkey": SENDER_PUB, "created_at": 1795000000, "kind": 30443, "tags": [["d", "ab" * 32]],
            "content": "AAEC", "sig": "0" * 128}
kp_other = dict(kp_event, pubkey=OTHER_PUB)

def join_request(pubkey, kp):
    return json.dumps({"type": "join-request", "v": 1, "groupId": "grp-1", "pubkey": pubkey, "keyPackage": kp,
                       "name": "Sam", "invite": "https://invitekit.example/v2?i=abc"}, separators=(",", ":"))

sealed = {
    "description": "Gift wraps (made by rust-nostr via nostr-sdk) addressed to recipient_secret_key, each holding one "
                   "sealed rumor kind, and what SealedMessage must make of it. Keys are test-only.",
    "recipient_secret_key": RECIPIENT,
    "sender_public_key": SENDER_PUB,
    "cases": [
        {"name": "join request (1080)", "expect": "join_request", "group_id": "grp-1",
         "wrap": wrap(SENDER, {"kind": 1080, "content": join_request(SENDER_PUB, kp_event), "tags": []})},
        {"name": "join request naming another pubkey", "expect": "error:sealed_sender_mismatch",
         "wrap": wrap(SENDER, {"kind": 1080, "content": join_request(OTHER_PUB, kp_other), "tags": []})},
        {"name": "join request with v 2", "expect": "error:sealed_unsupported_version",
         "wrap": wrap(SENDER, {"kind": 1080, "content": join_request(SENDER_PUB, kp_event).replace('"v":1', '"v":2'), "tags": []})},
        {"name": "invite join error (1081)", "expect": "invite_join_error", "error_type": "conversation_expired", "invite_tag": "AbCdE12345",
         "wrap": wrap(SENDER, {"kind": 1081, "content": error_json.decode(), "tags": [["content-type", "convos.org/invite_join_error:1.0"]]})},
        {"name": "invite join error without its content-type tag", "expect": "error:sealed_missing_content_type",
         "wrap": wrap(SENDER, {"kind": 1081, "content": error_json.decode(), "tags": []})},
        {"name": "welcome (444) passed to the group layer", "expect": "welcome",
         "wrap": wrap(SENDER, {"kind": 444, "content": "AAEC", "tags": [["e", "11" * 32], ["relays", "wss://r.example"], ["encoding", "base64"]]})},
        {"name": "other kind passed through", "expect": "other",
         "wrap": wrap(SENDER, {"kind": 14, "content": "hi", "tags": []})},
    ],
}

for path, data in [("vectors/content/content-types.json", content), ("vectors/sealed/sealed-kinds.json", sealed)]:
    with open(os.path.join(ROOT, path), "w") as f:
        json.dump(data, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print("wrote", path)
