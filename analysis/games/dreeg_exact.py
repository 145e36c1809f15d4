"""`cardsim stats dreeg --exact`: the exact deal facts of spec §6.3, every hand or deal counted once.

    from analysis.games import dreeg_exact
    tables = dreeg_exact.exact()      # {"deals": counts, "facts": a row per fact: section, quantity, k, fraction, p}

The counts come from `simcore.games.dreeg_exact`: suit profiles for the marriages and trumps, a subset-sum count
for the card points, and an enumeration of every hand of up to 8 cards for the hand shapes and the Rufen packet.
"""

from __future__ import annotations

from fractions import Fraction

import pandas as pd

from analysis.exact_facts import distribution_rows, fact_lines, fact_row, facts_frame, point_rows
from analysis.stats import table_records
from simcore.games import dreeg_exact as ex
from simcore.games import dreeg_rules as r
from simcore.games.dreeg import DECK
from simcore.games.dreeg_policies import GreedyPolicy

GAME = "dreeg"
TABLES = {4: 6, 3: 8}
"""Players -> cards per hand (§2.4)."""
POINT_HOLDINGS = {3: "a Rufen packet", 6: "a 4-player or duel hand", 8: "a 3-player hand",
                  12: "random, as many as a 2 v 2 team", 16: "random, as many as two 3-player hands",
                  18: "random, as many as three 4-player hands"}
"""Cards held -> what holds them, for the card-point rows (random cards: a Rot Assen team never holds the heart
ace, and a Rufen team always holds the called card; the Rot Assen team's own rows are in `_rot_assen`)."""
POINT_THRESHOLDS = (33, 40, 45, 50, 55, 60, 66)
LOW_TAILS = {6: (10, 15, 20), 8: (20,)}
"""Cards held -> t of the P(points <= t) rows."""


def _marriages() -> list[dict]:
    section = "Marriages (King + Ober of one suit in one hand)"
    rows = []
    for n in (3, 6, 8):
        dist = ex.marriage_distribution(n)
        rows += distribution_rows(section, f"marriages in a {n}-card hand", dist, mean=False)
        rows += [fact_row(section, f"{n} cards: at least one marriage", 1 - dist[0]),
                 fact_row(section, f"{n} cards: the marriage of a given suit", ex.suit_marriage(n))]
    for sizes, counted, what in (((6,) * 4, 4, "4 x 6"), ((8,) * 3, 3, "3 x 8"), ((6, 6, 12), 2, "2 x 6, talon out")):
        dist = ex.table_marriage_distribution(sizes, counted)
        rows += distribution_rows(section, f"marriages at the table, {what}", dist)
        rows.append(fact_row(section, f"marriages at the table, {what}: at least one", 1 - dist[0]))
    for players, n in TABLES.items():
        rows.append(fact_row(section, f"{players} players: two given cards in one hand", ex.same_hand((n,) * players)))
    return rows


def _trumps() -> list[dict]:
    section = "Phases 1 and 8 (3 or 4 players): trump = the suit of the dealer's turned card"
    rows = []
    for players, n in TABLES.items():
        for dealer in (True, False):
            who = f"{players} players, {'the dealer' if dealer else 'a given other player'}"
            rows.append(fact_row(section, f"{who}: holds trump King + Ober", ex.trump_marriage(n, dealer)))
            rows += distribution_rows(section, f"{who}: trumps", ex.trump_count_distribution(n, dealer))
        rows.append(fact_row(section, f"{players} players: someone holds trump King + Ober",
                             ex.same_hand((n,) * players)))
    duel = ex.trump_marriage(r.HAND_SIZES[2], False)
    rows += [fact_row(section, "2-player 66, a given player's first 6: trump King + Ober", duel),
             fact_row(section, "2-player 66, either player's first 6: trump King + Ober", 2 * duel)]
    return rows


def _card_points() -> list[dict]:
    section = "Card points held (not taken): A 11, 10 10, K 4, O 3, U 2, 9 0"
    rows = []
    for n, what in POINT_HOLDINGS.items():
        rows += point_rows(section, f"{n} cards, {what}", ex.card_point_counts(n), POINT_THRESHOLDS,
                           LOW_TAILS.get(n, ()))
    return rows


