#!/usr/bin/env python3
"""Self-test of nostr_peer.py: runs the CLI as a subprocess, the way the Swift
interop tests will, against itself, the official NIP-59 example and the NIP-44
vectors in vectors/external (else ../shared/vectors-external, or
$INVITEKIT_EXTERNAL_VECTORS), plus
hostile wraps built directly with nostr-sdk. Prints one line per failure and
closes with 'N passed, N failed'. Exit 0 only if nothing failed.

    .venv/bin/python scripts/peer/selftest.py
"""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import nostr_sdk as ns

HERE = Path(__file__).resolve().parent
PEER = HERE / "nostr_peer.py"
ROOT = HERE.parent.parent
# The package's copy first (vectors/external), else ../shared/vectors-external.
VECTORS = Path(os.environ.get("INVITEKIT_EXTERNAL_VECTORS") or next(
    (p for p in (ROOT / "vectors" / "external", ROOT.parent / "shared" / "vectors-external")
     if (p / "nip59-example.json").is_file()), ROOT / "vectors" / "external"))
TWO_DAYS = 2 * 24 * 3600

passed = 0
failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name} {detail}".rstrip())


def run(command, request, *opts):
    data = b"" if request is None else json.dumps(request, ensure_ascii=False).encode()
    proc = subprocess.run([sys.executable, str(PEER), command, *opts], input=data,
                          capture_output=True, timeout=60)
    out = json.loads(proc.stdout) if proc.returncode == 0 else None
    return proc.returncode, out, proc.stderr.decode()


def expect_fail(name, command, request, *opts, reason=None):
    rc, out, err = run(command, request, *opts)
    lines = err.strip().splitlines()
    ok = rc == 1 and out is None and len(lines) == 1 and lines[0].startswith("error: ")
    if ok and reason is not None:
        ok = reason in lines[0]
    check(name, ok, f"rc={rc} stderr={err.strip()!r}")


def keys():
    rc, out, _ = run("keys", None)
    assert rc == 0, "keys failed"
    return out


# --- keys -------------------------------------------------------------------
a, b = keys(), keys()
check("keys.distinct", a["secretKey"] != b["secretKey"])
check("keys.pubkey_derives",
      ns.Keys.parse(a["secretKey"]).public_key().to_hex() == a["publicKey"])
check("keys.hex64", all(len(k[f]) == 64 for k in (a, b) for f in ("secretKey", "publicKey")))

# --- nip44 round trip and limits ---------------------------------------------
for text in ["a", "héllo ⚠️ \n\"\\ \u2028 𝄞", "x" * 65408, "é" * 32704]:
    rc, enc, _ = run("nip44-encrypt", {"secretKey": a["secretKey"], "publicKey": b["publicKey"],
                                       "plaintext": text})
    ok = rc == 0
    if ok:
        rc, dec, _ = run("nip44-decrypt", {"secretKey": b["secretKey"], "publicKey": a["publicKey"],
                                           "payload": enc["payload"]})
        ok = rc == 0 and dec["plaintext"] == text
    check(f"nip44.roundtrip[{len(text.encode())}B]", ok)
expect_fail("nip44.refuses_65409_bytes", "nip44-encrypt",
            {"secretKey": a["secretKey"], "publicKey": b["publicKey"], "plaintext": "x" * 65409},
            reason="message too long")
expect_fail("nip44.refuses_65409_bytes_multibyte", "nip44-encrypt",
            {"secretKey": a["secretKey"], "publicKey": b["publicKey"], "plaintext": "é" * 32704 + "x"},
            reason="message too long")
expect_fail("nip44.refuses_empty", "nip44-encrypt",
            {"secretKey": a["secretKey"], "publicKey": b["publicKey"], "plaintext": ""})
expect_fail("nip44.wrong_key", "nip44-decrypt",
            {"secretKey": keys()["secretKey"], "publicKey": a["publicKey"],
             "payload": run("nip44-encrypt", {"secretKey": a["secretKey"], "publicKey": b["publicKey"],
                                              "plaintext": "x"})[1]["payload"]})

