"""The command registry: which (command, game) pairs exist and how they parse and run.

A game's analysis module (``analysis/games/<game>.py``) registers its commands here at import; the
command line (`analysis.cli`) looks them up. Options every simulating command shares are added by
`add_run_arguments` and turned into runner keywords by `run_options`.
"""

from __future__ import annotations

import argparse
import decimal
import importlib
import math
import os
import pkgutil
import re
import sys
import tempfile
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from simcore import checks
from simcore.errors import CardsimError, did_you_mean
from simcore.runner import CHUNK_BLOCKS, DEFAULT_CHUNK_DEALS

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class Command:
    """add_arguments(parser) declares the game's options; run(args) prints and returns an exit code;
    frame(args), when given, returns the same result as a long table (`long_frame`: one row per
    estimate with columns estimate, value, lo, hi, n), which `cardsim sweep` stores."""

    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    frame: Callable[[argparse.Namespace], "pd.DataFrame"] | None = None


_COMMANDS: dict[str, dict[str, Command]] = {}


def register_command(command: str, game: str, spec: Command) -> None:
    _COMMANDS.setdefault(command, {})[game] = spec


def commands() -> dict[str, dict[str, Command]]:
    import analysis.games as package

    for module in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"{package.__name__}.{module.name}")
    return _COMMANDS


def lookup(command: str, game: str) -> Command:
    from simcore.registry import get_game

    name = get_game(game).name
    table = commands().get(command, {})
    if name not in table:
        have = ", ".join(sorted(table)) or "no game yet"
        raise CardsimError(f"'cardsim {command}' is not available for {name} yet; it works for: {have}")
    return table[name]


MAX_COUNT = 10**12
"""Largest --n, --chunk-size or --jobs accepted: a trillion deals is years of computing already."""


def decimal_value(text: str) -> float | None:
    """``text`` as a finite number (2.5, -1, 1e6), or None: ASCII only, never other scripts' digits (٣, ３),
    NaN or infinity."""
    cleaned = text.strip()
    try:
        value = float(cleaned) if cleaned.isascii() else math.nan
    except ValueError:
        return None
    return value if math.isfinite(value) else None


MAX_DIGITS = 9
"""The most digits `digits_value` reads: more than any count of cards, seats or strokes."""


def digits_value(text: str, what: str) -> int:
    """An ASCII digit string as an int; CardsimError naming ``what`` (what the number is and an example) for one of
    more than `MAX_DIGITS` digits (Python would refuse to read 4,300)."""
    if len(text) > MAX_DIGITS:
        raise CardsimError(f"{what}: a number of {len(text):,} digits is far too large")
    return int(text)


def seat_cards(values: list[str] | None, flag: str = "--known", example: str = "2:HA HK",
               what: str = "CARDS") -> dict[int, str]:
    """--known "2:HA HK" (repeatable) -> {2: "HA HK"}; the cards of one seat given twice are joined. ``flag``,
    ``example`` and ``what`` name another option of the same SEAT:TEXT form in errors (--void "3:H", SUITS)."""
    known: dict[int, str] = {}
    for value in values or []:
        seat, sep, cards = value.partition(":")
        if not sep or not (seat.strip().isascii() and seat.strip().isdigit()) or not cards.strip():
            raise CardsimError(f"{flag} takes SEAT:{what} such as '{example}', got '{value}'")
        number = digits_value(seat.strip(), f"{flag} takes a seat 0-3, e.g. '{example}'")
        known[number] = (known.get(number, "") + " " + cards).strip()
    return known


def whole_value(text: str) -> int | None:
    """``text`` as a whole number, or None: ASCII digits with an optional sign and underscores (1_000), or a
    `decimal_value` whose fraction is zero (300.0, 1e6; read exactly: 1e23 is 10**23)."""
    cleaned = text.strip().replace("_", "")
    try:
        return int(cleaned) if cleaned.isascii() else None
    except ValueError:
        if decimal_value(cleaned) is None:
            return None
    exact = decimal.Decimal(cleaned)
    return int(exact) if exact == exact.to_integral_value() else None


