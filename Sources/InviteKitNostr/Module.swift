// Nostr layer.
