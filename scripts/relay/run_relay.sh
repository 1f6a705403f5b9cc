#!/usr/bin/env bash
# Start the local test relay in the foreground (exec, so the caller's PID is the relay's).
#   scripts/relay/run_relay.sh PORT DBDIR [HOST]
# PORT 0 = let the OS pick; HOST defaults to 127.0.0.1. Prints exactly one stdout line when
# listening:
#   READY ws://HOST:PORT
# Logs go to stderr. DBDIR holds relay.sqlite3 (kept: restart with the same
# DBDIR to reuse the events) and relay.yaml. Needs scripts/peer/setup.sh first.
set -euo pipefail
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: $0 PORT DBDIR [HOST]" >&2
  exit 2
fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
py="${INVITEKIT_PYTHON:-$root/.venv}"
[ -d "$py" ] && py="$py/bin/python"
if [ ! -x "$py" ]; then
  echo "error: $py missing: set INVITEKIT_PYTHON to a Python with nostr-relay, or run scripts/peer/setup.sh" >&2
  exit 1
fi
exec "$py" -u "$here/run_relay.py" --port "$1" --db-dir "$2" --host "${3:-127.0.0.1}"