# --- NIP-44 official vectors ---------------------------------------------------
vec44 = json.loads((VECTORS / "nip44.vectors.json").read_text())["v2"]["valid"]["encrypt_decrypt"]
check("nip44.vectors_loaded", len(vec44) > 0)
for i, v in enumerate(vec44):
    pub1 = ns.Keys.parse(v["sec1"]).public_key().to_hex()
    pub2 = ns.Keys.parse(v["sec2"]).public_key().to_hex()
    rc, dec, err = run("nip44-decrypt", {"secretKey": v["sec2"], "publicKey": pub1, "payload": v["payload"]})
    check(f"nip44.vector[{i}].sec2", rc == 0 and dec["plaintext"] == v["plaintext"], err.strip())
    rc, dec, err = run("nip44-decrypt", {"secretKey": v["sec1"], "publicKey": pub2, "payload": v["payload"]})
    check(f"nip44.vector[{i}].sec1", rc == 0 and dec["plaintext"] == v["plaintext"], err.strip())

# --- wrap / unwrap against itself ----------------------------------------------
rumor_in = {"kind": 444, "content": "welcome ✓ \"q\"\n",
            "tags": [["e", "ab" * 32], ["relays", "wss://r1", "wss://r2"], ["encoding", "base64"]],
            "created_at": 1700000000}
now = int(time.time())
rc, wrap, err = run("wrap", {"secretKey": a["secretKey"], "recipient": b["publicKey"], "rumor": rumor_in})
check("wrap.ok", rc == 0, err.strip())
if rc == 0:
    check("wrap.kind_1059", wrap["kind"] == 1059)
    check("wrap.p_tag", ["p", b["publicKey"]] in wrap["tags"])
    check("wrap.one_time_key", wrap["pubkey"] not in (a["publicKey"], b["publicKey"]))
    check("wrap.created_at_randomised_past", now - TWO_DAYS - 5 <= wrap["created_at"] <= now + 5,
          str(now - wrap["created_at"]))
    check("wrap.verifies", ns.Event.from_json(json.dumps(wrap)).verify())
    seal = json.loads(ns.nip44_decrypt(ns.SecretKey.parse(b["secretKey"]),
                                       ns.PublicKey.parse(wrap["pubkey"]), wrap["content"]))
    check("seal.kind_13_by_sender_no_tags",
          seal["kind"] == 13 and seal["pubkey"] == a["publicKey"] and seal["tags"] == [])
    check("seal.created_at_randomised_past", now - TWO_DAYS - 5 <= seal["created_at"] <= now + 5)
    for mode in ((), ("--lenient",)):
        rc, un, err = run("unwrap", {"secretKey": b["secretKey"], "wrap": wrap}, *mode)
        ok = (rc == 0 and un["sender"] == a["publicKey"]
              and all(un["rumor"][k] == rumor_in[k] for k in rumor_in)
              and un["rumor"]["pubkey"] == a["publicKey"] and len(un["rumor"]["id"]) == 64
              and "sig" not in un["rumor"])
        check(f"unwrap.roundtrip{list(mode)}", ok, err.strip())
    expect_fail("unwrap.wrong_recipient", "unwrap", {"secretKey": a["secretKey"], "wrap": wrap})
    tampered = dict(wrap, sig=wrap["sig"][:-1] + ("0" if wrap["sig"][-1] != "0" else "1"))
    expect_fail("unwrap.bad_wrap_sig", "unwrap", {"secretKey": b["secretKey"], "wrap": tampered})
    expect_fail("unwrap.bad_wrap_id", "unwrap",
                {"secretKey": b["secretKey"], "wrap": dict(wrap, created_at=wrap["created_at"] + 1)})
rc, wrap_now, _ = run("wrap", {"secretKey": a["secretKey"], "recipient": b["publicKey"],
                               "rumor": {"kind": 1, "content": "x", "tags": []}})
if rc == 0:
    _, un, _ = run("unwrap", {"secretKey": b["secretKey"], "wrap": wrap_now})
    check("wrap.created_at_defaults_to_now", un is not None and abs(un["rumor"]["created_at"] - now) < 60)
else:
    check("wrap.created_at_defaults_to_now", False, "wrap failed")
expect_fail("wrap.kind_out_of_range", "wrap", {"secretKey": a["secretKey"], "recipient": b["publicKey"],
                                               "rumor": {"kind": 65536, "content": "", "tags": []}})
