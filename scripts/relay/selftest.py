#!/usr/bin/env python3
"""Self-test of the local relay fixture (run_relay.sh), over raw websockets,
events signed with nostr-sdk. Starts the relay on a free port with a fresh
database, checks what InviteKit relies on, kills it with SIGKILL, restarts it on
the same database, checks the events are still there, stops it. Every socket
is on 127.0.0.1; every wait is bounded. Closes with 'N passed, N failed'.

    .venv/bin/python scripts/relay/selftest.py
"""

import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nostr_sdk as ns
import websockets

HERE = Path(__file__).resolve().parent
RUN = HERE / "run_relay.sh"
DAY = 24 * 3600
TIMEOUT = 10

passed = 0
failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name} {detail}".rstrip())


def start_relay(db_dir):
    proc = subprocess.Popen([str(RUN), "0", db_dir], stdout=subprocess.PIPE,
                            stderr=open(os.path.join(db_dir, "relay.log"), "ab"),
                            start_new_session=True)
    deadline = time.time() + 30
    line = b""
    while time.time() < deadline and proc.poll() is None:
        line = proc.stdout.readline()
        if line.startswith(b"READY "):
            return proc, line.decode().split()[1]
    proc.kill()
    raise SystemExit(f"relay did not start: {line!r}; see {db_dir}/relay.log")


def event(keys, kind, content="", tags=(), created_at=None):
    builder = ns.EventBuilder(ns.Kind(kind), content).tags([ns.Tag.parse(list(t)) for t in tags])
    if created_at is not None:
        builder = builder.custom_created_at(ns.Timestamp.from_secs(created_at))
    return json.loads(builder.finalize_unsigned(keys.public_key()).sign(keys).as_json())


async def publish(ws, ev):
    """Send EVENT, return the OK message [OK, id, accepted, reason]."""
    await ws.send(json.dumps(["EVENT", ev]))
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
        if msg[0] == "OK":
            return msg


async def req(ws, sub_id, *filters):
    """Send REQ, collect stored events until EOSE, return their ids in order."""
    await ws.send(json.dumps(["REQ", sub_id, *filters]))
    ids = []
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
        if msg[0] == "EVENT" and msg[1] == sub_id:
            ids.append(msg[2]["id"])
        elif msg[0] == "EOSE" and msg[1] == sub_id:
            return ids


