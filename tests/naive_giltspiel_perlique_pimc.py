"""The Perlique PIMC policy as plain Python around the double-dummy solver: the reference of the kernels of
simcore.games.giltspiel_perlique_pimc, which must make the same plays from the same generator state.

`decide` samples the hidden cards (`giltspiel_pimc.sample_hidden`, the same draws as the kernel), solves every
candidate play of each sample with the Perlique solver (`giltspiel_perlique._wins`) and votes; `play_deal` plays a
deal to the Spiel. The rules (legal plays, the trick's winner, greedy) come from tests/naive_giltspiel_perlique.py.
"""

from __future__ import annotations

import numpy as np

from simcore.games import giltspiel_perlique as P
from simcore.games.giltspiel_pimc import _next, next_live, sample_hidden
import naive_giltspiel_perlique as rules

N_CARDS, N_RANKS, SEATS, SPIEL = rules.N_CARDS, rules.N_RANKS, rules.SEATS, rules.SPIEL
ALL = (1 << N_CARDS) - 1


def cards_of(mask: int) -> set[int]:
    return {c for c in range(N_CARDS) if int(mask) >> c & 1}


def mask_of(cards) -> int:
    return sum(1 << c for c in cards)


def identities_of_use(wild: int, identities: set[int], trick: list, trump: int, tie: str) -> list[int]:
    """Leading: the highest identity of each suit, then the lowest; following: the highest trump, the cheapest that
    takes the trick, the lowest; each once (ties in height: the cheapest winner is the lower card, the lowest the
    higher card, as greedy's)."""
    def height(i):
        return rules.height(i, trump), i

    if not trick:
        uses = [max(i for i in identities if rules.suit(i) == s) for s in range(4)
                if any(rules.suit(i) == s for i in identities)]
    else:
        trumps = [i for i in identities if rules.suit(i) == trump]
        taking = [i for i in identities if rules.winner(trick + [(wild, i)], trump, tie) == len(trick)]
        uses = ([max(trumps)] if trumps else []) + ([min(taking, key=height)] if taking else [])
    return list(dict.fromkeys(uses + [min(identities, key=lambda i: (rules.height(i, trump), -i))]))


def candidates(hand: set[int], trick: list, trump: int, visible: set[int], tie: str) -> list[tuple[int, int]]:
    """The legal natural cards in card order, then the lowest wild's identities of use."""
    legal = rules.options(hand, trump, rules.suit(trick[0][1]) if trick else -1, visible)
    wilds = rules.wild_cards(trump)
    out = sorted((c, i) for c, i in legal if c not in wilds)
    identities = {i for c, i in legal if c in wilds}
    if identities:
        wild = min(hand & wilds)
        out += [(wild, i) for i in identities_of_use(wild, identities, trick, trump, tie)]
    return out


