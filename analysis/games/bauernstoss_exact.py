"""`cardsim stats bauernstoss --exact`: the exact deal facts of spec §9.2, every deal counted once.

    from analysis.games import bauernstoss_exact
    tables = bauernstoss_exact.exact()      # {"facts": a row per fact: section, quantity, k, fraction, p}

The counts come from `simcore.games.bauernstoss_exact` (the jacks, hypergeometric and by seat; card points by
subset sums) and `bauernstoss.longest_trump_table` (the longest potential trump suit, every hand listed).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pandas as pd

from analysis.exact_facts import distribution_rows, fact_lines, fact_row, facts_frame, point_rows
from analysis.stats import table_records
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_exact as ex

GAME = "bauernstoss"
SPEAKERS = ("forehand", "2nd speaker", "3rd speaker", "dealer")
"""The seats in speaking order (forehand, to the dealer's left, speaks first)."""
BIDS = range(1, ex.JACKS)
"""Jack counts with which a player can bid a number in BS (1-3): with 0 he passes, with 4 he may only call the Big
Solo or pass (§4.3). In AS a player with 4 jacks must bid too (AS-5)."""
AS_BIDS = range(1, ex.JACKS + 1)
HAND_POINTS = (20, 30, 40, 42, 50, 61)
TEAM_POINTS = (42, 61, 79)
"""t of the P(card points held >= t) rows of one hand and one team (16 cards)."""
DS_LENGTH = 5
"""A hand can bid in DS with a potential trump suit of at least 5 (spec §9.2)."""


def _jacks() -> list[dict]:
    section = "Jacks (4 among the 32 cards)"
    hand = ex.jacks_in()
    rows = distribution_rows(section, "jacks in one hand", hand)
    rows += [fact_row(section, f"one hand: P(jacks >= {k})", sum((hand[j] for j in hand if j >= k), Fraction(0)))
             for k in (1, 2, 3)]
    rows.append(fact_row(section, "one hand: 1-3 jacks (can bid a number in BS)", sum(hand[j] for j in BIDS)))
    patterns = ex.jack_patterns()
    rows.append(fact_row(section, "some player holds all 4 jacks", patterns["4-0-0-0"]))
    rows += [fact_row(section, f"the jacks split {pattern}", p) for pattern, p in patterns.items()]
    rows += distribution_rows(section, "jacks in one team (16 cards)", ex.jacks_in(2 * ex.HAND))
    return rows


def _club_jack_and_partner() -> list[dict]:
    section = "The club jack's holder, and my partner's jacks given mine"
    rows = distribution_rows(section, "jacks in the club jack holder's hand", ex.club_jack_holder())
    rows += distribution_rows(section, "jacks in the club jack holder's team", ex.club_jack_holder(2 * ex.HAND))
    for mine in range(ex.JACKS):
        rows += distribution_rows(section, f"I hold {mine}: my partner's jacks", ex.partner_jacks(mine), mean=False)
    return rows


def _forced_opener() -> list[dict]:
    section = "Forced opener: the first player in speaking order who must bid (BS: 1-3 jacks; AS: 1-4 jacks)"
    rows = []
    for variant, bids in (("BS", BIDS), ("AS", AS_BIDS)):
        opener = ex.forced_opener(bids)
        rows += [fact_row(section, f"{variant}: the {SPEAKERS[place]} is the first who must bid", opener[place])
                 for place in range(len(SPEAKERS))]
        if opener[-1]:
            rows.append(fact_row(section, f"{variant}: nobody must bid (one player holds all 4 jacks)", opener[-1]))
    return rows


def _longest_trumps() -> list[dict]:
    section = "Longest potential trump suit of one hand: its jacks and one suit's other cards"
    table = bs.longest_trump_table()  # (holds the club jack, jacks, longest)
    total = comb(ex.CARDS, ex.HAND)
    rows = []

    def longest(label: str, counts) -> list[dict]:
        held = int(counts.sum())
        dist = {length: Fraction(int(c), held) for length, c in enumerate(counts) if c}
        return distribution_rows(section, label, dist)

    by_jacks = table.sum(axis=0)
    for j in range(ex.JACKS + 1):
        rows += longest(f"{j} jack{'' if j == 1 else 's'}: longest", by_jacks[j])
    rows += longest("1-3 jacks (BS bidders): longest", by_jacks[list(BIDS)].sum(axis=0))
    rows += longest("every hand: longest", by_jacks.sum(axis=0))
    rows += longest("the club jack's holder: longest", table[1].sum(axis=0))
    rows += [fact_row(section, f"the club jack's holder: P(longest >= {t})",
                      Fraction(int(table[1].sum(axis=0)[t:].sum()), int(table[1].sum()))) for t in (6, 7)]
    can_bid = by_jacks[:, DS_LENGTH:].sum(axis=1)  # per jack count
    rows += [fact_row(section, f"can bid in DS (longest >= {DS_LENGTH})", Fraction(int(can_bid.sum()), total)),
             fact_row(section, "can bid in DS and holds an Unter (a jack)", Fraction(int(can_bid[1:].sum()), total))]
    return rows


def _trumps_and_points() -> list[dict]:
    section = "Trumps of a suit named before the deal, the top jacks, card points held (not taken)"
    rows = distribution_rows(section, "trumps in one hand (11 trumps among 32)", ex.trumps_for_a_suit())
    rows += [fact_row(section, "holds the club and spade jacks", ex.top_jacks(2)),
             fact_row(section, "holds the club, spade and heart jacks", ex.top_jacks(3))]
    rows += point_rows(section, "one hand (8 cards)", ex.card_point_counts(), HAND_POINTS)
    team = ex.card_point_counts(2 * ex.HAND)
    rows += point_rows(section, "one team (16 cards)", team, TEAM_POINTS)
    return rows + [fact_row(section, "one team (16 cards): P(points = 60)", Fraction(team[60], sum(team)))]


def exact() -> dict[str, pd.DataFrame]:
    """Spec §9.2's exact facts: ``facts`` (section, quantity, k or None, the exact fraction as text, p)."""
    facts = facts_frame(_jacks() + _club_jack_and_partner() + _forced_opener() + _longest_trumps()
                        + _trumps_and_points(), game=GAME, exact=True)
    return {"facts": facts}


def exact_json(tables: dict[str, pd.DataFrame]) -> dict:
    return {"game": GAME, "exact": True, "tables": table_records(tables)}


def format_exact(tables: dict[str, pd.DataFrame]) -> str:
    return "\n".join([f"Bauernstoss exact deal facts (spec §9.2): every deal counted once "
                      f"(C(32,8) = {comb(ex.CARDS, ex.HAND):,} hands)"] + fact_lines(tables["facts"], width=64))
