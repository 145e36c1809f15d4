"""Giltspiel odds weighed by the opponents' bets seen (spec §10.1 Q7): `simcore.betting.bet_categories` against the
betting engine's first window, the weighted odds against a plain-Python reference and against rejection sampling,
the reduction to `--given` without bluffs, and bad input."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive_giltspiel_bets_seen as naive
from analysis.cli import main
from analysis.commands import long_frame
from analysis.games import giltspiel as ag
from analysis.stats import weighted_difference, weighted_estimate, wilson
from simcore import betting
from simcore.betting import (AUER, BET_BLUFF, BET_WANTED, COMMUNICATION, NEVER_BETS, PRESETS, Agent, G, H,
                             Policy)
from simcore.errors import CardsimError
from simcore.games import giltspiel as g
from simcore.games import giltspiel_betting as gb

HAND = "EK LK EO HO SO"
POLICIES = (PRESETS["formula"], PRESETS["aggressive"], PRESETS["cautious"],
            Policy("loose", bet_margin=-0.4, bluff=0.3), Policy("tight", bet_margin=0.8, bluff=0.05))
CHAIN_POLICIES = POLICIES + (Policy("raiser", bet_margin=0.2, hold_margin=-0.3, raise_margin=-0.2, bluff=0.25),)
"""With a policy that raises below its bet margin (so a raise may follow a bluff)."""


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def codes_of(hand) -> tuple[int, int]:
    return g.hand_figures(hand)


HOLDS_ALL = Policy("holds all", bet_margin=NEVER_BETS, hold_margin=-1.0, raise_margin=NEVER_BETS, max_value=1)
"""Team 0 in `opponents_bets`: never bets and holds every bet, so that no conceded Spiel ends the window."""


def opponents_bets(hands, trump: int, policy: Policy, communication: str, bluffing: bool) -> set[int]:
    """The figures team 1 bets in the first betting window of a deal, team 0 playing `HOLDS_ALL`."""
    deal = gb.new_deal(hands, trump)
    estimate = gb.make_estimator(communication)
    agents = (Agent(HOLDS_ALL, estimate), Agent(policy, estimate, (bluffing,) * 3))
    made = []
    place = deal.bet

    def record(seat, figure, counter=False):
        made.append((seat % 2, figure))
        place(seat, figure, counter)

    deal.bet = record
    betting.betting_window(deal, agents)
    return {figure for team, figure in made if team == 1}


@pytest.mark.parametrize("communication", COMMUNICATION)
@pytest.mark.parametrize("policy", POLICIES[:4], ids=lambda p: p.name)
def test_categories_match_the_engines_first_window(communication, policy):
    """With its bluff coin down the team bets exactly the figures of category BET_WANTED; up, those of BET_BLUFF too."""
    categories = betting.bet_categories(gb.figure_table(communication), policy, communication)
    rng = np.random.default_rng(11)
    seen = {BET_WANTED: 0, BET_BLUFF: 0}
    for _ in range(60):
        hands, trump = gb.draw_deal(rng)
        codes = [codes_of(h) for h in hands]
        cats = [categories[f, codes[1][f] + 1, codes[3][f] + 1] for f in (G, H)]
        for bluffing in (False, True):
            expected = {f for f, c in zip((G, H), cats) if c == BET_WANTED or (bluffing and c == BET_BLUFF)}
            assert opponents_bets(hands, trump, policy, communication, bluffing) & {G, H} == expected
        for c in cats:
            seen[c] = seen.get(c, 0) + 1
    assert seen[BET_WANTED] > 0  # and the bluff category, but for the loose policy, which bets every example:
    assert seen[BET_BLUFF] > 0 or (policy.name == "loose" and communication != "partner")


def opponents_hold(hands, trump: int, policy: Policy, communication: str, figure: int, value: int) -> bool:
    """Does team 1 hold (or raise) team 0's bet on ``figure`` from ``value``, answered by the engine (`team_answer`)?"""
    deal = gb.new_deal(hands, trump)
    deal.figures[figure].value = value
    bettor = max((0, 2), key=lambda s: deal.best_code(s, figure))
    deal.bet(bettor, figure)
    _, kind = betting.team_answer(deal, Agent(policy, gb.make_estimator(communication)), 1, figure)
    return kind != betting.GUT


@pytest.mark.parametrize("communication", COMMUNICATION)
@pytest.mark.parametrize("policy", POLICIES[:4], ids=lambda p: p.name)
def test_hold_categories_match_the_engines_answer(communication, policy):
    """Team 1 holds team 0's bet from v exactly where `hold_categories` says BET_WANTED (team 0's bettor holds an
    example of the figure, so that it may bet)."""
    rng = np.random.default_rng(13)
    seen = set()
    for value in (1, 3, 7):
        categories = betting.hold_categories(gb.figure_table(communication), policy, communication, value)
        checked = 0
        while checked < 25:
            hands, trump = gb.draw_deal(rng)
            codes = [codes_of(h) for h in hands]
            for f in (G, H):
                if max(codes[0][f], codes[2][f]) < 0:
                    continue
                checked += 1
                category = categories[f, codes[1][f] + 1, codes[3][f] + 1]
                assert category in (betting.BET_NEVER, BET_WANTED)
                assert opponents_hold(hands, trump, policy, communication, f, value) == (category == BET_WANTED)
                seen.add(int(category))
    assert seen == {betting.BET_NEVER, BET_WANTED}


