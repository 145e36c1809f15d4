"""Perlaggen L0 odds and table statistics: the conditioned sampler of §11.4 against deals as played
filtered by the same public facts, the §11.2 reference values, the CLI contract and bad input."""

import json
from math import sqrt

import numpy as np
import pytest

from analysis.cli import main
from analysis.games import perlaggen as A
from simcore import runner
from simcore.figures import relative_outcome
from simcore.games import perlaggen as P
from simcore.games import perlaggen_deal as D
from simcore.rng import block_words

HEARTS = P.DECK.suits.index("H")


def card(token: str) -> int:
    return P.DECK.parse_face(token)


def close(p1: float, n1: int, p2: float, n2: int, z: float = 4.5) -> bool:
    """Two binomial estimates agree within z combined standard errors."""
    p = (p1 * n1 + p2 * n2) / (n1 + n2)
    return abs(p1 - p2) <= z * sqrt(p * (1 - p) * (1 / n1 + 1 / n2)) + 1e-9


def played(n_blocks: int, rules=D.DealRules()) -> np.ndarray:
    return np.concatenate([D.deal_block(block_words(21, b, 65536, D.WORDS_PER_DEAL), rules) for b in range(n_blocks)])


@pytest.mark.parametrize("known, keep", [
    # the turned HO was left lying: neither the dealer nor the partner holds a natural heart (§11.4.3)
    (D.Known(seat=1, hand=(), trump=HEARTS, turned=card("HO")),
     lambda rows: (rows[:, D.TURNED] == card("HO")) & (rows[:, D.TAKEN] == 0)
     & (rows[:, D.GAVE0] | rows[:, D.GAVE2] == 0)),
    # only the trump suit is known; the cutter showed the Weli (k = 1)
    (D.Known(seat=3, hand=(card("S6"),), trump=HEARTS, taken=(card("S6"),), exchanges=None),
     lambda rows: (rows[:, D.TRUMP] == HEARTS) & (rows[:, D.TAKEN] == 1 << card("S6"))),
], ids=["turned-perlagg-left", "trump-only-cutter"])
def test_conditioned_sampler_matches_the_deal_as_played(known, keep, scale):
    """§11.4: sampling the unseen cards under the public facts gives the same outcome distribution
    as dealing as played and keeping the deals that show those facts."""
    rows = played(max(1, int(12 * scale)))
    rows = rows[keep(rows)]
    team = known.seat % 2
    outcome = D.outcomes(rows)
    counts = runner.run(D.OddsJob(known), max(65536, int(200_000 * scale)), seed=5, checkpoint=False)
    n_odds = int(counts[0])
    assert len(rows) > 2000 and n_odds > 20_000
    for f in range(2):
        relative = np.array([relative_outcome(o, team) for o in outcome[:, f]])
        for r in range(3):
            assert close(counts[1 + 4 * f + r] / n_odds, n_odds, float((relative == r).mean()), len(rows)), (f, r)


# --- the asking seat's own exchange (§3.5 E1: any natural trump may be given) ------------------------
OWN_POLICY_CASES = [  # the asker gave the card the give policy picks; counts recorded before own swaps were modelled
    (dict(hand="LA LK L9 H10 LU", seat=0, turnup="LU", exchanges=("0:L8",)),
     [55995, 17993, 3500, 34502, 0, 22912, 12308, 20775, 0]),
    (dict(hand="LA LK L9 H10 LU", seat=2, turnup="LU", exchanges=("2:L8",)),
     [45710, 15614, 2841, 27255, 0, 19895, 9740, 16075, 0]),
    (dict(hand="LA L9 LU EA EU", seat=0, turnup="LU", acorns="EU", exchanges=("0:L8", "0:EK=EU"), style="eichel"),
     [55238, 52095, 1788, 1355, 0, 23605, 9721, 21912, 0]),
]


@pytest.mark.parametrize("case, before", OWN_POLICY_CASES, ids=["dealer", "partner", "eichel-acorn-swap"])
def test_own_exchange_of_the_policy_card_is_unchanged(case, before):
    """From LA LK L8 L9 H10 both L8 and L9 may be given for LU; keep_figures gives L8. Replaying the
    asker's recorded swap instead of the policy's choice leaves these counts exactly as they were."""
    style = case.get("style", "innsbruck")
    known = A.parse_known(case["hand"], case["seat"], case["turnup"], None, None, case["exchanges"],
                          case.get("acorns"), style)
    counts = runner.run(D.OddsJob(known, D.DealRules(style)), 65536, seed=1, checkpoint=False)
    assert counts[:9].tolist() == before  # Gleich and Hanger; both gestrichen follow


