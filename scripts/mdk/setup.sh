#!/usr/bin/env bash
# Builds the Debian trixie chroot that runs MDK (mdk-python) for the interop tests.
#
# MDK's native library needs glibc >= 2.39; the host (bookworm) has 2.36, so MDK runs
# inside a minimal trixie chroot made by debootstrap from the host's own Debian mirror.
# Idempotent: a marker file records a finished setup, and a re-run only re-checks it.
#
#   scripts/mdk/setup.sh                      # chroot at <repo>/.mdk-chroot
#   MDK_CHROOT=/srv/mdk scripts/mdk/setup.sh  # elsewhere
#   MDK_MIRROR=http://deb.debian.org/debian scripts/mdk/setup.sh   # skip mirror detection
#
# Needs root (debootstrap and chroot). Prints each step; exits non-zero on any failure.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
chroot_dir="${MDK_CHROOT:-$root/.mdk-chroot}"
req="$root/scripts/mdk/requirements.txt"
suite="trixie"
venv="/opt/mdkvenv"
marker="$chroot_dir/.invitekit-mdk-ready"
boot_marker="$chroot_dir/.invitekit-debootstrap-done"

say() { echo "mdk-setup: $*"; }
fail() { echo "mdk-setup: ERROR: $*" >&2; exit 1; }
# Runs a command inside the chroot with a clean environment: the host's PIP_* variables
# (find-links to host-only paths) must not leak in.
in_chroot() { chroot "$chroot_dir" env -i HOME=/root LANG=C.UTF-8 PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }

[ "$(id -u)" = 0 ] || fail "must run as root (debootstrap and chroot need it)"
[ -f "$req" ] || fail "missing $req"
want="$(sha256sum "$req" "${BASH_SOURCE[0]}" | sha256sum | cut -d' ' -f1)"

if [ -f "$marker" ] && [ "$(cat "$marker")" = "$want" ] \
   && in_chroot "$venv/bin/python" -c 'import mdk, nostr_sdk' 2>/dev/null; then
  say "ready: $chroot_dir (marker $marker)"
  exit 0
fi
rm -f "$marker"
start=$SECONDS

# --- 1. debootstrap ------------------------------------------------------------------
# The first non-security Debian archive URL the host's apt uses (deb822 or one-line format).
detect_mirror() {
  local f url
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    url="$(awk 'tolower($1)=="uris:" { for (i = 2; i <= NF; i++) if ($i !~ /security/) { print $i; exit } }' "$f")"
    [ -n "$url" ] && { echo "$url"; return; }
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    url="$(awk '$1=="deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { if ($i !~ /security/) { print $i; exit } else break } }' "$f")"
    [ -n "$url" ] && { echo "$url"; return; }
  done
}

if [ ! -f "$boot_marker" ]; then
  mirror="${MDK_MIRROR:-$(detect_mirror)}"
  [ -n "$mirror" ] || fail "no Debian mirror found in /etc/apt/sources.list{,.d}; set MDK_MIRROR"
  if ! command -v debootstrap >/dev/null 2>&1; then
    say "installing debootstrap (apt-get)"
    apt-get update -qq || fail "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null || fail "apt-get install debootstrap failed"
  fi
  if [ -e "$chroot_dir" ]; then
    # A half-built chroot from an interrupted run: start over, but never delete through a mount.
    if awk -v d="$chroot_dir" '$2 == d || index($2, d "/") == 1 { found = 1 } END { exit !found }' /proc/mounts; then
      fail "$chroot_dir has mounts under it; unmount them, then re-run"
    fi
    say "removing incomplete chroot $chroot_dir"
    rm -rf --one-file-system "$chroot_dir"
  fi
  say "debootstrap $suite into $chroot_dir from $mirror (a few minutes)"
  mkdir -p "$chroot_dir"
  log="$(dirname "$chroot_dir")/.mdk-debootstrap.log"
  debootstrap --variant=minbase --include=python3,python3-venv,python3-pip,ca-certificates \
      "$suite" "$chroot_dir" "$mirror" >"$log" 2>&1 \
    || { tail -30 "$log" >&2; fail "debootstrap failed (log: $log)"; }
  date -u +%FT%TZ >"$boot_marker"
  say "debootstrap done in $((SECONDS - start)) s"
else
  say "debootstrap already done ($boot_marker)"
fi

# --- 2. host network, pip and CA configuration ---------------------------------------------
say "copying resolv.conf, hosts, pip configuration and extra CA certificates from the host"
cp -L /etc/resolv.conf "$chroot_dir/etc/resolv.conf"
cp -L /etc/hosts "$chroot_dir/etc/hosts"
[ -f /etc/pip.conf ] && cp -L /etc/pip.conf "$chroot_dir/etc/pip.conf"
if [ -f /root/.config/pip/pip.conf ]; then
  mkdir -p "$chroot_dir/root/.config/pip"
  cp -L /root/.config/pip/pip.conf "$chroot_dir/root/.config/pip/pip.conf"
fi
mkdir -p "$chroot_dir/usr/local/share/ca-certificates"
shopt -s nullglob
certs=(/usr/local/share/ca-certificates/*.crt)
shopt -u nullglob
if [ ${#certs[@]} -gt 0 ]; then
  cp -L "${certs[@]}" "$chroot_dir/usr/local/share/ca-certificates/"
fi
in_chroot update-ca-certificates >/dev/null || fail "update-ca-certificates failed in the chroot"

# --- 3. venv with mdk-python and nostr-sdk ---------------------------------------------
if [ ! -x "$chroot_dir$venv/bin/python" ]; then
  say "creating venv $venv in the chroot"
  in_chroot python3 -m venv "$venv" || fail "python3 -m venv failed in the chroot"
fi
say "pip install -r scripts/mdk/requirements.txt in the chroot"
cp "$req" "$chroot_dir/tmp/invitekit-mdk-requirements.txt"
pip_log="$chroot_dir/tmp/invitekit-mdk-pip.log"
in_chroot "$venv/bin/pip" install --disable-pip-version-check --quiet \
    -r /tmp/invitekit-mdk-requirements.txt >"$pip_log" 2>&1 \
  || { tail -30 "$pip_log" >&2; fail "pip install failed (log: $pip_log)"; }
in_chroot "$venv/bin/python" -c 'import mdk, nostr_sdk' || fail "mdk / nostr_sdk do not import in the chroot"

echo "$want" >"$marker"
say "ready: $chroot_dir ($((SECONDS - start)) s)"
