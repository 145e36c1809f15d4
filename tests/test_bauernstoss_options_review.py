"""Regression tests from the review of the Bauernstoss --option changes: an odd value never a traceback, an
option a command does not read refused, ds_require_unter read by the DS thresholds, jack_rule only in BS."""

import pytest

from analysis.commands import option_items
from analysis.games import bauernstoss as b
from simcore.errors import CardsimError


@pytest.mark.parametrize("text", ["--3", "²", "-²"])
def test_review_bs_option_value_never_a_traceback(text):
    """`--option x=--3` / `x=²` were taken for numbers by str.isdigit() and crashed int(): now text."""
    assert option_items([f"min_number_bid={text}"]) == {"min_number_bid": text}


def test_review_bs_thresholds_ds_require_unter_is_not_ignored():
    """§8 A9: with ds_require_unter a DS hand without an Unter cannot bid, so no 0-Unter rows."""
    frame = b.thresholds("greedy", 3000, 2, variant="DS", rules=(("ds_require_unter", True),))
    assert (frame["jacks"] == 0).sum() == 0


@pytest.mark.parametrize("name,value", [("first_dealer", 2), ("throwin_consumes_first_hand", True),
                                        ("allow_suit_switch", True)])
def test_review_bs_odds_refuses_options_it_cannot_use(name, value):
    """odds plays one hand of a fixed deal: seating and game options would change nothing (its auction part reads
    the auction options, `AUCTION_RULES`), and no policy names a suit other than its bid's."""
    with pytest.raises(CardsimError):
        b.odds("sB hB dB cA cT sK h7 d8", 1, "greedy", 50, 1, rules=((name, value),))


def test_review_bs_jack_rule_refused_outside_bs():
    """jack_rule is the BS jack duty (§8 A1); AS and DS have their own play rules."""
    with pytest.raises(CardsimError):
        b.checked_rules({"jack_rule": "off"}, "AS")


def test_as_first_hand_solo_needs_the_first_hand():
    with pytest.raises(CardsimError, match="changes only a game's first hand"):
        b.odds("sB hB dB cA cT sK h7 d8", 1, "greedy", 20, 1, variant="AS", rules=(("as_first_hand_solo", True),))


def test_solo_partner_holds_at_most_eight_cards():
    from analysis.games.bauernstoss_play import solve

    with pytest.raises(CardsimError, match="seat 2, who sits out, holds 11 cards"):
        solve("cB hB sB / c7 c8 c9 / cD cK sD sK hD hK dD dK dT dA d9 / sT s9 h9", "h", solo=0)
