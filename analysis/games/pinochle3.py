"""Three-player Pinochle meld of a hand, as a DataFrame and as ``cardsim meld pinochle3``.

Python API::

    from analysis.games import pinochle3
    frame = pinochle3.meld("HA HA H10 HK HK HQ HQ HJ SQ DJ CA DA SA C9 D9")    # every trump
    frame = pinochle3.meld("...", trump="H")                                   # one trump
"""

from __future__ import annotations

import argparse
import json

import numpy as np
import pandas as pd

from analysis.commands import Command, register_command
from simcore.errors import CardsimError
from simcore.games import pinochle3 as p

GAME = "pinochle3"
HOLDING_SIZES = (p.HAND_SIZE, p.HAND_SIZE + p.KITTY_SIZE)


def parse_holding(hand: str) -> list[int]:
    """Physical cards of a 15-card hand (or 18 cards: a hand with the kitty)."""
    cards = p.DECK.parse_cards(hand, "--hand")
    if len(cards) not in HOLDING_SIZES:
        raise CardsimError(f"--hand must list {HOLDING_SIZES[0]} cards (or {HOLDING_SIZES[1]} with the kitty), "
                           f"got {len(cards)}")
    return cards


def parse_trump(trump: str) -> int:
    letters = [s.upper() for s in p.DECK.suits]
    if trump.strip().upper() not in letters:
        raise CardsimError(f"--trump must be one of {', '.join(p.DECK.suits)} (spades, hearts, diamonds, clubs), "
                           f"got '{trump}'")
    return letters.index(trump.strip().upper())


def meld(hand: str, trump: str | None = None) -> pd.DataFrame:
    """Meld breakdown: one row per declared meld (trump, meld, cards, points) for ``trump`` or every trump.

    attrs: ``totals`` {trump letter: points}, ``best_trump`` (first of S H D C among the best) and
    ``hand``.
    """
    cards = parse_holding(hand)
    trumps = [parse_trump(trump)] if trump is not None else list(range(p.N_SUITS))
    mask = np.array([p.DECK.mask(cards)], dtype=np.uint64)
    rows, totals = [], {}
    for t in trumps:
        letter = p.DECK.suits[t]
        totals[letter] = int(p.meld_points(mask, t)[0])
        for m in p.meld_breakdown(cards, t):
            rows.append({"trump": letter, "meld": m.name, "cards": p.DECK.format_cards(m.cards), "points": m.points})
    frame = pd.DataFrame(rows, columns=["trump", "meld", "cards", "points"])
    best = max(totals, key=lambda letter: (totals[letter], -p.DECK.suits.index(letter)))
    frame.attrs.update(game=GAME, hand=p.DECK.format_cards(sorted(cards)), totals=totals, best_trump=best)
    return frame


def meld_json(frame: pd.DataFrame) -> dict:
    """{"trump", "total", "melds": [{"name", "cards", "points"}]} for the given or best trump, plus
    "by_trump" with every trump's total when no trump was given."""
    a = frame.attrs
    trump = a["best_trump"]
    rows = frame[frame.trump == trump]
    out = {"game": GAME, "hand": a["hand"], "trump": trump, "total": a["totals"][trump],
           "melds": [{"name": r.meld, "cards": r.cards, "points": int(r.points)} for r in rows.itertuples()]}
    if len(a["totals"]) > 1:
        out["by_trump"] = a["totals"]
    return out


def format_meld(frame: pd.DataFrame) -> str:
    a = frame.attrs
    lines = [f"Pinochle meld of {a['hand']}"]
    for trump, total in a["totals"].items():
        best = "   <- best" if len(a["totals"]) > 1 and trump == a["best_trump"] else ""
        lines += ["", f"trump {trump} ({p.DECK.suit_names[p.DECK.suits.index(trump)]}): {total} points{best}"]
        for r in frame[frame.trump == trump].itertuples():
            lines.append(f"  {r.meld:<22}{r.points:>6}   {r.cards}")
    return "\n".join(lines)


def _add_meld_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hand", required=True, help="your 15 cards (18 with the kitty); two of each card exist")
    parser.add_argument("--trump", default=None, help="trump suit S, H, D or C (default: every trump and the best)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _run_meld(args: argparse.Namespace) -> int:
    frame = meld(args.hand, args.trump)
    print(json.dumps(meld_json(frame)) if args.json else format_meld(frame))
    return 0


register_command("meld", GAME, Command("meld breakdown of a hand", _add_meld_arguments, _run_meld))
