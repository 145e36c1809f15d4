"""The Spiel of one hand at the 2-, 3- and 6-player tables (perlaggen.md §9.2-§9.5): G1 play-outs.

The deals are those of `perlaggen_variants.TableOdds` (the hidden cards under the public facts); each
kept deal is played out without bets by the betting engines' trick play, G1 (§11.7) at every seat,
seat 1 leading: `perlaggen_betting.greedy_play` for two teams (2 and 6 players), `perlaggen_three`
(`Deal3`, `play_card`) for three players each for himself. Python play: about 350 deals/s on one core with
three players, 1,300 with six (4 cards).
"""

from __future__ import annotations

import numpy as np

from simcore.games import perlaggen as P
from simcore.games import perlaggen_betting as PB
from simcore.games import perlaggen_three as P3
from simcore.games import perlaggen_variants as PV


def spiel_side(hands, trump: int, style: str) -> int | None:
    """Who takes the Spiel under G1 at every seat: the player with three hands, else the team (seat % 2);
    None when nobody does ("das Spiel ist hin", §9.3, §9.4). hands: card sequences by seat, dealer 0."""
    if len(hands) != P3.PLAYERS:
        return PB.greedy_play(PB.cards_for(style, trump), hands, trump)[1]
    deal = P3.Deal3(hands, trump, 0, (0,) * P3.PLAYERS, target=99, style=style)
    while deal.phase == P3.PLAY:
        P3.play_card(deal)
    return deal.spiel_winner


class TableSpielJob:
    """Counts for the runner: [accepted deals, Spiel won by the side of the question's seat (`PV.side_mask`),
    Spiel won by nobody ("hin")] over the deals of ``question`` (a `PV.TableOdds`)."""

    n_counts = 3
    block_size = 512

    def __init__(self, question: PV.TableOdds):
        self.question = question

    def key(self) -> str:
        return f"perlaggen|table-spiel|greedy|{self.question.key()}"

    def run_block(self, seed: int, block: int, n_deals: int) -> np.ndarray:
        q = self.question
        rows, keep = q.rows(seed, block, n_deals)
        players, seat = q.rules.players, q.known.seat
        mine = seat if players == P3.PLAYERS else seat % 2
        out = np.zeros(self.n_counts, dtype=np.int64)
        for row in rows[keep]:
            hands = [tuple(P.DECK.cards_of(int(row[s]))) for s in range(players)]
            side = spiel_side(hands, int(row[PV.TRUMP]), q.rules.style)
            out += (1, side == mine, side is None)
        return out
