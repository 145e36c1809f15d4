"""`cardsim stats perlaggen --card-values`: what each card is worth to the team that holds it (spec §11.3 Q8).

On deals as played, each card in a hand is swapped for a random card of the face-down stock, and the holder's team's
chance to win the Gleich, the Hanger (L0) and the Spiel is compared on the same deals
(`simcore.games.perlaggen_card_values`). The difference is paired, so it carries Tango's score interval; the
chance with the card carries Wilson's.

Python API::

    from analysis.games.perlaggen_card_values import card_values
    frame = card_values(style="innsbruck", spiel="greedy", n=200_000, seed=7)
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.commands import long_frame, none_fit, options_note
from analysis.stats import estimate_columns, paired_difference
from simcore import runner
from simcore.games import perlaggen as P
from simcore.games import perlaggen_deal as D
from simcore.games import perlaggen_play as play
from simcore.games.perlaggen_card_values import FIGURES, TALLIES, CardValueJob
from simcore.rng import normalize_seed

GAME = "perlaggen"
DEFAULT_DEALS = {"dd": 4_000}
"""Deals of a card-value run unless told: each deal and its 20 swapped copies are played out, solved double dummy at
about 200-250 deals a second on one core, played by a policy at about 20,000-25,000."""
DEFAULT_POLICY_DEALS = 200_000
PERLAGG_NAMES = {"HK": "Martl", "S6": "Weli", "S7": "Schell-Spitz", "E7": "Eichel-Spitz"}
"""Names of the permanent Perlaggen of §0.4; the trump Seven of the Eichel styles is the Spitz."""
COLUMNS = ("trump", "card", "role", "held")


def default_deals(spiel: str) -> int:
    """Deals of a run when --n is not given."""
    return DEFAULT_DEALS.get(spiel, DEFAULT_POLICY_DEALS)


def card_roles(style: str, trump: str) -> list[tuple[int, str]]:
    """(card, role) of every card of the style's pack under ``trump``, in table order: the Perlaggen by precedence,
    the natural trumps from the Ace down, then each plain suit from the Ace down."""
    wild = P.perlaggen(style, trump)
    permanent = P.permanent_perlaggen(style)
    roles = []
    for place, card in enumerate(wild, 1):
        token = P.DECK.token(card)
        if style in D.EICHEL_DEALS and token == f"{trump}7":
            name = "Spitz"
        else:
            name = PERLAGG_NAMES.get(token, "") if card in permanent else ""
        roles.append((card, f"Perlagg {place}" + (f", {name}" if name else "")))
    for suit in (trump,) + tuple(s for s in P.DECK.suits if s != trump):
        for rank in reversed(P.DECK.ranks):
            card = P.DECK.parse_face(suit + rank)
            if card not in wild:
                roles.append((card, "trump" if suit == trump else "plain"))
    return roles


def _rows(style: str, trump_index: int, tallies: np.ndarray) -> list[dict]:
    """Rows of one trump's table from its tallies (N_CARDS, len(TALLIES)) int64; cards never held are left out."""
    rows = []
    for card, role in card_roles(style, P.DECK.suits[trump_index]):
        counts = dict(zip(TALLIES, (int(c) for c in tallies[card])))
        held = counts["held"]
        if not held:
            continue
        row = {"trump": P.DECK.suits[trump_index], "card": P.DECK.token(card), "role": role, "held": held}
        for fig in FIGURES:
            d, d_lo, d_hi = paired_difference(counts[f"{fig}.only_with"], counts[f"{fig}.only_without"], held)
            row |= estimate_columns(f"{fig}_with", counts[f"{fig}.with"], held) | {
                f"{fig}_d": d, f"{fig}_d_lo": d_lo, f"{fig}_d_hi": d_hi}
        rows.append(row)
    return rows


def card_values(style: str = "innsbruck", spiel: str = "greedy", n: int | None = None, seed=None,
                exchange: str = "always", exchange_gives: str = "keep_figures", options: dict | None = None,
                trump: str | None = None, **run_kw) -> pd.DataFrame:
    """Each card's worth to its holder's team on ``n`` deals as played (default `default_deals`): one row per
    trump and card held at least once, columns trump, card, role (Perlagg and its precedence place, trump or
    plain), held (holdings: deals of that trump in which a hand holds the card), and per figure of FIGURES:
    <figure>_with (P(the holder's team wins it), with <figure>_with_lo/hi, Wilson 95%) and <figure>_d (that minus
    the same on the deal with the card swapped for a random stock card, with <figure>_d_lo/hi, Tango 95%).
    ``spiel``: how the Spiel is played (`perlaggen_play.METHODS`); ``trump``: one suit letter for its table only
    (default: every trump the style allows); ``options``: further `perlaggen_deal.DealRules` options."""
    rules = D.DealRules(style, exchange, exchange_gives, **(options or {}))
    job = CardValueJob(rules, spiel)
    if trump is not None:
        trump = str(trump).strip().upper()
        P.perlaggen(style, trump)  # CardsimError for a trump the style does not allow
    suits = P.trump_suits(style) if trump is None else (trump,)
    seed = normalize_seed(seed)
    n = default_deals(spiel) if n is None else n
    deals, by_trump, tallies = job.unpack(runner.run(job, n, seed, **run_kw))
    indices = [t for t in (P.DECK.suits.index(s) for s in suits) if by_trump[t]]
    if not indices:
        raise none_fit(n, f"has trump {' or '.join(suits)}")
    rows = [row for t in indices for row in _rows(style, t, tallies[t])]
    frame = pd.DataFrame(rows, columns=list(COLUMNS) + [f"{f}_{c}" for f in FIGURES for c in
                                                        ("with", "with_lo", "with_hi", "d", "d_lo", "d_hi")])
    frame.attrs.update(game=GAME, n=deals, seed=seed, style=style, spiel=spiel, exchange=exchange,
                       exchange_gives=exchange_gives, options=dict(options or {}),
                       trump_deals={P.DECK.suits[t]: int(by_trump[t]) for t in indices})
    return frame


