"""The card values of spec §11.3 Q8 recounted in plain Python (the reference of
`simcore.games.perlaggen_card_values.CardValueJob`).

For every deal as played and every card in a hand, the stock card of rank floor(u * stock size) is swapped in (u
from the job's swap stream), and the Gleich and the Hanger are judged by the plain L0 reading of
`naive_perlaggen_deal.l0`, the Spiel by a plain G1 or G2 play-out (`naive_perlaggen_play.greedy_play`,
`figures_play`) or, double dummy, by one `perlaggen_play.spiel_teams` solve per deal (the plain minimax takes about a
minute a deal; the solver's own tests compare the two).
"""

from __future__ import annotations

import numpy as np

import naive_perlaggen_deal as nd
import naive_perlaggen_play as npp
from simcore.games import perlaggen_card_values as V
from simcore.games import perlaggen_deal as D
from simcore.games import perlaggen_play as PP
from simcore.rng import block_substream, block_words


def plain_figure_winner(hands, style: str, trump: str, figure: int):
    """Team (0/1) whose best L0 code of ``figure`` (0 Gleich, 1 Hanger) is higher, None for a tie or no figure."""
    best = [max(nd.l0([nd.CARDS[c] for c in hands[s]], style, trump)[figure] for s in (team, team + 2))
            for team in (0, 1)]
    return None if best[0] == best[1] else int(best[1] > best[0])


PLAIN_POLICIES = {"greedy": npp.greedy_play, "g2": npp.figures_play}


def plain_policy_spiel(hands, trump: int, style: str, method: str) -> int:
    """Team that takes 3 tricks when every seat plays G1 (or G2), seat 1 leading (§7.1: play stops there)."""
    policy = PLAIN_POLICIES[method]
    perl = npp.perlaggen(style, trump)
    hands, won, leader = [set(h) for h in hands], [0, 0], PP.FOREHAND
    while max(won) < npp.SPIEL:
        trick = []
        for i in range(4):
            seat = (leader + i) % 4
            play = policy(hands[seat], trick, trump, perl)
            hands[seat].remove(play[0])
            trick.append(play)
        leader = npp.trick_winner(trick, leader, trump, perl)
        won[leader % 2] += 1
    return int(won[1] >= npp.SPIEL)


def plain_results(hands, trump: int, style: str, method: str) -> list:
    """Winning team of the Gleich, the Hanger (None: nobody) and the Spiel of four hands (lists of card indices)."""
    masks = np.array([[sum(1 << c for c in h) for h in hands]], dtype=np.uint64)
    spiel = (int(PP.spiel_teams(masks, [trump], style)[0]) if method == "dd" else
             plain_policy_spiel(hands, trump, style, method))
    return [plain_figure_winner(hands, style, "ELHS"[trump], f) for f in (0, 1)] + [spiel]


def plain_counts(seed: int, block: int, n: int, style: str, method: str) -> np.ndarray:
    """The job's count vector (`CardValueJob.run_block`) of deals [0, n) of block ``block``."""
    rules = D.DealRules(style)
    rows = D.deal_block(block_words(seed, block, n, D.WORDS_PER_DEAL), rules)
    u = block_substream(seed, block, V.SWAP_STREAM).random((n, V.SLOTS))
    counts = np.zeros(V.N_COUNTS, dtype=np.int64)
    counts[0] = n
    tallies = counts[1 + V.N_TRUMPS:].reshape(V.N_TRUMPS, V.N_CARDS, len(V.TALLIES))
    for d in range(n):
        trump = int(rows[d, D.TRUMP])
        counts[1 + trump] += 1
        hands = [[c for c in range(V.N_CARDS) if int(rows[d, s]) >> c & 1] for s in range(4)]
        stock = [c for c in range(V.N_CARDS) if int(rows[d, D.STOCK]) >> c & 1]

        before = plain_results(hands, trump, style, method)
        for seat in range(4):
            for i, card in enumerate(hands[seat]):
                drawn = stock[int(u[d, 5 * seat + i] * len(stock))]
                swapped = [list(h) for h in hands]
                swapped[seat][i] = drawn
                after = plain_results(swapped, trump, style, method)
                row = tallies[trump, card]
                row[0] += 1
                for f in range(3):
                    with_card, without = before[f] == seat % 2, after[f] == seat % 2
                    row[1 + 3 * f:4 + 3 * f] += [with_card, with_card and not without, without and not with_card]
    return counts


def plain_pair_counts(seed: int, block: int, n: int, style: str, method: str, cards) -> np.ndarray:
    """The count vector of `CardPairJob.run_block` (policies G1, G2 or dd; no random draws needed) of deals [0, n):
    for each pair of ``cards`` (a before b in the list) and each deal where a hand holds one and the stock the other,
    the hand judged with a and with b."""
    rules = D.DealRules(style)
    rows = D.deal_block(block_words(seed, block, n, D.WORDS_PER_DEAL), rules)
    pairs = [(a, b) for i, a in enumerate(cards) for b in cards[i + 1:]]
    counts = np.zeros(1 + V.N_TRUMPS + V.N_TRUMPS * len(pairs) * len(V.PAIR_TALLIES), dtype=np.int64)
    counts[0] = n
    tallies = counts[1 + V.N_TRUMPS:].reshape(V.N_TRUMPS, len(pairs), len(V.PAIR_TALLIES))
    for d in range(n):
        trump = int(rows[d, D.TRUMP])
        counts[1 + trump] += 1
        hands = [[c for c in range(V.N_CARDS) if int(rows[d, s]) >> c & 1] for s in range(4)]
        stock = {c for c in range(V.N_CARDS) if int(rows[d, D.STOCK]) >> c & 1}
        for p, (a, b) in enumerate(pairs):
            for seat in range(4):
                for held, other in ((a, b), (b, a)):
                    if held not in hands[seat] or other not in stock:
                        continue
                    with_a = [list(h) for h in hands]
                    with_a[seat][with_a[seat].index(held)] = a
                    with_b = [list(h) for h in hands]
                    with_b[seat][with_b[seat].index(held)] = b
                    wins_a = [w == seat % 2 for w in plain_results(with_a, trump, style, method)]
                    wins_b = [w == seat % 2 for w in plain_results(with_b, trump, style, method)]
                    row = tallies[trump, p]
                    row[0] += 1
                    for f in range(3):
                        row[1 + 4 * f:5 + 4 * f] += [wins_a[f], wins_b[f], wins_a[f] and not wins_b[f],
                                                     wins_b[f] and not wins_a[f]]
    return counts
