"""Dreeg rule options: every non-default choice is read, options that need another are refused without it,
and the text titles name the options used.

As in tests/test_gilten_options.py the registry is the data: a choice that no code reads would silently give
a user the default rules. Dreeg jobs carry their options verbatim, so a changed job proves nothing here;
`test_every_choice_is_read` instead runs a small command with every non-default choice and asserts that its
numbers differ from the default ones (`READERS`: the command that shows the choice; by default a few whole
games with random play, which reach every sub-game and the 2-player stage). A choice that matters only in a
situation too rare for a short run is read off the engine object that meets it (`SITUATIONS`).
"""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest

from analysis.cli import main
from simcore.games import dreeg_game as dg
from simcore.games import dreeg_play as dp
from simcore.games import dreeg_rules as r
from simcore.games.dreeg import NEEDS, rule_options
from simcore.games.dreeg_odds import DECISIONS, TABLE_DECISIONS
from simcore.games.dreeg_reads import PLAY_READS, TRUMPLESS
from simcore.registry import NOT_MODELLED, get_game

GAMES = ("stats", "dreeg", "--policy", "random", "--n", "10", "--seed", "1")
GREEDY_GAMES = ("stats", "dreeg", "--n", "4", "--seed", "1")
KAMERUN = ("odds", "dreeg", "--phase", "4", "--hand", "EA LA HA E9 L9 S9", "--policy", "random", "--n", "300",
           "--seed", "1")
READERS = {
    "information": GREEDY_GAMES,                      # random play ignores its count of the points
    "counting_error_percent": GREEDY_GAMES,
    "closer_win_status_at_close": GREEDY_GAMES,       # random play closes mostly before trick 1
    "durchmarsch_lead_restriction": KAMERUN,          # Durchmarsch is rare in whole games
    "kamerun5_no_head": KAMERUN[:3] + ("5",) + KAMERUN[4:],
}
"""option -> the command line that shows its choices (default: `GAMES`)."""


def _finished(subgame: str, n: int, opts: dict, **state) -> list[int]:
    """The erase counts `dreeg_play.score` gives a finished hand of ``subgame`` in the state ``state``."""
    play = dp.Play(subgame, 1, [0] * n, [None] * n, opts, [] if n == 2 else None)
    for name, value in state.items():
        setattr(play, name, value)
    return dp.score(play).erase


NINES = sum(1 << 6 * s for s in range(4))
SITUATIONS = {
    # several Kamerun losers (0.5% of the phases): the drawn chooser or the first in seat order (§5 A19)
    "kamerun_losers_dealer": lambda o: [dg.first_dealer([2, 0], 4, o, np.random.default_rng(s)) for s in range(9)],
    # Kamerun: seat 3's one trick held the four 9s, seats 1-3 tie on 0 points (§5 A11)
    "kamerun_scores_by": lambda o: _finished("KA", 4, o, took=[r.ALL & ~NINES, 0, 0, NINES], tricks=[5, 0, 0, 1],
                                             last_winner=0),
    # a closer fails after closing with both sides at 33+ (close value 1, §3.5)
    "duel_closer_loss_min2": lambda o: _finished("66", 2, o, took=[r.SUIT_MASKS[0] | r.SUIT_MASKS[1] & ~NINES,
                                                                   r.ALL & ~(r.SUIT_MASKS[0] | r.SUIT_MASKS[1])
                                                                   | r.SUIT_MASKS[1] & NINES],
                                                 tricks=[4, 8], closer=0, close_cv=1, last_winner=1),
}
"""option -> what an engine object meeting the option's rare situation gives, as a function of the options."""
NEEDED = {"counting_error_percent": "information=counting_errors", "schweige_speak_percent": "schweige_mass=phase1",
          "wegloescher_c_leads": "wegloescher=phase1"}
"""The setting each option of `simcore.games.dreeg.NEEDS` is tried with (where the default "needs" nothing)."""


def _choices():
    for option in get_game("dreeg").options:
        for value in option.choices:
            if value != option.default:
                yield option.name, value