def test_own_exchange_of_another_legal_card(capsys):
    """The review's repro: the dealer gave L9, not the policy's L8; it used to reject every deal."""
    code, out, err = run_cli(capsys, "odds", "perlaggen", "--hand", "LA LK L8 H10 LU", "--turnup", "LU",
                             "--exchange", "0:L9", "--seat", "0", "--n", "20000", "--seed", "1", "--json",
                             "--no-progress")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["exchanges"] == ["0:L9=LU"] and 10_000 < data["n"] <= data["attempted"] == 20000
    outcomes = ("win", "stand", "lose", "void")
    assert set(data["estimates"]) == {f"{f}.{o}" for f in ("gleich", "hanger") for o in outcomes} | {
        f"own.{f}.{kind}" for f in ("gleich", "hanger") for kind in ("single", "tied")} | {
        f"rank.{m}.{kind}" for m in ("gleich", "hanger", "perlaggen", "precedence", "trumps")
        for kind in ("below", "equal")}
    for est in data["estimates"].values():
        assert 0 <= est["lo"] <= est["p"] <= est["hi"] <= 1 and est["lo"] < est["hi"]
    # the policy's keep_figures / lowest choice does not matter for the asker's own swap (it does for the other
    # dealers of the hand rank's deals as played, spec Q1)
    code, out, _ = run_cli(capsys, "odds", "perlaggen", "--hand", "LA LK L8 H10 LU", "--turnup", "LU",
                           "--exchange", "0:L9", "--seat", "0", "--n", "20000", "--seed", "1", "--json",
                           "--exchange-gives", "lowest", "--no-progress")
    figures = {k: v for k, v in json.loads(out)["estimates"].items() if not k.startswith("rank.")}
    assert code == 0 and figures == {k: v for k, v in data["estimates"].items() if not k.startswith("rank.")}


def test_own_eichel_upgrade_with_any_acorn_perlagg():
    """§9.1 step 2: without natural trumps the dealer upgrades with an acorn Perlagg; the policy gives
    the weakest (EO), giving E7 was rejected. Both are wild at L0, so the counts agree exactly (the
    EO ones recorded before own swaps were modelled)."""
    for hand, swap in (("LU EO HA SA SK", "0:E7"), ("LU E7 HA SA SK", "0:EO")):
        known = A.parse_known(hand, 0, "LU", exchanges=(swap,), style="eichel")
        counts = runner.run(D.OddsJob(known, D.DealRules("eichel")), 65536, seed=1, checkpoint=False)
        assert counts[:9].tolist() == [4657, 4547, 71, 39, 0, 4442, 157, 58, 0], swap


def direct(post: str, seat: int, rest_excluded: str, keep, n: int, seed: int) -> np.ndarray:
    """Counts as OddsJob (accepted, Gleich, Hanger relative to the team of ``seat``) of a direct
    simulation: ``seat`` holds the post-exchange hand ``post``, the 27 cards neither in it nor in
    ``rest_excluded`` (the turned / given cards) are shuffled uniformly to the other three hands, the
    stopper and the stock, and deals are kept when ``keep(rows)`` (the public facts) holds."""
    own = P.DECK.parse_cards(post)
    rest = np.array([c for c in range(D.N_CARDS) if c not in own + P.DECK.parse_cards(rest_excluded)])
    assert len(rest) == 27
    perm = np.random.default_rng(seed).permuted(np.tile(rest, (n, 1)), axis=1).astype(np.uint64)
    bits = np.uint64(1) << perm
    rows = np.zeros((n, D.N_FIELDS), dtype=np.uint64)
    others = [s for s in range(D.SEATS) if s != seat]
    rows[:, seat] = P.DECK.mask(own)
    for i, s in enumerate(others):
        rows[:, s] = np.bitwise_or.reduce(bits[:, 5 * i:5 * i + 5], axis=1)
    rows[:, D.STOPPER] = perm[:, 15]
    rows[:, D.TRUMP] = P.DECK.suits.index("L")
    rows = rows[keep(rows)]
    outcome = D.outcomes(rows)
    counts = np.zeros(9, dtype=np.int64)
    counts[0] = len(rows)
    for f in range(2):
        relative = np.array([relative_outcome(o, seat % 2) for o in outcome[:, f]])
        counts[1 + 4 * f: 5 + 4 * f] = np.bincount(relative, minlength=4)
    return counts