def decimal_number(text: str) -> float:
    """argparse type: a number (`decimal_value`); the command checks its range."""
    value = decimal_value(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"expected a number, got {quoted(text)}")
    return value


def quoted(text: str) -> str:
    """A number given on the command line as an error quotes it: at most 40 characters, and the digits counted when
    there are more than Python reads as a number (`sys.get_int_max_str_digits`)."""
    digits = text.strip().lstrip("+-").replace("_", "")
    limit = sys.get_int_max_str_digits()
    too_long = f" ({len(digits):,} digits, more than {limit:,})" if digits.isdigit() and len(digits) > limit else ""
    return f"'{shown(text)}'{too_long}"


def whole_number(text: str, expected: str = "a whole number") -> int:
    """argparse type: a whole number (`whole_value`) of any size; the command checks its range. ``expected``: what
    the error says was expected."""
    value = whole_value(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"expected {expected}, got {quoted(text)}")
    return value


def positive_int(text: str, highest: int = MAX_COUNT, lowest: int = 1, why: str = "") -> int:
    """argparse type: a whole number (`whole_value`) from ``lowest`` (1) to ``highest`` (MAX_COUNT); ``why``, the
    reason for the range, goes in the error."""
    value = whole_number(text)
    if not lowest <= value <= highest:
        top = f"{highest:.0e}" if highest >= 10 ** 6 else f"{highest:,}"
        raise argparse.ArgumentTypeError(f"expected a whole number from {lowest} to {top}{why}, got {quoted(text)}")
    return value


MIN_SAMPLES = 2
"""The fewest deals, hands or games a run takes: a standard error needs two."""


def sample_count(text: str) -> int:
    """argparse type of --n and --games: a whole number from `MIN_SAMPLES` to MAX_COUNT (one sample has no
    interval)."""
    return positive_int(text, lowest=MIN_SAMPLES, why=" (an interval needs two samples)")


def seed_number(text: str) -> int:
    """argparse type of --seed: a whole number (`whole_value`) from 0."""
    value = whole_value(text)
    if value is None or value < 0:
        raise argparse.ArgumentTypeError(f"seed must be a non-negative whole number, got {quoted(text)}")
    return value


def counts_up_to(highest: int) -> Callable[[str], int]:
    """argparse type: `positive_int` from 1 to ``highest``."""
    def parse(text: str) -> int:
        return positive_int(text, highest)

    parse.__name__ = f"whole number 1-{highest}"
    return parse


def one_of(choices: tuple) -> Callable[[str], object]:
    """argparse type: the choice of ``choices`` (names or whole numbers) that ``text`` names, in any case and
    without surrounding spaces (" Greedy" is greedy, 4.0 is 4); an error quotes ``text`` and lists the choices."""
    def parse(text: str):
        key, number = text.strip().lower(), whole_value(text)
        for choice in choices:
            if number == choice if isinstance(choice, int) else key == str(choice).lower():
                return choice
        hint = did_you_mean(key, [str(choice) for choice in choices])
        raise argparse.ArgumentTypeError(f"invalid choice: '{text}'{hint} (choose from {', '.join(map(str, choices))})")

    parse.__name__ = f"one of {', '.join(map(str, choices))}"
    return parse


def _option_texts(items) -> list[tuple[str, str]]:
    """``--option`` values ``["name=value", ...]`` as (name, value text) pairs, both stripped."""
    pairs = []
    for item in items:
        name, sep, text = item.partition("=")
        if not sep or not name.strip():
            raise CardsimError(f"--option expects NAME=VALUE, got '{item}'")
        pairs.append((name.strip(), text.strip()))
    return pairs


def _option_value(text: str):
    """The value an ``--option`` text stands for (`option_items`)."""
    words = {"true": True, "false": False}
    if text == "None":
        return None
    if text.lower() in words:
        return words[text.lower()]
    if (number := whole_value(text)) is not None:
        return number
    numeric = re.fullmatch(r"[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?", text)
    number = decimal_value(text) if numeric else None
    return text if number is None else number