def _typed(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@functools.cache
def _numbers(argv: tuple) -> str:
    """The JSON a command prints, without the options it echoes."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main([*argv, "--json", "--no-progress"]) == 0
    data = json.loads(out.getvalue())
    data.pop("options")
    return json.dumps(data, sort_keys=True)


@pytest.mark.parametrize("name, value", list(_choices()))
def test_every_choice_is_read(name, value):
    """Every non-default choice of every option changes the numbers of a command; the default given as an
    option changes nothing."""
    default = next(o.default for o in get_game("dreeg").options if o.name == name)
    if name in SITUATIONS:
        assert SITUATIONS[name](rule_options(**{name: value})) != SITUATIONS[name](rule_options())
        return
    argv = READERS.get(name, GAMES) + (("--option", NEEDED[name]) if name in NEEDED else ())
    plain = _numbers(argv)
    assert _numbers(argv + ("--option", f"{name}={_typed(default)}")) == plain
    assert _numbers(argv + ("--option", f"{name}={_typed(value)}")) != plain


def test_one_choice_means_not_modelled():
    for option in get_game("dreeg").options:
        assert option.default in option.choices
        assert (len(option.choices) == 1) == option.help.endswith(NOT_MODELLED), option.name
    assert set(NEEDED) <= set(NEEDS)


@pytest.mark.parametrize("argv, title", [
    (["odds", "dreeg", "--phase", "2", "--hand", "HA H9 SK SO E10 L9", "--trump", "S", "--n", "50",
      "--option", "ra_solo_win_3=true", "--option", "strokes_per_phase=7"],
     "at forehand (trump S), options ra_solo_win_3=true"),
    (["stats", "dreeg", "--n", "2", "--option", "strokes_per_phase=10"],
     "(seat 0 deals first), options strokes_per_phase=10"),
    (["match", "dreeg", "--n", "2", "--option", "first_dealer=loser_deals"],
     "A's seat rotating, options first_dealer=loser_deals"),
    (["thresholds", "dreeg", "--decision", "call", "--n", "20", "--option", "no_undertrump_duty=true"],
     "seed 1, options no_undertrump_duty=true, 95% intervals"),
])
def test_titles_name_the_non_default_options(capsys, argv, title):
    assert main([*argv, "--seed", "1", "--no-progress"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert head.endswith(title) or title in head
    assert "strokes_per_phase=7" not in head


# --- the options a hand reads (odds, thresholds, the phase value): `simcore.games.dreeg_reads` ---------------------
class _Recording(dict):
    """A rule-options dict that records the names looked up."""

    looked_up: set = set()

    def __getitem__(self, name):
        self.looked_up.add(name)
        return dict.__getitem__(self, name)

    def get(self, name, default=None):
        self.looked_up.add(name)
        return dict.get(self, name, default)


CONDITIONAL_READS = {"counting_error_percent"}
"""Options read only under another's non-default value (information=counting_errors)."""


def _assert_reads_are_looked_up(monkeypatch, jobs, n: int, reads, trumpless: bool = False) -> None:
    """Running ``jobs`` looks up exactly the options ``reads`` names, apart from `CONDITIONAL_READS` and the §3.5
    sub-games' options that every phase plan looks up to choose its sub-game. ``trumpless``: hands of Kamerun,
    which look up the play rules of trumps (`PLAY_READS`) that cannot apply there."""
    from simcore import runner
    from simcore.games import dreeg as game

    looked_up = set()
    monkeypatch.setattr(_Recording, "looked_up", looked_up)
    chosen = game.chosen_options
    monkeypatch.setattr(game, "chosen_options", lambda *args, **kw: _Recording(chosen(*args, **kw)))
    for job in jobs:
        runner.run(job, n, 1, checkpoint=False, progress=False)
    placers = set(r.EXTRA_SUBGAMES)
    if trumpless:  # every hand looks its play rules up; without a trump none of them can apply
        looked_up -= set(PLAY_READS)
    assert looked_up - placers == set(reads) - CONDITIONAL_READS - placers
    assert set(reads) & placers <= looked_up


PLACED = {1: ("schweige_mass", "phase1"), 4: ("kamerun_bei_nacht", "phase4"), 8: ("wegloescher", "phase8")}
"""Options that put a §3.5 sub-game in a phase: the hands of that phase read them."""


def _hands():
    """(phase, players, options) of every kind of hand odds asks about: each phase with 2, 3 and 4 players as
    the default rules make it, and the phases a §3.5 sub-game can take with that sub-game placed there."""
    for phase in range(1, 9):
        for options in [()] + ([(PLACED[phase],)] if phase in PLACED else []):
            subgame = r.phase_plan(rule_options(**dict(options)))[phase - 1]
            for players in (2, 3, 4):
                if subgame == "WL" and players > 2 or subgame in ("KA", "KN") and players == 2:
                    continue  # Weglöscher is a duel; Kamerun has none
                yield phase, players, options


HANDS = ("EA LA HA SA E10 L10 H10 S10", "E9 L9 H9 S9 EU LU HU SU")
"""A strong hand (its Kamerun hands declare Durchmarsch, which reads its lead option) and a weak one (its
Kamerun hands end without, which reads how they score)."""


@pytest.mark.parametrize("phase, players, options", list(_hands()))
def test_one_hand_reads_what_hand_reads_says(monkeypatch, phase, players, options):
    """`dreeg_reads.hand_reads` of a hand of odds (3-4 players: `HandQuestion`, 2: `DuelQuestion`) is what a
    played run of it looks up."""
    from simcore.games import dreeg_duel_odds as duel
    from simcore.games import dreeg_odds as odds
    from simcore.games.dreeg_reads import hand_reads

    subgame = r.phase_plan(rule_options(**dict(options)))[phase - 1]
    hands = [tuple(r.DECK.parse_cards(text, "hand"))[:r.HAND_SIZES[players]] for text in HANDS]
    if players == 2:
        jobs = [duel.DuelOddsJob(duel.DuelQuestion(phase, 2, hand, options=options)) for hand in hands]
    else:
        jobs = [odds.OddsJob(odds.HandQuestion(phase, players, hand, options=options)) for hand in hands]
    _assert_reads_are_looked_up(monkeypatch, jobs, 60, hand_reads(subgame, players, phase, dict(options)),
                                subgame in TRUMPLESS)


@pytest.mark.parametrize("decision, players", [(d, 4) for d in DECISIONS] + [(d, 3) for d in TABLE_DECISIONS])
def test_a_decisions_hands_read_what_hand_reads_says(monkeypatch, decision, players):
    """The options a threshold decision's paired hands read: those of one hand of its stage (`decision_stage`)
    played apart from the phases (and ``information``, which `play_hand` looks up to see whether it needs a chance
    stream; the thresholds take only its default)."""
    from simcore.games.dreeg_odds import ThresholdJob, decision_stage
    from simcore.games.dreeg_reads import hand_reads

    reads = hand_reads(*decision_stage(decision, players)) + ("information",)
    _assert_reads_are_looked_up(monkeypatch, [ThresholdJob(decision, players=players)], 300, reads,
                                decision_stage(decision)[0] in TRUMPLESS)


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("phase, options", [(1, ()), (2, ()), (3, ()), (4, ()), (5, ()),
                                            (4, (("kamerun_bei_nacht", "phase4"),))])
def test_a_phases_hands_read_what_the_phase_value_says(monkeypatch, phase, players, options):
    """`PhaseHandsJob.reads`: the options the hands of a phase value read, for every number of active players
    (phases 6-8 repeat the sub-games of 1-3; Schweige-Maß and Weglöscher have no phase value)."""
    from simcore.games.dreeg_phase import PhaseHandsJob

    job = PhaseHandsJob(phase, players, options=options)
    _assert_reads_are_looked_up(monkeypatch, [job], 1000, set(job.reads()) - {"strokes_per_phase"},
                                job.subgame in TRUMPLESS)


ODDS = ("odds", "dreeg", "--hand", "HA H10 HK HO E9 L9", "--n", "50")
THRESHOLDS = ("thresholds", "dreeg")


@pytest.mark.parametrize("argv, message", [
    ([*ODDS, "--phase", "1", "--option", "kamerun_bei_nacht=phase4"],
     "option kamerun_bei_nacht=phase4 does not change one hand of phase 1 (Sechsundsechzig) with 4 players"),
    ([*ODDS, "--phase", "4", "--option", "kamerun5_no_head=True"],
     "kamerun5_no_head=true does not change one hand of phase 4"),
    ([*ODDS, "--phase", "1", "--option", "rot_assen_trump=hearts"], "rot_assen_trump=hearts does not change"),
    ([*ODDS, "--phase", "2", "--option", "duel66_exchange_on_close=True"],
     "duel66_exchange_on_close=true does not change"),
    ([*ODDS, "--phase", "3", "--option", "first_dealer=loser_deals"], "first_dealer=loser_deals does not change"),
    ([*ODDS, "--phase", "4", "--option", "trumped_lead_follow=must_head"],
     "trumped_lead_follow=must_head does not change one hand of phase 4 (Kamerun)"),
    ([*THRESHOLDS, "--decision", "call", "--n", "20", "--option", "duel66_indicator=bottom"],
     "option duel66_indicator=bottom does not change the call decision's hand (Rufen of 4 players)"),
    ([*THRESHOLDS, "--decision", "all", "--n", "20", "--option", "first_dealer=loser_deals"],
     "option first_dealer=loser_deals does not change any decision's hand"),
    ([*THRESHOLDS, "--decision", "all", "--n", "20", "--option", "information=counting_errors"],
     "thresholds compare decisions under perfect recall"),
    ([*THRESHOLDS, "--decision", "value", "--phase", "1", "--n", "100", "--option", "kamerun5_no_head=True"],
     "option kamerun5_no_head=true does not change a hand of phase 1 (Sechsundsechzig) of 4-player Dreeg"),
    ([*THRESHOLDS, "--decision", "close", "--strokes", "3,2", "--n", "100", "--option",
      "kamerun_bei_nacht=phase4"],
     "option kamerun_bei_nacht=phase4 does not change a hand of phase 1"),
    ([*THRESHOLDS, "--decision", "hide", "--strokes", "3,2", "--n", "100", "--option", "ra_solo_win_3=true"],
     "option ra_solo_win_3=true does not change the phase value from a state of 2 players (phase 2, Rot Assen"),
    ([*THRESHOLDS, "--decision", "durchmarsch", "--n", "20", "--option", "no_undertrump_duty=true"],
     "option no_undertrump_duty=true does not change the durchmarsch decision's hand (Kamerun of 4 players)"),
])
def test_refuses_options_its_hands_do_not_read(capsys, argv, message):
    """`odds` and `thresholds` (each decision, --decision all, the phase value) refuse an option no hand they play
    reads, in one line."""
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and message in err


@pytest.mark.parametrize("argv", [["--phase", "4", "--option", "kamerun_bei_nacht=phase4"],
                                  ["--phase", "5", "--option", "kamerun5_no_head=True"],
                                  ["--phase", "2", "--option", "rot_assen_trump=hearts"],
                                  ["--phase", "1", "--option", "schweige_mass=phase1", "--option",
                                   "schweige_speak_percent=10"]])
def test_odds_takes_the_options_its_hand_reads(capsys, argv):
    assert main([*ODDS, "--no-progress", *argv]) == 0
    assert "options " in capsys.readouterr().out


def test_thresholds_of_all_decisions_give_each_the_options_it_reads(capsys):
    """--decision all takes an option some decisions read; those decisions play it, the others run as without it,
    and the title names it."""
    from analysis.games import dreeg as api

    argv = ["thresholds", "dreeg", "--n", "40", "--seed", "1", "--no-progress", "--option", "rot_assen_trump=hearts"]
    assert main([*argv, "--json"]) == 0
    rows = {name: d["rows"] for name, d in json.loads(capsys.readouterr().out)["decisions"].items()}
    for decision, options in (("hide", ["rot_assen_trump=hearts"]), ("close", [])):
        alone = api.thresholds_json([api.thresholds(decision, 40, 1, options, progress=False)])
        assert rows[decision] == alone["decisions"][decision]["rows"]
    assert main(argv) == 0
    assert "options rot_assen_trump=hearts" in capsys.readouterr().out.splitlines()[0]