async def first_session(url, stored):
    alice, bob, one_time = ns.Keys.generate(), ns.Keys.generate(), ns.Keys.generate()
    bob_hex = bob.public_key().to_hex()
    now = int(time.time())
    async with websockets.connect(url, max_size=None, open_timeout=TIMEOUT) as ws:
        # A gift wrap dated 2 days + 1 hour back: NIP-59 allows up to 2 days.
        old = event(one_time, 1059, "x", [["p", bob_hex]], now - 2 * DAY - 3600)
        ok = await publish(ws, old)
        check("old_wrap.ok_true_with_id", ok[1] == old["id"] and ok[2] is True, str(ok))
        got = await req(ws, "w", {"kinds": [1059], "#p": [bob_hex]})
        check("old_wrap.req_by_p_then_eose", got == [old["id"]], str(got))
        stored.append(old["id"])

        # A real nostr-sdk gift wrap (its created_at is randomised into the past).
        rumor = ns.EventBuilder(ns.Kind(444), "welcome").finalize_unsigned(alice.public_key())
        real = json.loads(ns.nip59_make_gift_wrap(alice, bob.public_key(), rumor).as_json())
        ok = await publish(ws, real)
        check("nostr_sdk_wrap.accepted", ok[2] is True, str(ok))
        stored.append(real["id"])

        # Future-dated by 5 minutes: accepted. (is_recent allows up to 3600 s ahead.)
        fut = event(alice, 445, "f", [["h", "ab" * 32]], now + 300)
        ok = await publish(ws, fut)
        check("future_5min.accepted", ok[2] is True, str(ok))
        stored.append(fut["id"])

        # Every kind InviteKit publishes.
        for kind in (13, 444, 445, 1080, 443, 1):
            ev = event(alice, kind, f"k{kind}", [["p", bob_hex]])
            ok = await publish(ws, ev)
            check(f"kind_{kind}.accepted", ok[2] is True, str(ok))

        # Large content (gift-wrapped Welcomes are big); the stock limit is 4096.
        big = event(alice, 1059, "A" * 200_000, [["p", bob_hex]])
        ok = await publish(ws, big)
        check("large_200k.accepted", ok[2] is True, str(ok)[:200])

        # Addressable kind 30443: a newer event with the same d tag replaces the older.
        d = "cd" * 32
        kp1 = event(alice, 30443, "kp1", [["d", d]], now - 10)
        kp2 = event(alice, 30443, "kp2", [["d", d]], now - 5)
        other = event(alice, 30443, "kp3", [["d", "ef" * 32]], now - 5)
        for ev in (kp1, kp2, other):
            await publish(ws, ev)
        got = await req(ws, "kp", {"kinds": [30443], "authors": [alice.public_key().to_hex()]})
        check("addressable.newer_replaces_same_d", sorted(got) == sorted([kp2["id"], other["id"]]),
              str(got))
        got = await req(ws, "kpd", {"kinds": [30443], "#d": [d]})
        check("addressable.query_by_d", got == [kp2["id"]], str(got))
        stored.extend([kp2["id"], other["id"]])

        # Kind 5 deletes the author's e-tagged event.
        victim = event(alice, 445, "victim", [["h", "01" * 32]])
        await publish(ws, victim)
        ok = await publish(ws, event(alice, 5, "", [["e", victim["id"]]]))
        check("kind_5.accepted", ok[2] is True, str(ok))
        got = await req(ws, "del", {"ids": [victim["id"]]})
        check("kind_5.deletes_target", got == [], str(got))

        # Live delivery after EOSE to a #p subscription (no `since`, per NIP-59).
        await req(ws, "live", {"kinds": [1059], "#p": [bob_hex]})
        live = event(one_time, 1059, "live", [["p", bob_hex]], now - DAY)
        await ws.send(json.dumps(["EVENT", live]))
        seen_event = seen_ok = False
        deadline = time.time() + TIMEOUT
        while not (seen_event and seen_ok) and time.time() < deadline:
            msg = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            seen_event |= msg[0] == "EVENT" and msg[1] == "live" and msg[2]["id"] == live["id"]
            seen_ok |= msg[0] == "OK" and msg[1] == live["id"] and msg[2] is True
        check("live_subscription.delivers_wrap", seen_event and seen_ok)
        await ws.send(json.dumps(["CLOSE", "live"]))
        stored.append(live["id"])

        # Quirks pinned down, so an upgrade that changes them is noticed:
        d2 = "ab" * 32
        newer = event(alice, 30443, "newer", [["d", d2]], now - 5)
        older = event(alice, 30443, "older", [["d", d2]], now - 50)
        await publish(ws, newer)
        ok = await publish(ws, older)
        got = await req(ws, "q1", {"kinds": [30443], "#d": [d2]})
        check("quirk.addressable_older_after_newer_also_stored",
              ok[2] is True and got == [newer["id"], older["id"]], str(got))
        await publish(ws, event(alice, 5, "", [["a", f"30443:{alice.public_key().to_hex()}:{d2}"]]))
        got = await req(ws, "q2", {"kinds": [30443], "#d": [d2]})
        check("quirk.kind_5_a_tag_ignored", len(got) == 2, str(got))
        dup = await publish(ws, old)
        check("quirk.duplicate_is_ok_false", dup[1] == old["id"] and dup[2] is False
              and dup[3].startswith("duplicate:"), str(dup))

    # Rejections: a fresh connection each (the relay throttles a connection
    # after each rejection: sleeps 2 s, then 4 s, ...).
    for name, ev, reason in [
        ("too_old", event(alice, 1059, "x", [["p", bob_hex]], now - 8 * DAY), "too old"),
        ("future_2h", event(alice, 1059, "x", [["p", bob_hex]], now + 7200), "in the future"),
    ]:
        async with websockets.connect(url, open_timeout=TIMEOUT) as ws:
            ok = await publish(ws, ev)
            check(f"reject.{name}", ok[2] is False and reason in ok[3], str(ok))
            check(f"quirk.reject_{name}_ok_has_empty_id", ok[1] == "", str(ok))
    async with websockets.connect(url, open_timeout=TIMEOUT) as ws:
        bad = dict(event(alice, 1059, "x", [["p", bob_hex]]), content="tampered")
        ok = await publish(ws, bad)
        check("reject.bad_signature", ok[2] is False and "signature" in ok[3].lower(), str(ok))


async def second_session(url, stored):
    async with websockets.connect(url, max_size=None, open_timeout=TIMEOUT) as ws:
        got = await req(ws, "again", {"ids": stored})
        check("restart_after_sigkill.events_persist", sorted(got) == sorted(stored),
              f"{len(got)}/{len(stored)}")


def stop(proc, sig):
    os.killpg(proc.pid, sig)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=5)


def main():
    db_dir = tempfile.mkdtemp(prefix="invitekit-relay-test-")
    stored = []
    proc, url = start_relay(db_dir)
    try:
        asyncio.run(first_session(url, stored))
    finally:
        stop(proc, signal.SIGKILL)
    check("sigkill.process_gone", proc.poll() is not None)
    proc, url = start_relay(db_dir)
    try:
        asyncio.run(second_session(url, stored))
    finally:
        stop(proc, signal.SIGTERM)
    check("sigterm.clean_exit", proc.returncode == 0, f"rc={proc.returncode}")
    print(f"{passed} passed, {failed} failed")
    if failed:
        print(f"relay log: {db_dir}/relay.log")
    else:
        import shutil
        shutil.rmtree(db_dir, ignore_errors=True)
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
