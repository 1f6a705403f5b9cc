#!/usr/bin/env python3
"""MDK (mdk-python 0.8.0) behind a JSON-lines protocol, for InviteKit's interop tests.

Runs inside the trixie chroot that scripts/mdk/setup.sh builds (MDK's native library needs
glibc >= 2.39):

    chroot DIR env -i HOME=/root PATH=/usr/bin:/bin /opt/mdkvenv/bin/python -u worker.py

Each stdin line is one request, a JSON object {"id": any, "cmd": NAME, ...arguments}; each
request gets exactly one stdout line {"id": same, "ok": true, "result": {...}} or
{"id": same, "ok": false, "error": "...", "error_type": "..."}. Nothing else is written to
stdout (diagnostics go to stderr), so the reader can trust every line to be a response.

The worker holds named peers: each is one Nostr identity with its own MDK instance over its
own SQLCipher database in a temporary directory that is deleted on exit. Nostr events travel
as JSON objects (not strings). Commands (see COMMANDS at the bottom):

  ping                                          -> {"mdk_version", "nostr_sdk_version"}
  new_peer {name, secret?}                      -> {"pubkey", "secret"} (hex)
  create_key_package {peer, relays, protected?, legacy?, created_at?}
                                                -> {"event", "hash_ref", "d"}  (signed 30443 / 443)
  parse_key_package {peer, event}               -> {"parsed"}   (MDK's validation; error if refused)
  create_group {peer, name, description?, relays, admins?, key_packages?, merge?}
                                                -> {"group", "welcome_rumors"}
  add_members {peer, group, key_packages, merge?}
                                                -> {"commit", "welcome_rumors"}
  remove_members {peer, group, members, merge?} -> {"commit", "welcome_rumors"}
  self_update {peer, group, merge?}             -> {"commit", ...}
  update_group_data {peer, group, name?, description?, relays?, admins?, merge?}
                                                -> {"commit", ...}  (MDK's group-data Commit; absent = unchanged)
  leave_group {peer, group}                     -> {"commit", ...}   (a proposal; not merged)
  merge_pending_commit {peer, group}            -> {"group"}
  clear_pending_commit {peer, group}            -> {}
  gift_wrap {peer, recipient, rumor}            -> {"wrap"}   (NIP-59, sealed by the peer)
  unwrap {peer, wrap}                           -> {"sender", "rumor"}
  process_welcome {peer, wrap | rumor [, wrapper_event_id], accept?}
                                                -> {"welcome", "group"?}
  create_message {peer, group, content, kind?, tags?}
                                                -> {"event"}  (kind 445)
  process_message {peer, event}                 -> {"type", ...}  (see process_result)
  group {peer, group}                           -> {"group", "members", "relays", "own_leaf_index", "leaf_map"}
  groups {peer}                                 -> {"groups"}
  messages {peer, group}                        -> {"messages"}
  close_peer {peer}                             -> {}
  quit                                          -> (no reply; the worker exits)
"""

import base64
import json
import os
import shutil
import sys
import tempfile
import time
import traceback

import mdk
import nostr_sdk as ns
from mdk import mdk_uniffi as mu

MDK_VERSION = getattr(mdk, "__version__", "?")


class RequestError(Exception):
    """A malformed request: reported to the caller, never fatal."""


class Peer:
    def __init__(self, name, keys, root):
        self.name = name
        self.keys = keys
        self.dir = tempfile.mkdtemp(prefix=f"mdk-{name}-", dir=root)
        # A fresh random SQLCipher key per peer: the database dies with the worker.
        self.mdk = mu.new_mdk_with_key(os.path.join(self.dir, "mdk.sqlite"), os.urandom(32), None)

    @property
    def pubkey(self):
        return self.keys.public_key().to_hex()


