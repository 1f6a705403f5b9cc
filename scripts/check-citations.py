#!/usr/bin/env python3
"""Fails when a citation of PROTOCOL.md or docs/*.md names a section that does not exist.

Run from the repository root (make test does). Python 3 stdlib only.

What counts as a citation:
- `PROTOCOL §5.11`, `PROTOCOL.md §3.7, §11.2`, `docs/node.md §2`, and in docs/ also
  `node.md §2` or `../PROTOCOL.md §8`: each § number must be a numbered heading of that file;
- `PROTOCOL.md, "Stored group state"`: the quoted words must be part of one of its headings;
- a bare `§8.3` inside PROTOCOL.md (or inside a docs/ page with numbered headings) is a
  citation of that same file, unless an RFC, BIP, NIP, draft or REFERENCE.md precedes it;
- a Markdown link to a .md file of the repository must name a file that exists.
Numbered headings in each checked page must also run without gaps (1, 1.1, 1.2, 2, ...).
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCAN_DIRS = ["Sources", "Tests", "Fuzz", "scripts", "docs", "vectors"]
SCAN_FILES = ["README.md", "PROTOCOL.md", "Makefile"]
EXTENSIONS = (".swift", ".md", ".py", ".sh", ".txt", ".c", ".h")
SKIP_DIRS = {".build", ".venv", "__pycache__", ".git", ".mdk-chroot"}

HEADING = re.compile(r"^(#{1,6})\s+(\d+(?:\.\d+)*)\.?\s+(.*)$")
NUMBER = r"\d+(?:\.\d+)*"
CHAIN = rf"§\s*{NUMBER}(?:\s*(?:,|/|\band\b|\bor\b)\s*§\s*{NUMBER})*"
# A named page, optionally as a Markdown link, then optionally "(" before the first §.
PAGE = r"(?:\.\./)?(?:PROTOCOL(?:\.md)?|docs/[\w.-]+\.md|[\w-]+\.md)"
CITED = re.compile(rf"({PAGE})(?:\]\([^)\s]*\))?[ \t\n,]*\(?\s*({CHAIN})")
NAMED = re.compile(r'(?:\.\./)?PROTOCOL(?:\.md)?,?\s*"([^"]{1,80})"')
BARE = re.compile(CHAIN)
EXTERNAL_BEFORE = re.compile(
    r"(RFC\s?\d+|BIP-?\d+|NIP-?\d+|draft-[\w.-]+|REFERENCE\.md|[\w-]+\.md|\]\(https?://[^)]*\))[\s,]*\(?\s*$")
MD_LINK = re.compile(r"\]\(((?!https?:|mailto:|#)[^)\s#]+\.md)(?:#[^)\s]*)?\)")
COMMENT_PREFIX = re.compile(r"^\s*(?:///?|#|\*|--)?\s?")


def headings(path):
    """(numbers, titles) of a Markdown page's numbered headings, plus every heading title."""
    numbers, titles, ordered = set(), [], []
    in_code = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                in_code = not in_code
                continue
            if in_code or not line.startswith("#"):
                continue
            titles.append(line.lstrip("#").strip().lower())
            m = HEADING.match(line.rstrip("\n"))
            if m:
                numbers.add(m.group(2))
                ordered.append(m.group(2))
    return numbers, titles, ordered


def gaps(ordered):
    """Numbered headings that do not follow their predecessor (a gap, a repeat, a jump)."""
    bad, previous = [], []
    for n in ordered:
        parts = [int(p) for p in n.split(".")]
        ok = False
        if not previous:
            ok = parts == [1] or parts == [0] or (len(parts) == 1)
        elif len(parts) == len(previous) + 1:
            ok = parts[:-1] == previous and parts[-1] == 1
        elif len(parts) <= len(previous):
            ok = parts[:-1] == previous[:len(parts) - 1] and parts[-1] == previous[len(parts) - 1] + 1
        if not ok:
            bad.append(n)
        previous = parts
    return bad


def numbers_in(chain):
    return [n.rstrip(".") for n in re.findall(NUMBER, chain)]