expect_fail("wrap.empty_tag", "wrap", {"secretKey": a["secretKey"], "recipient": b["publicKey"],
                                       "rumor": {"kind": 1, "content": "", "tags": [[]]}})
expect_fail("stdin.not_json", "unwrap", None)

# --- official NIP-59 example ---------------------------------------------------
ex = json.loads((VECTORS / "nip59-example.json").read_text())
for mode in ((), ("--lenient",)):
    rc, un, err = run("unwrap", {"secretKey": ex["keys"]["recipient_secret_key"], "wrap": ex["gift_wrap"]}, *mode)
    check(f"nip59_example.unwrap{list(mode)}",
          rc == 0 and un["sender"] == ex["keys"]["author_public_key"] and un["rumor"] == ex["rumor"],
          err.strip())
expect_fail("nip59_example.author_cannot_unwrap", "unwrap",
            {"secretKey": ex["keys"]["author_secret_key"], "wrap": ex["gift_wrap"]})

# --- hostile wraps built by hand (recipient B) ---------------------------------
A = ns.Keys.parse(a["secretKey"])
B = ns.Keys.parse(b["secretKey"])
M = ns.Keys.generate()
V2 = ns.Nip44Version.V2


def rumor_json(author, **override):
    r = json.loads(ns.EventBuilder(ns.Kind(1), "hi").finalize_unsigned(author.public_key())
                   .ensure_id().as_json())
    r.update(override)
    return json.dumps({k: v for k, v in r.items() if v is not None})


def seal_for(author, text, kind=13, tags=()):
    content = ns.nip44_encrypt(author.secret_key(), B.public_key(), text, V2)
    return (ns.EventBuilder(ns.Kind(kind), content).tags([ns.Tag.parse(list(t)) for t in tags])
            .finalize_unsigned(author.public_key()).sign(author).as_json())


def wrap_for(seal_text, kind=1059, p=None):
    one_time = ns.Keys.generate()
    content = ns.nip44_encrypt(one_time.secret_key(), B.public_key(), seal_text, V2)
    ev = (ns.EventBuilder(ns.Kind(kind), content)
          .tags([ns.Tag.parse(["p", p or B.public_key().to_hex()])])
          .finalize_unsigned(one_time.public_key()).sign(one_time))
    return json.loads(ev.as_json())


def hostile(name, wrap_obj, reason, lenient_accepts):
    expect_fail(f"hostile.{name}.strict", "unwrap", {"secretKey": b["secretKey"], "wrap": wrap_obj},
                reason=reason)
    rc, _, err = run("unwrap", {"secretKey": b["secretKey"], "wrap": wrap_obj}, "--lenient")
    # Pins down what rust-nostr itself accepts, so a library upgrade that changes it is noticed.
    check(f"hostile.{name}.lenient_{'accepts' if lenient_accepts else 'rejects'}",
          (rc == 0) == lenient_accepts, err.strip())


hostile("sender_spoof", wrap_for(seal_for(A, rumor_json(M))), "spoofing", False)
hostile("rumor_id_wrong", wrap_for(seal_for(A, rumor_json(A, id="00" * 32))), "rumor id", True)
hostile("rumor_id_missing", wrap_for(seal_for(A, rumor_json(A, id=None))), "no id", True)
hostile("seal_kind_1", wrap_for(seal_for(A, rumor_json(A), kind=1)), "seal kind", True)
hostile("seal_tags", wrap_for(seal_for(A, rumor_json(A), tags=[["p", "x"]])), "seal tags", True)
bad_seal = json.loads(seal_for(A, rumor_json(A)))
bad_seal["sig"] = bad_seal["sig"][:-1] + ("0" if bad_seal["sig"][-1] != "0" else "1")
hostile("seal_bad_sig", wrap_for(json.dumps(bad_seal)), "seal signature", False)
hostile("wrap_kind_1", wrap_for(seal_for(A, rumor_json(A)), kind=1), "wrap kind", False)
hostile("wrap_p_other", wrap_for(seal_for(A, rumor_json(A)), p=M.public_key().to_hex()), "p tag", True)

print(f"{passed} passed, {failed} failed")
sys.exit(0 if failed == 0 and passed > 0 else 1)
