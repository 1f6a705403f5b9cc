#!/usr/bin/env bash
# Idempotent: create .venv at the package root if missing and install the
# pinned scripts/requirements-peer.txt into it (nostr-sdk peer + nostr-relay
# fixture). Quiet on success; exits non-zero on any failure. Re-runs are fast:
# pip is skipped while the requirements file is unchanged and imports work.
#   PYTHON=python3.11 scripts/peer/setup.sh   # choose the interpreter (default python3)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
req="$root/scripts/requirements-peer.txt"
venv="$root/.venv"
stamp="$venv/.requirements-peer.sha256"
py="$venv/bin/python"

fail() { echo "setup.sh: $*" >&2; exit 1; }

[ -f "$req" ] || fail "missing $req"
if [ ! -x "$py" ]; then
  "${PYTHON:-python3}" -m venv "$venv" || fail "could not create $venv"
fi
want="$(sha256sum "$req" | cut -d' ' -f1)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] \
   && "$py" -c 'import nostr_sdk, nostr_relay, websockets, yaml, coincurve' 2>/dev/null; then
  exit 0
fi
rm -f "$stamp"
"$py" -m pip install --quiet --disable-pip-version-check -r "$req" >"$venv/.pip-install.log" 2>&1 \
  || { tail -20 "$venv/.pip-install.log" >&2; fail "pip install failed (log: $venv/.pip-install.log)"; }
"$py" -c 'import nostr_sdk, nostr_relay, websockets, yaml, coincurve' || fail "installed packages do not import"
echo "$want" >"$stamp"
