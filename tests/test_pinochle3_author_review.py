"""Pinochle fixes after a rule-book author's review (spec shared/rules/pinochle3.md): thresholds a 95% interval
cannot tell from passing or a coin flip are marked, option help texts say what each option does and where it is
read, the spec's Q12 figure only under its target and scale, default bids from the minimum bid, a note when the
hand itself may throw the deal in (X7), and the nines throw-in rates of `stats` (Q11) against a plain recount and
the exact hypergeometric values. The exact kitty gain is in test_pinochle3_kitty_exact."""

import json
from math import comb

import numpy as np
import pytest

import naive_pinochle3 as naive
from analysis.games import pinochle3 as api
from simcore.dealing import deal
from simcore.errors import CardsimError
from simcore.games import pinochle3 as p3
from simcore.games import pinochle3_exact as exact_facts
from simcore.games.pinochle3_discard import MeldStatsJob
from simcore.registry import NOT_MODELLED
from simcore.rng import block_words
from test_pinochle3_review import HAND, RUN, run_cli

M21 = "S9 S9 H9 D9 C9 SA S10 SJ H10 HJ DA D10 CJ C10 CA"
"""Spec §10.1 M21 / X7: five nines and only the double deece, so V4a (5_no_meld) applies, V4d (no ace) not."""


# --- thresholds: '~' where the interval cannot decide ------------------------------------------------------------
def test_thresholds_mark_bids_their_interval_cannot_tell_apart(capsys):
    tables = api.thresholds(3000, 1, **RUN)
    rows = [r for name in ("by_meld", "by_trump_length") for r in tables[name].itertuples()]
    marked = 0
    for r in rows:
        if api._missing(r.bid_ev):
            assert api._missing(r.ev_settled)
        else:
            assert r.ev_settled == (r.ev_vs_pass_lo > 0)
            marked += not r.ev_settled
        if not api._missing(r.bid50):
            assert r.bid50_settled == (r.lo50 > 0.5)
    assert marked  # 3,000 hands leave some bid_ev within the noise
    text = api.format_thresholds(tables)
    assert api.UNSETTLED_LEGEND in text
    lines = {line.split()[0]: line for line in text.splitlines()[5:] if line and not line.startswith(" ")}
    for r in tables["by_meld"].itertuples():
        if not api._missing(r.bid_ev):
            assert (f"{int(r.bid_ev)}~" in lines[r.meld]) == (not r.ev_settled)
    data = api.thresholds_json(tables)["tables"]["by_meld"]
    assert all(isinstance(row["ev_settled"], bool) or row["ev_settled"] is None for row in data)


# --- cardsim games: what each option does, where it is read --------------------------------------------------------
def test_option_help_says_what_the_option_does_and_the_default():
    helps = {o.name: o.help for o in p3.OPTIONS}
    for name in ("roundhouse_meld", "trump_requires_marriage", "allow_partial_meld", "bidder_needs_counter",
                 "unanimous_throw_in"):
        assert helps[name].startswith("True: ") and "default False" in helps[name]
    for o in p3.OPTIONS:
        if o.choices == (o.default,) and o.name != "bid_step":
            assert o.help.endswith(NOT_MODELLED), o.name
    assert "pinochle3_play.name_trump" in helps["trump_requires_marriage"]
    assert "pinochle3_play.score_renege" in helps["renege_defender_bidder_award"]
    for name in ("allow_partial_meld", "misdeal_redeal"):
        assert "No function reads it" in helps[name]
    assert "read by match" in helps["unanimous_throw_in"]


@pytest.mark.parametrize("name, value", [("allow_partial_meld", True), ("renege_defender_bidder_award", "bid"),
                                         ("misdeal_redeal", "next_dealer"), ("trump_requires_marriage", True)])
def test_options_said_to_be_refused_by_every_command_are(name, value):
    """The help's "every command refuses" holds."""
    for command in ("meld", "stats", "odds", "thresholds", "match"):
        with pytest.raises(CardsimError, match=name):
            api.checked_options({name: value}, command)


def test_games_listing_gives_n_hands_its_range(capsys):
    code, out, _ = run_cli(capsys, "games", "pinochle3")
    lines = {line.split()[0]: line for line in out.splitlines() if " = " in line}
    assert code == 0 and not lines["n_hands"].endswith(NOT_MODELLED)
    assert "[values: None, any whole number from 1 to 100]" in lines["n_hands"]


# --- match: spec Q12's figure only for its game ------------------------------------------------------------------
@pytest.mark.parametrize("options, shown", [({}, True), ({"target": 1000}, False), ({"scale": 0.1}, False),
                                            ({"target": 2500}, False), ({"nines_rule": "6_any"}, True)])
def test_q12_reference_only_under_the_main_target_and_scale(options, shown):
    assert (api._q12_note(options) == "; spec Q12: 10-12 to 1500") == shown