def _rot_assen() -> list[dict]:
    section = "Rot Assen: the soloist holds the heart ace"
    ace = 1 << r.HEART_ACE
    rows = []
    for players, n in TABLES.items():
        who = f"{players} players"
        counts = ex.card_point_counts(n, ace)
        total = sum(counts)
        mean = Fraction(sum(p * c for p, c in enumerate(counts)), total)
        rows += [fact_row(section, f"{who}: a given player holds the heart ace", Fraction(n, ex.DECK_SIZE)),
                 fact_row(section, f"{who}: soloist's card points held, mean", mean),
                 fact_row(section, f"{who}: soloist's card points held >= 33", Fraction(sum(counts[33:]), total)),
                 fact_row(section, f"{who}: his opponents' card points held (the other {ex.DECK_SIZE - n}), mean",
                      r.TOTAL_POINTS - mean),
                 fact_row(section, f"{who}: his opponents' card points held >= 66",
                      Fraction(sum(counts[:r.TOTAL_POINTS - r.TARGET + 1]), total)),
                 fact_row(section, f"{who}: soloist holds a marriage",
                          1 - ex.feature_distribution("marriages", n, ace)[0])]
        for feature, label in (("longest suit", "longest suit"), ("hearts", "hearts")):
            rows += distribution_rows(section, f"{who}: soloist's {label}", ex.feature_distribution(feature, n, ace))
    return rows


def _rufen() -> list[dict]:
    section = "Rufen: the forehand's first 3 cards and his call"
    greedy = GreedyPolicy()
    ranks = ex.called_ranks(lambda packet: greedy.call(None, 0, packet))
    rows = distribution_rows(section, "distinct suits in the first 3 cards", ex.packet_suits(), mean=False)
    rows += [fact_row(section, f"the greedy call names rank {DECK.ranks[k]}", p)  # `GreedyPolicy.call`, see the README
             for k, p in sorted(ranks.items(), reverse=True)]
    for players, n in TABLES.items():
        solo = ex.accidental_solo(n)
        rows += [fact_row(section, f"{players} players: the called card is in his other {n - 3} cards (a solo)", solo),
                 fact_row(section, f"{players} players: a partnership forms", 1 - solo)]
    return rows


def _shapes() -> list[dict]:
    section = "Hand shapes (Kamerun and every sub-game)"
    rows = []
    for n in (6, 8):
        for feature in ("voids", "aces", "longest suit"):
            rows += distribution_rows(section, f"{n} cards: {feature}", ex.feature_distribution(feature, n))
        rows.append(fact_row(section, f"{n} cards: only top sequences (A, A 10, A 10 K, ... in every suit held)",
                         ex.feature_distribution("top sequences only", n).get(1, Fraction(0))))
    return rows


def _duel() -> list[dict]:
    section = "The 2-player deal: 6 each, a 12-card talon (66: its bottom card the indicator)"
    return [fact_row(section, quantity, p) for quantity, p in ex.duel_facts().items()]


def exact() -> dict[str, pd.DataFrame]:
    """Spec §6.3's exact facts: ``deals`` (quantity, count) and ``facts`` (section, quantity, k or None, the exact
    fraction as text, p)."""
    deals = pd.DataFrame([{"quantity": q, "count": c} for q, c in ex.deal_counts().items()])
    facts = facts_frame(_marriages() + _trumps() + _card_points() + _rot_assen() + _rufen() + _duel() + _shapes())
    tables = {"deals": deals, "facts": facts}
    for table in tables.values():
        table.attrs.update(game=GAME, exact=True)
    return tables


def exact_json(tables: dict[str, pd.DataFrame]) -> dict:
    return {"game": GAME, "exact": True, "tables": table_records(tables)}


def format_exact(tables: dict[str, pd.DataFrame]) -> str:
    lines = ["Dreeg exact deal facts (spec §6.3): every hand or deal counted once", "", "Deals"]
    lines += [f"  {row.quantity:<62}{row.count:>26,}" for row in tables["deals"].itertuples()]
    return "\n".join(lines + fact_lines(tables["facts"]))