PERMANENT = P.DECK.mask(P.permanent_perlaggen("innsbruck"))
DEALER_NATURAL_TRUMPS = P.DECK.mask(P.DECK.parse_cards("LA LK L10 L9 L8"))


@pytest.mark.parametrize("seat, keep", [
    # the cutter showed nothing: the stopper is no permanent Perlagg
    (0, lambda rows: (np.uint64(1) << rows[:, D.STOPPER]) & np.uint64(PERMANENT) == 0),
    # ... and the partner exchanged: the dealer holds no natural trump (E2)
    (2, lambda rows: ((np.uint64(1) << rows[:, D.STOPPER]) & np.uint64(PERMANENT) == 0)
     & (rows[:, 0] & np.uint64(DEALER_NATURAL_TRUMPS) == 0)),
], ids=["dealer", "partner"])
def test_own_exchange_matches_a_direct_simulation(seat, keep, scale):
    """Gave L9 (not the policy's L8) for the turned LU: the team's odds equal those of deals that fix
    the post-exchange hand and keep only those showing the same public facts."""
    known = A.parse_known("LA LK L8 H10 LU", seat, turnup="LU", exchanges=(f"{seat}:L9",))
    n = max(65536, int(200_000 * scale))
    counts = runner.run(D.OddsJob(known), n, seed=6, checkpoint=False)
    ref = direct("LA LK L8 H10 LU", seat, "L9", keep, n, seed=6)
    assert counts[0] > 20_000 and ref[0] > 20_000
    # the sampler accepts deals at the rate the facts allow: P(stopper not permanent) [x P(dealer without trump)]
    assert close(counts[0] / n, n, ref[0] / n, n)
    for f in range(2):
        for r in range(3):
            assert close(counts[1 + 4 * f + r] / counts[0], int(counts[0]), ref[1 + 4 * f + r] / ref[0], int(ref[0])), \
                (f, r)


def test_stats_reproduce_section_11_2(scale):
    """§11.2 reference values (2,000,000 deals, exchange giving the lowest natural trump, SE <= .0004)."""
    spec = {  # Innsbruck column
        ("trump", "H"): .2422, ("trump", "S"): .2728, ("cutter_k", "0"): .8791, ("cutter_k", "1"): .1096,
        ("deal", "turned Perlagg"): .4241, ("deal", "exchanged by dealer"): .2438,
        ("deal", "exchanged by partner"): .1163,
    }
    none = (.2235, .3253, .2759, .2785)
    best = {("gleich", "2"): .0249, ("gleich", "3"): .5208, ("gleich", "4"): .4130, ("gleich", "5"): .0413,
            ("hanger", "2"): .0184, ("hanger", "3"): .3900, ("hanger", "4"): .5044, ("hanger", "5"): .0872}
    outcome = {("gleich", "team D"): .5153, ("gleich", "team O"): .4355, ("gleich", "stand"): .0492,
               ("hanger", "team D"): .5030, ("hanger", "team O"): .3992, ("hanger", "stand"): .0978,
               ("both", "one team wins both"): .6689}
    lho = {("gleich", "strictly best"): .1957, ("gleich", "tied best"): .0337,
           ("hanger", "strictly best"): .1747, ("hanger", "tied best"): .0665}
    n = max(65536, int(400_000 * scale))
    tables = A.stats("innsbruck", n, seed=3, exchange_gives="lowest", checkpoint=False)

    def check(value, p):
        assert abs(value - p) <= 4.5 * sqrt(p * (1 - p) / n + 0.0004 ** 2), (value, p)

    assert list(tables["deal"].label) == ["turned Perlagg", "exchanged by dealer", "exchanged by partner"]
    assert list(tables["cutter_k"].label) == ["0", "1", "2", "3", "4"]
    for (table, label), p in spec.items():
        check(tables[table].set_index("label").loc[label, "p"], p)
    for seat, p in enumerate(none):
        check(tables["perlaggen_by_seat"].loc[seat, "p"], p)
    means = tables["perlaggen_by_seat"]["mean"]
    assert np.allclose(means, (1.191, 0.947, 1.064, 1.059), atol=0.01)
    for frame, expected, column in ((tables["best_size"], best, "label"), (tables["outcome"], outcome, "label")):
        for (fig, label), p in expected.items():
            check(frame[(frame.figure == fig) & (frame[column] == label)]["p"].item(), p)
    seat_best = tables["seat_best"]
    for (fig, label), p in lho.items():
        check(seat_best[(seat_best.seat == 1) & (seat_best.figure == fig) & (seat_best.label == label)]["p"].item(), p)