def test_a_policy_that_bets_nothing_has_only_the_never_category():
    capped = Policy("capped", bet_margin=-1.0, bluff=0.5, max_value=1)
    assert not betting.bet_categories(gb.figure_table("partner"), capped).any()


@pytest.mark.parametrize("seen, bluff, expected", [
    (None, 0.2, [1, 1, 1]), ("bet", 0.2, [0, 0.2, 1]), ("no_bet", 0.2, [1, 0.8, 0]), ("held", 0.2, [0, 0.2, 1])])
def test_seen_likelihood(seen, bluff, expected):
    assert betting.seen_likelihood(seen, bluff) == pytest.approx(expected)


def test_weighted_estimate_reduces_to_wilson_with_weights_of_zero_and_one():
    est = weighted_estimate([30, 7, 5], [100, 20, 9], [1, 0, 1])
    assert est["p"] == pytest.approx(35 / 109) and est["n_eff"] == pytest.approx(109)
    assert (est["lo"], est["hi"]) == pytest.approx(wilson(35, 109))
    assert est["se"] == pytest.approx(np.sqrt(35 / 109 * 74 / 109 / 109))


def test_weighted_estimate_of_constant_weights_is_the_plain_share():
    est = weighted_estimate([3, 4], [10, 10], [0.3, 0.3])
    assert est["p"] == pytest.approx(0.35) and est["n_eff"] == pytest.approx(20)
    assert (est["lo"], est["hi"]) == pytest.approx(wilson(7, 20))


def test_weighted_estimate_by_hand():
    """Strata (s, t, w) = (1, 2, 1), (2, 2, 0.5): p = (1 + 1) / (2 + 1); deals' (x - p)^2 weighted by w^2."""
    est = weighted_estimate([1, 2], [2, 2], [1.0, 0.5])
    p = 2 / 3
    variance = (1 * (1 - p) ** 2 + 1 * p ** 2 + 0.25 * 2 * (1 - p) ** 2) / 3 ** 2
    assert est["p"] == pytest.approx(p) and est["se"] == pytest.approx(np.sqrt(variance))
    assert est["n_eff"] == pytest.approx(9 / 2.5)
    assert (est["lo"], est["hi"]) == pytest.approx(wilson(p * p * (1 - p) / variance, p * (1 - p) / variance))
    assert np.isnan(weighted_estimate([1], [2], [0.0])["p"])


def test_weighted_difference_by_hand():
    """Weights 0/1: d = (wins - losses) / n with se^2 = (P(win) + P(lose) - d^2) / n, the multinomial's."""
    est = weighted_difference([30, 9], [50, 9], [100, 20], [1, 0])
    assert est["d"] == pytest.approx(-0.2) and est["se"] == pytest.approx(np.sqrt((0.8 - 0.04) / 100))
    assert (est["lo"], est["hi"]) == pytest.approx((-0.2 - 1.959964 * est["se"], -0.2 + 1.959964 * est["se"]))
    weighted = weighted_difference([1, 0], [0, 1], [1, 1], [1.0, 0.5])  # deals y = +1 (w 1), -1 (w 0.5)
    d = (1 - 0.5) / 1.5
    assert weighted["d"] == pytest.approx(d)
    assert weighted["se"] ** 2 == pytest.approx(((1 - d) ** 2 + 0.25 * (1 + d) ** 2) / 1.5 ** 2)


@pytest.mark.parametrize("policy, hold", [("aggressive", True), ("formula", False)])
def test_hold_advice_follows_the_10_6_rule(policy, hold):
    """The README's pair of Kings facing a Gleich bet: d is P(win) - P(lose) of the rows, and §10.6 holds the bet
    from 1 to 2 when d > -1/2: against the bluffing aggressive preset, not against formula."""
    frame = ag.odds("EK LK H9 S7 LU", n=100_000, seed=11, opponents_bet=("gleich",), opponents_policy=policy)
    rows = frame[frame.figure == "gleich"].set_index("outcome")
    advice = frame.attrs["hold"]["gleich"]
    assert advice["d"] == pytest.approx(rows.loc["win", "p"] - rows.loc["lose", "p"], abs=1e-12)
    assert advice["lo"] < advice["d"] < advice["hi"]
    assert advice["hold"] is hold and advice["close"] is False and advice["example"] is True
    assert (advice["d"] > betting.hold_threshold(1)[0]) is hold
    assert set(frame.attrs["hold"]) == {"gleich"}  # advice only for the figures bet
    text = ag.format_odds(frame)
    assert "facing their bet from 1 to 2 (spec §10.6, points only): hold it when d = P(win) - P(lose) > -1/2" in text
    assert f"]: {'hold it' if hold else 'give it up'}\n" in text


