#!/usr/bin/env python3
"""nostr_peer.py - an independent Nostr peer for InviteKit interop tests.

Built on PyPI `nostr-sdk` (the rust-nostr bindings), pinned in
scripts/requirements-peer.txt. Run it with the project venv:

    scripts/peer/setup.sh                      # once: creates .venv, installs pins
    echo '{}' | .venv/bin/python scripts/peer/nostr_peer.py keys

Every command reads one JSON object on stdin and writes one JSON object (one
line) on stdout. Keys are 64-char hex (secret keys, x-only public keys).
On any failure: exit 1, nothing on stdout, one line `error: <reason>` on
stderr (the reason never contains key material). Bad usage: exit 2.

Commands
  keys          stdin is not read.
                -> {"secretKey": hex, "publicKey": hex}, a fresh key pair.
  nip44-encrypt {"secretKey", "publicKey", "plaintext": str} -> {"payload": str}
                NIP-44 v2, random nonce. rust-nostr refuses plaintexts over
                65408 UTF-8 bytes ("message too long") and the empty string.
  nip44-decrypt {"secretKey", "publicKey", "payload"} -> {"plaintext": str}
  wrap          {"secretKey": sender, "recipient": pubkey hex,
                 "rumor": {"kind": int, "content": str, "tags": [[str]],
                           "created_at"?: int}}
                -> the kind-1059 gift-wrap event (NIP-59) holding a kind-13
                seal signed by the sender, which holds the rumor (pubkey =
                sender, id computed, no sig). created_at defaults to now.
                Seal and wrap created_at are randomised by rust-nostr up to
                2 days in the past; the wrap is signed by a one-time key.
  unwrap        {"secretKey": recipient, "wrap": <event object>}
                -> {"sender": hex, "rumor": <rumor object, exactly as it was
                decrypted>}
                Strict by default (REFERENCE.md section 1): wrap kind 1059,
                wrap id + signature valid, a "p" tag naming the recipient,
                seal kind 13, seal id + signature valid, seal tags empty,
                rumor unsigned, rumor.pubkey == seal.pubkey, rumor id present
                and equal to the recomputed id; finally rust-nostr's own
                UnwrappedGift.from_gift_wrap must agree on the sender.
                `unwrap --lenient` runs only UnwrappedGift.from_gift_wrap,
                i.e. rust-nostr's own rules (it checks wrap kind, both
                signatures and the sender match, but not the seal kind, the
                seal tags, nor the rumor id).
"""

import json
import re
import sys
import time

try:
    import nostr_sdk as ns
except ImportError:  # pragma: no cover - environment problem
    sys.stderr.write("error: nostr_sdk not importable; run scripts/peer/setup.sh "
                     "and use .venv/bin/python\n")
    sys.exit(1)

HEX64 = re.compile(r"[0-9a-fA-F]{64}")


class PeerError(Exception):
    """A failure reported as one line on stderr, exit status 1."""


def one_line(exc):
    text = str(exc).strip().replace("\n", " ") or type(exc).__name__
    return text[:300]


def field(obj, name, kind):
    if not isinstance(obj, dict) or name not in obj:
        raise PeerError(f"missing field '{name}'")
    value = obj[name]
    # bool is an int in Python; a JSON true is not a kind.
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise PeerError(f"field '{name}' has the wrong type")
    return value


def secret_key(obj, name="secretKey"):
    text = field(obj, name, str)
    if not HEX64.fullmatch(text):
        raise PeerError(f"field '{name}' is not 64 hex characters")
    try:
        return ns.SecretKey.parse(text)
    except Exception as exc:
        raise PeerError(f"field '{name}' is not a valid secret key ({one_line(exc)})")


def public_key(obj, name):
    text = field(obj, name, str)
    if not HEX64.fullmatch(text):
        raise PeerError(f"field '{name}' is not 64 hex characters")
    try:
        return ns.PublicKey.parse(text)
    except Exception as exc:
        raise PeerError(f"field '{name}' is not a valid public key ({one_line(exc)})")


def parse_event(obj, what):
    if not isinstance(obj, dict):
        raise PeerError(f"{what} is not a JSON object")
    try:
        return ns.Event.from_json(json.dumps(obj, ensure_ascii=False))
    except Exception as exc:
        raise PeerError(f"{what} does not parse as an event ({one_line(exc)})")


