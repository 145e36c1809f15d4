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
      "--option", "ra_solo_win_3=true", "--option", "strokes_per_phase=7"], "at forehand, options ra_solo_win_3=true"),
    (["stats", "dreeg", "--n", "1", "--option", "strokes_per_phase=10"],
     "(seat 0 deals first), options strokes_per_phase=10"),
    (["match", "dreeg", "--n", "1", "--option", "first_dealer=loser_deals"],
     "A's seat rotating, options first_dealer=loser_deals"),
    (["thresholds", "dreeg", "--decision", "call", "--n", "20", "--option", "no_undertrump_duty=true"],
     "seed 1, options no_undertrump_duty=true, 95% intervals"),
])
def test_titles_name_the_non_default_options(capsys, argv, title):
    assert main([*argv, "--seed", "1", "--no-progress"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert head.endswith(title) or title in head
    assert "strokes_per_phase=7" not in head


# --- the options one hand of 3 or 4 players reads (odds) -------------------------------------------------
class _Recording(dict):
    """A rule-options dict that records the names looked up."""

    looked_up: set = set()

    def __getitem__(self, name):
        self.looked_up.add(name)
        return dict.__getitem__(self, name)

    def get(self, name, default=None):
        self.looked_up.add(name)
        return dict.get(self, name, default)


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("phase", range(1, 9))
def test_hand_reads_cover_every_option_a_hand_looks_up(monkeypatch, phase, players):
    """`dreeg_odds.HAND_READS` is what a hand of the phase reads: a played run looks up no other option (the §3.5
    sub-games' own options, which choose the phase's sub-game, apart)."""
    from simcore import runner
    from simcore.games import dreeg as game
    from simcore.games import dreeg_odds as odds

    hand = (0, 1, 2, 3, 4, 5) if players == 4 else (0, 1, 2, 3, 4, 5, 6, 7)
    question = odds.HandQuestion(phase, players, hand)
    looked_up = set()
    monkeypatch.setattr(_Recording, "looked_up", looked_up)
    chosen = game.chosen_options
    monkeypatch.setattr(game, "chosen_options", lambda *args, **kw: _Recording(chosen(*args, **kw)))
    runner.run(odds.OddsJob(question), 60, 1, checkpoint=False, progress=False)
    reads = set(odds.PLAY_READS + odds.HAND_READS[question.subgame] + tuple(r.EXTRA_SUBGAMES))
    assert looked_up and looked_up <= reads


@pytest.mark.parametrize("argv, message", [
    (["--phase", "1", "--option", "kamerun_bei_nacht=phase4"], "option kamerun_bei_nacht=phase4 does not change one "
                                                               "hand of phase 1 (Sechsundsechzig) with 4 players"),
    (["--phase", "4", "--option", "kamerun5_no_head=True"],
     "kamerun5_no_head=true does not change one hand of phase 4"),
    (["--phase", "1", "--option", "rot_assen_trump=hearts"], "rot_assen_trump=hearts does not change"),
    (["--phase", "2", "--option", "duel66_exchange_on_close=True"], "duel66_exchange_on_close=true does not change"),
    (["--phase", "3", "--option", "first_dealer=loser_deals"], "first_dealer=loser_deals does not change"),
])
def test_odds_refuses_options_its_hand_does_not_read(capsys, argv, message):
    assert main(["odds", "dreeg", "--hand", "HA H10 HK HO E9 L9", "--n", "50", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and message in err


@pytest.mark.parametrize("argv", [["--phase", "4", "--option", "kamerun_bei_nacht=phase4"],
                                  ["--phase", "5", "--option", "kamerun5_no_head=True"],
                                  ["--phase", "2", "--option", "rot_assen_trump=hearts"],
                                  ["--phase", "1", "--option", "schweige_mass=phase1", "--option",
                                   "schweige_speak_percent=10"]])
def test_odds_takes_the_options_its_hand_reads(capsys, argv):
    assert main(["odds", "dreeg", "--hand", "HA H10 HK HO E9 L9", "--n", "50", "--no-progress", *argv]) == 0
    assert "options " in capsys.readouterr().out