def test_hold_advice_flags_a_close_call_and_a_missing_example():
    """d = (20 - 70) / 100 = -0.5 exactly: give it up, the interval crossing -1/2; a seat without the figure is told
    that only a partner holding one may hold."""
    cells = np.zeros((9, 13), dtype=np.int64)
    cells[8, :9] = [100, 20, 10, 70, 0, 50, 10, 40, 0]
    bets = {"seen": {"gleich": "bet", "hanger": "bet"}, "values": {"gleich": 1, "hanger": 1}, "weights": np.ones(9)}
    advice = ag._hold_advice(cells, bets, {"gleich": True, "hanger": False})
    assert advice["gleich"]["d"] == pytest.approx(-0.5) and advice["gleich"]["hold"] is False
    assert advice["gleich"]["close"] is True and advice["hanger"]["close"] is False
    lines = "\n".join(ag._hold_lines({"hold": advice}))
    assert "give it up; close: the interval crosses -1/2" in lines
    assert "Hanger  d = +0.1000" in lines
    assert "hold it; you hold no Hanger: only a partner holding one may hold it" in lines


def frame_shares(frame) -> dict:
    return {(r.figure, r.outcome): r.p for r in frame.itertuples() if r.outcome in naive.OUTCOMES}


@settings(max_examples=16, deadline=None)
@given(seat=st.integers(0, 3), seed=st.integers(0, 10_000), communication=st.sampled_from(COMMUNICATION),
       policy=st.sampled_from(CHAIN_POLICIES),
       seen=st.dictionaries(st.sampled_from(g.FIGURES),
                            st.sampled_from(betting.SEEN), min_size=1),
       values=st.fixed_dictionaries({f: st.integers(1, ag.MAX_BET_SEEN) for f in g.FIGURES}))
def test_weighted_odds_match_the_reference(seat, seed, communication, policy, seen, values):
    n = 1500
    values = {f: 1 if what == "no_bet" else values[f] for f, what in seen.items()}
    bet = tuple(f"{f}:{values[f]}" for f, what in seen.items() if what == "bet")
    no_bet = tuple(f for f, what in seen.items() if what == "no_bet")
    held = tuple(f"{f}:{values[f]}" for f, what in seen.items() if what == "held")
    try:
        frame = ag.odds(HAND, seat, n=n, seed=seed, opponents_bet=bet, opponents_no_bet=no_bet, opponents_held=held,
                        opponents_policy=policy, opponents_communication=communication)
    except CardsimError as exc:  # no deal fits what was seen
        frame, message = None, str(exc)
    facts = g.parse_known(HAND, seat)
    slots, keep = g.OddsJob(facts, seat % 2, seat=seat).deal_block(seed, 0, n)
    table = gb.figure_table(communication)
    d = table[:, :, 0] - table[:, :, 2]
    shares, total = naive.weighted_odds(slots, keep, seat, seen, policy, communication, d, values=values)
    if frame is None and "never bets a figure above" in message:  # refused before dealing
        last = {f: values[f] - (what == "held") for f, what in seen.items()}
        assert any(v >= 1 and v + 1 > policy.max_value for v in last.values()) and total == 0
        return
    if frame is None:
        assert total == 0 and "no deal out of 1,500 fits the bets seen" in message
        return
    assert total > 0
    got = frame_shares(frame)
    for key, p in got.items():
        assert p == pytest.approx(shares.get(key, 0.0), abs=1e-12)
    assert frame.attrs["bets"]["seen"] == seen and frame.attrs["bets"]["policy"] == policy.name
    assert frame.attrs["bets"]["values"] == values


@pytest.mark.parametrize("turnup, communication, seen, values", [
    ("H8", "partner", {"gleich": "bet"}, {}), (None, "none", {"hanger": "bet", "gleich": "no_bet"}, {}),
    ("S10", AUER, {"hanger": "no_bet"}, {}), ("H8", "partner", {"gleich": "bet", "hanger": "held"},
                                             {"gleich": 2, "hanger": 3})])