def _options_read(items) -> tuple[dict, dict[str, str]]:
    """(`option_items`, {name: the value as the user typed it}) of ``--option`` values, or of the Python API's
    options: one NAME=VALUE string, or a dict (any mapping) or (name, value) pairs of values (`checks.options_dict`)."""
    items = [items] if isinstance(items, str) else items
    if items is not None and not (isinstance(items, (list, tuple)) and all(isinstance(i, str) for i in items)):
        chosen = checks.options_dict(items)
        return chosen, {name: str(value) for name, value in chosen.items()}
    chosen: dict = {}
    typed: dict[str, str] = {}
    for name, text in _option_texts(items or ()):
        value = _option_value(text)
        if name in chosen and chosen[name] != value:
            raise CardsimError(f"--option {name} is given twice, as '{typed[name]}' and '{text}'; give it once")
        chosen[name], typed[name] = value, text
    return chosen, typed


def option_items(items) -> dict:
    """``--option`` values ``["name=value", ...]`` -> {name: value}, values parsed as None (written so),
    true/false (any case), whole numbers (`whole_value`: 300.0 is 300), decimals or else text (``none`` stays
    text: an option's choice); a name given twice must have one value. The game checks the names and values.
    The Python API's options in any form `_options_read` takes: NAME=VALUE strings, a dict or (name, value) pairs."""
    return _options_read(items)[0]


def game_option_items(items, game_name: str, options: tuple) -> dict:
    """`option_items` checked against a game's ``options`` (`simcore.registry.chosen_options`); an error
    quotes the value as the user typed it."""
    from simcore.registry import chosen_options

    chosen, typed = _options_read(items)
    chosen_options(game_name, options, chosen, typed=typed)
    return chosen


def add_option_argument(parser: argparse.ArgumentParser, game: str) -> None:
    """--option NAME=VALUE, repeatable: a rule option of ``game`` (`command_options` checks it)."""
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help=f"a rule option, repeatable ('cardsim games {game}' lists them with their values); an "
                             "option that cannot change this command's numbers is refused")


def command_options(args: argparse.Namespace, game: str, command: str, reads, flags: dict[str, str] | None = None
                    ) -> dict:
    """The ``--option`` values of ``args`` for ``cardsim command game``, checked against the game's options
    (`game_option_items`). ``flags``: option -> destination of the dedicated flag that sets it ("!permissive":
    the flag sets the opposite boolean); the option sets that destination and is refused with the flag. An
    option at its default sets its flag only where the command reads it (a flag's default may differ from the
    option's: a Perlaggen style's usual target; and the Straf starting count, which the option does not set).
    Then ``reads`` (option names, or a function of ``args`` giving them) are the options the command reads; any
    other not at its default is refused, as an option is never accepted and ignored. Returns
    the options read that differ from their defaults and have no flag, {name: value} sorted by name, for the
    rules and the titles."""
    from simcore.registry import get_game

    options = get_game(game).options
    chosen = game_option_items(args.option, game, options)
    defaults = {o.name: o.default for o in options}
    changed = {name: value for name, value in chosen.items() if value != defaults[name]}
    noted = getattr(args, OPTIONS_GIVEN, {})
    for name, target in (flags or {}).items():
        if name not in chosen:
            continue
        dest = target.lstrip("!")
        flag = "--" + dest.replace("_", "-")
        if dest in noted or getattr(args, dest, None) is True:
            raise CardsimError(f"give {flag} or --option {name}=..., not both")
        if name in changed:
            _set_flag(args, target, chosen[name])
    read = set(reads(args) if callable(reads) else reads)
    for name, target in (flags or {}).items():  # given at its default: still the value asked for, if read
        if name in chosen and name not in changed and name in read:
            _set_flag(args, target, chosen[name])
    exact = " --exact" if getattr(args, "exact", False) is True else ""  # an enumeration reads fewer options
    for name in changed:
        if name not in read:
            raise CardsimError(f"option {name} does not change 'cardsim {command} {game}{exact}' (the options it "
                               f"reads: {', '.join(sorted(read)) or 'none'}); drop it")
    return {name: changed[name] for name in sorted(changed) if name not in (flags or {})}