def play_deal(hands, turnup: int, samples: int, partner: bool = False, seed: int = 0, public=(0, 0, 0, 0),
              tie: str = "wild", pimc_seats=range(SEATS)) -> tuple[int, list[tuple[int, int, int]]]:
    """`giltspiel_perlique_pimc.play_line` (hands (4,) five cards each as masks) as a loop of plain decisions; the
    seats outside ``pimc_seats`` play the random policy on the generator's next uniform."""
    trump, wilds = turnup // N_RANKS, rules.wild_cards(turnup // N_RANKS)
    hands = [cards_of(h) for h in hands]
    voids, declared = [set() for _ in range(SEATS)], [set() for _ in range(SEATS)]
    gone, visible, won, leader, line = {turnup}, {turnup}, [0, 0], 1, []
    state = np.array([seed], dtype=np.uint64)
    buffers = (P._scratch(), P.new_table())
    while max(won) < SPIEL:
        trick = []
        for count in range(SEATS):
            seat = (leader + count) % SEATS
            plays = candidates(hands[seat], trick, trump, visible, tie) if seat in pimc_seats else []
            if seat not in pimc_seats:
                u = int(_next(state) >> np.uint64(11)) * 2.0 ** -53
                card, ident = rules.choose("random", hands[seat], trick, trump, visible, u, tie)
            elif len(plays) > 1:
                plays_won = vote(hands, seat, plays, trick, leader, won, visible, gone, voids, declared, public,
                                 partner, samples, state, buffers, turnup, tie)
                top = max(plays_won)
                greedy = rules.choose("greedy", hands[seat], trick, trump, visible, 0.0, tie)
                best = [p for p, w in zip(plays, plays_won) if w == top]
                card, ident = greedy if greedy in best else best[0]
            else:
                card, ident = plays[0]
            led = rules.suit(trick[0][1]) if trick else rules.suit(ident)
            if rules.suit(ident) not in (led, trump) or led == trump != rules.suit(ident):
                voids[seat].add(led)
            if card != ident and ident not in wilds:
                declared[seat].add(ident)
            hands[seat].discard(card)
            visible.add(ident)
            trick.append((card, ident))
            line.append((seat, card, ident))
        gone |= {c for c, _ in trick}
        leader = (leader + rules.winner(trick, trump, tie)) % SEATS
        won[leader % 2] += 1
    return (0 if won[0] >= SPIEL else 1), line


def vote(hands, seat, plays, trick, leader, won, visible, gone, voids, declared, public, partner, samples, state,
         buffers, turnup, tie) -> list[int]:
    """Wins per play over the sampled deals (sampling stops as `next_live` says)."""
    known = [hands[s] & cards_of(public[s]) for s in range(SEATS)]
    known[seat] = set(hands[seat])
    if partner:
        known[(seat + 2) % SEATS] = set(hands[(seat + 2) % SEATS])
    seen = gone | {c for c, _ in trick} | set().union(*known)
    wilds = rules.wild_cards(turnup // N_RANKS)
    allowed = [{c for c in range(N_CARDS) if c in wilds or rules.suit(c) not in voids[s] and c not in declared[s]}
               for s in range(SEATS)]
    need = np.array([len(hands[s]) - len(known[s]) for s in range(SEATS)], dtype=np.int64)
    wins = np.zeros(16, dtype=np.int64)
    deal = np.empty(SEATS, dtype=np.uint64)
    done, live = 0, next_live(np.uint64((1 << len(plays)) - 1), wins, 0, samples)
    while live:
        sample_hidden(np.array([mask_of(k) for k in known], dtype=np.uint64), need, np.uint64(ALL & ~mask_of(seen)),
                      np.array([mask_of(a) for a in allowed], dtype=np.uint64), state, deal)
        for i in sorted(cards_of(live)):
            wins[i] += play_wins(deal, seat, plays[i], trick, leader, won, visible, turnup, tie, buffers)
        done += 1
        live = next_live(np.uint64(live), wins, done, samples)
    return [int(w) for w in wins[:len(plays)]]


def play_wins(deal, seat, play, trick, leader, won, visible, turnup, tie, buffers) -> bool:
    """True if the team of ``seat`` takes the Spiel after ``play`` with all hands ``deal`` known."""
    team, trump = seat % 2, turnup // N_RANKS
    after = np.array(deal, dtype=np.uint64)
    after[seat] &= ~np.uint64(1 << play[0])
    plays, tally = trick + [play], list(won)
    shown = visible | {play[1]}
    if len(plays) == SEATS:
        leader = (leader + rules.winner(plays, trump, tie)) % SEATS
        tally[leader % 2] += 1
        plays = []
        if max(tally) >= SPIEL:
            return tally[team] >= SPIEL
    trick_ids = {i for _, i in plays}
    return P._wins(after, turnup, team, leader, tally, plays, mask_of(shown - trick_ids - {turnup}), SPIEL,
                   P.TIES[tie], buffers)