def test_perlique_weights_match_the_reference(turnup, communication, seen, values):
    """With the Perlique the opponents' estimates come from tables of the wild figures, and the deals' figures count
    the trump's wild cards (the turn-up's suit, dealt or given); later bets too."""
    n, seed, hand = 400, 12, "EK LK EO H7 SO"

    def named(what):
        return tuple(f"{f}:{values.get(f, 1)}" for f, w in seen.items() if w == what)

    frame = ag.odds(hand, 1, turnup=turnup, n=n, seed=seed, perlique=True, opponents_communication=communication,
                    opponents_bet=named("bet"), opponents_policy="aggressive", opponents_held=named("held"),
                    opponents_no_bet=tuple(f for f, w in seen.items() if w == "no_bet"))
    slots, keep = g.OddsJob(g.parse_known(hand, 1, turnup), 1, (), True, seat=1).deal_block(seed, 0, n)
    table = gb.figure_table(communication, perlique=True)
    shares, total = naive.weighted_odds(slots, keep, 1, seen, PRESETS["aggressive"], communication,
                                        table[:, :, 0] - table[:, :, 2], perlique=True, values=values)
    assert total > 0 and frame.attrs["perlique"]
    for key, p in frame_shares(frame).items():
        assert p == pytest.approx(shares.get(key, 0.0), abs=1e-12)


def test_perlique_tables_differ_from_the_natural_ones():
    """The wild cards make figures more common: a team's best Gleich is a pair or better far more often."""
    natural = gb.figure_counts("partner").sum(axis=2)
    wild = gb.figure_counts("partner", perlique=True).sum(axis=2)
    assert natural.sum() == wild.sum()
    assert wild[G, 0] < 0.8 * natural[G, 0]  # fewer teams without a Gleich


def test_without_bluffs_a_bet_seen_is_the_given_condition():
    """The formula policy (no bluff, partner information) bets a Gleich from a pair of Kings (d > 0 from there): the
    same deals, the same shares and intervals as --given "opponents gleich >= pair of Kings"."""
    categories = betting.bet_categories(gb.figure_table("partner"), PRESETS["formula"])
    first = min(k for k in range(1, 25) if categories[G, k, 0] == BET_WANTED)
    assert g.gleich_name(first - 1) == "pair of Kings"
    weighed = ag.odds(HAND, n=30_000, seed=8, opponents_bet=("gleich",))
    hard = ag.odds(HAND, n=30_000, seed=8, given=("opponents gleich >= pair of Kings",))
    for column in ("p", "lo", "hi"):
        assert weighed[column].to_numpy() == pytest.approx(hard[column].to_numpy(), abs=1e-12)
    assert weighed.attrs["n_eff"] == hard.attrs["n"]


def test_weights_agree_with_rejection_sampling():
    """Draw the opponents' bluff coin for each deal and keep the deals where they did what was seen: the kept share
    of a win lies within the weighted estimate's interval widened for the rejection sample's own noise."""
    policy, n, seed = PRESETS["aggressive"], 20_000, 5
    frame = ag.odds(HAND, n=n, seed=seed, opponents_bet=("gleich",), opponents_no_bet=("hanger",),
                    opponents_policy="aggressive")
    slots, keep = g.OddsJob(g.parse_known(HAND, 1), 1, seat=1).deal_block(seed, 0, n)
    table = gb.figure_table("partner")
    d = table[:, :, 0] - table[:, :, 2]
    coins = np.random.default_rng(99).random((n, 2)) < policy.bluff
    wins = kept = 0
    for row, bluffs in zip(slots, coins):
        codes = [naive.hand_codes(row[s]) for s in range(4)]
        did = [naive.team_bets((codes[0][f], codes[2][f]), d[f], policy, "partner", bool(bluffs[f])) for f in (G, H)]
        if did == [True, False]:
            kept += 1
            wins += max(codes[1][G], codes[3][G]) > max(codes[0][G], codes[2][G])
    rejection = wins / kept
    row = frame[(frame.figure == "gleich") & (frame.outcome == "win")].iloc[0]
    se = np.hypot((row.hi - row.lo) / (2 * 1.96), np.sqrt(rejection * (1 - rejection) / kept))
    assert abs(rejection - row.p) < 4 * se
    assert kept < frame.attrs["n_eff"] < n  # the weights keep more of the sample than rejection does


def test_cli_text_and_json(capsys):
    args = ["odds", "giltspiel", "--hand", HAND, "--n", "20000", "--seed", "3", "--opponents-bet", "gleich",
            "--opponents-no-bet", "Hanger", "--opponents-policy", "aggressive", "--opponents-communication", "none"]
    code, out, err = run_cli(capsys, *args)
    assert code == 0 and err == ""
    assert ("seen (spec Q7): the opponents bet the Gleich at value 1, did not bet the Hanger at value 1\neach deal "
            "weighs the "
            "chance that opponents with its hands would: policy aggressive (bluff 0.15), communication none\n") in out
    assert "effective sample size" in out
    code, out, _ = run_cli(capsys, *args, "--json")
    data = json.loads(out)
    bets = data["bets_seen"]
    assert bets["seen"] == {"gleich": "bet", "hanger": "no_bet"} and bets["policy"] == "aggressive"
    assert bets["communication"] == "none" and bets["bluff"] == 0.15 and 0 < bets["n_eff"] < 20_000
    assert sum(data["estimates"][f"gleich.{o}"]["p"] for o in naive.OUTCOMES) == pytest.approx(1)


