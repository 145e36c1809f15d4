"""Giltspiel table-level facts of spec §10.3 (`giltspiel.table_facts`, `trump_count_distribution`, `trump_ace_dealt`)
and their table under `cardsim stats giltspiel --exact`: the pair-free deal count against a plain enumeration on small
packs and against dealt tables, the trump rows against tests/test_exact_facts_gaps.py's hypergeometric law."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest

from analysis.cli import main
from analysis.games import giltspiel as api
from simcore.dealing import DealSpec, deal
from simcore.errors import CardsimError
from simcore.games import giltspiel as g
from simcore.rng import block_words
from tests.test_exact_facts_gaps import DEALT, TEAM_CARDS, TRUMPS_UNSEEN, trumps_among


def plain_pair_free(hands: int, hand_size: int, ranks: int, suits: int) -> tuple[int, int]:
    """(deals with no hand holding two cards of a rank, all deals), hands told apart by seat, listed one by one."""
    cards = [(r, s) for r in range(ranks) for s in range(suits)]
    every = [frozenset(h) for h in combinations(cards, hand_size)]
    good = total = 0

    def extend(taken: frozenset, left: int, clean: bool) -> None:
        nonlocal good, total
        if left == 0:
            total += 1
            good += clean
            return
        for hand in every:
            if not taken & hand:
                extend(taken | hand, left - 1, clean and len({r for r, _ in hand}) == hand_size)

    extend(frozenset(), hands, True)
    return good, total


@pytest.mark.parametrize("hands, hand_size, ranks, suits", [(2, 2, 3, 2), (2, 2, 4, 3), (3, 2, 4, 2), (2, 3, 4, 3),
                                                            (3, 2, 3, 3), (1, 3, 5, 2)])
def test_pair_free_deals_equal_a_plain_listing(hands, hand_size, ranks, suits):
    good, total = plain_pair_free(hands, hand_size, ranks, suits)
    assert g.pair_free_deals(hands, hand_size, ranks, suits) == good
    assert g.ordered_deals(hands, hand_size, ranks * suits) == total


def test_single_hand_and_spec_fractions():
    """One hand: 57,344 pair-free hands (spec §10.2); the table and the team: spec §10.3."""
    assert g.pair_free_deals(1) == 57_344
    assert g.table_facts() == {"no player holds a Gleich": Fraction(25_537_490_432, 3_041_834_100_305),
                               "a given team holds no Gleich": Fraction(338_816, 4_032_015)}


def test_no_gleich_at_the_table_on_dealt_tables():
    """The exact P(no player holds a Gleich) against 131,072 tables dealt by the product (within 4.5 SE)."""
    spec = DealSpec(g.LAYOUT)
    slots = np.concatenate([deal(spec, block_words(9, b, 65_536, spec.words_per_deal)) for b in range(2)])
    gleich = np.stack([g.mask_codes(slots[:, s], np.uint64(0), g.TOP_BIT, g.RUN_TABLE)[:, 0] for s in range(4)], 1)
    share, p = (gleich < 0).all(axis=1).mean(), float(g.table_facts()["no player holds a Gleich"])
    assert abs(share - p) <= 4.5 * np.sqrt(p * (1 - p) / len(slots))


def test_trump_rows_are_the_hypergeometric_law():
    for cards in (g.HAND_SIZE, TEAM_CARDS, DEALT):
        dist = g.trump_count_distribution(cards)
        assert dist == {k: trumps_among(cards, k) for k in range(min(cards, TRUMPS_UNSEEN) + 1)}
    assert g.trump_ace_dealt() == Fraction(35, 62)
    with pytest.raises(CardsimError, match="cards must be"):
        g.trump_count_distribution(32)


def test_exact_command_prints_the_table_facts(capsys):
    assert main(["stats", "giltspiel", "--exact"]) == 0
    lines = capsys.readouterr().out.splitlines()
    start = lines.index("Table facts (spec §10.3; every deal counted; the turn-up is a trump that no hand holds)")
    assert lines[start + 1].split()[-2:] == ["0.008395", "25537490432/3041834100305"]
    assert "  trumps in all 4 hands: mean         4.516129  140/31" in lines
    assert lines[-1] == "  the trump Ace is in some hand       0.564516  35/62"
    assert main(["stats", "giltspiel", "--exact", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["tables"]["table"]
    assert rows[1] == {"fact": "a given team holds no Gleich", "k": None, "fraction": "338816/4032015",
                       "p": pytest.approx(0.0840314, abs=5e-8)}
    perlique = api.exact(perlique=True)["table"]
    assert not perlique.fact.str.contains("Gleich").any() and perlique.fact.iloc[-1] == "the trump Ace is in some hand"


def test_stats_best_class_tables_carry_the_cumulative_share():
    """Spec §10.4-B's cumulative column: P(best >= class) is the running sum of the counts from the top class, with
    its Wilson interval; it ends at 1, and a pair of Kings or better lies near the spec's 0.71667."""
    from analysis.stats import Estimate

    tables = api.stats(40_000, seed=3, progress=False, checkpoint=False)
    for fig in ("gleich", "hanger"):
        table = tables[f"best_{fig}"]
        running = table["successes"].cumsum()
        assert [Estimate(int(k), 40_000).p for k in running] == table["cum"].tolist()
        assert (table["cum_lo"] <= table["cum"]).all() and (table["cum"] <= table["cum_hi"]).all()
        assert table["cum"].iloc[-1] == 1 and table["cum"].is_monotonic_increasing
    kings = tables["best_gleich"].set_index("label").loc["pair of Kings"]
    assert kings.cum_lo - 0.005 <= 0.71667 <= kings.cum_hi + 0.005
