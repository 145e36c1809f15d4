"""The ``cardsim`` command line: `main`; ``cardsim --help`` prints `top_help`.

Bad input, and a results file or standard output that cannot be written after all (disk full, ...), print one line
``cardsim: error: ...`` and exit with code 2.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import sys
import threading
from typing import Callable

from analysis.commands import (Command, add_cluster_arguments, commands, flags_text, lookup, note_once, shown,
                               write_failure)
from simcore.errors import CardsimError, meant, unknown_name

_GIVEN = "_cardsim_given"
"""The namespace attribute in which `_StoreOnce` keeps the values given so far (removed after parsing)."""


class _StoreOnce(argparse._StoreAction):
    """argparse's default action (store the value), except that an option given twice must have one value:
    ``--trump H --trump L`` is refused rather than run with L (`NotedStore` does the same for the options it
    notes)."""

    def __call__(self, parser, namespace, values, option_string=None):
        note_once(parser, vars(namespace).setdefault(_GIVEN, {}).setdefault(self.dest, []), option_string, values)
        setattr(namespace, self.dest, values)


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line and exit code 2, takes options only as spelt out
    (``--n`` is not ``--no-progress``, nor ``--j`` ``--json``) and refuses an option given twice with two values."""

    elsewhere_hint: Callable[[str, bool], str] | None = None
    """Given an option this parser does not know (``--kitty``) and whether to look for near misses too, '' or a
    hint naming the game's other commands that take it (or, near, its near miss; set by `command_parser`)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, allow_abbrev=False, **kwargs)
        self.register("action", None, _StoreOnce)
        self.register("action", "store", _StoreOnce)

    def parse_known_args(self, args=None, namespace=None):
        parsed, extras = super().parse_known_args(args, namespace)
        vars(parsed).pop(_GIVEN, None)
        return parsed, extras

    def parse_args(self, args=None, namespace=None):
        self._argv = list(sys.argv[1:] if args is None else args)
        known = _option_strings(self)
        for token in self._argv:  # argparse drops a value '--' as the end of the options and passes on a list
            flag, equals, value = token.partition("=")
            if equals and value == "--" and flag in known:
                self.error(f"argument {flag}: expected one argument")
        return super().parse_args(args, namespace)

    def _print_message(self, message, file=None):
        """argparse's, except that a failed write (``--help`` to a full disk or a closed pipe) is not swallowed: it
        reaches `main`, which says so in one line (exit 2), or stops quietly on a broken pipe (exit 141)."""
        if message:
            (file or sys.stderr).write(message)

    def error(self, message):
        required = re.match(r"the following arguments are required: (.+)", message)
        misspelt = self._unknown_flag() if required else None
        if misspelt:  # argparse reports missing options before unknown ones, yet the unknown one is often the missing
            message = f"unrecognized arguments: {misspelt}"
        if message.endswith("expected one argument"):
            message += self._missing_value_hint(message.split()[1].rstrip(":").split("/"))
        valueless = re.match(r"argument ([\w/-]+): ignored explicit argument", message)
        if valueless:  # a switch given a value, e.g. --clear=yes
            message += f"; {valueless.group(1).split('/')[-1]} is a switch and takes no value: give it alone"
        unknown = re.match(r"unrecognized arguments: (--[\w-]+)", message)
        if unknown:
            flag = unknown.group(1)
            near = self._near_flag(flag)
            message += f"; did you mean {near}?" if near else ""
            message += self.elsewhere_hint(flag, not near) if self.elsewhere_hint else ""
            missing = [names for names in required.group(1).split(", ") if near not in names.split("/")] \
                if misspelt else []
            message += f"; also required: {', '.join(missing)}" if missing else ""
        raise CardsimError(f"{message} (see '{self.prog} --help')")

    def _missing_value_hint(self, flags: list[str]) -> str:
        """The option ``flags`` (["-s", "--seat"]) was given no value: argparse reads a value such as -1:2 as an
        option, so say to write it after '='; else say that it needs a value."""
        argv = getattr(self, "_argv", [])
        known = _option_strings(self) | {"--"}
        for token, following in zip(argv, argv[1:]):
            if token in flags and following.startswith("-") and following.split("=", 1)[0] not in known:
                return f"; a value that starts with '-' goes after '=', e.g. {token}={following}"
        action = next((a for a in self._actions if flags[0] in a.option_strings), None)
        value = (action.metavar or action.dest.upper()) if action and isinstance(action.metavar, (str, type(None))) \
            else "VALUE"
        return f"; give it a value, e.g. {flags[-1]} {value}"

    def _unknown_flag(self) -> str | None:
        """The first ``--flag`` of the command line that is none of this parser's options, else None; a token with
        a space that is no ``--option=value`` of this parser is a value to argparse, and so it is here."""
        known = _option_strings(self)
        for token in getattr(self, "_argv", []):
            if token == "--":
                return None
            name = token.split("=", 1)[0]
            if token.startswith("--") and name not in known and " " not in token:
                return name
        return None

    def _near_flag(self, flag: str) -> str | None:
        """The option of this parser that ``flag`` misspells (`meant`), else None."""
        close = meant(flag[2:], [o[2:] for o in _option_strings(self) if o.startswith("--")])
        return f"--{close}" if close else None


def _top_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="cardsim", description="Monte-Carlo analysis of traditional trick-taking card games.")
    parser.add_argument("command", help="a game command (odds, stats, ...), games or report")
    parser.add_argument("rest", nargs=argparse.REMAINDER)
    return parser


def command_parser(command: str, game: str, spec: Command) -> _Parser:
    """The parser of ``cardsim COMMAND GAME``; a command that takes --jobs runs through the runner, so
    it also gets --scheduler / --dask-workers if its module did not add them."""
    parser = _Parser(prog=f"cardsim {command} {game}", description=spec.help)
    spec.add_arguments(parser)
    options = _option_strings(parser)
    if "--jobs" in options and "--scheduler" not in options:
        add_cluster_arguments(parser)
    parser.elsewhere_hint = lambda flag, near: _other_commands_hint(flag, command, game, near)
    return parser


def _option_strings(parser: argparse.ArgumentParser) -> set[str]:
    return {o for action in parser._actions for o in action.option_strings}


def _other_commands_hint(flag: str, command: str, game: str, near: bool = True) -> str:
    """'; --flag is an option of ..., not of this command' naming the game's other commands that take ``flag``
    (one: 'cardsim odds pinochle3'; several: 'the pinochle3 commands match, odds and stats'), else with ``near``
    '; did you mean --X, an option of ...?' for the option of theirs that ``flag`` misspells (`meant`), else ''."""
    from simcore.registry import get_game

    name = get_game(game).name
    taking = {other: _option_strings(command_parser(other, name, games[name]))
              for other, games in sorted(commands().items()) if name in games}
    theirs = set().union(*taking.values()) - taking.pop(command)
    by_name = {o[2:]: o for o in theirs if o.startswith("--")}
    close = flag if flag in theirs else by_name.get(meant(flag[2:], by_name)) if near else None
    if close is None:
        return _other_games_hint(flag, command, name)
    others = [other for other, options in taking.items() if close in options]
    where = f"'cardsim {others[0]} {name}'" if len(others) == 1 else f"the {name} commands {flags_text(others)}"
    if close == flag:
        return f"; {flag} is an option of {where}, not of this command"
    return f"; did you mean {close}, an option of {where}?"


def _other_games_hint(flag: str, command: str, game: str) -> str:
    """"; --flag is an option of 'cardsim COMMAND' for x and y, not for GAME" when the same command of other games
    takes ``flag`` (`stats pinochle3 --exact`: only the figure games enumerate), else ''."""
    others = [other for other, spec in sorted(commands().get(command, {}).items())
              if other != game and flag in _option_strings(command_parser(command, other, spec))]
    return f"; {flag} is an option of 'cardsim {command}' for {flags_text(others)}, not for {game}" if others else ""


def _game_command(command: str, rest: list[str]) -> int:
    if not rest or rest[0].startswith("-"):
        if rest and rest[0] in ("-h", "--help"):
            games = ", ".join(sorted(commands().get(command, {})))
            print(f"usage: cardsim {command} GAME [options]   (games: {games}; 'cardsim {command} GAME --help')")
            return 0
        example = sorted(commands().get(command, {"giltspiel": None}))[0]
        raise CardsimError(f"'cardsim {command}' needs a game first, e.g. 'cardsim {command} {example} --help'")
    spec = lookup(command, rest[0])
    args = command_parser(command, rest[0], spec).parse_args(rest[1:])
    return spec.run(args)


def _games(rest: list[str]) -> int:
    """List the games; with a game name, its rule options, their defaults and allowed values."""
    from simcore.registry import games, get_game

    table = commands()
    if rest and rest[0] in ("-h", "--help"):
        print("usage: cardsim games [GAME]   (the games; with a game, its rule options, defaults and values)")
        return 0
    flags = [token for token in rest if token.startswith("-")]
    if flags:
        raise CardsimError(f"'cardsim games' takes no option {flags[0]}; it takes at most one game (cardsim games "
                           "[GAME])")
    if len(rest) > 1:
        raise CardsimError(f"'cardsim games' takes at most one game, got: {' '.join(rest)}")
    if rest:
        game = get_game(rest[0])
        print(f"{game.title}: {game.deck.n_cards}-card pack, rules {game.rules_file}")
        for option in game.options:
            values = ", ".join(map(repr, option.choices))
            print(f"  {option.name} = {option.default!r}  [values: {values}]  {option.help}")
        return 0
    for name, game in sorted(games().items()):
        available = [c for c in sorted(table) if name in table[c]]
        print(f"{name:<12} {game.title}, {game.deck.n_cards}-card pack; commands: {', '.join(available) or 'none yet'}")
    return 0


def _report(rest: list[str]) -> int:
    from analysis.report import add_report_arguments, build_report

    parser = _Parser(prog="cardsim report", description="write the statistical report")
    add_report_arguments(parser)
    args = parser.parse_args(rest)
    path = build_report(args)
    print(f"report written to {path}")
    return 0


def _sweep(rest: list[str]) -> int:
    from analysis.sweep import add_sweep_arguments, run_sweep

    parser = _Parser(prog="cardsim sweep", description="run every cell of a scenario grid into a Parquet dataset")
    add_sweep_arguments(parser)
    return run_sweep(parser.parse_args(rest))


def _cache(rest: list[str]) -> int:
    """List the on-disk cache (checkpoints of interrupted runs, computed tables); --clear empties it."""
    from simcore import cache

    parser = _Parser(prog="cardsim cache", description="show or empty cardsim's on-disk cache "
                     f"({cache.cache_root()}; set CARDSIM_CACHE to move it)")
    parser.add_argument("--clear", action="store_true",
                        help="delete every entry no running command is using (interrupted runs can then not resume)")
    args = parser.parse_args(rest)
    root = cache.listed_root()
    if args.clear:
        print(f"cleared {cache.clear() / 1e6:.2f} MB from {root}")
        return 0
    print(f"cache folder {root} (code {cache.code_fingerprint()})")
    labels = {"runs": "interrupted runs (resumable)", "tables": "computed tables"}
    for row in cache.usage():
        print(f"  {row.kind:<7}{row.entries:>4} {labels[row.kind]}, {row.size_bytes / 1e6:.2f} MB, "
              f"{row.stale} of older code")
    return 0


LONG_NUMBER = re.compile(r"\d{41,}")
"""A digit run no message needs in full: a number the user gave, quoted by a check that does not shorten it."""
LONG_TEXT = re.compile(r"[^\s']{201,}")
"""A run of text no message needs in full (a value of thousands of characters, quoted back)."""
CONTROL = re.compile(r"[\x00-\x1f\x7f]")
"""A character that would break the one line of an error (a line break in a quoted value)."""


def _one_line(message: str) -> str:
    """``message`` as one short line, however the check quoted the user's text: every run of more than 40 digits cut
    to its first 20 and its length, any other run of more than 200 characters without a space or quote to its first
    60 and its length, and line breaks and other control characters written as escapes ('\\n')."""
    cut = LONG_NUMBER.sub(lambda m: f"{m.group()[:20]}... ({len(m.group()):,} digits)", message)
    cut = LONG_TEXT.sub(lambda m: f"{m.group()[:60]}... ({len(m.group()):,} characters)", cut)
    return CONTROL.sub(lambda m: repr(m.group())[1:-1], cut)


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so that flushing it at exit raises no second broken pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no file descriptor (output captured in-process)
        pass


COMMAND_SUMMARIES = {
    "odds": "the chances of one hand",
    "stats": "statistics of random deals or whole games",
    "solve": "double-dummy play of a deal with every hand known",
    "meld": "the meld of a hand",
    "thresholds": "when to bet, hold, bid, call or close",
    "match": "two policies in self-play games",
    "tournament": "every pairing of several betting policies",
    "lasttrick": "the last trick's exact chances of one card",
}
"""What each game command is for, in `top_help` (the games' own help lines say it per game)."""


def top_help() -> str:
    """The text of ``cardsim --help``: how to call it, and each game command with the games that have it."""
    from simcore.registry import games

    table = commands()
    width = max(map(len, table))

    def which(name: str) -> str:
        return "all games" if set(table[name]) == set(games()) else ", ".join(sorted(table[name]))

    def summary(name: str) -> str:  # a command added without a summary: its first game's help line
        return COMMAND_SUMMARIES.get(name) or next(iter(table[name].values())).help

    order = list(COMMAND_SUMMARIES)
    lines = [f"  {name:<{width}}  {summary(name)} ({which(name)})"
             for name in sorted(table, key=lambda name: (order.index(name) if name in order else len(order), name))]
    return "\n".join([
        "cardsim: Monte-Carlo analysis of traditional trick-taking card games (Giltspiel, Perlaggen, Bauernstoss,",
        "Dreeg, three-player Pinochle); every estimate with its sample size, seed and 95% interval.",
        "",
        "usage:",
        '  cardsim COMMAND GAME [options]   e.g. cardsim odds giltspiel --hand "LA SA H10 E9 E8"',
        "  cardsim COMMAND GAME --help      the options of one command",
        "  cardsim games [GAME]             the games; with a game, its rule options (--option NAME=VALUE)",
        "  cardsim report [options]         the statistical report (reports/index.html)",
        "  cardsim sweep SCENARIO.toml      run a scenario grid into a Parquet dataset (sweeps/<name>)",
        "  cardsim cache [--clear]          what the on-disk cache holds (interrupted runs, tables); empty it",
        "  cardsim --version",
        "",
        "commands:",
        *lines,
        "",
        "Bad input prints one line 'cardsim: error: ...' and exits with code 2. The README is the manual.",
    ])


class Terminated(KeyboardInterrupt):
    """SIGTERM (`kill`, `timeout`, a batch scheduler) met as Ctrl-C is: finished chunks kept, workers stopped."""


def _terminate(signum, frame) -> None:
    raise Terminated


def main(argv: list[str] | None = None) -> int:
    """The command line: 0 on success, 2 on bad input (one line), 130 on Ctrl-C, 143 on SIGTERM, 141 on a closed
    pipe."""
    argv = sys.argv[1:] if argv is None else argv
    in_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminate) if in_main_thread else None
    try:
        return _main(argv)
    finally:
        if in_main_thread:
            signal.signal(signal.SIGTERM, previous)