def test_same_numbers_whatever_jobs_or_chunks():
    kw = dict(n=9000, seed=4, opponents_bet=("hanger",), opponents_policy="aggressive")
    one = ag.odds(HAND, **kw)
    two = ag.odds(HAND, jobs=2, chunk_deals=2000, **kw)
    assert one[["p", "lo", "hi", "n"]].equals(two[["p", "lo", "hi", "n"]])


def test_a_policy_that_may_give_up_the_spiel_first_is_refused():
    """A policy conceding the Spiel in the first window closes it before any figure bet (the engine), which the
    model does not follow: refused above the lowest opening chance of the Spiel (0.113 with partner information)."""
    with pytest.raises(CardsimError, match="gives up the Spiel before it bets when its chance is below 0.3, which the "
                                           "bets-seen model does not follow"):
        ag.odds(HAND, n=2000, seed=1, opponents_bet=("gleich",), opponents_policy=Policy("c", concede_spiel=0.3))
    with pytest.raises(CardsimError, match="concede_spiel of at most 0.369"):
        ag.odds(HAND, n=2000, seed=1, opponents_bet=("gleich",), opponents_policy=Policy("c", concede_spiel=0.38),
                opponents_communication="none")
    frame = ag.odds(HAND, n=2000, seed=1, opponents_bet=("gleich",), opponents_policy=Policy("c", concede_spiel=0.11))
    assert frame.attrs["bets"]["policy"] == "c"


def test_api_names_in_any_case_and_the_seen_text():
    frame = ag.odds(HAND, n=2000, seed=1, opponents_bet=(" Gleich",), opponents_no_bet=("HANGER",),
                    opponents_policy=" Aggressive ", opponents_communication="Auer_Channel")
    assert frame.attrs["bets"] == {"seen": {"gleich": "bet", "hanger": "no_bet"}, "values": {"gleich": 1, "hanger": 1},
                                   "policy": "aggressive", "communication": AUER, "bluff": 0.15}
    assert ag.seen_text(frame.attrs["bets"]["seen"]) == "bet the Gleich at value 1, did not bet the Hanger at value 1"
    assert ag.seen_text({"hanger": "held"}) == "held your bet on the Hanger at value 1"
    assert ag.seen_text({"gleich": "bet"}, {"gleich": 3}) == ("bet the Gleich from 3 to 4 (the bets on it alternating "
                                                              "from value 1)")


def test_bets_made_impossible_by_the_conditions_say_so():
    """The opponents' Gleich below a pair of 7s: the formula policy (no bluff) cannot have bet it."""
    with pytest.raises(CardsimError, match="no deal out of 3,000 fits the bets seen: .*\\(given the cards known "
                                           "and the conditions"):
        ag.odds(HAND, n=3000, seed=1, given=("opponents gleich < pair of 7s",), opponents_bet=("gleich",))


def test_sweep_rows_round_the_effective_size():
    frame = ag.odds(HAND, n=3000, seed=2, opponents_bet=("gleich",), opponents_policy="aggressive")
    long = long_frame(frame, ["figure", "outcome"])
    assert (long["n"].to_numpy() == np.round(frame["n"].to_numpy())).all()


@pytest.mark.parametrize("extra, message", [
    (["--opponents-bet", "spiel"], "unknown figure of a bet seen 'spiel'"),
    (["--opponents-bet", "gleich", "--opponents-no-bet", "gleich"], "the gleich is given twice among the bets seen"),
    (["--opponents-bet", "gleich", "--opponents-held", "gleich"], "the gleich is given twice among the bets seen"),
    (["--opponents-held", "hanger:7"], "--opponents-held (opponents_held) takes FIGURE or FIGURE:V, V the value the "
                                       "bet started from, 1 to 6 (gleich:3: a bet from 3 to 4; from 7 the bet is "
                                       "Spiel aus, which only the score can judge), got 'hanger:7'"),
    (["--opponents-bet", "gleich:²"], "got 'gleich:²'"),
    (["--opponents-bet", "gleich:0"], "--opponents-bet (opponents_bet) takes FIGURE or FIGURE:V"),
    (["--opponents-bet", "gleich:x"], "got 'gleich:x'"),
    (["--opponents-bet", "gleich:"], "got 'gleich:'"),
    (["--opponents-no-bet", "gleich:2"], "--opponents-no-bet (opponents_no_bet) takes a figure alone, the first bet "
                                         "on it at value 1"),
    (["--opponents-no-bet", "gleich:"], "--opponents-no-bet (opponents_no_bet) takes a figure alone"),
    (["--opponents-bet", "gleich:4", "--opponents-policy", "cautious"], "policy 'cautious' never bets a figure above "
                                                                        "4 (its max_value), so it cannot have bet the "
                                                                        "gleich from 4 to 5"),
    (["--opponents-held", "gleich:5", "--opponents-policy", "cautious"], "cannot have bet the gleich from 4 to 5"),
    (["--opponents-no-bet", "spiel:2"], "unknown figure of a bet seen 'spiel:2'"),
    (["--opponents-policy", "aggressive"], "--opponents-policy and --opponents-communication model the bets you saw"),
    (["--opponents-communication", "none"], "model the bets you saw"),
    (["--opponents-bet", "gleich", "--spiel", "greedy"], "not the Spiel: drop --spiel or the bets seen"),
    (["--opponents-bet", "gleich", "--opponents-policy", "never"], "policy 'never' never bets a figure above 1"),
    (["--opponents-bet", "gleich", "--given", "opponents gleich < pair of 7s"],
     "no deal out of 2,000 fits the bets seen"),
    (["--opponents-bet", "gleich", "--opponents-policy", "bold"], "unknown policy 'bold'"),
    (["--opponents-bet", "gleich", "--opponents-communication", "telepathy"], "invalid choice"),
])
def test_bad_input_exits_2_with_one_line(capsys, extra, message):
    code, out, err = run_cli(capsys, "odds", "giltspiel", "--hand", HAND, "--n", "2000", "--seed", "1", *extra)
    assert code == 2 and out == ""
    assert message.lower() in err.lower() and err.strip().count("\n") == 0


