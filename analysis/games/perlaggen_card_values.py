"""`cardsim stats perlaggen --card-values`: what each card is worth to the team that holds it (spec §11.3 Q8).

On deals as played, each card in a hand is swapped for a random card of the face-down stock, and the holder's team's
chance to win the Gleich, the Hanger (L0) and the Spiel is compared on the same deals
(`simcore.games.perlaggen_card_values`). The difference is paired, so it carries Tango's score interval; the
chance with the card carries Wilson's. `card_pairs` (``--versus``) compares named cards with each other directly:
on the deals where a hand holds one of two cards and the other lies in the face-down stock, the hand is judged with
either card.

Python API::

    from analysis.games.perlaggen_card_values import card_pairs, card_values
    frame = card_values(style="innsbruck", spiel="greedy", n=200_000, seed=7)
    pairs = card_pairs("HK S6 LA", trump="L", seed=7)
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
from simcore.errors import CardsimError
from simcore.games.perlaggen_card_values import FIGURES, PAIR_TALLIES, TALLIES, CardPairJob, CardValueJob
from simcore.rng import normalize_seed

GAME = "perlaggen"
DEFAULT_DEALS = {"dd": 4_000}
"""Deals of a card-value run unless told: each deal and its 20 swapped copies are played out, solved double dummy at
about 200-250 deals a second on one core, played by a policy at about 20,000-25,000."""
DEFAULT_POLICY_DEALS = 200_000
DEFAULT_PAIR_DEALS = {"dd": 50_000}
"""Deals of a card-against-card run unless told: a deal is judged only for the pairs it holds one way round (for two
cards about 0.45 comparisons a deal), so many more deals fit in the same time."""
DEFAULT_PAIR_POLICY_DEALS = 1_000_000
MAX_VERSUS = 8
"""Cards one --versus run compares (28 pairs)."""
PERLAGG_NAMES = {"HK": "Martl", "S6": "Weli", "S7": "Schell-Spitz", "E7": "Eichel-Spitz"}
"""Names of the permanent Perlaggen of §0.4; the trump Seven of the Eichel styles is the Spitz."""
COLUMNS = ("trump", "card", "role", "held")


def default_deals(spiel: str, versus: bool = False) -> int:
    """Deals of a run when --n is not given (``versus``: of a card-against-card run)."""
    if versus:
        return DEFAULT_PAIR_DEALS.get(spiel, DEFAULT_PAIR_POLICY_DEALS)
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


def _run(job, style: str, spiel: str, n: int | None, seed, trump: str | None, versus: bool,
         run_kw: dict) -> tuple[int, np.ndarray, np.ndarray, list[int], int]:
    """Run a card job: (deals, deals by trump, tallies by trump, the trump indices to show, seed)."""
    if trump is not None:
        trump = str(trump).strip().upper()
        P.perlaggen(style, trump)  # CardsimError for a trump the style does not allow
    suits = P.trump_suits(style) if trump is None else (trump,)
    seed = normalize_seed(seed)
    n = default_deals(spiel, versus) if n is None else n
    deals, by_trump, tallies = job.unpack(runner.run(job, n, seed, **run_kw))
    indices = [t for t in (P.DECK.suits.index(s) for s in suits) if by_trump[t]]
    if not indices:
        raise none_fit(n, f"has trump {' or '.join(suits)}")
    return deals, by_trump, tallies, indices, seed


def _attrs(frame: pd.DataFrame, deals: int, seed: int, style: str, spiel: str, exchange: str, exchange_gives: str,
           options: dict | None, by_trump: np.ndarray, indices: list[int]) -> pd.DataFrame:
    frame.attrs.update(game=GAME, n=deals, seed=seed, style=style, spiel=spiel, exchange=exchange,
                       exchange_gives=exchange_gives, options=dict(options or {}),
                       trump_deals={P.DECK.suits[t]: int(by_trump[t]) for t in indices})
    return frame


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
    job = CardValueJob(D.DealRules(style, exchange, exchange_gives, **(options or {})), spiel)
    deals, by_trump, tallies, indices, seed = _run(job, style, spiel, n, seed, trump, False, run_kw)
    rows = [row for t in indices for row in _rows(style, t, tallies[t])]
    frame = pd.DataFrame(rows, columns=list(COLUMNS) + [f"{f}_{c}" for f in FIGURES for c in
                                                        ("with", "with_lo", "with_hi", "d", "d_lo", "d_hi")])
    return _attrs(frame, deals, seed, style, spiel, exchange, exchange_gives, options, by_trump, indices)


def versus_cards(cards, style: str) -> tuple[int, ...]:
    """The card indices of ``cards`` (a string of card names or a sequence of names or indices) for `card_pairs`;
    CardsimError unless 2 to MAX_VERSUS different cards of the style's pack."""
    if not isinstance(cards, str):
        cards = " ".join(c if isinstance(c, str) else P.DECK.token(c) for c in cards)
    parsed = P.DECK.parse_cards(cards, "--versus")
    if not 2 <= len(parsed) <= MAX_VERSUS:
        raise CardsimError(f"--versus takes 2 to {MAX_VERSUS} different cards, separated by commas or spaces "
                           f"(e.g. --versus HK,S6), got {len(parsed)}")
    P.check_no_weli(parsed, style, "--versus")
    return tuple(parsed)