# --- commands ---------------------------------------------------------------

def cmd_keys(_req, _opts):
    keys = ns.Keys.generate()
    return {"secretKey": keys.secret_key().to_hex(),
            "publicKey": keys.public_key().to_hex()}


def cmd_nip44_encrypt(req, _opts):
    sk, pk = secret_key(req), public_key(req, "publicKey")
    plaintext = field(req, "plaintext", str)
    try:
        payload = ns.nip44_encrypt(sk, pk, plaintext, ns.Nip44Version.V2)
    except Exception as exc:
        raise PeerError(f"nip44 encrypt failed: {one_line(exc)} "
                        f"(plaintext {len(plaintext.encode('utf-8', 'surrogatepass'))} bytes)")
    return {"payload": payload}


def cmd_nip44_decrypt(req, _opts):
    sk, pk = secret_key(req), public_key(req, "publicKey")
    payload = field(req, "payload", str)
    try:
        return {"plaintext": ns.nip44_decrypt(sk, pk, payload)}
    except Exception as exc:
        raise PeerError(f"nip44 decrypt failed: {one_line(exc)}")


def cmd_wrap(req, _opts):
    sender = ns.Keys(secret_key(req))
    recipient = public_key(req, "recipient")
    rumor = field(req, "rumor", dict)
    kind = field(rumor, "kind", int)
    if not 0 <= kind <= 65535:
        raise PeerError("rumor kind out of range 0..65535")
    content = field(rumor, "content", str)
    raw_tags = rumor.get("tags", [])
    if not isinstance(raw_tags, list) or not all(
            isinstance(t, list) and t and all(isinstance(s, str) for s in t) for t in raw_tags):
        raise PeerError("rumor tags must be a list of non-empty lists of strings")
    if "pubkey" in rumor and rumor["pubkey"] != sender.public_key().to_hex():
        raise PeerError("rumor pubkey differs from the sender's key")
    created_at = rumor.get("created_at", int(time.time()))
    if not isinstance(created_at, int) or isinstance(created_at, bool) or created_at < 0:
        raise PeerError("rumor created_at must be a non-negative integer")
    try:
        builder = (ns.EventBuilder(ns.Kind(kind), content)
                   .tags([ns.Tag.parse(t) for t in raw_tags])
                   .custom_created_at(ns.Timestamp.from_secs(created_at)))
        unsigned = builder.finalize_unsigned(sender.public_key())
        wrap = ns.nip59_make_gift_wrap(sender, recipient, unsigned)
    except Exception as exc:
        raise PeerError(f"gift wrap failed: {one_line(exc)}")
    return json.loads(wrap.as_json())


def recomputed_rumor_id(rumor_obj):
    """The NIP-01 id of the rumor's fields, computed by rust-nostr."""
    fields = {k: rumor_obj[k] for k in ("pubkey", "created_at", "kind", "tags", "content")
              if k in rumor_obj}
    unsigned = ns.UnsignedEvent.from_json(json.dumps(fields, ensure_ascii=False))
    return unsigned.ensure_id().id().to_hex()


