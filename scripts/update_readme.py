"""Refresh the example outputs in README.md by running the commands they show.

A README example is an HTML comment naming the command, followed by a fenced block:

    <!-- example: cardsim odds giltspiel --hand "LA SA H10 E9 E8" --seed 7 -->
    ```
    $ cardsim odds giltspiel --hand "LA SA H10 E9 E8" --seed 7
    ...output...
    ```

The block is replaced by the command line and what the command prints now (standard output and
standard error, without progress lines). A kind after ``example`` changes that:

* ``<!-- example (trimmed): CMD -->``: the block shows a selection of the output, with ``...`` lines
  where lines were left out (and a line cut short ending in `` ...``); it is kept as written, and
  reported when its lines are no longer found in the output in the same order;
* ``<!-- example (varies): CMD -->``: the output holds timings, rates or code hashes; it is refreshed,
  but ``--check`` compares it with every number and hash masked and runs of spaces as one;
* ``<!-- example (manual): CMD -->``: recorded by hand (it needs something this script does not start,
  e.g. a Dask scheduler); never run.

The table of contents between ``<!-- contents -->`` and ``<!-- /contents -->`` is rebuilt from the headings
on every run (`with_contents`): a line per ``##`` section with its ``###`` subsections below it.

Run ``.venv/bin/python scripts/update_readme.py``; ``--only TEXT`` refreshes only the examples whose
command contains TEXT (repeatable), ``--contents`` none (only the table of contents); ``--check`` writes nothing
and prints a diff of every example whose output changed, or of a stale table of contents (exit status 1 if any
did).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROGRESS = re.compile(r"cardsim: \d+/\d+ chunks")
"""A progress line (runs print them when standard error is not a terminal): left out of the README."""
EXAMPLE = re.compile(r"<!-- example(?: \((?P<kind>trimmed|varies|manual)\))?: (?P<cmd>.+?) -->\n```[a-z]*\n"
                     r"(?P<body>.*?)```", re.S)
NUMBERS = re.compile(r"\b[0-9a-f]{12,}\b|\d[\d,.]*")
"""What a ``varies`` example may change between runs: numbers, and hashes of 12 or more hex digits."""


CONTENTS = re.compile(r"(<!-- contents -->\n).*?(<!-- /contents -->)", re.S)
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def anchor(heading: str, seen: dict[str, int]) -> str:
    """GitHub's link target of a heading's text: lower case, only letters, digits, '_', '-' and spaces kept,
    spaces as '-'; the second heading of one target gets '-1', the third '-2' (``seen`` counts them)."""
    slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
    count = seen.get(slug, 0)
    seen[slug] = count + 1
    return slug if count == 0 else f"{slug}-{count}"


def contents(text: str) -> str:
    """The table of contents of a README ``text``: a line per ``##`` heading with its ``###`` headings below it,
    each a link (`anchor`); headings inside fenced code blocks are not headings, and the ``Contents`` heading is
    left out."""
    seen: dict[str, int] = {}
    sections: list[tuple[str, list[str]]] = []
    for level, heading in re.findall(r"^(#{1,6}) (.+)$", FENCE.sub("", text), re.M):
        link = f"[{heading.strip()}](#{anchor(heading, seen)})"
        if level == "##" and heading.strip() != "Contents":
            sections.append((link, []))
        elif level == "###" and sections:
            sections[-1][1].append(link)
    return "".join(f"* {link}\n" + "".join(f"  * {sub}\n" for sub in subs) for link, subs in sections)


def with_contents(text: str) -> str:
    """``text`` with its table of contents (between the two markers) rebuilt by `contents`."""
    return CONTENTS.sub(lambda m: m.group(1) + contents(text) + m.group(2), text)


def run(command: str) -> str:
    """Output of one README command; ``cardsim`` runs from this checkout's environment."""
    argv = shlex.split(command, comments=True)
    if argv[0] == "cardsim":
        argv = [sys.executable, "-m", "analysis.cli"] + argv[1:]
    elif argv[0] == "python":
        argv[0] = sys.executable
    proc = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env={**os.environ, "COLUMNS": "120"})
    messages = "".join(line for line in proc.stderr.splitlines(keepends=True) if not PROGRESS.match(line))
    return (proc.stdout + messages).rstrip("\n")


def _shape(text: str) -> str:
    """``text`` with numbers and hashes masked (`NUMBERS`) and runs of spaces as one, as table columns move
    with the width of their numbers."""
    return re.sub(r" +", " ", NUMBERS.sub("#", text))


def shown_in(trimmed: str, output: str) -> bool:
    """True if the lines of a trimmed block (its ``...`` lines left out) occur in ``output`` in order; a line
    ending in `` ...`` stands for the output lines that begin with the rest of it."""
    lines = iter(output.splitlines())

    def matches(line: str, out: str) -> bool:
        return out.startswith(line[:-3].rstrip()) if line.endswith(" ...") else out == line

    return all(any(matches(line, out) for out in lines) for line in trimmed.splitlines() if line.strip() != "...")


def refresh(text: str, only: list[str] | None = None, check: bool = False) -> tuple[str, list[str]]:
    """(README text with the examples refreshed, the commands of trimmed blocks no longer found in their
    output); ``check``: ``varies`` blocks come back unchanged when equal up to `NUMBERS`."""
    stale: list[str] = []

    def replace(match: re.Match) -> str:
        kind, command, body = match.group("kind"), match.group("cmd"), match.group("body")
        if kind == "manual" or only and not any(part in command for part in only):
            return match.group(0)
        print(f"running: {command}", file=sys.stderr)
        output = f"$ {command}\n{run(command)}\n"
        if kind == "trimmed":
            if not shown_in(body, output):
                stale.append(command)
            return match.group(0)
        if kind == "varies" and check and _shape(output) == _shape(body):
            return match.group(0)
        marker = "example" if kind is None else f"example ({kind})"
        return f"<!-- {marker}: {command} -->\n```\n{output}```"

    return EXAMPLE.sub(replace, text), stale


def main() -> int:
    import argparse
    import difflib

    parser = argparse.ArgumentParser(description="refresh the example outputs in README.md")
    parser.add_argument("--only", action="append", help="refresh only examples whose command contains this text")
    parser.add_argument("--check", action="store_true", help="write nothing; print the examples whose output changed")
    parser.add_argument("--contents", action="store_true", help="rebuild only the table of contents")
    args = parser.parse_args()
    readme = ROOT / "README.md"
    old = readme.read_text()
    new, stale = (old, []) if args.contents else refresh(old, args.only, args.check)
    new = with_contents(new)
    for command in stale:
        print(f"trimmed example no longer matches its output (edit it by hand): {command}")
    if not args.check:
        readme.write_text(new)
        return 1 if stale else 0
    diff = list(difflib.unified_diff(old.splitlines(), new.splitlines(), "README.md", "README.md (now)", lineterm=""))
    print("\n".join(diff) if diff or stale else "every example is current")
    return 1 if diff or stale else 0


if __name__ == "__main__":
    sys.exit(main())