def test_match_line_drops_q12_at_target_1000():
    frame = api.match("bold", "cautious", games=3, seed=1, options={"target": 1000}, **RUN)
    line = [x for x in api.format_match(frame).splitlines() if "hands per game" in x][0]
    assert line.endswith("(thrown-in deals included)")


# --- odds: default bids from the minimum bid --------------------------------------------------------------------
@pytest.mark.parametrize("min_bid, first", [(250, 250), (None, 10), (100, 100), (300, 300)])
def test_default_bids_start_at_the_minimum_bid(min_bid, first):
    opts = p3.rule_options({"min_bid": min_bid})
    assert api.checked_bids(None, opts) == tuple(range(first, 510, 10))
    assert api.checked_bids(None, p3.rule_options({"min_bid": min_bid, "scale": 0.1}), 10) == \
        tuple(range(first // 10, 51))


def test_odds_default_bids_follow_min_bid_none():
    tables = api.odds(HAND, n=16, seed=1, dd_tricks=0, options={"min_bid": None}, **RUN)
    assert tables["make"].bid.tolist() == list(range(10, 510, 10))


# --- odds: the hand itself may throw the deal in (X7) -------------------------------------------------------------
@pytest.mark.parametrize("rule, qualifies", [("5_no_meld", True), ("5_no_ace", False), (None, False)])
def test_odds_say_when_the_hand_itself_qualifies_for_a_throw_in(capsys, rule, qualifies):
    argv = ["odds", "pinochle3", "--hand", M21, "--n", "32", "--seed", "1", "--bids", "250", "--dd-tricks", "0",
            "--no-progress"] + (["--option", f"nines_rule={rule}"] if rule else [])
    code, out, _ = run_cli(capsys, *argv, "--json")
    assert code == 0 and json.loads(out)["hand_may_throw_in"] is qualifies
    code, text, _ = run_cli(capsys, *argv)
    assert ("note: this hand itself qualifies for a nines throw-in" in text) == qualifies


# --- stats: how often a nines rule throws a deal in (Q11) --------------------------------------------------------
def plain_qualifies(mask: int, rule: str) -> bool:
    """The V4 rule of one 15-card hand, from its cards and the literal meld reference."""
    tokens = [p3.DECK.suits[c // 12] + p3.DECK.ranks[c // 2 % 6] for c in range(48) if mask >> c & 1]
    nines, aces = sum(t[1:] == "9" for t in tokens), sum(t[1:] == "A" for t in tokens)
    least, most_aces, no_meld = p3.NINES_RULES[rule]
    if nines < least or aces > most_aces:
        return False
    return not no_meld or all(naive.meld_total(tokens, t) == 10 * tokens.count(t + "9") for t in "SHDC")


def test_throw_in_rates_equal_a_plain_recount_of_the_same_deals():
    n, seed = 4000, 5
    tables = api.stats(n, seed, options={"nines_rule": "5_no_meld"}, **RUN)
    slots = deal(MeldStatsJob().spec, block_words(seed, 0, n, MeldStatsJob().spec.words_per_deal))
    for r in tables["throw_ins"].itertuples():
        plain = sum(any(plain_qualifies(int(slots[i, s]), r.rule) for s in range(3)) for i in range(n))
        assert r.successes == plain and r.n == n and r.lo <= r.p <= r.hi and r.chosen == (r.rule == "5_no_meld")
    assert tables["throw_ins"].successes.iloc[0] > 100


def test_exact_column_equals_the_hypergeometric_rates():
    """The rules without a meld condition, from the 8 nines, 8 aces and 32 others of the pack (spec §9.2), per player
    and, as no two players both qualify, 3 times that per deal."""
    def holdings(least, most_aces):
        return sum(comb(8, k) * comb(8, a) * comb(32, 15 - k - a) for k in range(least, 9)
                   for a in range(most_aces + 1) if k + a <= 15)

    shares = {r["rule"]: r for r in exact_facts.throw_in_shares()}
    for rule, (least, most_aces, no_meld) in p3.NINES_RULES.items():
        if not no_meld:
            row = shares[rule]
            assert row["holdings"] == holdings(least, min(most_aces, 8))
            assert row["player"] == row["holdings"] / comb(48, 15)
            assert row["deal"] == pytest.approx(3 * row["player"], rel=1e-15)


def test_stats_prints_the_throw_in_table(capsys):
    code, text, _ = run_cli(capsys, "stats", "pinochle3", "--n", "2000", "--seed", "1", "--no-progress",
                            "--option", "nines_rule=6_any")
    assert code == 0 and "by nines rule (V4, spec Q11)" in text
    line = [x for x in text.splitlines() if x.startswith("  6_any")][0]
    assert line.endswith("0.022749   <- nines_rule")
    assert api.stats(64, 1, **RUN)["throw_ins"].chosen.sum() == 0
    assert np.isclose(api.stats(64, 1, **RUN)["throw_ins"].exact.iloc[0], 3 * 0.0163659)