class ScriptedEstimate:
    """Team 0's estimates in `figure_history`: d = 1 for ``figure`` (it bets and holds it; before anyone has bet it,
    only when ``opens``), 0 for the others (it bets none and holds each where it holds an example)."""

    def __init__(self, figure: int, opens: bool):
        self.figure, self.opens = figure, opens

    def __call__(self, deal, seat, figure):
        return 1.0 if figure == self.figure and (self.opens or deal.figures[figure].ever_bet) else 0.0

    @staticmethod
    def view(seat):
        return seat


SCRIPT = Policy("script", bet_margin=0.5, hold_margin=0.0, raise_margin=NEVER_BETS, max_value=8)
FAR_TARGET = gb.rules_from_options(target=100)


def figure_history(hands, trump, policy, communication, figure, bluffing, opens) -> tuple[set[int], set[int]]:
    """(values team 1 bet ``figure`` from, values of team 0's bets on it that team 1 held or raised) in the engine's
    first betting window: team 0 bets the figure whenever it may (first, from seat 0, when it ``opens``; else only
    once team 1 has bet it) and holds every bet on it, team 1 plays ``policy`` with its bluff coin ``bluffing``."""
    deal = gb.new_deal(hands, trump, dealer=3 if opens else 0, rules=FAR_TARGET)
    agents = (Agent(SCRIPT, ScriptedEstimate(figure, opens)),
              Agent(policy, gb.make_estimator(communication), (bluffing,) * 3))
    betting.betting_window(deal, agents)
    value, bets, held, bettor = 1, set(), set(), None
    for seat, f, kind in deal.log:
        if f != figure:
            continue
        if kind in ("bet", betting.RAISE):
            bettor = seat % 2
            if bettor == 1:
                bets.add(value)
        elif kind == betting.HOLD:
            if seat % 2 == 1:
                held.add(value)
            value += 1
    return bets, held




@pytest.mark.parametrize("communication", COMMUNICATION)
@pytest.mark.parametrize("policy", CHAIN_POLICIES, ids=lambda p: p.name)
def test_chain_categories_match_the_engines_window(communication, policy):
    """Team 1 bets the figure from v, or holds team 0's bet from v, in the engine's window exactly where
    `chain_categories` says so for its cell, bluff coin down and up; each value's history as the model reads it
    (team 1 opening: its bets from the odd values; team 0 opening: from the even ones)."""
    table = gb.figure_table(communication)
    tables = {(seen, v): betting.chain_categories(table, policy, communication, seen, v)
              for seen in ("bet", "held") for v in range(1, 8)}
    rng = np.random.default_rng(17)
    reached = set()
    for _ in range(40):
        hands, trump = gb.draw_deal(rng)
        for f in (G, H):
            if codes_of(hands[0])[f] < 0:
                continue
            codes = [codes_of(h) for h in hands]
            for opens in (False, True):
                for bluffing in (False, True):
                    bets, held = figure_history(hands, trump, policy, communication, f, bluffing, opens)
                    for v in range(1, 8):
                        seen = "bet" if (v % 2 == 1) != opens else "held"
                        category = tables[seen, v][f, codes[1][f] + 1, codes[3][f] + 1]
                        expected = category == BET_WANTED or (bluffing and category == BET_BLUFF)
                        assert expected == (v in (bets if seen == "bet" else held)), (seen, v, opens, bluffing)
                        if expected:
                            reached.add((seen, v))
    assert ("bet", 3) in reached and ("held", 2) in reached