def card_pairs(cards, style: str = "innsbruck", spiel: str = "greedy", n: int | None = None, seed=None,
               exchange: str = "always", exchange_gives: str = "keep_figures", options: dict | None = None,
               trump: str | None = None, **run_kw) -> pd.DataFrame:
    """Named cards against each other, paired on the same deals (`CardPairJob`), ``n`` deals as played (default
    `default_deals(spiel, versus=True)`): one row per trump and pair (first, second: the cards in the order given)
    compared at least once, columns trump, first, second, pairs (deals of that trump where a hand holds one of the
    two and the face-down stock the other), and per figure of FIGURES: <figure>_first and <figure>_second
    (P(the holder's team wins it) with that card, each with _lo/_hi, Wilson 95%) and <figure>_d (first minus
    second, with <figure>_d_lo/hi, Tango 95%). The other arguments as in `card_values`."""
    cards = versus_cards(cards, style)
    job = CardPairJob(D.DealRules(style, exchange, exchange_gives, **(options or {})), spiel, cards)
    deals, by_trump, tallies, indices, seed = _run(job, style, spiel, n, seed, trump, True, run_kw)
    rows = []
    for t in indices:
        for (i, j), counts in zip(job.pairs, tallies[t]):
            counts = dict(zip(PAIR_TALLIES, (int(c) for c in counts)))
            pairs = counts["pairs"]
            if not pairs:
                continue
            row = {"trump": P.DECK.suits[t], "first": P.DECK.token(cards[i]), "second": P.DECK.token(cards[j]),
                   "pairs": pairs}
            for fig in FIGURES:
                d, d_lo, d_hi = paired_difference(counts[f"{fig}.only_first"], counts[f"{fig}.only_second"], pairs)
                row |= (estimate_columns(f"{fig}_first", counts[f"{fig}.first"], pairs)
                        | estimate_columns(f"{fig}_second", counts[f"{fig}.second"], pairs)
                        | {f"{fig}_d": d, f"{fig}_d_lo": d_lo, f"{fig}_d_hi": d_hi})
            rows.append(row)
    if not rows:
        raise none_fit(deals, "has one of the --versus cards in a hand and another in the face-down stock")
    indices = [t for t in indices if any(row["trump"] == P.DECK.suits[t] for row in rows)]
    frame = pd.DataFrame(rows, columns=["trump", "first", "second", "pairs"] + [
        f"{f}_{c}" for f in FIGURES for c in ("first", "first_lo", "first_hi", "second", "second_lo", "second_hi",
                                              "d", "d_lo", "d_hi")])
    frame = _attrs(frame, deals, seed, style, spiel, exchange, exchange_gives, options, by_trump, indices)
    frame.attrs["cards"] = [P.DECK.token(c) for c in cards]
    return frame