def card_values_json(frame: pd.DataFrame) -> dict:
    """The JSON of `card_values`: {"game", "n", "seed", "style", "spiel", "exchange", "exchange_gives", "options"?,
    "trumps": {suit: {"deals", "cards": [{"card", "role", "held", figure: {"with": {p, lo, hi}, "difference": {d,
    lo, hi}}}]}}}."""
    a = frame.attrs
    tables = {}
    for suit, deals in a["trump_deals"].items():
        cards = []
        for _, r in frame[frame.trump == suit].iterrows():
            card = {"card": r["card"], "role": r["role"], "held": int(r["held"])}
            for fig in FIGURES:
                card[fig] = {"with": {"p": r[f"{fig}_with"], "lo": r[f"{fig}_with_lo"], "hi": r[f"{fig}_with_hi"]},
                             "difference": {"d": r[f"{fig}_d"], "lo": r[f"{fig}_d_lo"], "hi": r[f"{fig}_d_hi"]}}
            cards.append(card)
        tables[suit] = {"deals": deals, "cards": cards}
    return {"game": GAME, "n": a["n"], "seed": a["seed"], "style": a["style"], "spiel": a["spiel"],
            "exchange": a["exchange"], "exchange_gives": a["exchange_gives"],
            **({"options": a["options"]} if a["options"] else {}), "trumps": tables}


def difference_text(row, fig: str) -> str:
    """'+0.129 [+0.126,+0.133]': a row's difference of ``fig`` and its interval."""
    return f"{row[f'{fig}_d']:+.3f} [{row[f'{fig}_d_lo']:+.3f},{row[f'{fig}_d_hi']:+.3f}]"


def format_card_values(frame: pd.DataFrame) -> str:
    """The text tables of `card_values`, one per trump."""
    a = frame.attrs
    method = "solved double dummy" if a["spiel"] == "dd" else f"played by {play.POLICY_NAMES[a['spiel']]} at every seat"
    lines = [f"Perlaggen ({a['style']}) card values (spec Q8): what holding a card is worth to its holder's team"
             f"{options_note(a['options'])}",
             f"n = {a['n']:,} deals as played (exchange {a['exchange']}, {a['exchange_gives']}), seed {a['seed']}; "
             f"Gleich and Hanger at L0, the Spiel {method}",
             "with = P(the team wins the figure) with the card (Wilson 95%: the widest half-width is given per trump);",
             "Δ = that minus the same deal with the card swapped for a random card of the face-down stock "
             "(paired, Tango 95%)"]
    head = f"{'card':<5}{'role':<24}{'held':>7}" + "".join(f"{fig.capitalize() + ' with':>13}{'Δ [95%]':>24}"
                                                           for fig in FIGURES)
    for suit, deals in a["trump_deals"].items():
        table = frame[frame.trump == suit]
        widest = max((table[f"{f}_with_hi"] - table[f"{f}_with_lo"]).max() / 2 for f in FIGURES) if len(table) else 0
        lines += ["", f"trump {suit}: {deals:,} deals; Wilson half-width of 'with' at most {widest:.3f}", head]
        for _, r in table.iterrows():
            lines.append(f"{r['card']:<5}{r['role']:<24}{int(r['held']):>7,}"
                         + "".join(f"{r[f'{fig}_with']:>13.3f}{difference_text(r, fig):>24}" for fig in FIGURES))
    return "\n".join(lines)


def card_values_long(frame: pd.DataFrame) -> pd.DataFrame:
    """The card values as estimates for sweeps: <trump>.<card>.<figure>_with and <trump>.<card>.<figure>_d, n the
    holdings."""
    held = frame.rename(columns={"held": "n"})
    return pd.concat([long_frame(held, ["trump", "card"], None, f"{fig}_{kind}", f"{fig}_{kind}_lo",
                                 f"{fig}_{kind}_hi").assign(estimate=lambda f, s=f"{fig}_{kind}": f.estimate + "." + s)
                      for fig in FIGURES for kind in ("with", "d")], ignore_index=True)
