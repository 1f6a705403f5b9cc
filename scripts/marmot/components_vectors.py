#!/usr/bin/env python3
"""Writes vectors/marmot/current/components.json: app component bytes of the current Marmot
profile, encoded here from the layouts in PROTOCOL.md §5.12.4 (and the spec documents it cites),
independently of the Swift code that reads them. Run from the repository root:
    python3 scripts/marmot/components_vectors.py > vectors/marmot/current/components.json
"""
import json

def varint(n):
    if n < 64: return bytes([n])
    if n < 16384: return (0x4000 | n).to_bytes(2, "big")
    return (0x80000000 | n).to_bytes(4, "big")

def opaque(b): return varint(len(b)) + b
def u16(n): return n.to_bytes(2, "big")
def u32(n): return n.to_bytes(4, "big")
def u64(n): return n.to_bytes(8, "big")
def ids(xs): return opaque(b"".join(u16(x) for x in xs))

cases = []
def case(component, kind, data, valid, note):
    cases.append({"component": "0x%04x" % component, "kind": kind, "hex": data.hex(), "valid": valid, "note": note})

A, B = bytes([1]) * 32, bytes([2]) * 32
gid = bytes(range(32))
# 0x0001 ComponentsList
case(0x0001, "components_list", ids([0x0001, 0x8001, 0x8002, 0x8003, 0x8004, 0x8005, 0x8006, 0x8007, 0x8008, 0x8009, 0x800b, 0x800c]), True,
     "the twelve ids a marmot-app 0.9.14 leaf supports")
case(0x0001, "components_list", ids([0x8001, 0x8003, 0x8004, 0x8006, 0x8009, 0x800b, 0x800c]), True, "a new group's required list")
case(0x0001, "components_list", b"\x40\x04" + u16(0x8001) + u16(0x8003), False, "non-minimal length")
case(0x0001, "components_list", ids([0x8003, 0x8001]), False, "unsorted")
case(0x0001, "components_list", ids([0x8001, 0x8001]), False, "repeated id")
case(0x0001, "components_list", b"\x03\x80\x01\xff", False, "odd byte count")
# 0x8001 profile
case(0x8001, "state", opaque(b"Book club") + opaque("Ünïcode 👋".encode()), True, "name and description")
case(0x8001, "state", opaque(b"x" * 257) + opaque(b""), False, "name above 256 bytes")
case(0x8001, "state", opaque(b"\xff") + opaque(b""), False, "name not UTF-8")
# 0x8002 image
case(0x8002, "state", b"\x00" * 5, True, "no image: five empty fields")
case(0x8002, "state", opaque(A) + opaque(B) + opaque(bytes(12)) + opaque(A) + opaque(b"image/jpeg"), True, "an image")
case(0x8002, "state", opaque(A) + opaque(B) + opaque(bytes(11)) + opaque(A) + opaque(b"image/jpeg"), False, "nonce of 11 bytes")
case(0x8002, "state", opaque(A) + opaque(B) + opaque(bytes(12)) + opaque(A) + opaque(b"image/JPEG"), False, "media type not lowercase")
# 0x8003 admins
case(0x8003, "state", opaque(A + B), True, "two admins, sorted")
case(0x8003, "state", opaque(B + A), False, "unsorted admins")
case(0x8003, "state", opaque(A + A), False, "repeated admin")
case(0x8003, "state", opaque(b""), False, "no admin")
case(0x8003, "state", opaque(A + b"\x01"), False, "not a whole number of keys")
# 0x8004 routing
case(0x8004, "state", gid + opaque(opaque(b"wss://relay-a.example") + opaque(b"wss://relay-b.example")), True, "two relays")
case(0x8004, "state", gid + opaque(opaque(b"wss://relay-b.example") + opaque(b"wss://relay-a.example")), False, "unsorted relays")
case(0x8004, "state", gid + opaque(b""), False, "no relay")
case(0x8004, "state", gid + opaque(opaque(b"https://relay.example")), False, "not ws/wss")
case(0x8004, "state", gid + opaque(opaque(b"wss://user@relay.example")), False, "userinfo")
case(0x8004, "state", gid + opaque(opaque(b"wss://relay.example/#x")), False, "fragment")
case(0x8004, "state", gid + opaque(b"".join(opaque(b"wss://r%02d.example" % i) for i in range(17))), False, "17 relays")
# 0x8005 retention
case(0x8005, "state", u64(86400), True, "one day")
case(0x8005, "state", u64(0), True, "off")
case(0x8005, "state", u32(86400), False, "4 bytes")
# 0x8006 agent text stream policy
case(0x8006, "state", bytes([1, 3]) + u32(4096) + u32(0) + u16(0), True, "marmot-app's default")
case(0x8006, "state", bytes([0, 3]) + u32(4096) + u32(0) + u16(0), False, "no required role")
case(0x8006, "state", bytes([3, 1]) + u32(4096) + u32(0) + u16(0), False, "a required role not allowed")
case(0x8006, "state", bytes([1, 3]) + u32(4096) + u32(301) + u16(0), False, "replay ttl above 300 s")
# 0x800b media v2
urls = [b"https://blossom.divine.video/", b"https://blossom.ditto.pub/", b"https://cdn.hzrd149.com/"]
media = opaque(b"encrypted-media-v2") + opaque(opaque(b"blossom-v1")) + opaque(b"".join(opaque(b"blossom-v1") + opaque(u) for u in urls))
assert len(media) == 148
case(0x800b, "state", media, True, "marmot-app's default policy (148 bytes)")
case(0x800b, "state", opaque(b"encrypted-media-v1") + opaque(opaque(b"blossom-v1")) + opaque(opaque(b"blossom-v1") + opaque(urls[0])), False, "another media format")
case(0x800b, "state", opaque(b"encrypted-media-v2") + opaque(opaque(b"blossom-v1")) + opaque(b""), False, "no endpoint")
# 0x800c lifecycle
case(0x800c, "state", b"\x00", True, "active")
case(0x800c, "state", b"\x01", True, "disbanded")
case(0x800c, "state", b"\x02", False, "unknown state")
case(0x800c, "state", b"", False, "empty")
# 0x8009 proof (structure only; the signature vector is account-identity-proof.json)
case(0x8009, "leaf", bytes(103), False, "103 bytes")