def _main(argv: list[str]) -> int:
    try:
        if argv[:1] == ["--version"] and argv[1:]:
            raise CardsimError(f"--version takes nothing after it, got '{shown(' '.join(argv[1:]))}'; drop that")
        if not argv or argv[0] in ("-h", "--help"):
            print(top_help())
            return 0
        if argv[0] == "--version":
            from simcore import __version__

            print(f"cardsim {__version__}")
            return 0
        top = _top_parser().parse_args(argv)
        if sys.stderr.isatty():
            _announce_compilation()
        game_commands = sorted(commands())
        if top.command in game_commands:
            return _game_command(top.command, top.rest)
        if top.command == "games":
            return _games(top.rest)
        if top.command == "report":
            return _report(top.rest)
        if top.command == "sweep":
            return _sweep(top.rest)
        if top.command == "cache":
            return _cache(top.rest)
        known = [*game_commands, "games", "report", "sweep", "cache"]
        raise unknown_name("command", top.command, known)
    except CardsimError as exc:
        print(f"cardsim: error: {_one_line(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:  # the runner's RunInterrupted says what it kept; its __context__, what stopped it
        terminated = isinstance(exc, Terminated) or isinstance(exc.__context__, Terminated)
        print(f"cardsim: {str(exc) or 'interrupted'}" + (" (terminated by SIGTERM)" if terminated else ""),
              file=sys.stderr)
        return 143 if terminated else 130
    except BrokenPipeError:  # the reader went away (`cardsim ... | head`): stop quietly, as other tools do
        _silence_stdout()
        return 141
    except OSError as exc:  # a write that failed after every check passed: disk full, a folder in a file's place, ...
        problem = write_failure(exc.filename, exc) if exc.filename else \
            f"cannot write the output ({exc.strerror or exc}); is standard output closed or its disk full?"
        print(f"cardsim: error: {_one_line(problem)}", file=sys.stderr)
        return 2


def _announce_compilation() -> None:
    """On a terminal, one line on stderr when the command first compiles a kernel (a first run is slow to start);
    through tqdm, so that a progress bar already drawn is not broken."""
    from tqdm import tqdm

    from simcore.config import announce_compilation

    announce_compilation(lambda text: tqdm.write(text, file=sys.stderr))


if __name__ == "__main__":
    sys.exit(main())
