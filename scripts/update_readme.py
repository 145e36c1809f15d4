"""Refresh the example outputs in README.md by running the commands they show.

A README example is an HTML comment naming the command, followed by a fenced block:

    <!-- example: cardsim odds giltspiel --hand "LA SA H10 E9 E8" --seed 7 -->
    ```
    $ cardsim odds giltspiel --hand "LA SA H10 E9 E8" --seed 7
    ...output...
    ```

The block is replaced by the command line and what the command prints now (standard output and
standard error, without progress lines). Run: ``.venv/bin/python scripts/update_readme.py``;
``--only TEXT`` refreshes only the examples whose command contains TEXT (repeatable); ``--check``
writes nothing and prints a diff of every example whose output changed (exit status 1 if any did).
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
EXAMPLE = re.compile(r"<!-- example: (?P<cmd>.+?) -->\n```[a-z]*\n.*?```", re.S)


def run(command: str) -> str:
    """Output of one README command; ``cardsim`` runs from this checkout's environment."""
    argv = shlex.split(command)
    if argv[0] == "cardsim":
        argv = [sys.executable, "-m", "analysis.cli"] + argv[1:]
    elif argv[0] == "python":
        argv[0] = sys.executable
    proc = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env={**os.environ, "COLUMNS": "120"})
    messages = "".join(line for line in proc.stderr.splitlines(keepends=True) if not PROGRESS.match(line))
    return (proc.stdout + messages).rstrip("\n")


def refresh(text: str, only: list[str] | None = None) -> str:
    def replace(match: re.Match) -> str:
        command = match.group("cmd")
        if only and not any(part in command for part in only):
            return match.group(0)
        print(f"running: {command}", file=sys.stderr)
        return f"<!-- example: {command} -->\n```\n$ {command}\n{run(command)}\n```"

    return EXAMPLE.sub(replace, text)


def main() -> int:
    import argparse
    import difflib

    parser = argparse.ArgumentParser(description="refresh the example outputs in README.md")
    parser.add_argument("--only", action="append", help="refresh only examples whose command contains this text")
    parser.add_argument("--check", action="store_true", help="write nothing; print the examples whose output changed")
    args = parser.parse_args()
    readme = ROOT / "README.md"
    old = readme.read_text()
    new = refresh(old, args.only)
    if not args.check:
        readme.write_text(new)
        return 0
    diff = list(difflib.unified_diff(old.splitlines(), new.splitlines(), "README.md", "README.md (now)", lineterm=""))
    print("\n".join(diff) if diff else "every example is current")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