def _set_flag(args: argparse.Namespace, target: str, value) -> None:
    """Set the flag destination ``target`` of `command_options` ("!name": the opposite boolean) to an option's value."""
    setattr(args, target.lstrip("!"), not value if target.startswith("!") else value)


def options_note(options: dict) -> str:
    """', options a=1, b=2' for a title line, or '' without rule options."""
    return f", options {', '.join(f'{k}={v}' for k, v in options.items())}" if options else ""


def flags_text(flags: list[str]) -> str:
    """["--n"] -> "--n"; ["--n", "--seed", "--seat"] -> "--n, --seed and --seat"."""
    return flags[0] if len(flags) == 1 else f"{', '.join(flags[:-1])} and {flags[-1]}"


def none_fit(n: int, what: str, causes: str = "") -> CardsimError:
    """The error of a run in which no deal out of ``n`` ``what`` (e.g. "met the --given conditions"): with the
    one-sided 95% upper bound on the share of deals that do, 1 - 0.05**(1/n) (about 3/n), so a rare question can be
    told from an impossible one; ``causes``: what may make it impossible, before the advice of a larger --n."""
    bound = 1 - 0.05 ** (1 / n)
    return CardsimError(f"no deal out of {n:,} {what}, so at most {bound:.2%} of deals do (95% bound); "
                        f"{causes + ', or ' if causes else ''}ask for a larger --n")


def check_only_with(given: list[str], needed: str, active: bool) -> None:
    """CardsimError when the options ``given`` (flags, e.g. ["--samples"]) are set while ``needed`` (e.g. "--play
    pimc"), the only setting that uses them, is not ``active``: an option is never accepted and ignored."""
    if given and not active:
        one = len(given) == 1
        raise CardsimError(f"{flags_text(given)} {'applies' if one else 'apply'} only with {needed}; "
                           f"drop {'it' if one else 'them'} or add {needed}")


OPTIONS_GIVEN = "options_given"
"""Attribute of parsed arguments: destination -> [(flag, value), ...] as the user gave them (options stored by
`NotedStore`)."""


class NotedStore(argparse.Action):
    """argparse action: store the option's value and note that the user gave it (`given_flags`), which a default
    cannot tell (the user may give the default value). A flag given twice, or aliases (options of one destination,
    such as --games and --n), must have one value: two different values are refused."""

    def __call__(self, parser, namespace, values, option_string=None):
        note_once(parser, vars(namespace).setdefault(OPTIONS_GIVEN, {}).setdefault(self.dest, []), option_string,
                  values)
        setattr(namespace, self.dest, values)


def note_once(parser: argparse.ArgumentParser, given: list, flag: str, value) -> None:
    """Add (``flag``, ``value``) to the (flag, value) pairs ``given`` so far for one destination; CardsimError
    (`twice_message`, quoting what the user typed) when an earlier one has another value."""
    for place, (earlier, earlier_value) in enumerate(given):
        if earlier_value != value:
            before = typed_value(parser, earlier, [f for f, _ in given[:place]].count(earlier))
            now = typed_value(parser, flag, [f for f, _ in given].count(flag))
            raise CardsimError(twice_message(earlier, earlier_value if before is None else before, flag,
                                             value if now is None else now))
    given.append((flag, value))


def typed_value(parser: argparse.ArgumentParser, flag: str, occurrence: int) -> str | None:
    """The text the user typed as the value of the ``occurrence``-th (from 0) ``flag`` of the command line the
    parser keeps (`analysis.cli._Parser`; '--bids 250:400:30', not the range it became), else None."""
    argv = getattr(parser, "_argv", [])
    typed = [argv[i + 1] if token == flag else token.partition("=")[2] for i, token in enumerate(argv)
             if token == flag and i + 1 < len(argv) or token.startswith(f"{flag}=")]
    return typed[occurrence] if occurrence < len(typed) else None


