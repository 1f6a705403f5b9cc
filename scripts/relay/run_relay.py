#!/usr/bin/env python3
"""Run a real local Nostr relay (PyPI nostr-relay, pinned in
scripts/requirements-peer.txt) as a test fixture, in the foreground.

    .venv/bin/python scripts/relay/run_relay.py --port PORT --db-dir DIR [--host ADDR]

--port 0 (the default) lets the OS pick a free port. Once the socket listens,
exactly one line goes to stdout:

    READY ws://HOST:PORT   (HOST: --host, default 127.0.0.1)

and nothing else is ever written to stdout (relay logs go to stderr). The
database is DIR/relay.sqlite3 and the generated config DIR/relay.yaml; without
--db-dir a temporary directory is used and removed on exit. SIGTERM/SIGINT stop
it cleanly. Environment: RELAY_OLDEST_EVENT (seconds, default 604800),
RELAY_MAX_EVENT_SIZE (content characters, default 1048576), RELAY_LOG_LEVEL
(default WARNING). See README.md beside this file for why the config is so.
"""

import argparse
import logging
import logging.config
import os
import shutil
import sys
import tempfile
import warnings

import yaml

# The validators nostr-relay runs on every EVENT (nostr_relay/validators.py).
# Left out on purpose: is_not_hellthread (kinds 1/7 only), is_certain_kind (we
# accept every kind), is_pow, the author white/black lists.
VALIDATORS = [
    "nostr_relay.validators.is_signed",
    "nostr_relay.validators.is_not_too_large",
    "nostr_relay.validators.is_recent",
]


def build_config(port, db_path, host="127.0.0.1"):
    level = os.environ.get("RELAY_LOG_LEVEL", "WARNING").upper()
    return {
        "DEBUG": False,
        "relay_name": "invitekit-test-relay",
        "relay_description": "local fixture for InviteKit tests",
        "sysop_pubkey": "",
        "sysop_contact": "",
        # NIP-59 seal/wrap created_at are random up to 2 days back; is_recent
        # rejects (now - created_at) > oldest_event and, hard-coded, anything
        # more than 3600 s in the future.
        "oldest_event": int(os.environ.get("RELAY_OLDEST_EVENT", 7 * 24 * 3600)),
        # Default is 4096 characters of content: far too small for gift-wrapped
        # MLS Welcomes and KeyPackages.
        "max_event_size": int(os.environ.get("RELAY_MAX_EVENT_SIZE", 1024 * 1024)),
        "storage": {
            "sqlalchemy.url": f"sqlite+aiosqlite:///{db_path}",
            "num_concurrent_reqs": 10,
            "num_concurrent_adds": 1,
            "validators": VALIDATORS,
        },
        "verification": {"nip05_verification": "disabled"},
        "authentication": {"enabled": False},
        # Tests open many subscriptions; default REQ limit stays 6000.
        "subscription_limit": 128,
        "max_limit": 6000,
        "message_timeout": 1800,
        "hellthread_limit": 0,
        # run_with_uvicorn reads its options from this section.
        "gunicorn": {"bind": f"{host}:{port}", "loglevel": level.lower()},
        "logging": {
            "version": 1,
            "disable_existing_loggers": False,
            "formatters": {"simple": {"format": "%(asctime)s relay %(levelname)s %(message)s"}},
            "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "simple",
                                    "stream": "ext://sys.stderr"}},
            "loggers": {
                "nostr_relay": {"level": level, "handlers": ["stderr"], "propagate": False},
                "sqlalchemy.engine": {"level": "WARNING"},
                "alembic": {"level": "WARNING"},
            },
            "root": {"level": "WARNING", "handlers": ["stderr"]},
        },
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=0, help="0 = pick a free port")
    parser.add_argument("--db-dir", help="directory for relay.sqlite3 and relay.yaml")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (a network namespace's own address)")
    args = parser.parse_args()
    # stdout carries only the READY line: the relay, alembic and nostr-relay's
    # monkeypatch print to stdout, so they all get stderr instead.
    ready_out = sys.stdout
    sys.stdout = sys.stderr
    warnings.filterwarnings("ignore", message=".*websockets.*deprecated.*")

    temp_dir = None
    if args.db_dir:
        db_dir = os.path.abspath(args.db_dir)
        os.makedirs(db_dir, exist_ok=True)
    else:
        db_dir = temp_dir = tempfile.mkdtemp(prefix="invitekit-relay-")
    conf_path = os.path.join(db_dir, "relay.yaml")
    with open(conf_path, "w") as fp:
        yaml.safe_dump(build_config(args.port, os.path.join(db_dir, "relay.sqlite3"), args.host), fp,
                       sort_keys=False)

    try:
        from nostr_relay.config import Config
        Config.load(conf_path)

        # Create / migrate the schema, as `nostr-relay serve` does.
        from alembic import config as alembic_config
        import nostr_relay
        ini = os.path.join(os.path.dirname(nostr_relay.__file__), "alembic.ini")
        alembic_config.main([f"-c{ini}", "upgrade", "head"])
        logging.config.dictConfig(Config.logging)

        from nostr_relay import monkeypatch
        from nostr_relay.web import create_app
        import uvicorn

        monkeypatch.monkey()
        app = create_app(conf_path)

        class Server(uvicorn.Server):
            async def startup(self, sockets=None):
                await super().startup(sockets=sockets)
                if self.should_exit or not self.servers:
                    return
                port = self.servers[0].sockets[0].getsockname()[1]
                ready_out.write(f"READY ws://{args.host}:{port}\n")
                ready_out.flush()

            def handle_exit(self, sig, frame):
                # uvicorn re-raises SIGTERM/SIGINT after its graceful shutdown,
                # so the exit status would be -15; a requested stop exits 0.
                super().handle_exit(sig, frame)
                self._captured_signals.clear()

        server = Server(uvicorn.Config(app, host=args.host, port=args.port,
                                       log_level=Config.gunicorn["loglevel"],
                                       access_log=False, lifespan="on"))
        server.run()
        return 0 if server.started else 1
    finally:
        if temp_dir:
            shutil.rmtree(temp_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
