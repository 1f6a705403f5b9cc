#!/usr/bin/env bash
# The InviteKit story in one process (invitekit demo); falls back to the foundation story
# (keys, NIP-44, a gift wrap and its unwrap) when the binary has no demo command.
set -euo pipefail
bin="${1:-.build/release/invitekit}"
if "$bin" demo --help >/dev/null 2>&1; then exec "$bin" demo; fi

step() { printf '\n== %s\n' "$*"; }
step "1. Alice and Bob make keys"
alice=$("$bin" keys generate --json); bob=$("$bin" keys generate --json)
field() { python3 -c "import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])" "$1" "$2"; }
a_sk=$(field "$alice" secretKey); a_pk=$(field "$alice" publicKey); b_sk=$(field "$bob" secretKey); b_pk=$(field "$bob" publicKey)
echo "alice: $(field "$alice" npub)"; echo "bob:   $(field "$bob" npub)"
step "2. NIP-44: Alice encrypts for Bob, Bob decrypts"
payload=$(printf 'meet at the usual relay' | "$bin" nip44 encrypt --secret-key "$a_sk" --public-key "$b_pk")
echo "payload: ${payload:0:60}…"
echo "bob reads: $(printf '%s' "$payload" | "$bin" nip44 decrypt --secret-key "$b_sk" --public-key "$a_pk")"
step "3. NIP-59: Alice gift-wraps a message to Bob"
wrap=$(echo '{"kind":14,"content":"you are invited","tags":[]}' | "$bin" wrap --secret-key "$a_sk" --recipient "$b_pk")
echo "wrap id: $(field "$wrap" id) (signed by a one-time key: $(field "$wrap" pubkey | cut -c1-16)…)"
step "4. Bob unwraps it and learns the real sender"
echo "$wrap" | "$bin" unwrap --secret-key "$b_sk"
step "5. Carol cannot open it"
carol=$("$bin" keys generate --json)
if echo "$wrap" | "$bin" unwrap --secret-key "$(field "$carol" secretKey)"; then echo "unexpected!"; exit 1; else echo "(refused, as it should be)"; fi
