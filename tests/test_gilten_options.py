"""Giltspiel and Perlaggen rule options: every spec default is a named option, every declared choice is read.

The registry is the data: a choice that no code reads would silently give a user the default rules, so
`test_every_choice_is_read` runs the command that reads each option with every non-default choice (the job
is caught before it simulates) and asserts that the job differs from the default one; a new option with
several choices fails until it is given a command that reads it (`READERS`).
"""

import re
from pathlib import Path

import numpy as np
import pytest

from analysis.cli import main
from simcore import runner
from simcore.betting import SP, G, H, VOID
from simcore.errors import CardsimError
from simcore.games import perlaggen as P
from simcore.games import perlaggen_three as T
from simcore.registry import NOT_MODELLED, AnyNumber, chosen_options, get_game

SPEC_ROOT = Path(__file__).resolve().parents[2] / "shared" / "rules"
GILT_MATCH = ["match", "giltspiel", "--a", "formula", "--b", "never", "--games", "2", "--seed", "1"]
PERL_STATS = ["stats", "perlaggen", "--n", "10", "--seed", "1"]
PERL_MATCH = ["match", "perlaggen", "--a", "formula", "--b", "never", "--games", "2", "--seed", "1"]
PERL_STRAF = ["match", "perlaggen", "--players", "3", "--straf", "--a", "formula", "--b", "never", "--games", "3",
              "--seed", "1"]
READERS = {
    **{("giltspiel", name): GILT_MATCH
       for name in ("target", "void_policy", "fifth_trick_bet", "strict_examples", "communication", "speech_order",
                    "spiel_aus_held", "stop_on_target")},
    ("giltspiel", "perlique"): ["stats", "giltspiel", "--n", "10", "--seed", "1"],
    ("giltspiel", "perlique_tie"): (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--spiel", "greedy", "--n", "10",
                                     "--option", "perlique=true"], 1),
    **{("perlaggen", name): PERL_STATS
       for name in ("style", "exchange", "exchange_gives", "players")},
    ("perlaggen", "style", "straf"): PERL_STATS + ["--players", "3"],
    ("perlaggen", "packets_seven"): PERL_STATS + ["--players", "2"],
    ("perlaggen", "six_player_cards"): PERL_STATS + ["--players", "6"],
    **{("perlaggen", name): PERL_MATCH
       for name in ("target", "communication", "strict_examples", "concede_needs_example", "one_pending_in_play",
                    "fifth_trick_bet", "six_below_bells_seven")},
    **{("perlaggen", name): PERL_STRAF for name in ("straf_places", "straf_no_hopeless_spiel_bet")},
}
"""(game, option[, choice]) -> a command line that reads the option, or (that line, how many jobs it runs first that
do not read it)."""


class Caught(Exception):
    """The job a command handed to the runner."""


@pytest.fixture
def job_of(monkeypatch):
    """argv -> the key of the job the command would run (it is not run); (argv, k) -> of its job after k others, which
    count one deal each."""
    jobs = []

    def run(job, *args, **kwargs):
        if len(jobs) == skip[0]:
            raise Caught(job.key())
        jobs.append(job)
        return np.r_[1, np.zeros(job.n_counts - 1, dtype=np.int64)]

    monkeypatch.setattr(runner, "run", run)
    skip = [0]

    def key(line):
        argv, skip[0] = line if isinstance(line, tuple) else (line, 0)
        jobs.clear()
        with pytest.raises(Caught) as caught:
            main([*argv, "--no-progress"])
        return caught.value.args[0]
    return key


def _values(choice) -> tuple:
    """A choice's values to try: a free number's ends, else the choice itself."""
    if isinstance(choice, AnyNumber):
        return choice.chosen(choice.minimum), choice.chosen(choice.maximum)
    return (choice,)


def _choices():
    for game in ("giltspiel", "perlaggen"):
        for option in get_game(game).options:
            for choice in option.choices:
                for value in _values(choice):
                    if value != option.default:
                        yield game, option.name, value