def card_values_json(frame: pd.DataFrame) -> dict:
    """The JSON of `card_values`: {"game", "n", "seed", "style", "spiel", "exchange", "exchange_gives", "options"?,
    "trumps": {suit: {"deals", "cards": [{"card", "role", "held", figure: {"with": {p, lo, hi}, "difference": {d,
    lo, hi}}}]}}}."""
    return _json_head(frame.attrs) | {"trumps": _tables_json(
        frame, "cards", lambda r: {"card": r["card"], "role": r["role"], "held": int(r["held"])}, ("with",))}


def card_pairs_json(frame: pd.DataFrame) -> dict:
    """The JSON of `card_pairs`: the run fields of `card_values_json`, "cards", and "trumps": {suit: {"deals",
    "pairs": [{"first", "second", "pairs", figure: {"first": {p, lo, hi}, "second": {p, lo, hi}, "difference": {d,
    lo, hi}}}]}}."""
    return _json_head(frame.attrs) | {"cards": frame.attrs["cards"], "trumps": _tables_json(
        frame, "pairs", lambda r: {"first": r["first"], "second": r["second"], "pairs": int(r["pairs"])},
        ("first", "second"))}


def _json_head(a: dict) -> dict:
    """The JSON's run fields of a card table's attrs."""
    return {"game": GAME, "n": a["n"], "seed": a["seed"], "style": a["style"], "spiel": a["spiel"],
            "exchange": a["exchange"], "exchange_gives": a["exchange_gives"],
            **({"options": a["options"]} if a["options"] else {})}


def _tables_json(frame: pd.DataFrame, key: str, entry, sides: tuple[str, ...]) -> dict:
    """{suit: {"deals", key: [entry(row) | {figure: {side: {p, lo, hi} for each of ``sides``, "difference": {d, lo,
    hi}}}]}} of a card table."""
    tables = {}
    for suit, deals in frame.attrs["trump_deals"].items():
        items = []
        for _, r in frame[frame.trump == suit].iterrows():
            item = entry(r)
            for fig in FIGURES:
                item[fig] = {side: {"p": r[f"{fig}_{side}"], "lo": r[f"{fig}_{side}_lo"], "hi": r[f"{fig}_{side}_hi"]}
                             for side in sides} | {
                    "difference": {"d": r[f"{fig}_d"], "lo": r[f"{fig}_d_lo"], "hi": r[f"{fig}_d_hi"]}}
            items.append(item)
        tables[suit] = {"deals": deals, key: items}
    return tables


def difference_text(row, fig: str) -> str:
    """'+0.129 [+0.126,+0.133]': a row's difference of ``fig`` and its interval."""
    return f"{row[f'{fig}_d']:+.3f} [{row[f'{fig}_d_lo']:+.3f},{row[f'{fig}_d_hi']:+.3f}]"


def _run_line(a: dict) -> str:
    """'n = ... deals as played (...), seed ...; ...': the second line of a card table."""
    method = "solved double dummy" if a["spiel"] == "dd" else f"played by {play.POLICY_NAMES[a['spiel']]} at every seat"
    return (f"n = {a['n']:,} deals as played (exchange {a['exchange']}, {a['exchange_gives']}), seed {a['seed']}; "
            f"Gleich and Hanger at L0, the Spiel {method}")