def test_eichel_stats_exchange_sequence():
    """§11.2 Eichel column: exchanges, upgrades and acorn swaps of the Imst sequence."""
    n = 4 * 65536
    frame = A.stats("eichel", n, seed=4, exchange_gives="lowest", checkpoint=False)["deal"].set_index("label")
    for label, p in (("exchanged by dealer", .2518), ("exchanged by partner", .1210), ("upgrade by dealer", .0308),
                     ("upgrade by partner", .0196), ("acorn swap", .1341), ("turned Perlagg", .4402)):
        assert abs(frame.loc[label, "p"] - p) <= 4.5 * sqrt(p * (1 - p) / n + 0.0004 ** 2), label


# --- command line ---------------------------------------------------------------------------------
def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_odds_json_contract(capsys):
    code, out, _ = run_cli(capsys, "odds", "perlaggen", "--hand", "S6 LA LK L8 E10", "--seat", "2",
                           "--turnup", "L10", "--n", "70000", "--seed", "9", "--json", "--no-progress")
    assert code == 0
    data = json.loads(out)
    assert data["game"] == "perlaggen" and data["seed"] == 9 and 0 < data["n"] <= data["attempted"] == 70000
    outcomes = ("win", "stand", "lose", "void")
    assert set(data["estimates"]) == {f"{f}.{o}" for f in ("gleich", "hanger") for o in outcomes} | {
        f"own.{f}.{kind}" for f in ("gleich", "hanger") for kind in ("single", "tied")} | {
        f"rank.{m}.{kind}" for m in ("gleich", "hanger", "perlaggen", "precedence", "trumps")
        for kind in ("below", "equal")}
    for est in data["estimates"].values():
        assert 0 <= est["lo"] <= est["p"] <= est["hi"] <= 1
    assert abs(sum(data["estimates"][f"gleich.{o}"]["p"] for o in outcomes) - 1) < 1e-9
    assert data["own"] == {"gleich": "pair of Aces (40)", "hanger": "A-K-O (56)", "perlaggen": 1, "natural_trumps": 3}


def test_odds_with_exchange_and_cutter(capsys):
    code, out, _ = run_cli(capsys, "odds", "perlaggen", "--hand", "HO LA LK L8 E10", "--seat", "0",
                           "--turnup", "HO", "--exchange", "0:H9", "--cutter-took", "S7", "--n", "70000",
                           "--seed", "2", "--json")
    data = json.loads(out)
    assert code == 0 and data["exchanges"] == ["0:H9=HO"] and data["cutter_took"] == "S7" and data["n"] > 1000


def test_text_output(capsys):
    code, out, _ = run_cli(capsys, "stats", "perlaggen", "--n", "65536", "--seed", "1")
    assert code == 0 and "Perlaggen per seat" in out and "cutter" in out and "Figure won by" in out
    code, out, _ = run_cli(capsys, "stats", "perlaggen", "--exact")
    assert code == 0 and "2,513" in out and "29/264" in out
    code, out, _ = run_cli(capsys, "odds", "perlaggen", "--hand", "S6 LA LK L8 E10", "--seat", "2", "--trump", "L",
                           "--n", "65536", "--seed", "1")
    assert code == 0 and "turn-up unknown; trump L" in out and "Hanger" in out


def test_stats_command(capsys):
    code, out, _ = run_cli(capsys, "stats", "perlaggen", "--style", "eichel", "--n", "65536", "--seed", "1",
                           "--json")
    data = json.loads(out)
    assert code == 0 and data["style"] == "eichel" and data["n"] == 65536
    names = {"trump", "cutter_k", "deal", "perlaggen_by_seat", "best_size", "outcome", "seat_best", "team_perlaggen",
             "gestrichen"}
    assert names == set(data["tables"]) and data["level"] == "L0"