def _typed(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@pytest.mark.parametrize("game, name, value", list(_choices()))
def test_every_choice_is_read(job_of, game, name, value):
    """Every non-default choice of every option changes the job of a command that reads it; the default
    given as an option changes nothing."""
    line = READERS.get((game, name, value)) or READERS[(game, name)]
    argv, skip = line if isinstance(line, tuple) else (line, 0)
    default = next(o.default for o in get_game(game).options if o.name == name)
    plain = job_of((argv, skip))
    assert job_of((argv + ["--option", f"{name}={_typed(default)}"], skip)) == plain
    assert job_of((argv + ["--option", f"{name}={_typed(value)}"], skip)) != plain


@pytest.mark.parametrize("game", ["giltspiel", "perlaggen"])
def test_one_choice_means_not_modelled(game):
    options = get_game(game).options
    defaults = {option.name: option.default for option in options}
    assert chosen_options(game, options, defaults) == defaults  # every default is one of its choices
    for option in options:
        one = len(option.choices) == 1 and not isinstance(option.choices[0], AnyNumber)
        assert one == option.help.endswith(NOT_MODELLED), option.name


SPEC_DEFAULT_IDS = {"giltspiel": [f"A-{k}" for k in range(1, 21)], "perlaggen": [f"A-{k:02d}" for k in range(1, 39)]}
"""The ids of the spec's defaults tables (giltspiel.md §9.2: A-1 to A-20; perlaggen.md §10: A-01 to A-38)."""


@pytest.mark.parametrize("game, pattern", [("giltspiel", r"^\| (A-\d+) \|"),
                                           ("perlaggen", r"\((A-\d\d)\) \||^\| (A-\d\d) \|")])
def test_every_spec_default_is_an_option(game, pattern):
    """Every id of the spec's defaults table names an option; where the spec is at hand (the workplace's
    shared/rules, not in a bare clone) its table holds exactly these ids."""
    ids = SPEC_DEFAULT_IDS[game]
    helps = " ".join(o.help for o in get_game(game).options)
    assert [i for i in ids if not re.search(rf"\b{i}\b", helps)] == []
    spec = SPEC_ROOT / get_game(game).rules_file
    if spec.exists():
        found = {next(g for g in m.groups() if g) for m in re.finditer(pattern, spec.read_text(), re.MULTILINE)}
        assert found == set(ids)


# --- refusals ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("argv, message", [
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--option", "void_policy=second_shower_scores"],
     "option void_policy does not change 'cardsim odds giltspiel' (the options it reads: perlique)"),
    (PERL_STATS + ["--style", "eichel", "--option", "style=eichel"], "give --style or --option style=..., not both"),
    (GILT_MATCH + ["--permissive", "--option", "strict_examples=false"], "give --permissive or --option"),
    (PERL_STATS + ["--exact", "--option", "style=eichel"], "does not change 'cardsim stats perlaggen --exact'"),
    (PERL_MATCH + ["--option", "straf_no_hopeless_spiel_bet=true"], "straf_no_hopeless_spiel_bet does not change"),
    (PERL_STRAF[:-2] + ["--option", "concede_needs_example=false"], "concede_needs_example does not change"),
    (PERL_STATS + ["--option", "hanger_wraps=true"], "hanger_wraps cannot be 'true'"),
])
def test_refused_in_one_line(capsys, argv, message):
    assert main([*argv, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_an_option_at_its_default_changes_nothing(capsys):
    """target=18 is the game's default, not the Strafperlaggen starting count (9): it sets no flag, and the title
    names no option; Strafperlaggen is reached by --straf only."""
    argv = ["match", "perlaggen", "--players", "3", "--straf", "--a", "cautious", "--b", "aggressive", "--games", "3",
            "--seed", "1", "--no-progress"]
    assert main(argv) == 0
    plain = capsys.readouterr().out
    assert main(argv + ["--option", "target=18"]) == 0
    assert capsys.readouterr().out == plain and "starts on 9" in plain
    assert main(["match", "perlaggen", "--players", "3", "--option", "style=straf", "--a", "cautious", "--b",
                 "aggressive", "--games", "2", "--no-progress"]) == 2
    assert "give --players 3 --straf" in capsys.readouterr().err

def test_games_lists_the_values(capsys):
    assert main(["games", "perlaggen"]) == 0
    out = capsys.readouterr().out
    assert "straf_no_hopeless_spiel_bet = False  [values: False, True]" in out
    assert "innsbruck_acorn_trump = True  [values: True]" in out


# --- behaviour of the switchable choices ---------------------------------------------------------------
def test_void_goes_to_the_second_shower_A1():
    """giltspiel.md A-1 alternative: nobody holds a Hanger; the Spiel winners (N/S) show first and pass, so
    under the literal showing they concede it to E/W, who score it (default: VOID, nobody scores)."""
    from tests.test_betting_giltspiel import EW, NS, S, N, W, E, cards, make

    hands = {S: "EA LA H7 S9 E9", N: "EK LK SO E7 HU", W: "EO L9 HA S7 L7", E: "E10 H9 SK S10 HO"}
    results = {}
    for policy in ("nobody_scores", "second_shower_scores"):
        deal = make(hands, "LU", void_policy=policy)
        deal.concede(EW, SP)
        deal.reveal(S, cards("EA LA"))
        deal.end_turn(NS)
        deal.concede(EW, G)
        deal.end_turn(EW)
        results[policy] = deal.figures[H].winner, deal.result.points
    assert results == {"nobody_scores": (VOID, [2, 0]), "second_shower_scores": (EW, [2, 1])}


def test_unbet_concession_without_example_A11():
    """perlaggen.md A-11: N-S hold no Hanger, nobody a Gleich; with concede_needs_example False the conceded
    Hanger scores for N-S and the conceded Gleich for E-W (default: both for nobody)."""
    from tests.test_betting_perlaggen import EW, NS, T24, make
    from simcore.betting import NOBODY

    for needs, winners, points in ((True, (NOBODY, NOBODY), [0, 1]), (False, (NS, EW), [1, 2])):
        deal = make(T24, "L", concede_needs_example=needs)
        deal.concede(EW, H)
        deal.concede(NS, SP)
        deal.concede(NS, G)
        assert (deal.figures[H].winner, deal.figures[G].winner) == winners and deal.result.points == points


def test_several_bets_in_play_A16():
    """perlaggen.md A-16: by default one unanswered bet at a time during trick play; False allows a second."""
    from tests.test_betting_perlaggen import S, T14, W, make, play

    for one, allowed in ((True, False), (False, True)):
        deal = make(T14, "E", one_pending_in_play=one)
        play(deal, (W, "L8"))
        deal.bet(S, G)
        assert deal.can_bet(S, SP) is allowed


def test_fifth_trick_bet_after_playing_A34():
    """perlaggen.md A-34: the leader has played his fifth card; the default tests that card, unplayed_only
    refuses him."""
    from simcore.betting import Deal
    from tests.test_betting_perlaggen import cards_for, face, faces, rules_from_options

    hands = [faces("L9 EA EK SA SK"), faces("E8 LA LK EO EU"), faces("L7 SO SU S10 S9"), faces("S7 L10 E10 E9 H8")]
    for rule, allowed in (("fifth_card_rule", True), ("unplayed_only", False)):
        deal = Deal(cards_for("innsbruck", P.DECK.suits.index("H")), rules_from_options(fifth_trick_bet=rule),
                    hands, 2)
        deal.won, deal.leader, deal.trick = [2, 2], 0, [(face("L9"), face("L9"))]
        deal.in_hand = [set(), {face("E8")}, {face("L7")}, {face("S7")}]
        assert deal.can_bet(0, SP) is allowed


def test_six_below_bells_seven_A24():
    """perlaggen.md A-24: the Weli fixed as itself (unbaptised) makes S8-S7-S6 a 3-card Hanger only by default."""
    hand = [P.DECK.mask(P.DECK.parse_cards("S8 S7 LA EK") + [P.WELI])]
    baptised = np.full((1, len(P.perlaggen("innsbruck", "H"))), -1, dtype=np.int8)
    baptised[0, P.perlaggen("innsbruck", "H").index(P.WELI)] = P.WELI
    lengths = [P.figure_codes(hand, "innsbruck", "H", baptised, six)[0, P.HANGER] // 16 for six in (True, False)]
    assert lengths == [3, 2]
    from simcore.games import perlaggen_betting as PB  # the betting game's view of the cards, which match reads

    cards = P.DECK.parse_cards("S8 S7 LA EK") + [P.WELI]
    assert [PB.cards_for("innsbruck", P.DECK.suits.index("H"), six).codes(cards, {P.WELI: P.WELI})[1] // 16
            for six in (True, False)] == [3, 2]


@pytest.mark.parametrize("argv", [PERL_STATS, ["odds", "perlaggen", "--hand", "S6 LA LK L8 E10", "--trump", "L",
                                               "--n", "10"]])
def test_six_below_bells_seven_is_refused_where_every_perlagg_is_free(capsys, argv):
    """With every Perlagg free the option changes only figures of 9 cards or more: odds and stats refuse it."""
    assert main([*argv, "--option", "six_below_bells_seven=false", "--no-progress"]) == 2
    assert "option six_below_bells_seven does not change" in capsys.readouterr().err


def _hopeless_deal(rule: bool) -> T.Deal3:
    """A Strafperlaggen deal played by G1 until some player can no longer take 4 tricks, the Spiel open."""
    rng = np.random.default_rng(3)
    while True:
        hands, trump = T.draw_deal(rng, T.STRAF)
        deal = T.Deal3(hands, trump, 0, (T.STRAF_START,) * 3, style=T.STRAF, no_hopeless_spiel_bet=rule)
        while deal.phase == T.PLAY:
            if not deal.trick and any(w + T.HAND - sum(deal.won) < T.NEED for w in deal.won):
                return deal
            T.play_card(deal)


def test_no_hopeless_spiel_bet():
    """perlaggen.md §9.5 straf_no_hopeless_spiel_bet: a player who can no longer take 4 tricks may not bet the
    Spiel; by default he may."""
    for rule in (False, True):
        deal = _hopeless_deal(rule)
        seat = next(p for p in range(3) if deal.won[p] + T.HAND - sum(deal.won) < T.NEED)
        error = deal.bet_error(seat, SP)
        assert (error is not None and "straf_no_hopeless_spiel_bet" in error) is rule
        if not rule:
            deal.bet(seat, SP)
            assert deal.figures[SP].bettor == seat


def test_no_hopeless_raise():
    """§9.5: the rule covers raising the Spiel too; the hopeless player may still accept, as a sacrifice."""
    deal = _hopeless_deal(True)
    seat = next(p for p in range(3) if deal.won[p] + T.HAND - sum(deal.won) < T.NEED)
    deal.bet(next(p for p in range(3) if p != seat and deal.bet_error(p, SP) is None), SP)
    while deal.pending() == SP:
        answerer = deal.figures[SP].queue[0]
        if answerer == seat:
            with pytest.raises(CardsimError, match="not allowed"):
                deal.answer(seat, SP, T.RAISE3)
        deal.answer(answerer, SP, T.ACCEPT3 if answerer == seat else T.GUT3)
    assert deal.figures[SP].level[seat] == 2