# AppDataUpdate proposals (type 0x0008) and the dictionaries that carry components.
proposals = [
    {"hex": (u16(0x0008) + u16(0x8005) + b"\x01" + opaque(u64(86400))).hex(), "valid": True, "note": "update retention to one day"},
    {"hex": (u16(0x0008) + u16(0x8002) + b"\x02").hex(), "valid": True, "note": "remove the image"},
    {"hex": (u16(0x0008) + u16(0x8005) + b"\xff").hex(), "valid": False, "note": "unknown operation"},
]
def entry(i, d): return u16(i) + opaque(d)
dictionaries = [
    {"hex": opaque(entry(0x0004, b"")).hex(), "valid": True, "note": "a last-resort KeyPackage's dictionary"},
    {"hex": opaque(entry(0x8001, b"\x00\x00") + entry(0x8003, opaque(A))).hex(), "valid": True, "note": "two entries, ascending"},
    {"hex": opaque(entry(0x8003, opaque(A)) + entry(0x8001, b"\x00\x00")).hex(), "valid": False, "note": "descending"},
    {"hex": opaque(entry(0x8001, b"\x00\x00") + entry(0x8001, b"\x00\x00")).hex(), "valid": False, "note": "repeated id"},
]
required_capabilities = (u16(0x0003) + opaque(ids([0x0006]) + ids([0x0008, 0x000a]) + ids([]))).hex()
json.dump({
    "source": "Encoded by scripts/marmot/components_vectors.py from the layouts of PROTOCOL.md §5.12.4 (shared/marmot/v2/app-components/*.md, MDK v0.9.14 crates/traits/src/app_components)",
    "components": cases, "app_data_update_proposals": proposals, "app_data_dictionaries": dictionaries,
    "required_capabilities_extension": required_capabilities,
}, __import__("sys").stdout, indent=1, ensure_ascii=False)
print()