def test_stats_command_at_l1(capsys):
    """--level L1: outcomes of the team game, the L0 table beside them (§11.6, Q6), same deals."""
    code, out, _ = run_cli(capsys, "stats", "perlaggen", "--level", "L1", "--stakes", "2:1", "--n", "65536",
                           "--seed", "1", "--json")
    data = json.loads(out)
    assert code == 0 and data["level"] == "L1" and data["stakes"] == [2, 1]
    l1 = {(r["figure"], r["label"]): r for r in data["tables"]["outcome"]}
    l0 = {(r["figure"], r["label"]): r for r in data["tables"]["outcome_l0"]}
    assert l1[("both", "one team wins both")]["p"] < l0[("both", "one team wins both")]["p"]
    wins = [r for r in data["tables"]["team_perlaggen"] if r["team"] == "D" and r["figure"] == "gleich"
            and r["label"] == "win" and r["n"] > 1000]
    assert [r["p"] for r in wins] == sorted(r["p"] for r in wins)


def test_odds_level_l1(capsys):
    """The odds at L1 carry the level and stakes and judge the same sampled deals as L0 (same seed)."""
    argv = ["odds", "perlaggen", "--hand", "S6 LA LK L8 E10", "--seat", "2", "--turnup", "L10", "--n", "20000",
            "--seed", "3", "--json"]
    code, out, _ = run_cli(capsys, *argv, "--level", "L1")
    l1 = json.loads(out)
    _, out, _ = run_cli(capsys, *argv)
    l0 = json.loads(out)
    assert code == 0 and l1["level"] == "L1" and l1["stakes"] == [1, 1] and l0["level"] == "L0"
    assert l1["n"] == l0["n"]
    assert sum(e["p"] for k, e in l1["estimates"].items() if k.startswith("gleich.")) == pytest.approx(1)
    assert l1["estimates"] != l0["estimates"]


