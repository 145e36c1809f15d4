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
    assert set(data["estimates"]) == {f"{f}.{o}" for f in ("gleich", "hanger") for o in outcomes}
    for est in data["estimates"].values():
        assert 0 <= est["lo"] <= est["p"] <= est["hi"] <= 1
    assert abs(sum(data["estimates"][f"gleich.{o}"]["p"] for o in outcomes) - 1) < 1e-9
    assert data["own"] == {"gleich": "pair of As (40)", "hanger": "A-K-O (56)"}


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
    names = {"trump", "cutter_k", "deal", "perlaggen_by_seat", "best_size", "outcome", "seat_best"}
    assert names == set(data["tables"])


@pytest.mark.parametrize("argv, message", [
    (["--hand", "S6 LA LK L8", "--turnup", "L10"], "exactly 5 cards"),
    (["--hand", "S6 LA LK L8 E10", "--trump", "E", "--style", "eichel"], "not possible in the eichel style"),
    (["--hand", "S6 LA LK L8 E10", "--turnup", "E9", "--style", "eichel"], "laid aside"),
    (["--hand", "S6 LA LK L8 L10", "--turnup", "L10"], "lies face up"),
    (["--hand", "S6 LA LK L8 E10", "--turnup", "L10", "--cutter-took", "SA"], "permanent Perlaggen"),
    (["--hand", "S6 LA LK L8 E10", "--turnup", "L10", "--cutter-took", "S6"], "one place"),
    (["--hand", "S6 LA LK L8 E10", "--turnup", "LO", "--exchange", "1:L9"], "only team D"),
    (["--hand", "S6 LA LK L8 E10", "--seat", "0", "--turnup", "LO"], "would have taken"),
    (["--hand", "S6 LA LK L8 E10", "--trump", "L", "--turnup", "H9"], "contradicts"),
    (["--hand", "S6 LA LK L8 E10"], "--trump"),
    (["--hand", "S6 LA LK L8 E10", "--seat", "3", "--turnup", "L10", "--cutter-took", "HK"], "must be in your --hand"),
    (["--hand", "S6 LA LK L8 E10", "--turnup", "H10", "--exchange", "0:H9"], "fits these public facts"),
    (["--hand", "S6 LA LK L8 E10", "--turnup", "L10", "--stopper", "HA"], "only the cutter"),
    (["--hand", "S6 LA LK L8 E10", "--seat", "3", "--turnup", "L10", "--stopper", "HK"], "not a permanent"),
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
    known = A.parse_known("S6 LA LK L8 E10", 1, turnup="LO")
    for job in (D.StatsJob(D.DealRules("eichel")), D.OddsJob(known)):
        small = runner.run(job, 3 * 65536 - 5, seed=12, chunk_deals=65536, checkpoint=False)
        large = runner.run(job, 3 * 65536 - 5, seed=12, chunk_deals=4 * 65536, checkpoint=False)
        assert (small == large).all()