def twice_message(flag: str, value, again: str, other) -> str:
    """The refusal of an option given twice (``flag`` and ``again``, the same flag or two aliases) with two values."""
    if flag == again:
        return f"{flag} is given twice, as '{shown(value)}' and '{shown(other)}'; give it once"
    return f"give {flag} or {again}, not both ({flag} {shown(value)} and {again} {shown(other)} differ)"


def shown(value, limit: int = 40) -> str:
    """A value as a message quotes it: at most ``limit`` characters, on one line (a control character such as a
    line break written as its escape, \\n)."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(value))
    return text if len(text) <= limit else text[:limit - 3] + "..."


def given_flags(args: argparse.Namespace, *dests: str) -> list[str]:
    """The flags the user gave for the destinations ``dests`` (options stored by `NotedStore`; the first flag of
    each), in that order."""
    given = getattr(args, OPTIONS_GIVEN, {})
    return [given[dest][0][0] for dest in dests if dest in given]


SAMPLING_DESTS = ("n", "seed", "jobs", "chunk_size", "checkpoint", "scheduler", "dask_workers")
"""The options of `add_run_arguments` that only a simulation uses."""


def check_exact_alone(args: argparse.Namespace, *dests: str) -> None:
    """With ``--exact``, an enumeration of every hand, refuse the sampling options and the options ``dests`` the
    user gave: none of them applies, and an option is never accepted and ignored."""
    given = given_flags(args, *SAMPLING_DESTS, *dests) if args.exact else []
    if given:
        one = len(given) == 1
        raise CardsimError(f"--exact enumerates every hand, so {flags_text(given)} {'does' if one else 'do'} not "
                           f"apply; drop {'it' if one else 'them'} or drop --exact")


def probe_writable(folder) -> None:
    """Create and remove a temporary file in ``folder`` (a path): OSError unless files can be written there."""
    fd, probe = tempfile.mkstemp(dir=folder, prefix=".probe.", suffix=".tmp")
    os.close(fd)
    os.unlink(probe)


def write_failure(path, exc: OSError) -> str:
    """The one error line of a results write that failed after every check passed (disk full, a folder put in the
    file's place, permissions changed): the path, the system's reason and the remedy."""
    return f"cannot write {path} ({exc.strerror or exc}); make room or give a writable path, then run again"


def path_text(text: str) -> str:
    """argparse type: a file or folder path, not empty (an empty one would silently mean "none" or
    the current folder)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a file or folder path, got an empty one")
    return text


def add_cluster_arguments(parser: argparse.ArgumentParser) -> None:
    """--scheduler and --dask-workers: run the chunks on a dask.distributed cluster."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--scheduler", action=NotedStore, default=None, metavar="ADDRESS",
                       help="run on the Dask cluster of this scheduler, e.g. tcp://host:8786 (its workers need cardsim "
                            "installed); results do not depend on it")
    group.add_argument("--dask-workers", type=positive_int, action=NotedStore, default=None, metavar="N",
                       help="run on a local Dask cluster of N worker processes; results do not depend on it")


def add_run_arguments(parser: argparse.ArgumentParser, default_n: int, unit: str = "deals") -> None:
    """--n (the number of ``unit`` to simulate), --seed, --jobs, --chunk-size, --checkpoint, --no-progress, --json,
    --scheduler, --dask-workers."""
    parser.add_argument("--n", type=sample_count, action=NotedStore, default=default_n,
                        help=f"{unit} to simulate (default {default_n:,})")
    parser.add_argument("--seed", type=seed_number, action=NotedStore, default=None,
                        help="random seed (default: fresh, printed with the result)")
    parser.add_argument("--jobs", type=positive_int, action=NotedStore, default=1,
                        help="worker processes (default 1); results do not depend on it")
    parser.add_argument("--chunk-size", type=positive_int, action=NotedStore, default=None,
                        help=f"deals per work unit (default {CHUNK_BLOCKS} random-stream blocks, "
                             f"{DEFAULT_CHUNK_DEALS:,} deals for the figure jobs); results do not depend on it")
    parser.add_argument("--checkpoint", type=path_text, action=NotedStore, default=None,
                        help="folder for finished chunks so an interrupted run resumes (default: long runs use "
                             "~/.cache/cardsim)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_cluster_arguments(parser)


def add_games_alias(parser: argparse.ArgumentParser, note: str = "") -> None:
    """--games: another name of --n (`add_run_arguments`, added before) for commands that count games; giving
    both with different values is refused (`NotedStore`). ``note`` ends the help's parenthesis."""
    parser.add_argument("--games", dest="n", type=sample_count, action=NotedStore, default=argparse.SUPPRESS,
                        help=f"games to play, the same as --n (default {parser.get_default('n'):,}{note})")


def cluster_options(args: argparse.Namespace) -> dict:
    """Runner keywords scheduler / dask_workers, only those given (a local run passes none)."""
    return {key: getattr(args, key) for key in ("scheduler", "dask_workers") if getattr(args, key, None) is not None}


def run_options(args: argparse.Namespace) -> dict:
    """Runner keywords from the shared options."""
    return {
        "jobs": args.jobs,
        "chunk_deals": args.chunk_size,
        "checkpoint": args.checkpoint,
        "progress": False if args.no_progress else None,
        **cluster_options(args),
    }


def emit(args: argparse.Namespace, result, as_json: Callable, as_text: Callable) -> int:
    """Print ``result`` as one JSON object (``--json``; a number that is not finite, such as the interval of
    a single value, as null: strict JSON has no NaN) or as text; the commands' exit code 0."""
    import json

    print(json.dumps(json_safe(as_json(result)), allow_nan=False) if args.json else as_text(result))
    return 0


def json_safe(value):
    """``value`` with every float that is NaN or infinite, in nested dicts, lists and tuples, as None."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(item) for item in value]
    return value


LONG_COLUMNS = ["estimate", "value", "lo", "hi", "n"]


def long_frame(frame: "pd.DataFrame", keys: list[str], prefix: str | None = None, value: str = "p",
               lo: str = "lo", hi: str = "hi") -> "pd.DataFrame":
    """A result table as `Command.frame` returns it: one row per estimate, columns `LONG_COLUMNS`.

    The estimate's name joins ``prefix`` and the row's ``keys`` columns with dots (e.g.
    ``gleich.win``); ``value``, ``lo`` and ``hi`` name the columns of the estimate and its interval.
    """
    import pandas as pd

    labels = [frame[k].astype(str) for k in keys]  # column by column: a row would turn int keys into floats
    names = [".".join(([prefix] if prefix else []) + list(parts)) for parts in zip(*labels)] if keys else \
        [prefix or ""] * len(frame)
    return pd.DataFrame({"estimate": names, "value": frame[value].astype(float).to_numpy(),
                         "lo": frame[lo].astype(float).to_numpy(), "hi": frame[hi].astype(float).to_numpy(),
                         "n": frame["n"].round().astype("int64").to_numpy()}, columns=LONG_COLUMNS)


def tables_long(tables: dict[str, "pd.DataFrame"], keys: dict[str, list[str]]) -> "pd.DataFrame":
    """`long_frame` of the proportion tables named in ``keys`` (table -> key columns), each prefixed
    with its table's name, stacked."""
    import pandas as pd

    return pd.concat([long_frame(tables[name], columns, prefix=name) for name, columns in keys.items()],
                     ignore_index=True)


def no_exact(args: argparse.Namespace) -> None:
    """A sweep stores simulated estimates: refuse ``--exact`` (an enumeration has no interval to store)."""
    if getattr(args, "exact", False):
        raise CardsimError("'exact' is an enumeration, not a simulated estimate; a sweep cannot store it")