@pytest.mark.parametrize("argv, message", [
    (["--hand", "S6 LA LK L8", "--turnup", "L10"], "exactly 5 cards"),
    (["--hand", "S6 LA LK L8 E10", "--trump", "E", "--style", "eichel"], "not possible in the eichel style"),
    (["--hand", "S6 LA LK L8 E10", "--turnup", "E9", "--style", "eichel"], "laid aside"),
    (["--hand", "S6 LA LK L8 L10", "--turnup", "L10"], "lies face up"),
    (["--hand", "S6 LA LK L8 E10", "--turnup", "L10", "--cutter-took", "SA"], "permanent Perlaggen"),
    (["--hand", "S6 LA LK L8 E10", "--turnup", "L10", "--cutter-took", "S6"],
     "S6 is in --hand and among the cards the cutter showed (--cutter-took); each card is in one place"),
    (["--hand", "S6 LA LK L8 E10", "--turnup", "L10", "--cutter-took", ""], "--cutter-took is empty"),
    (["--hand", "S6 LA LK L8 E10", "--turnup", " "], "--turnup is empty: give its cards (e.g. 'LA'), or leave"),
    (["--hand", "S6 LA LK L8 E10", "--turnup", "LO", "--exchange", "1:L9"], "only team D"),
    (["--hand", "S6 LA LK L8 E10", "--seat", "0", "--turnup", "LO"], "would have taken"),
    (["--hand", "S6 LA LK L8 E10", "--trump", "L", "--turnup", "H9"], "contradicts"),
    (["--hand", "S6 LA LK L8 E10"], "--trump"),
    (["--hand", "S6 LA LK L8 E10", "--seat", "3", "--turnup", "L10", "--cutter-took", "HK"], "must be in your --hand"),
    (["--hand", "S6 LA LK L8 E10", "--turnup", "H10", "--exchange", "0:H9"], "not a Perlagg with trump H"),
    (["--hand", "S6 LA LK L8 E10", "--turnup", "HO", "--exchange", "0:E9"], "for a natural trump"),
    (["--hand", "S6 LA LK L8 E10", "--turnup", "HO", "--exchange", "2:HU"], "for a natural trump"),
    (["--hand", "H9 E9 EA SK S8", "--seat", "0", "--turnup", "HO", "--exchange", "2:H10"],
     "you, the dealer, hold the natural trump H9, so your partner may not exchange (§3.5 E2, A-07)"),
    (["--hand", "S6 LA LK L8 E10", "--turnup", "HO", "--exchange", "0:E9=HA"], "only the turn-up"),
    (["--hand", "E10 LA LK L8 H9", "--seat", "0", "--turnup", "L9", "--acorns", "EU", "--style", "eichel"],
     "face-up EU"),
    (["--hand", "LA LK L8 H9 S9", "--seat", "0", "--turnup", "L9", "--acorns", "EU", "--style", "eichel",
      "--exchange", "0:S9=EU"], "for a natural acorn"),
    (["--hand", "S6 LA LK L8 E10", "--turnup", "L10", "--level", "L1", "--stakes", "0:1"], "from 1 to 7"),
    (["--hand", "S6 LA LK L8 E10", "--turnup", "L10", "--stakes", "2"], "G:H"),
    (["--hand", "S6 LA LK L8 E10", "--turnup", "L10", "--style", "schlanders"], "Weli (S6), but the schlanders"),
    (["--hand", "SA LA LK L8 E10", "--turnup", "S6", "--style", "schlanders"], "--turnup lists the Weli"),
    (["--hand", "SA LA LK L8 E10", "--trump", "E", "--style", "schlanders"], "not possible in the schlanders"),
    (["--hand", "SA LA LK L8 E10", "--turnup", "L10", "--style", "straf"], "not a four-player game"),
    (["--hand", "LA LK L9 E10 H9", "--seat", "0", "--turnup", "L10", "--acorns", "E8", "--style", "schlanders_e8"],
     "natural acorn E10, so under the always-exchange policy team D would have taken the face-up E8"),
    (["--hand", "LA LK L9 E10 H9", "--seat", "0", "--turnup", "E8", "--style", "schlanders_e8"],
     "in the schlanders_e8 style an acorn is laid aside"),
    (["--hand", "E7 LA LK L9 E10", "--seat", "2", "--turnup", "S8", "--style", "schlanders"],
     "acorn Perlagg E7, so under the always-exchange policy team D would have taken the turned S8"),
    (["--hand", "EU LA LK L9 E10", "--seat", "0", "--turnup", "S6", "--style", "eichel"],
     "(§9.1 step 2, the upgrade)"),
    (["--hand", "SA LA LK L8 E10", "--seat", "3", "--turnup", "L10", "--stopper", "S6", "--style", "schlanders"],
     "--stopper lists the Weli"),
    (["--hand", "S6 LA LK L8 E10", "--turnup", "L10", "--stopper", "HA"], "only the cutter"),
    (["--hand", "S6 LA LK L8 E10", "--seat", "3", "--turnup", "L10", "--stopper", "HK"], "not a permanent"),
    (["--hand", "S6 LA LK L8 E10", "--turnup", "L7", "--exchange", "0:L9", "--exchange", "0:L9"],
     "--exchange 0:L9=L7 is given twice"),
    (["--hand", "S6 LA LK L8 E10", "--turnup", "L7", "--exchange", "0:L9", "--exchange", "2:L10"],
     "takes L7, and so does --exchange 0:L9=L7"),
    # §11.4 item 3 for --known seats of team D, refused before any deal is drawn
    (["--hand", "S6 HA HK L8 E10", "--seat", "1", "--turnup", "L7", "--known", "0:LA"],
     "--known 0: seat 0 holds the natural trump LA, so under the always-exchange policy (A-07) team D would have "
     "taken the turned L7; give the swap with --exchange, or drop LA from --known"),
    (["--hand", "S6 HA HK L8 E10", "--seat", "3", "--turnup", "L7", "--known", "2:S9 LK"], "--known 2: seat 2 holds"),
    (["--hand", "S6 HA HK L8 E10", "--seat", "1", "--turnup", "L7", "--exchange", "2:L9", "--known", "0:LA"],
     "--known 0: the dealer holds the natural trump LA, so his partner may not exchange (§3.5 E2, A-07)"),
    (["--hand", "LA LK L8 H9 S9", "--seat", "1", "--turnup", "L9", "--acorns", "EU", "--style", "eichel",
      "--known", "2:E10"], "--known 2: seat 2 holds the natural acorn E10"),
    (["--hand", "LA LK L8 H9 S9", "--seat", "1", "--turnup", "S6", "--style", "eichel", "--known", "0:EU"],
     "--known 0: seat 0 holds the acorn Perlagg EU"),
    # Eichel §9.1: an upgrade comes only without natural trumps in team D and from the dealer first; the face-up
    # acorn Perlaggen (laid aside or given in the upgrade) go to natural acorns, the dealer first
    (["--hand", "SA SK S10 H9 H8", "--seat", "1", "--turnup", "LU", "--style", "eichel", "--exchange", "0:EU",
      "--known", "2:LA"], "would have taken the turned LU for it, not in an upgrade (§9.1 step 2)"),
    (["--hand", "SA SK S10 H9 H8", "--seat", "1", "--turnup", "LU", "--style", "eichel", "--exchange", "2:EO",
      "--known", "0:E7"], "--known 0: the dealer holds the acorn Perlagg E7, so the upgrade is his"),
    (["--hand", "SA SK S10 H9 H8", "--seat", "1", "--turnup", "LU", "--style", "eichel", "--exchange", "0:EU",
      "--known", "2:EA"], "--known 2: seat 2 holds the natural acorn EA, so under the always-exchange policy team D "
                          "would have taken the face-up EU (§9.1 step 3)"),
    (["--hand", "SA SK S10 H9 H8", "--seat", "1", "--turnup", "L9", "--acorns", "EU", "--style", "eichel",
      "--exchange", "2:E9=EU", "--known", "0:EA"], "--known 0: the dealer holds the natural acorn EA, so he, not his "
                                                    "partner, takes the face-up acorn Perlaggen"),
])
def test_bad_input_exits_2_with_one_line(capsys, argv, message):
    code, out, err = run_cli(capsys, "odds", "perlaggen", *argv, "--n", "2000")
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


