#!/usr/bin/env python3
"""Fails when an app that imports InviteKit can reach the store, or cannot reach what it reads.

Issue 30: the store is not app API. Each file in Tests/AppImportCheck is type-checked as a
module of ANOTHER package (its own `-package-name`), against the modules `swift build` built
(run `swift build --build-tests` first; make test does):

- Allowed.swift must compile: StoreHome, the record types and the node, with `import InviteKit`.
- Every Forbidden*.swift must fail, and its diagnostics must contain the text of its
  `// expect:` line (e.g. "cannot find 'HomeLock' in scope"): a file that fails for another
  reason (a typo, a renamed API) does not count as a pass.

- No file of the CLI (Sources/invitekit) imports InviteKitStore: the CLI is an app of the library
  too (issue 30), so it reads a home through `NodeHome` and `InviteKitNode`, never through tables.

The compiler's search paths are the ones SwiftPM used for `invitekit-node-app` (an executable
on InviteKit alone), read from .build/debug.yaml; only the package name differs, so `package`
declarations are out of reach exactly as for an app in its own package.

Run from the repository root. Python 3 stdlib only.
"""

import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHECKS = os.path.join(ROOT, "Tests", "AppImportCheck")
# The app target whose compile command gives the search paths.
APP_MODULE = "invitekit-node-app"


def compiler_arguments():
    manifest = os.path.join(ROOT, ".build", "debug.yaml")
    if not os.path.exists(manifest):
        sys.exit("check-app-imports: .build/debug.yaml is missing (run `swift build --build-tests` first)")
    lines = open(manifest, encoding="utf-8").read().splitlines()
    start = next((i for i, l in enumerate(lines) if re.match(rf'\s*"C\.{re.escape(APP_MODULE)}-.*-debug\.module":', l)), None)
    if start is None:
        sys.exit(f"check-app-imports: no compile command for {APP_MODULE} in .build/debug.yaml")
    args_line = next(l for l in lines[start:] if l.strip().startswith("args:"))
    args = re.findall(r'"((?:[^"\\]|\\.)*)"', args_line)
    keep, i = [], 1  # args[0] is swiftc itself
    while i < len(args):
        a = args[i]
        if a in ("-I", "-module-cache-path", "-target", "-swift-version"):
            keep += [a, args[i + 1]]
            i += 2
        elif a == "-Xcc":
            keep += [a, args[i + 1]]
            i += 2
        else:
            i += 1
    return args[0], keep


def typecheck(swiftc, args, path):
    cmd = [swiftc, "-typecheck", "-parse-as-library", "-module-name", "AppImportCheck",
           "-package-name", "app_import_check", *args, path]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)


# The CLI's sources: an app of the library like any other (issue 30).
CLI_SOURCES = os.path.join(ROOT, "Sources", "invitekit")
STORE_IMPORT = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?import\s+(?:\w+\s+)?InviteKitStore\b", re.M)


def cli_store_imports():
    """The CLI files that import InviteKitStore, relative to the repository root."""
    found = []
    for path in sorted(glob.glob(os.path.join(CLI_SOURCES, "**", "*.swift"), recursive=True)):
        if STORE_IMPORT.search(open(path, encoding="utf-8").read()):
            found.append(os.path.relpath(path, ROOT))
    return found


def main():
    failures = [f"{path} imports InviteKitStore: read the home through NodeHome or InviteKitNode" for path in cli_store_imports()]
    swiftc, args = compiler_arguments()
    allowed = os.path.join(CHECKS, "Allowed.swift")
    r = typecheck(swiftc, args, allowed)
    if r.returncode != 0:
        failures.append(f"Allowed.swift does not compile:\n{r.stderr.strip()}")
    forbidden = sorted(glob.glob(os.path.join(CHECKS, "Forbidden*.swift")))
    if len(forbidden) < 4:
        failures.append(f"only {len(forbidden)} Forbidden*.swift files in {CHECKS}")
    for path in forbidden:
        name = os.path.basename(path)
        expect = re.search(r"^// expect: (.+)$", open(path, encoding="utf-8").read(), re.M)
        if not expect:
            failures.append(f"{name}: no `// expect:` line")
            continue
        r = typecheck(swiftc, args, path)
        if r.returncode == 0:
            failures.append(f"{name} compiled: an app reaches the store")
        elif expect.group(1).strip() not in r.stderr:
            failures.append(f"{name} failed, but not with \"{expect.group(1).strip()}\":\n{r.stderr.strip()}")
    if failures:
        print("\n".join(failures), file=sys.stderr)
        return 1
    print(f"check-app-imports: Allowed.swift compiles; {len(forbidden)} forbidden uses of the store do not; no CLI file imports the store")
    return 0


if __name__ == "__main__":
    sys.exit(main())
