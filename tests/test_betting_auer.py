"""The ``auer_channel`` communication model (giltspiel.md §7.14): a player knows his own hand plus his
partner's signalled trumps, has-Gleich and has-Hanger. Its estimates, its first-order table, the
registered ``communication`` option, and matches whose points per deal lie between ``partner`` and
``none`` on the same deals."""

import pytest

from analysis.games import betting as analysis_betting
from simcore import betting
from simcore.betting import AUER, G, H, SP
from simcore.games import giltspiel_betting as gb
from simcore.games import perlaggen_betting as pb
from simcore.registry import get_game
from test_betting_models import run_cli

import naive_betting

HANDS = ("E7 L8 H9 S10 EU", "L7 H8 S9 E10 LU", "EA LA HA EK LK", "S7 E8 L9 H10 HU")
"""Seat 0: no Gleich, no Hanger; seat 2 (his partner): three Aces, a pair of Kings, the Hangers EK-EA
and LK-LA."""


def test_auer_estimates_use_own_code_and_partner_signal():
    """Seat 0 knows his own hand (no Gleich) and that his partner signals a Gleich: the d of the table row
    "own none, partner has one", between knowing nothing (``none``) and knowing the three Aces
    (``partner``). The Spiel uses the team's trumps (signalled), as under ``partner``."""
    deal = gb.new_deal([gb.DECK.parse_cards(h) for h in HANDS], trump=0)
    auer, partner, alone = (gb.make_estimator(c) for c in (AUER, "partner", "none"))
    bins = gb.CODE_BINS
    table = gb.figure_table(AUER)
    assert table.shape == (2, 2 * bins, 4)
    assert auer(deal, 0, G) == pytest.approx(table[G, bins, 0] - table[G, bins, 2])
    assert alone(deal, 0, G) < auer(deal, 0, G) < partner(deal, 0, G)
    own = deal.best_code(2, H) + 1  # seat 2: the Hanger EK-EA; his partner (seat 0) has none
    assert auer(deal, 2, H) == pytest.approx(table[H, own, 0] - table[H, own, 2])
    assert auer(deal, 0, H) == pytest.approx(table[H, bins, 0] - table[H, bins, 2])
    assert auer(deal, 0, SP) == partner(deal, 0, SP)
    assert auer.view(0) != auer.view(2)
    assert (gb.spiel_table(AUER) == gb.spiel_table("partner")).all()


@pytest.mark.parametrize("game", ["giltspiel", "perlaggen"])
def test_auer_first_order_is_the_own_hand_table(game):
    """Averaged over the partner's signals the Auer figure table is the ``none`` one, so the first-order
    table (weakest class that holds) is the same."""
    auer = analysis_betting.first_order(game, AUER)
    none = analysis_betting.first_order(game, "none")
    assert auer.equals(none)
    kit = gb if game == "giltspiel" else pb.kit()
    assert (naive_betting.fold_signals(kit.figure_counts(AUER)) == kit.figure_counts("none")).all()


def test_auer_match_points_lie_between_partner_and_none():
    """The same deal sequences under the three models (formula vs cautious, Giltspiel): the more a player
    knows of his partner's hand, the fewer points are bet per deal (both teams bet on single hands
    without signals), so points per deal of both sides together order partner < auer_channel < none."""
    totals = {}
    for communication in ("partner", AUER, "none"):
        frame = analysis_betting.match("giltspiel", "formula", "cautious", games=120, seed=7,
                                       communication=communication, progress=False)
        totals[communication] = frame.ppd_mean.sum()
    assert totals["partner"] < totals[AUER] < totals["none"]


def test_communication_option_registered_and_command(capsys):
    for game in ("giltspiel", "perlaggen"):
        option = {o.name: o for o in get_game(game).options}["communication"]
        assert option.default == "partner" and option.choices == betting.COMMUNICATION
    code, out, _ = run_cli(capsys, "games", "giltspiel")
    assert code == 0 and "communication" in out and "auer_channel" in out
    code, _, err = run_cli(capsys, "match", "giltspiel", "--a", "formula", "--b", "never", "--communication", "auer",
                           "--no-progress")
    assert code == 2 and "auer_channel" in err and err.count("\n") == 1