def test_exact_facts_of_section_11_1(capsys):
    """T-34: `cardsim stats perlaggen --exact` re-derives §11.1 (spot checks of every table)."""
    code, out, _ = run_cli(capsys, "stats", "perlaggen", "--exact", "--json")
    data = json.loads(out)
    assert code == 0 and data["hands"] == 237_336
    k = {(r["style"], r["k"]): r["fraction"] for r in data["tables"]["cutter_k"]}
    assert k[("innsbruck", 1)] == "29/264" and k[("eichel", 5)] == "1/237336"
    held = {(r["style"], r["trump"], r["j"]): r["hands"] for r in data["tables"]["perlaggen_in_hand"]}
    assert held[("innsbruck", "S", 0)] == 80_730 and held[("innsbruck", "H", 2)] == 54_600
    assert held[("eichel", "L", 5)] == 56
    gleich = {(r["style"], r["trump"], r["kind"], r["size"]): r["hands"] for r in data["tables"]["best_gleich"]}
    assert gleich[("innsbruck", "H", "with P", "5")] == 2_513 and gleich[("eichel", "S", "with P", "none")] == 14_592
    assert gleich[("innsbruck", "E", "natural", "4")] == 116
    hanger = {(r["style"], r["trump"], r["kind"], r["size"]): r["hands"] for r in data["tables"]["best_hanger"]}
    assert hanger[("innsbruck", "H", "natural", "5")] == 10 and hanger[("eichel", "H", "with P", "5")] == 6_846
    assert hanger[("innsbruck", "L", "with P", "none")] == 32_463 and hanger[("eichel", "L", "natural", "4")] == 220


def test_counts_do_not_depend_on_the_chunking():
    """Also at L1, whose mixed draws come from each block's sub-stream 1."""
    known = A.parse_known("S6 LA LK L8 E10", 1, turnup="LO")
    l1 = D.Evaluation("L1")
    for job in (D.StatsJob(D.DealRules("eichel")), D.OddsJob(known), D.StatsJob(D.DealRules("eichel"), l1),
                D.OddsJob(known, evaluation=l1)):
        small = runner.run(job, 3 * 65536 - 5, seed=12, chunk_deals=65536, checkpoint=False)
        large = runner.run(job, 3 * 65536 - 5, seed=12, chunk_deals=4 * 65536, checkpoint=False)
        assert (small == large).all()


@pytest.mark.parametrize("argv,message", [
    (["--hand", "LA LK L8 H10 LU", "--exchange", "0:L8"], "cannot still be in --hand"),
    (["--hand", "LA LK L8 H10 L9", "--exchange", "0:L10"], "put it in --hand"),
])
def test_own_exchange_must_match_the_hand(capsys, argv, message):
    from analysis.cli import main

    code = main(["odds", "perlaggen", "--turnup", "LU", "--seat", "0", "--n", "1000", *argv])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and message in err


@pytest.mark.parametrize("argv", [["--players", "2", "--hand-size", "0"], ["--players", "6", "--hand-size", "0"],
                                  ["--players", "2", "--hand-size", "-7"]])