class Worker:
    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="invitekit-mdk-worker-")
        self.peers = {}

    def close(self):
        self.peers.clear()
        shutil.rmtree(self.root, ignore_errors=True)

    # --- argument helpers ----------------------------------------------------------------

    @staticmethod
    def arg(req, name, typ, default=None, required=True):
        if name not in req or req[name] is None:
            if required and default is None:
                raise RequestError(f"missing argument {name!r}")
            return default
        value = req[name]
        if typ is int and isinstance(value, bool):
            raise RequestError(f"argument {name!r} must be {typ.__name__}")
        if not isinstance(value, typ):
            raise RequestError(f"argument {name!r} must be {typ.__name__}")
        return value

    def peer(self, req):
        name = self.arg(req, "peer", str)
        if name not in self.peers:
            raise RequestError(f"no peer named {name!r}")
        return self.peers[name]

    @staticmethod
    def event_json(value, what):
        """An event given as a JSON object (or, leniently, as a JSON string) -> its JSON text."""
        if isinstance(value, str):
            return value
        if isinstance(value, dict):
            return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        raise RequestError(f"{what} must be a JSON object")

    def event_list(self, req, name):
        values = self.arg(req, name, list, default=[])
        return [self.event_json(v, f"{name}[{i}]") for i, v in enumerate(values)]

    def merge_if_asked(self, p, req, group_id):
        if req.get("merge"):
            p.mdk.merge_pending_commit(group_id)

    # --- commands ------------------------------------------------------------------------

    def cmd_ping(self, req):
        return {"mdk_version": MDK_VERSION, "nostr_sdk_version": sdk_version(),
                "peers": sorted(self.peers)}

    def cmd_new_peer(self, req):
        name = self.arg(req, "name", str)
        if name in self.peers:
            raise RequestError(f"peer {name!r} exists")
        secret = self.arg(req, "secret", str, required=False)
        keys = ns.Keys(ns.SecretKey.parse(secret)) if secret else ns.Keys.generate()
        p = Peer(name, keys, self.root)
        self.peers[name] = p
        return {"pubkey": p.pubkey, "secret": keys.secret_key().to_hex()}

    def cmd_close_peer(self, req):
        p = self.peer(req)
        del self.peers[p.name]
        shutil.rmtree(p.dir, ignore_errors=True)
        return {}

    def cmd_create_key_package(self, req):
        p = self.peer(req)
        relays = self.arg(req, "relays", list)
        protected = bool(req.get("protected", False))
        res = p.mdk.create_key_package_for_event_with_options(p.pubkey, relays, protected)
        legacy = bool(req.get("legacy", False))
        tags = res.tags_legacy if legacy else res.tags
        builder = ns.EventBuilder(ns.Kind(443 if legacy else 30443), res.key_package).tags(
            [ns.Tag.parse(t) for t in tags])
        created_at = self.arg(req, "created_at", int, required=False)
        if created_at is not None:
            builder = builder.custom_created_at(ns.Timestamp.from_secs(created_at))
        event = builder.finalize(p.keys)
        return {"event": json.loads(event.as_json()), "hash_ref": key_package_ref(res.hash_ref), "d": res.d_tag}

    def cmd_parse_key_package(self, req):
        p = self.peer(req)
        parsed = p.mdk.parse_key_package(self.event_json(req.get("event"), "event"))
        return {"parsed": parsed}

    def cmd_create_group(self, req):
        p = self.peer(req)
        res = p.mdk.create_group(
            p.pubkey,
            self.event_list(req, "key_packages"),
            self.arg(req, "name", str),
            self.arg(req, "description", str, default=""),
            self.arg(req, "relays", list),
            self.arg(req, "admins", list, default=[p.pubkey]),
        )
        self.merge_if_asked(p, req, res.group.mls_group_id)
        return {"group": group_dict(p.mdk.get_group(res.group.mls_group_id) or res.group),
                "welcome_rumors": [json.loads(r) for r in res.welcome_rumors_json]}

    def update_result(self, p, req, res):
        self.merge_if_asked(p, req, res.mls_group_id)
        return {"commit": json.loads(res.evolution_event_json),
                "welcome_rumors": [json.loads(r) for r in (res.welcome_rumors_json or [])],
                "group_id": res.mls_group_id}

    def cmd_add_members(self, req):
        p = self.peer(req)
        res = p.mdk.add_members(self.arg(req, "group", str), self.event_list(req, "key_packages"))
        return self.update_result(p, req, res)

    def cmd_remove_members(self, req):
        p = self.peer(req)
        res = p.mdk.remove_members(self.arg(req, "group", str), self.arg(req, "members", list))
        return self.update_result(p, req, res)

    def cmd_self_update(self, req):
        p = self.peer(req)
        return self.update_result(p, req, p.mdk.self_update(self.arg(req, "group", str)))

    def cmd_update_group_data(self, req):
        p = self.peer(req)
        update = mdk.GroupDataUpdate(
            name=self.arg(req, "name", str, required=False),
            description=self.arg(req, "description", str, required=False),
            image_hash=None, image_key=None, image_nonce=None,
            relays=self.arg(req, "relays", list, required=False),
            admins=self.arg(req, "admins", list, required=False),
        )
        return self.update_result(p, req, p.mdk.update_group_data(self.arg(req, "group", str), update))

    def cmd_leave_group(self, req):
        p = self.peer(req)
        return self.update_result(p, req, p.mdk.leave_group(self.arg(req, "group", str)))

    def cmd_merge_pending_commit(self, req):
        p = self.peer(req)
        gid = self.arg(req, "group", str)
        p.mdk.merge_pending_commit(gid)
        return {"group": group_dict(p.mdk.get_group(gid))}

    def cmd_clear_pending_commit(self, req):
        p = self.peer(req)
        p.mdk.clear_pending_commit(self.arg(req, "group", str))
        return {}

    def cmd_gift_wrap(self, req):
        p = self.peer(req)
        recipient = ns.PublicKey.parse(self.arg(req, "recipient", str))
        rumor = self.arg(req, "rumor", dict)
        fields = {k: rumor[k] for k in ("pubkey", "created_at", "kind", "tags", "content") if k in rumor}
        fields.setdefault("pubkey", p.pubkey)
        fields.setdefault("created_at", int(time.time()))
        unsigned = ns.UnsignedEvent.from_json(json.dumps(fields, ensure_ascii=False))
        wrap = ns.nip59_make_gift_wrap(p.keys, recipient, unsigned)
        return {"wrap": json.loads(wrap.as_json())}

    def cmd_unwrap(self, req):
        p = self.peer(req)
        wrap = ns.Event.from_json(self.event_json(req.get("wrap"), "wrap"))
        gift = ns.UnwrappedGift.from_gift_wrap(p.keys, wrap)
        return {"sender": gift.sender().to_hex(), "rumor": json.loads(gift.rumor().as_json()),
                "wrap_id": wrap.id().to_hex()}

    def cmd_process_welcome(self, req):
        p = self.peer(req)
        if req.get("wrap") is not None:
            wrap = ns.Event.from_json(self.event_json(req["wrap"], "wrap"))
            gift = ns.UnwrappedGift.from_gift_wrap(p.keys, wrap)
            rumor = gift.rumor()
            rumor_json = rumor.as_json()
            wrapper_id = wrap.id().to_hex()
        else:
            rumor_json = self.event_json(req.get("rumor"), "rumor")
            # MDK only records the wrapper id; a bare rumor gets a stand-in.
            wrapper_id = self.arg(req, "wrapper_event_id", str, default="00" * 32)
        welcome = p.mdk.process_welcome(wrapper_id, rumor_json)
        out = {"welcome": welcome_dict(welcome)}
        if req.get("accept", True):
            p.mdk.accept_welcome(welcome)
            out["group"] = group_dict(p.mdk.get_group(welcome.mls_group_id))
        return out

    def cmd_create_message(self, req):
        p = self.peer(req)
        event = p.mdk.create_message(
            self.arg(req, "group", str), p.pubkey, self.arg(req, "content", str),
            self.arg(req, "kind", int, default=9), req.get("tags"), req.get("event_tags"))
        return {"event": json.loads(event)}

    def cmd_process_message(self, req):
        p = self.peer(req)
        res = p.mdk.process_message_with_context(self.event_json(req.get("event"), "event"))
        out = process_result(res.result)
        out["sender_leaf_index"] = res.sender_leaf_index
        return out

    def cmd_group(self, req):
        p = self.peer(req)
        gid = self.arg(req, "group", str)
        g = p.mdk.get_group(gid)
        if g is None:
            raise RequestError(f"peer {p.name!r} has no group {gid}")
        return {
            "group": group_dict(g),
            "members": sorted(p.mdk.get_members(gid)),
            "relays": p.mdk.get_relays(gid),
            "own_leaf_index": p.mdk.own_leaf_index(gid),
            "leaf_map": [{k: getattr(e, k) for k in vars(e)} for e in p.mdk.group_leaf_map(gid)],
        }

    def cmd_groups(self, req):
        p = self.peer(req)
        return {"groups": [group_dict(g) for g in p.mdk.get_groups()]}

    def cmd_messages(self, req):
        p = self.peer(req)
        msgs = p.mdk.get_messages(self.arg(req, "group", str), None, None, None)
        return {"messages": [message_dict(m) for m in msgs]}