@pytest.mark.parametrize("communication", COMMUNICATION)
@pytest.mark.parametrize("policy", POLICIES[:4], ids=lambda p: p.name)
def test_chain_categories_at_value_1_are_the_first_bet_and_hold(communication, policy):
    table = gb.figure_table(communication)
    assert (betting.chain_categories(table, policy, communication, "bet", 1)
            == betting.bet_categories(table, policy, communication)).all()
    assert (betting.chain_categories(table, policy, communication, "held", 1)
            == betting.hold_categories(table, policy, communication)).all()


def test_hold_advice_of_later_bets_uses_their_values():
    """d = -0.5 facing a bet from 3 to 4 (hold above -3/4) and from 1 to 2 (give up at -1/2): each line its own."""
    cells = np.zeros((9, 13), dtype=np.int64)
    cells[8, :9] = [100, 20, 10, 70, 0, 20, 10, 70, 0]
    bets = {"seen": {"gleich": "bet", "hanger": "bet"}, "values": {"gleich": 3, "hanger": 1}, "weights": np.ones(9)}
    advice = ag._hold_advice(cells, bets, {"gleich": True, "hanger": True})
    assert advice["gleich"]["value"] == 3 and advice["gleich"]["hold"] is True
    assert advice["hanger"]["value"] == 1 and advice["hanger"]["hold"] is False
    lines = ag._hold_lines({"hold": advice})
    assert "hold a bet from v to v + 1 when d = P(win) - P(lose) > -v/(v + 1)" in lines[1]
    assert lines[2].startswith("  Gleich from 3 to 4: d = -0.5000") and lines[2].endswith(": hold it")
    assert "Hanger from 1 to 2: d = -0.5000" in lines[3] and "close: the interval crosses -1/2" in lines[3]


def test_cli_later_bet_json_and_text(capsys):
    code, out, err = run_cli(capsys, "odds", "giltspiel", "--hand", HAND, "--opponents-bet", "gleich:2",
                             "--opponents-held", "Hanger:3", "--n", "3000", "--seed", "4", "--json", "--no-progress")
    assert code == 0, err
    seen = json.loads(out)["bets_seen"]
    assert seen["seen"] == {"gleich": "bet", "hanger": "held"} and seen["values"] == {"gleich": 2, "hanger": 3}
    assert seen["hold"]["gleich"]["value"] == 2 and set(seen["hold"]) == {"gleich"}
    code, out, err = run_cli(capsys, "odds", "giltspiel", "--hand", HAND, "--opponents-bet", "gleich:2",
                             "--n", "3000", "--seed", "4", "--no-progress")
    assert "bet the Gleich from 2 to 3 (the bets on it alternating from value 1)" in out
    assert "facing their bet from 2 to 3 (spec §10.6, points only): hold it when d = P(win) - P(lose) > -2/3" in out


def test_no_bet_by_a_policy_that_never_bets_weighs_nothing():
    """A policy capped at value 1 cannot bet, so not betting tells nothing: every deal weighs 1 (no max_value refusal,
    which is for bets the policy cannot have made)."""
    frame = ag.odds(HAND, n=2000, seed=1, opponents_no_bet=("gleich",), opponents_policy="never")
    plain = ag.odds(HAND, n=2000, seed=1)
    assert frame.attrs["n_eff"] == pytest.approx(2000)
    assert (frame[frame.figure == "gleich"].p.to_numpy() == plain[plain.figure == "gleich"].p.to_numpy()).all()


@settings(max_examples=12, deadline=None)
@given(seat=st.integers(0, 3), seed=st.integers(0, 10_000), communication=st.sampled_from(COMMUNICATION),
       policy=st.sampled_from(CHAIN_POLICIES), figure=st.sampled_from(g.FIGURES), value=st.integers(2, ag.MAX_BET_SEEN),
       other=st.sampled_from((None,) + betting.SEEN), kind=st.sampled_from(tuple(ag.LAST_STEPS)))