def test_stats_hand_size_zero_is_refused_not_the_default(capsys, argv):
    """0 cards each is refused like -7 (it used to fall back to the table's default)."""
    code, out, err = run_cli(capsys, "stats", "perlaggen", *argv, "--n", "1000")
    assert code == 2 and out == "" and "--hand-size" in err and err.count("\n") == 1


def test_stats_sweep_frame_follows_players():
    """A sweep of the stats with --players 2 or 6 stores those tables, not the four-player ones."""
    from analysis.cli import command_parser
    from analysis.commands import lookup

    spec = lookup("stats", "perlaggen")
    parser = command_parser("stats", "perlaggen", spec)
    frames = {p: spec.frame(parser.parse_args(["--players", p, "--n", "2000", "--seed", "1", "--no-progress"]))
              for p in ("2", "4", "6")}
    seats = {p: sorted(f.estimate[f.estimate.str.startswith("perlaggen_mean.")]) for p, f in frames.items()}
    assert [len(seats[p]) for p in ("2", "4", "6")] == [2, 4, 6]
    assert frames["6"].estimate.str.startswith("team.").any() and not frames["2"].estimate.str.startswith("team.").any()


def test_the_cutters_stopper_is_named_in_the_text_and_the_json(capsys):
    """--stopper is a public fact of the question: the facts line names it as --turnup and --acorns are named."""
    args = ["odds", "perlaggen", "--hand", "EA EK E10 L8 S9", "--seat", "3", "--turnup", "H7", "--stopper", "L9",
            "--n", "300", "--seed", "3"]
    assert main(args) == 0
    facts = capsys.readouterr().out.splitlines()[2]
    assert facts == "turn-up H7; trump H; cutter showed nothing; stopper under your packet L9; exchanges none"
    assert main(args + ["--json"]) == 0
    assert json.loads(capsys.readouterr().out)["stopper"] == "L9"


def test_no_fitting_deal_says_how_rare_a_fit_can_be_at_most(capsys):
    """A question no deal meets ends on one line with the 95% upper bound of the share of deals that meet it
    (1 - 0.05**(1/n), about 3/n), so a user can tell a rare question from one a larger --n cannot help."""
    args = ["odds", "perlaggen", "--hand", "EA SA E10 L8 S9", "--seat", "1", "--trump", "H", "--given",
            "seat1 gleich < pair of Obers", "--n", "200", "--seed", "1"]
    assert main(args) == 2
    assert capsys.readouterr().err == (
        "cardsim: error: no deal out of 200 fits these public facts and --given, so at most 1.49% of deals do (95% "
        "bound); the --given conditions may be impossible with this hand, the exchanges given may be impossible under "
        "the exchange policy, or ask for a larger --n\n")
    from analysis.commands import none_fit
    assert str(none_fit(2000, "met X")) == ("no deal out of 2,000 met X, so at most 0.15% of deals do (95% bound); "
                                            "ask for a larger --n")


def test_an_acorn_perlagg_given_up_in_an_upgrade_may_be_taken_back_for_a_natural_acorn(capsys):
    """Eichel §9.1 step 3: the face-up acorn Perlaggen include one given up in an upgrade (step 2), so the partner may
    take the dealer's EU for his natural EA; deals as played do that (some fit)."""
    argv = ["odds", "perlaggen", "--hand", "SA SK S10 H9 H8", "--seat", "1", "--turnup", "LU", "--style", "eichel",
            "--exchange", "0:EU", "--exchange", "2:EA=EU", "--n", "60000", "--seed", "3", "--no-progress", "--json"]
    code, out, err = run_cli(capsys, *argv)
    assert code == 0 and err == "" and 0 < json.loads(out)["n"] < 60000


def test_an_acorn_swap_listed_before_the_upgrade_that_frees_its_card_is_refused(capsys):
    """§9.1: the upgrade (step 2) comes before the acorn swaps (step 3); listed the other way round, the swap would
    take a card that is not yet face up."""
    argv = ["odds", "perlaggen", "--hand", "SA SK S10 H9 H8", "--seat", "1", "--turnup", "LU", "--style", "eichel",
            "--exchange", "2:EA=EU", "--exchange", "0:EU", "--n", "100", "--seed", "3", "--no-progress"]
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "--exchange 2:EA=EU takes EU before the upgrade that gives it up; list that upgrade first" in err