def key_package_ref(hash_ref):
    """MDK hands the KeyPackageRef over TLS-encoded (opaque<V>: a one-byte length, then the
    bytes); callers compare it with the `i` tag, which carries the bare bytes."""
    raw = bytes(hash_ref)
    if len(raw) >= 1 and raw[0] == len(raw) - 1 and raw[0] < 64:
        raw = raw[1:]
    return raw.hex()


def sdk_version():
    try:
        from importlib.metadata import version
        return version("nostr-sdk")
    except Exception:
        return "?"


def jsonable(value):
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).hex()
    if isinstance(value, list):
        return [jsonable(v) for v in value]
    return value


def group_dict(g):
    if g is None:
        return None
    return {k: jsonable(v) for k, v in vars(g).items()}


def welcome_dict(w):
    d = {k: jsonable(v) for k, v in vars(w).items() if k != "event_json"}
    d["rumor"] = json.loads(w.event_json)
    return d


def message_dict(m):
    d = {k: jsonable(v) for k, v in vars(m).items() if k != "event_json"}
    inner = json.loads(m.event_json)
    d["inner"] = inner
    d["content"] = inner.get("content")
    return d


def process_result(r):
    """ProcessMessageResult -> {"type": snake_case variant, ...its fields}."""
    if r.is_application_message():
        return {"type": "application_message", "message": message_dict(r.message)}
    if r.is_commit():
        return {"type": "commit", "group_id": r.mls_group_id}
    if r.is_proposal():
        res = r.result
        return {"type": "proposal", "group_id": res.mls_group_id,
                "commit": json.loads(res.evolution_event_json) if res.evolution_event_json else None,
                "welcome_rumors": [json.loads(x) for x in (res.welcome_rumors_json or [])]}
    if r.is_pending_proposal():
        return {"type": "pending_proposal", "group_id": r.mls_group_id}
    if r.is_external_join_proposal():
        return {"type": "external_join_proposal", "group_id": r.mls_group_id}
    if r.is_unprocessable():
        return {"type": "unprocessable", "group_id": r.mls_group_id}
    if r.is_ignored_proposal():
        return {"type": "ignored_proposal", "group_id": r.mls_group_id, "reason": r.reason}
    if r.is_previously_failed():
        return {"type": "previously_failed"}
    return {"type": "unknown", "repr": repr(r)}