def test_raised_bets_match_the_reference(seat, seed, communication, policy, figure, value, other, kind):
    """--opponents-raised (--opponents-bet-after-hold) FIGURE:V weighs each deal by the chance that the opponents' bet
    from V came as a raise of ours (after they held ours): the plain chain with that last step, beside any bet seen
    on the other figure."""
    n = 1500
    seen, values = {figure: kind}, {figure: value}
    rest = next(f for f in g.FIGURES if f != figure)
    if other is not None:
        seen[rest], values[rest] = other, 1 if other == "no_bet" else 2
    kinds = {what: tuple(f"{f}:{values[f]}" if what != "no_bet" else f for f, w in seen.items() if w == what)
             for what in ("bet", "no_bet", "held") + tuple(ag.LAST_STEPS)}
    try:
        frame = ag.odds(HAND, seat, n=n, seed=seed, opponents_bet=kinds["bet"], opponents_no_bet=kinds["no_bet"],
                        opponents_held=kinds["held"], opponents_raised=kinds["raised"],
                        opponents_bet_after_hold=kinds["bet_after_hold"], opponents_policy=policy,
                        opponents_communication=communication)
    except CardsimError as exc:  # no deal fits what was seen, or the policy never bets so high
        frame, message = None, str(exc)
    facts = g.parse_known(HAND, seat)
    slots, keep = g.OddsJob(facts, seat % 2, seat=seat).deal_block(seed, 0, n)
    table = gb.figure_table(communication)
    shares, total = naive.weighted_odds(slots, keep, seat, seen, policy, communication,
                                        table[:, :, 0] - table[:, :, 2], values=values)
    if frame is None:
        assert total == 0 and any(text in message for text in ("no deal out of 1,500 fits", "never bets a figure above",
                                                               "after the bets before it"))
        return
    for key, p in frame_shares(frame).items():
        assert p == pytest.approx(shares.get(key, 0.0), abs=1e-12)
    assert frame.attrs["bets"]["seen"] == seen and frame.attrs["bets"]["values"] == values
    if other != "bet":
        assert set(frame.attrs["hold"]) == {figure} and frame.attrs["hold"][figure]["value"] == value


def test_a_policy_that_never_raises_is_refused_before_dealing(tmp_path):
    path = tmp_path / "noraise.json"
    path.write_text('{"name": "noraise", "raise_margin": 5}')
    with pytest.raises(CardsimError, match="under policy 'noraise' no hands raise a bet on the gleich from 1"):
        ag.odds(HAND, opponents_raised=("gleich:2",), opponents_policy=str(path), n=100)
    path.write_text('{"name": "raiser", "raise_margin": -1}')  # raises whatever it holds: never a plain hold
    with pytest.raises(CardsimError, match="no hands hold a bet on the hanger from 2 and bet it again"):
        ag.odds(HAND, opponents_bet_after_hold=("hanger:3",), opponents_policy=str(path), n=100)


def test_a_raise_is_told_apart_from_a_bet(capsys):
    """Facing a formula raise of your Gleich bet from 1 to 2, a pair of Aces is far weaker than facing their bet from
    2 either way (a formula raise needs d > 0.3), and after a hold stronger; the text and JSON name the raise."""
    raised = ag.odds("EA LA HO S7 L9", opponents_raised=("gleich:2",), n=20_000, seed=3)
    either = ag.odds("EA LA HO S7 L9", opponents_bet=("gleich:2",), n=20_000, seed=3)
    after_hold = ag.odds("EA LA HO S7 L9", opponents_bet_after_hold=("gleich:2",), n=20_000, seed=3)
    d = {name: frame.attrs["hold"]["gleich"]["d"] for name, frame in
         (("raised", raised), ("either", either), ("after_hold", after_hold))}
    assert d["raised"] < -0.5 < 0.2 < d["either"] < d["after_hold"]
    code, out, err = run_cli(capsys, "odds", "giltspiel", "--hand", "EK LK HO S7 L9", "--opponents-raised", "gleich:2",
                             "--n", "3000", "--seed", "4", "--no-progress")
    assert code == 0, err
    assert "raised your bet on the Gleich from 1 to 2, so bet it from 2 to 3 (the bets on it alternating from" in out
    assert "facing their bet from 2 to 3" in out
    code, out, err = run_cli(capsys, "odds", "giltspiel", "--hand", "EK LK HO S7 L9", "--opponents-raised", "gleich:2",
                             "--n", "3000", "--seed", "4", "--json", "--no-progress")
    seen = json.loads(out)["bets_seen"]
    assert seen["seen"] == {"gleich": "raised"} and seen["values"] == {"gleich": 2} and set(seen["hold"]) == {"gleich"}


@pytest.mark.parametrize("extra, message", [
    (("--opponents-raised", "gleich"), "takes FIGURE:V, V the value their bet started from, 2 to 6"),
    (("--opponents-raised", "gleich:1"), "the first bet is no raise"),
    (("--opponents-raised", "gleich:7"), "2 to 6"),
    (("--opponents-raised", "gleich:01"), "the first bet is no raise"),
    (("--opponents-bet-after-hold", "hanger:1"), "the first bet follows no hold"),
    (("--opponents-bet-after-hold", "hanger:2", "--opponents-raised", "hanger:3"), "the hanger is given twice"),
    (("--opponents-raised", "gleich:2", "--opponents-bet", "gleich:3"), "the gleich is given twice"),
    (("--opponents-raised", "spiel:2"), "figure of a bet seen"),
])
def test_bad_raises_exit_2_with_one_line(capsys, extra, message):
    code, out, err = run_cli(capsys, "odds", "giltspiel", "--hand", HAND, *extra, "--n", "1000", "--no-progress")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and message in err, err