def _format(frame: pd.DataFrame, title: str, legend: list[str], sides: tuple[str, ...], head: str, row_text) -> str:
    """A card table as text: ``title``, the run line, the ``legend``, then per trump its deals, the widest Wilson
    half-width of the ``sides`` columns, ``head`` and ``row_text(row)`` of each row."""
    a = frame.attrs
    lines = [f"{title}{options_note(a['options'])}", _run_line(a), *legend]
    which = " and ".join(f"'{side}'" for side in sides)
    for suit, deals in a["trump_deals"].items():
        table = frame[frame.trump == suit]
        widest = max((table[f"{f}_{side}_hi"] - table[f"{f}_{side}_lo"]).max() / 2
                     for f in FIGURES for side in sides) if len(table) else 0
        lines += ["", f"trump {suit}: {deals:,} deals; Wilson half-width of {which} at most {widest:.3f}", head]
        lines += [row_text(r) for _, r in table.iterrows()]
    return "\n".join(lines)


def format_card_pairs(frame: pd.DataFrame) -> str:
    """The text tables of `card_pairs`, one per trump."""
    a = frame.attrs
    legend = ["pairs = deals where a hand holds one of the two cards and the other lies in the face-down stock;",
              "first, second = P(the holder's team wins the figure) with that card in the hand (Wilson 95%: the "
              "widest half-width is given per trump);",
              "Δ = first minus second on the same deals (paired, Tango 95%)"]
    head = f"{'first':<6}{'second':<7}{'pairs':>8}" + "".join(
        f"{fig.capitalize() + ' first':>14}{'second':>8}{'Δ [95%]':>24}" for fig in FIGURES)
    return _format(frame, f"Perlaggen ({a['style']}) card against card (spec Q8): {', '.join(a['cards'])}, paired "
                          "on the same deals", legend, ("first", "second"), head,
                   lambda r: f"{r['first']:<6}{r['second']:<7}{int(r['pairs']):>8,}" + "".join(
                       f"{r[f'{fig}_first']:>14.3f}{r[f'{fig}_second']:>8.3f}{difference_text(r, fig):>24}"
                       for fig in FIGURES))


def format_card_values(frame: pd.DataFrame) -> str:
    """The text tables of `card_values`, one per trump."""
    legend = ["with = P(the team wins the figure) with the card (Wilson 95%: the widest half-width is given per "
              "trump);",
              "Δ = that minus the same deal with the card swapped for a random card of the face-down stock "
              "(paired, Tango 95%)"]
    head = f"{'card':<5}{'role':<24}{'held':>7}" + "".join(f"{fig.capitalize() + ' with':>13}{'Δ [95%]':>24}"
                                                           for fig in FIGURES)
    return _format(frame, f"Perlaggen ({frame.attrs['style']}) card values (spec Q8): what holding a card is worth "
                          "to its holder's team", legend, ("with",), head,
                   lambda r: f"{r['card']:<5}{r['role']:<24}{int(r['held']):>7,}"
                             + "".join(f"{r[f'{fig}_with']:>13.3f}{difference_text(r, fig):>24}" for fig in FIGURES))


def _long(frame: pd.DataFrame, keys: list[str], kinds: tuple[str, ...]) -> pd.DataFrame:
    """Estimates <key>.<key>.<figure>_<kind> of a card table whose column n is each row's sample size."""
    return pd.concat([long_frame(frame, keys, None, f"{fig}_{kind}", f"{fig}_{kind}_lo", f"{fig}_{kind}_hi")
                      .assign(estimate=lambda f, s=f"{fig}_{kind}": f.estimate + "." + s)
                      for fig in FIGURES for kind in kinds], ignore_index=True)


def card_values_long(frame: pd.DataFrame) -> pd.DataFrame:
    """The card values as estimates for sweeps: <trump>.<card>.<figure>_with and <trump>.<card>.<figure>_d, n the
    holdings."""
    return _long(frame.rename(columns={"held": "n"}), ["trump", "card"], ("with", "d"))


def card_pairs_long(frame: pd.DataFrame) -> pd.DataFrame:
    """The card comparisons as estimates for sweeps: <trump>.<first>-<second>.<figure>_first, _second and _d, n the
    pairs."""
    named = frame.assign(pair=frame["first"] + "-" + frame["second"]).rename(columns={"pairs": "n"})
    return _long(named, ["trump", "pair"], ("first", "second", "d"))