def error_type(exc):
    if isinstance(exc, RequestError):
        return "bad_request"
    name = type(exc).__name__
    qual = type(exc).__qualname__
    return qual if "MdkUniffiError" in qual else name


def main():
    worker = Worker()
    out = sys.stdout
    try:
        for line in sys.stdin:
            line = line.strip()
            if not line:
                continue
            rid = None
            try:
                req = json.loads(line)
                if not isinstance(req, dict):
                    raise RequestError("request must be a JSON object")
                rid = req.get("id")
                cmd = req.get("cmd")
                if cmd == "quit":
                    break
                fn = getattr(worker, f"cmd_{cmd}", None) if isinstance(cmd, str) else None
                if fn is None:
                    raise RequestError(f"unknown command {cmd!r}")
                resp = {"id": rid, "ok": True, "result": fn(req)}
            except Exception as exc:  # every failure is reported, the worker keeps serving
                # MDK's refusals are expected outcomes in tests; only a worker bug gets a traceback.
                if not isinstance(exc, RequestError) and "MdkUniffiError" not in type(exc).__qualname__:
                    traceback.print_exc(file=sys.stderr)
                resp = {"id": rid, "ok": False, "error": " ".join(str(exc).split()) or repr(exc),
                        "error_type": error_type(exc)}
            out.write(json.dumps(resp, ensure_ascii=False, separators=(",", ":")) + "\n")
            out.flush()
    finally:
        worker.close()


if __name__ == "__main__":
    main()