def cmd_unwrap(req, opts):
    recipient_sk = secret_key(req)
    recipient = ns.Keys(recipient_sk)
    wrap = parse_event(field(req, "wrap", dict), "wrap")

    if "--lenient" in opts:
        try:
            gift = ns.UnwrappedGift.from_gift_wrap(recipient, wrap)
        except Exception as exc:
            raise PeerError(f"nostr-sdk unwrap rejected: {one_line(exc)}")
        return {"sender": gift.sender().to_hex(), "rumor": json.loads(gift.rumor().as_json())}

    if wrap.kind().as_u16() != 1059:
        raise PeerError(f"wrap kind is {wrap.kind().as_u16()}, not 1059")
    if not wrap.verify_id():
        raise PeerError("wrap id does not match its content")
    if not wrap.verify_signature():
        raise PeerError("wrap signature invalid")
    me = recipient.public_key().to_hex()
    p_tags = [t.to_vec() for t in wrap.tags() if t.to_vec()[:1] == ["p"]]
    if not any(len(t) > 1 and t[1].lower() == me for t in p_tags):
        raise PeerError("wrap has no p tag naming the recipient")

    try:
        seal_text = ns.nip44_decrypt(recipient_sk, wrap.author(), wrap.content())
    except Exception as exc:
        raise PeerError(f"wrap content does not decrypt: {one_line(exc)}")
    try:
        seal_obj = json.loads(seal_text)
    except ValueError:
        raise PeerError("decrypted seal is not JSON")
    seal = parse_event(seal_obj, "seal")
    if seal.kind().as_u16() != 13:
        raise PeerError(f"seal kind is {seal.kind().as_u16()}, not 13")
    if not seal.verify_id():
        raise PeerError("seal id does not match its content")
    if not seal.verify_signature():
        raise PeerError("seal signature invalid")
    if seal_obj.get("tags") != []:
        raise PeerError("seal tags are not empty")

    try:
        rumor_text = ns.nip44_decrypt(recipient_sk, seal.author(), seal.content())
    except Exception as exc:
        raise PeerError(f"seal content does not decrypt: {one_line(exc)}")
    try:
        rumor_obj = json.loads(rumor_text)
    except ValueError:
        raise PeerError("decrypted rumor is not JSON")
    if not isinstance(rumor_obj, dict):
        raise PeerError("decrypted rumor is not a JSON object")
    try:
        ns.UnsignedEvent.from_json(rumor_text)
    except Exception as exc:
        raise PeerError(f"rumor does not parse as an unsigned event ({one_line(exc)})")
    if "sig" in rumor_obj:
        raise PeerError("rumor carries a signature")
    sender = seal.author().to_hex()
    if str(rumor_obj.get("pubkey", "")).lower() != sender:
        raise PeerError("rumor pubkey differs from seal pubkey (sender spoofing)")
    if not isinstance(rumor_obj.get("id"), str):
        raise PeerError("rumor has no id")
    try:
        expected = recomputed_rumor_id(rumor_obj)
    except Exception as exc:
        raise PeerError(f"rumor id cannot be recomputed ({one_line(exc)})")
    if rumor_obj["id"].lower() != expected:
        raise PeerError("rumor id does not match its content")

    # Cross-check with the library's own unwrap: two readings must agree.
    try:
        gift = ns.UnwrappedGift.from_gift_wrap(recipient, wrap)
    except Exception as exc:
        raise PeerError(f"nostr-sdk unwrap rejected what the strict checks accepted: {one_line(exc)}")
    if gift.sender().to_hex() != sender:
        raise PeerError("nostr-sdk unwrap disagrees on the sender")
    return {"sender": sender, "rumor": rumor_obj}


COMMANDS = {
    "keys": cmd_keys,
    "nip44-encrypt": cmd_nip44_encrypt,
    "nip44-decrypt": cmd_nip44_decrypt,
    "wrap": cmd_wrap,
    "unwrap": cmd_unwrap,
}


def main(argv):
    if len(argv) < 2 or argv[1] not in COMMANDS:
        sys.stderr.write("usage: nostr_peer.py {%s} [--lenient] < request.json\n"
                         % "|".join(COMMANDS))
        return 2
    command, opts = argv[1], argv[2:]
    unknown = [o for o in opts if not (command == "unwrap" and o == "--lenient")]
    if unknown:
        sys.stderr.write(f"error: unknown option {unknown[0]}\n")
        return 2
    try:
        if command == "keys":
            req = {}  # stdin is not read, so an open terminal cannot block it
        else:
            raw = sys.stdin.buffer.read()
            try:
                req = json.loads(raw.decode("utf-8"))
            except (ValueError, UnicodeDecodeError):
                raise PeerError("stdin is not a UTF-8 JSON document")
            if not isinstance(req, dict):
                raise PeerError("stdin is not a JSON object")
        out = COMMANDS[command](req, opts)
    except PeerError as exc:
        sys.stderr.write(f"error: {one_line(exc)}\n")
        return 1
    except Exception as exc:  # library surprises still give a one-line reason
        sys.stderr.write(f"error: {type(exc).__name__}: {one_line(exc)}\n")
        return 1
    sys.stdout.buffer.write(json.dumps(out, ensure_ascii=False).encode("utf-8") + b"\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
