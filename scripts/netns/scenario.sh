#!/usr/bin/env bash
# Three hosts in network namespaces on one bridge: the relay (10.X.0.1), an inviter (.2) and
# two joiners (.3, .4), each running the invitekit CLI with its own home; nothing shares
# loopback. The scenario: ada creates a group and a single-use invite and serves; dee joins,
# serves too, and messages go both ways; eve uses the same invite and is refused.
#   scripts/netns/scenario.sh /path/to/invitekit
# Exit 0 and a last line "netns scenario passed" on success; 77 when namespaces cannot be
# created here (not root, or no CAP_NET_ADMIN); 1 on a failed check. Needs `make venv`.
set -euo pipefail
bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
tag="ik$(( $$ % 100000 ))"
net="10.$(( 200 + $$ % 50 )).$(( $$ % 250 ))"
work="$(mktemp -d)"
bridge="${tag}b"
hosts=(relay ada dee eve)
relay_pid=""
serve_pid=""
dee_serve_pid=""

# Stops a background process: SIGTERM, up to 10 s, then SIGKILL.
stop() {
  local pid="$1"
  [ -n "$pid" ] || return 0
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.2; done
  kill -KILL "$pid" 2>/dev/null || true
}

cleanup() {
  stop "$dee_serve_pid"
  stop "$serve_pid"
  stop "$relay_pid"
  for h in "${hosts[@]}"; do ip netns del "${tag}${h}" 2>/dev/null || true; done
  ip link del "$bridge" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; echo "--- ada serve:" >&2; tail -20 "$work/serve.out" >&2 2>/dev/null; echo "--- dee serve:" >&2; tail -20 "$work/dee-serve.out" >&2 2>/dev/null; exit 1; }

if ! ip link add "$bridge" type bridge 2>/dev/null; then
  echo "cannot create a bridge here (needs root with CAP_NET_ADMIN)" >&2
  exit 77
fi
ip link set "$bridge" up
i=1
for h in "${hosts[@]}"; do
  ns="${tag}${h}"
  ip netns add "$ns"
  ip link add "${tag}v${i}" type veth peer name eth0 netns "$ns"
  ip link set "${tag}v${i}" master "$bridge" up
  ip -n "$ns" addr add "${net}.${i}/24" dev eth0
  ip -n "$ns" link set eth0 up
  ip -n "$ns" link set lo up
  i=$((i + 1))
done
# Runs a command on host $1 (in the foreground; background processes call `ip netns exec`
# directly, so that $! is the process itself: ip execs into it).
on() { local h="$1"; shift; ip netns exec "${tag}${h}" "$@"; }

relay_url="ws://${net}.1:7777"
ip netns exec "${tag}relay" "$root/scripts/relay/run_relay.sh" 7777 "$work/relaydb" "${net}.1" > "$work/relay.out" 2> "$work/relay.err" &
relay_pid=$!
for _ in $(seq 1 100); do grep -q READY "$work/relay.out" 2>/dev/null && break; sleep 0.2; done
grep -q "READY $relay_url" "$work/relay.out" || fail "relay did not start: $(tail -5 "$work/relay.err")"
echo "relay on $relay_url (namespace ${tag}relay)"

for h in ada dee eve; do on "$h" "$bin" init --home "$work/$h" --relay "$relay_url" > /dev/null; done
group="$(on ada "$bin" group new --home "$work/ada" --name club)"
url="$(on ada "$bin" invite create --home "$work/ada" --group "$group" --single-use --expires-in 600)"
ip netns exec "${tag}ada" "$bin" serve --home "$work/ada" --interval 0.3 > "$work/serve.out" 2>&1 &
serve_pid=$!
# A command on a home whose serve has not taken the lock yet would take it itself.
for _ in $(seq 1 100); do grep -q "serving on" "$work/serve.out" 2>/dev/null && break; sleep 0.2; done
grep -q "serving on" "$work/serve.out" || fail "ada's serve did not start: $(cat "$work/serve.out")"
echo "ada (${net}.2) serves group $group"

on dee "$bin" join --home "$work/dee" "$url" --timeout 60 > "$work/dee.out" 2>&1 || fail "dee did not join: $(cat "$work/dee.out")"
grep -q "joined group $group" "$work/dee.out" || fail "dee: $(cat "$work/dee.out")"
echo "dee (${net}.3) joined"

ip netns exec "${tag}dee" "$bin" serve --home "$work/dee" --interval 0.3 > "$work/dee-serve.out" 2>&1 &
dee_serve_pid=$!
for _ in $(seq 1 100); do grep -q "serving on" "$work/dee-serve.out" 2>/dev/null && break; sleep 0.2; done
grep -q "serving on" "$work/dee-serve.out" || fail "dee's serve did not start: $(cat "$work/dee-serve.out")"
# Output is captured before matching: `grep -q` in a pipeline under pipefail fails whenever
# the writer gets SIGPIPE after the first match.
sent="$(on dee "$bin" group send --home "$work/dee" --group "$group" "hello from dee")"
[[ "$sent" == acked* ]] || fail "dee's message was not acknowledged: $sent"
sent="$(on ada "$bin" group send --home "$work/ada" --group "$group" "hello from ada")"
[[ "$sent" == acked* ]] || fail "ada's message was not acknowledged: $sent"
# Waits up to 30 s for host $1's history to hold $2.
history_has() {
  local history
  for _ in $(seq 1 100); do
    history="$(on "$1" "$bin" group read --home "$work/$1" --group "$group")"
    [[ "$history" == *"$2"* ]] && return 0
    sleep 0.3
  done
  return 1
}
history_has ada "hello from dee" || fail "ada did not receive dee's message"
history_has dee "hello from ada" || fail "dee did not receive ada's message"
echo "messages went both ways"

set +e
on eve "$bin" join --home "$work/eve" "$url" --timeout 60 > "$work/eve.out" 2>&1
status=$?
set -e
[ "$status" = 3 ] || fail "eve: exit $status, want 3: $(cat "$work/eve.out")"
grep -q "This invite was already used" "$work/eve.out" || fail "eve: $(cat "$work/eve.out")"
echo "eve (${net}.4) was refused: This invite was already used"
grep -q "relay error" "$work/serve.out" && fail "serve reported a relay error: $(cat "$work/serve.out")"
echo "netns scenario passed"