def normalized(path):
    """The file's text with comment markers stripped from each line, so a citation that wraps
    onto the next comment line still reads as one."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    if path.endswith(".md"):
        return "\n".join(lines)
    return "\n".join(COMMENT_PREFIX.sub("", line, count=1) for line in lines)


def files_to_scan():
    for name in SCAN_FILES:
        path = os.path.join(ROOT, name)
        if os.path.isfile(path):
            yield path
    for top in SCAN_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
            for name in sorted(filenames):
                if name.endswith(".md" if top == "vectors" else EXTENSIONS):
                    yield os.path.join(dirpath, name)


def resolve(page, source):
    """The repository path a cited page name means, or None when it is not a page we check."""
    page = page.removeprefix("../")
    if page in ("PROTOCOL", "PROTOCOL.md"):
        return "PROTOCOL.md"
    if page.startswith("docs/"):
        return page
    if os.path.dirname(source) == "docs" and os.path.isfile(os.path.join(ROOT, "docs", page)):
        return "docs/" + page
    return None


def check(root=ROOT):
    errors = []
    pages = {}

    def page_info(rel):
        if rel not in pages:
            path = os.path.join(root, rel)
            pages[rel] = headings(path) if os.path.isfile(path) else None
        return pages[rel]

    for rel in ["PROTOCOL.md"] + sorted("docs/" + n for n in os.listdir(os.path.join(root, "docs")) if n.endswith(".md")):
        info = page_info(rel)
        if info:
            for n in gaps(info[2]):
                errors.append(f"{rel}: heading {n} does not follow the one before it")

    for path in files_to_scan():
        rel = os.path.relpath(path, root)
        if rel == os.path.join("scripts", "check-citations.py"):
            continue  # its examples are not citations
        text = normalized(path)
        line_of = lambda offset: text.count("\n", 0, offset) + 1
        claimed = []  # spans of § chains already attributed to a named page
        for m in CITED.finditer(text):
            target = resolve(m.group(1), rel)
            if target is None:
                continue
            claimed.append(m.span(2))
            info = page_info(target)
            if info is None:
                errors.append(f"{rel}:{line_of(m.start())}: cites {target}, which does not exist")
                continue
            for n in numbers_in(m.group(2)):
                if n not in info[0]:
                    errors.append(f"{rel}:{line_of(m.start())}: {target} has no section {n}")
        for m in NAMED.finditer(text):
            title = " ".join(m.group(1).lower().split())
            info = page_info("PROTOCOL.md")
            if not any(title in t for t in info[1]):
                errors.append(f'{rel}:{line_of(m.start())}: PROTOCOL.md has no heading "{title}"')
        # Bare § inside a page cites that page.
        own = rel if (rel == "PROTOCOL.md" or (rel.startswith("docs/") and rel.endswith(".md"))) else None
        if own and page_info(own)[0]:
            for m in BARE.finditer(text):
                if any(a <= m.start() < b for a, b in claimed):
                    continue
                if EXTERNAL_BEFORE.search(text, max(0, m.start() - 80), m.start()):
                    continue
                for n in numbers_in(m.group(0)):
                    if n not in page_info(own)[0]:
                        errors.append(f"{rel}:{line_of(m.start())}: §{n} is not a section of {own}")
        if rel.endswith(".md"):
            for m in MD_LINK.finditer(text):
                target = os.path.normpath(os.path.join(os.path.dirname(rel), m.group(1)))
                if not os.path.exists(os.path.join(root, target)):
                    errors.append(f"{rel}:{line_of(m.start())}: link to {m.group(1)}, which does not exist")
    return errors


def selftest():
    chain = lambda s: [numbers_in(m.group(2)) for m in CITED.finditer(s)]
    assert chain("see PROTOCOL §3.7, §11.2 and §8") == [["3.7", "11.2", "8"]]
    assert chain("(PROTOCOL.md §5.10).") == [["5.10"]]
    assert chain("[PROTOCOL.md](../PROTOCOL.md) (§8, §11)") == [["8", "11"]]
    assert chain("docs/node.md §2; RFC 9420 §12.4") == [["2"]]
    assert chain("PROTOCOL\n§5.11") == [["5.11"]]
    assert EXTERNAL_BEFORE.search("as RFC 9420 ") and EXTERNAL_BEFORE.search("[RFC 9420](https://x/y) ")
    assert not EXTERNAL_BEFORE.search("Marmot MIP-02, ")
    assert gaps(["1", "2", "2.1", "2.2", "3", "3.1"]) == []
    assert gaps(["1", "2", "2.1", "2.1.9", "2.2"]) == ["2.1.9"]
    assert gaps(["1", "3"]) == ["3"]


def main():
    selftest()
    errors = check()
    for e in errors:
        print(e, file=sys.stderr)
    if errors:
        print(f"check-citations: {len(errors)} broken citation(s)", file=sys.stderr)
        return 1
    print("check-citations: every citation resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
