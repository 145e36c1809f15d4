"""Giltspiel figure odds and table statistics as DataFrames, and their commands.

Python API::

    from analysis.games import giltspiel
    frame = giltspiel.odds("LA SA H10 E9 E8", seat=1, n=1_000_000, seed=7)
    tables = giltspiel.stats(n=2_000_000, seed=1)        # dict of DataFrames
    exact = giltspiel.exact()                            # enumeration of all 201,376 hands
    giltspiel.odds("EK LK EO HO SO", turnup="H8", perlique=True)   # §8: the trump's 7, Unter, Ober wild

Every estimate row carries ``p, lo, hi`` (95% Wilson interval), ``successes`` and ``n``; the frame's
``attrs`` hold the game, n, seed and conditions.
"""

from __future__ import annotations

import argparse
import itertools
import math
from collections.abc import Mapping
from fractions import Fraction

import numpy as np
import pandas as pd

from analysis.games import giltspiel_play as spiel_play
from analysis.commands import (Command, NotedStore, add_option_argument, add_run_arguments, check_exact_alone,
                               command_options, emit, long_frame, no_exact, none_fit, one_of, register_command,
                               run_options, seat_cards, tables_long, whole_number)
from analysis.stats import (Estimate, estimate_frame, estimates_dict, format_cell, table_records, weighted_difference,
                            weighted_estimate)
from simcore import betting, checks, runner
from simcore.betting import COMMUNICATION, Policy
from simcore.errors import CardsimError, unknown_name
from simcore.figures import ABSOLUTE_OUTCOMES, RELATIVE_OUTCOMES
from simcore.games import giltspiel as g
from simcore.games import giltspiel_betting as bet_tables
from simcore.games import giltspiel_perlique as perlique_play
from simcore.games import giltspiel_play as play
from simcore.rng import normalize_seed

GAME = "giltspiel"
PERLIQUE_TITLE = " mit 3 Perlique"
"""Title words of the §8 variant (option perlique)."""
SPIEL_OUTCOMES = ("win", "lose")
SPIEL_METHODS = {"dd": "solved double dummy (all four seats play perfectly, seeing every hand)",
                 "greedy": "played out by the greedy policy of spec §10.5 at every seat",
                 "random": "played out with uniformly random legal cards at every seat"}


def _class_labels(figure: str, bins: int) -> list[str]:
    name = g.gleich_name if figure == "gleich" else g.hanger_name
    return [name(code - 1) for code in range(bins)]


# --- odds -------------------------------------------------------------------------------------
def parse_conditions(given: tuple[str, ...], seat: int, facts: g.Known | None = None, perlique: bool = False
                     ) -> tuple[g.FigureCondition, ...]:
    """Parse ``--given`` texts and refuse, before anything is dealt, pairs that no deal can meet and
    (with ``facts``) single conditions that the cards already placed rule out; ``perlique``: figures with the
    trump's Perlique wild (§8).

    "S figure >= X" says some seat of S holds at least X; "T figure < Y" says every seat of T holds
    less than Y. When S is within T the two contradict each other exactly when X >= Y.
    """
    seat, given = g.check_seat(seat), checks.texts(given, "given", "opponents gleich >= pair of Obers")
    conditions = tuple(g.parse_condition(text, seat, perlique) for text in given)
    for (text_at_least, at_least), (text_below, below) in itertools.product(zip(given, conditions), repeat=2):
        if (not at_least.below and below.below and at_least.figure == below.figure
                and set(at_least.seats) <= set(below.seats) and at_least.code >= below.code):
            raise CardsimError(f"--given '{text_at_least}' and '{text_below}' contradict each other, "
                               "so no deal can meet both; drop or loosen one of them")
    for text, condition in zip(given, conditions):
        if facts is not None and not condition.possible(facts):
            raise CardsimError(f"--given '{text}' cannot hold with the cards already placed (--hand, --known, "
                               "--turnup), so no deal can meet it; drop or loosen it")
    return conditions


SPIEL_CHOICES = play.METHODS + (spiel_play.PIMC,)
"""The values of ``--spiel`` (`odds`'s ``spiel``)."""
PIMC_SETTINGS = ("samples", "communication", "n")
"""The keys of `odds`'s ``pimc`` dict (keywords of `giltspiel_play.pimc_counts`)."""


def odds(hand: str, seat: int = 1, turnup: str | None = None, known: dict[int, str] | None = None,
         given: tuple[str, ...] = (), n: int = 200_000, seed=None, spiel: str | None = None,
         pimc: dict | None = None, perlique: bool = False, perlique_tie: str = "wild",
         opponents_bet: tuple[str, ...] = (), opponents_no_bet: tuple[str, ...] = (),
         opponents_held: tuple[str, ...] = (), opponents_policy: str | Policy | None = None,
         opponents_communication: str | None = None, opponents_raised: tuple[str, ...] = (),
         opponents_bet_after_hold: tuple[str, ...] = (), **run_kw) -> pd.DataFrame:
    """P(win / stand / lose / void) of Gleich and Hanger for the team of ``seat`` holding ``hand``.

    known: other seats' cards known to be in their hands (e.g. cards seen played), seat -> tokens;
    given: conditions such as "opponents gleich >= pair of Obers" (what a bet reveals); deals
    that fail them are rejected, so ``n`` counts the accepted deals out of ``attempted``;
    spiel: also P(win / lose) of the Spiel on the same deals, played "dd" (double dummy), "greedy"
    or "random" (simcore.games.giltspiel_play), or "pimc" (every seat plays PIMC from its own
    information, on its own sample; pimc: keywords of `giltspiel_play.pimc_counts` such as samples,
    communication and n, the Spiel's own number of deals);
    perlique: the §8 variant "Giltspiel mit 3 Perlique", the trump's 7, Unter and Ober wild for the figures and, with
    ``spiel``, in the tricks (`simcore.games.giltspiel_perlique`, `simcore.games.giltspiel_perlique_pimc`);
    perlique_tie: who takes a trick holding a wild declared as a card still hidden in another hand and that card
    ("wild" or "natural", option perlique_tie);
    opponents_bet, opponents_no_bet: figures ("gleich", "hanger") you saw the opponents bet, or saw them not bet
    when they could, in a betting window at value 1, and opponents_held: figures whose bet of yours from 1 to 2 they
    held or raised (spec Q7); "gleich:3" for a bet (or hold) from 3 to 4 after the bets on the figure alternated
    from value 1 (not with opponents_no_bet); opponents_raised: "gleich:3" for their bet from 3 to 4 made as a raise
    of your bet from 2 to 3, opponents_bet_after_hold: the same bet made after they held yours (both from 2;
    opponents_bet "gleich:3" takes it either way): each deal then counts with the
    chance that opponents holding its hands do what you saw under ``opponents_policy`` (a preset name, a .json file
    or a `Policy`; default formula) and ``opponents_communication`` (partner, none or auer_channel; default
    partner), see `bet_weights`; the rows' successes and n are then effective counts (n: Kish's effective sample
    size).
    Rows: figure, outcome, p, lo, hi, successes, n.
    """
    perlique = checks.flag(perlique, "perlique")
    perlique_play.checked_tie(perlique_tie, perlique and spiel in SPIEL_CHOICES,
                              "--option perlique=true and --spiel")
    if spiel is not None and spiel not in SPIEL_CHOICES:
        raise unknown_name("--spiel", spiel, SPIEL_CHOICES)
    if pimc is not None and (not isinstance(pimc, Mapping) or spiel != spiel_play.PIMC
                             or not set(pimc) <= set(PIMC_SETTINGS)):
        raise CardsimError(f"pimc must be a dict of PIMC settings ({', '.join(PIMC_SETTINGS)}) such as {{'samples': 8, "
                           f"'n': 2000}}, given with spiel='pimc' only, got pimc={checks.shown(pimc)} with "
                           f"spiel={spiel!r}")
    seat, given = g.check_seat(seat), checks.texts(given, "given", "opponents gleich >= pair of Obers")
    facts = g.parse_known(hand, seat, turnup, known)
    conditions = parse_conditions(given, seat, facts, perlique)
    seed = normalize_seed(seed)
    team = seat % 2
    bets = seen_bets(opponents_bet, opponents_no_bet, opponents_held, opponents_policy, opponents_communication, spiel,
                     perlique, opponents_raised, opponents_bet_after_hold)
    job = g.OddsJob(facts, team, conditions, perlique, seat, bets["categories"] if bets else None)
    cells = runner.run(job, n, seed, **run_kw).reshape(job.cells, -1)
    accepted, outcomes, opponents = g.odds_parts(cells)
    kept = int(accepted.sum())
    if kept == 0:
        raise none_fit(n, "met the --given conditions", "they may be impossible with this hand")
    if bets and float(bets["weights"] @ accepted) == 0:
        raise CardsimError(f"no deal out of {n:,} fits the bets seen: under their betting policy the opponents would "
                           "have done otherwise with every deal drawn (given the cards known and the conditions, if "
                           "any; a policy that never bets, never bluffs or never holds); check the bets seen, the "
                           "opponents' policy and the conditions")
    labels = RELATIVE_OUTCOMES + g.OPPONENT_STATS
    parts = np.concatenate([outcomes, opponents], axis=2)  # (cells, figure, label)
    if bets:
        frames = [_weighted_frame(labels, accepted, parts[:, i], bets["weights"], fig)
                  for i, fig in enumerate(g.FIGURES)]
    else:
        frames = [estimate_frame(labels, parts[:, i].sum(axis=0), kept, figure=fig) for i, fig in enumerate(g.FIGURES)]
    pimc = dict(pimc or {}, n=(pimc or {}).get("n", spiel_play.PIMC_DEALS)) if spiel == spiel_play.PIMC else None
    if pimc:
        deals, wins = spiel_play.pimc_counts(facts, seat, conditions, seed=seed, **pimc, **run_kw,
                                             perlique_tie=perlique_tie if perlique else None)[:2]
        frames.append(estimate_frame(SPIEL_OUTCOMES, [wins, deals - wins], int(deals), figure="spiel"))
    elif spiel is not None:
        job = (perlique_play.PerliqueSpielJob(facts, team, spiel, conditions, perlique_tie) if perlique
               else play.SpielJob(facts, team, spiel, conditions))
        deals, wins = runner.run(job, n, seed, **run_kw)[:2]
        frames.append(estimate_frame(SPIEL_OUTCOMES, [wins, deals - wins], int(deals), figure="spiel"))
    frame = pd.concat(frames, ignore_index=True).rename(columns={"label": "outcome"})
    frame = frame[["figure", "outcome", "p", "lo", "hi", "successes", "n"]]
    trump_known = perlique and facts.turnup is not None
    own_g, own_h = g.hand_figures(facts.seat_cards[seat], g.PERLIQUE[facts.turnup // g.N_RANKS] if trump_known else 0)
    frame.attrs.update(game=GAME, n=kept, attempted=n, given=list(given), seed=seed, seat=seat, team=team,
                       hand=g.DECK.format_cards(facts.seat_cards[seat]),
                       turnup=None if facts.turnup is None else g.DECK.token(facts.turnup),
                       known={s: g.DECK.format_cards(c) for s, c in facts.seat_cards.items() if s != seat},
                       own_gleich=g.gleich_name(own_g), own_hanger=g.hanger_name(own_h), spiel=spiel,
                       perlique=perlique, **({"perlique_tie": perlique_tie} if perlique and spiel else {}))
    if bets:
        frame.attrs.update(bets={k: bets[k] for k in ("seen", "values", "policy", "communication", "bluff")},
                           n_eff=float(frames[0]["n"].iloc[0]),
                           hold=_hold_advice(cells, bets, {"gleich": own_g >= 0, "hanger": own_h >= 0}
                                             if trump_known or not perlique else {}))
    if pimc:
        frame.attrs.update(pimc=spiel_play.pimc_settings(pimc, int(deals)))
    return frame


def seen_bets(bet: tuple[str, ...], no_bet: tuple[str, ...], held: tuple[str, ...], policy: str | Policy | None,
              communication: str | None, spiel: str | None, perlique: bool,
              raised: tuple[str, ...] = (), bet_after_hold: tuple[str, ...] = ()) -> dict | None:
    """The bets seen (`odds`'s opponents_* arguments: "gleich" for the first bet on a figure, at value 1, or
    "gleich:3" for a bet from 3 to 4 after the bets alternated from value 1; no_bet at value 1 only; raised and
    bet_after_hold from 2 only, a bet that came that way, `LAST_STEPS`) as {"seen": {figure: "bet" | "no_bet" |
    "held" | "raised" | "bet_after_hold"}, "values": {figure: value}, "policy", "communication", "bluff", "categories"
    (by the opponents' two hands: `simcore.betting.chain_categories`, for no bet `simcore.betting.bet_categories`),
    "weights" (`bet_weights`)}; None when nothing was seen; ``perlique``: the opponents' estimates from tables of the
    Perlique's figures. CardsimError for an unknown or repeated figure, a value out of range or with no bet, a
    policy or model without a bet seen, or with the Spiel, which the figure tables do not cover."""
    seen: dict[str, str] = {}
    values: dict[str, int] = {}
    for what, texts in (("bet", bet), ("no_bet", no_bet), ("held", held), ("raised", raised),
                        ("bet_after_hold", bet_after_hold)):
        for text in checks.texts(texts, f"opponents_{what}", "gleich"):
            name, colon, value = (part.strip() for part in text.strip().lower().partition(":"))
            if name not in g.FIGURES:
                raise unknown_name("figure of a bet seen", text, g.FIGURES)
            if name in seen:
                raise CardsimError(f"the {name} is given twice among the bets seen (--opponents-bet, "
                                   "--opponents-no-bet, --opponents-held, --opponents-raised, "
                                   "--opponents-bet-after-hold); give each figure once")
            seen[name], values[name] = what, _seen_value(what, value if colon else "1", text, name)
    if not seen:
        if policy is not None or communication is not None:
            raise CardsimError("--opponents-policy and --opponents-communication model the bets you saw; give "
                               "--opponents-bet, --opponents-no-bet, --opponents-held, --opponents-raised or "
                               "--opponents-bet-after-hold, or drop them")
        return None
    if spiel is not None:
        raise CardsimError("the bets seen weigh the Gleich and the Hanger (the betting game's figure tables), not the "
                           "Spiel: drop --spiel or the bets seen")
    policy = betting.load_policy("formula" if policy is None else policy)
    communication = "partner" if communication is None else communication
    communication = betting.check_communication(communication.strip().lower() if isinstance(communication, str)
                                                else communication)
    _check_no_opening_concession(policy, communication)
    _check_policy_reaches(policy, seen, values)
    table = bet_tables.figure_table(communication, perlique)
    categories = betting.bet_categories(table, policy, communication)
    for f, figure in enumerate(g.FIGURES):
        if seen.get(figure) in ("bet", "held") + tuple(LAST_STEPS):
            how = LAST_STEPS.get(seen[figure])
            categories[f] = betting.chain_categories(table, policy, communication, _chain_seen(seen[figure]),
                                                     values[figure], how)[f]
            if how and (categories[f] == betting.BET_NEVER).all():
                made = ("raise a bet on the {} from {}" if how == betting.RAISE
                        else "hold a bet on the {} from {} and bet it again").format(figure, values[figure] - 1)
                raise CardsimError(f"under policy {policy.name!r} no hands {made} after the bets before it (its "
                                   f"margins: bet {policy.bet_margin:g}, raise {policy.raise_margin:g}); check the "
                                   "bets seen or the opponents' policy")
    return {"seen": seen, "values": values, "policy": policy.name, "communication": communication,
            "bluff": policy.bluff, "categories": categories, "weights": bet_weights(seen, policy.bluff)}


MAX_BET_SEEN = betting.MAX_SEEN_VALUE - 1
"""The highest value a bet seen may start from: a bet from 7 is Spiel aus, whose answer only the score can judge
(§7.13; `cardsim thresholds giltspiel`), not the points of §10.6."""


LAST_STEPS = {"raised": betting.RAISE, "bet_after_hold": "after_hold"}
"""The bets seen whose last step is known (`simcore.betting.BET_HOWS`): their bet from V came as a raise of yours, or
in a window after they held yours."""


def _chain_seen(what: str | None) -> str | None:
    """What the bets-seen model (`simcore.betting.chain_categories`, `seen_likelihood`) sees in a bet seen: a bet
    whose last step is known (`LAST_STEPS`) is a bet; the others as they are."""
    return "bet" if what in LAST_STEPS else what


def _seen_value(what: str, text: str, typed: str, name: str) -> int:
    """The value a bet seen starts from, 1 to `MAX_BET_SEEN` (no_bet: 1 only); CardsimError otherwise."""
    flag = f"--opponents-{what.replace('_', '-')} (opponents_{what})"
    if what == "no_bet" and text != "1":
        raise CardsimError(f"{flag} takes a figure alone, the first bet on it at value 1 (a later one depends on "
                           f"the history before it), got {typed!r}; write {name}")
    number = text.isascii() and text.isdigit()
    if what in LAST_STEPS and not (number and 2 <= int(text) <= MAX_BET_SEEN):
        example = ("they raised your bet from 1 to 2, proposing 3; the first bet is no raise" if what == "raised" else
                   "they held your bet from 1 to 2 and bet from 2 to 3; the first bet follows no hold")
        raise CardsimError(f"{flag} takes FIGURE:V, V the value their bet started from, 2 to {MAX_BET_SEEN} "
                           f"({name}:2: {example}; from 7 the bet is Spiel aus), got {typed!r}")
    if not number or not 1 <= int(text) <= MAX_BET_SEEN:
        raise CardsimError(f"{flag} takes FIGURE or FIGURE:V, V the value the bet started from, 1 to "
                           f"{MAX_BET_SEEN} (gleich:3: a bet from 3 to 4; from 7 the bet is Spiel aus, which only "
                           f"the score can judge), got {typed!r}")
    return int(text)


def _check_policy_reaches(policy: Policy, seen: dict[str, str], values: dict[str, int]) -> None:
    """CardsimError when the opponents' policy never proposes a value their bets seen need (`Policy.max_value`)."""
    for figure, what in seen.items():
        last = betting.last_bet_value(_chain_seen(what), values[figure])
        if last >= 1 and last + 1 > policy.max_value:
            raise CardsimError(f"policy {policy.name!r} never bets a figure above {policy.max_value} (its max_value), "
                               f"so it cannot have bet the {figure} from {last} to {last + 1}; check the bets seen "
                               "or the opponents' policy")


def _check_no_opening_concession(policy: Policy, communication: str) -> None:
    """CardsimError when ``policy`` may give up the Spiel in its first betting window (`Policy.concede_spiel` above
    the lowest opening chance of the Spiel in the betting game's table): the window then closes before any bet on
    the figures, which the bets-seen model (`simcore.betting.bet_categories`) does not follow."""
    lowest = float((1 + bet_tables.spiel_table(communication)[0, 0]).min() / 2)
    if policy.concede_spiel > lowest:
        raise CardsimError(f"policy {policy.name!r} gives up the Spiel before it bets when its chance is below "
                           f"{policy.concede_spiel:g}, which the bets-seen model does not follow (it can happen at the "
                           f"first window from a chance of {lowest:.3f} under communication {communication}); give "
                           f"the opponents a policy with concede_spiel of at most {math.floor(lowest * 1000) / 1000:g}")


def seen_text(seen: dict[str, str], values: dict[str, int] | None = None) -> str:
    """'bet the Gleich at value 1, held your bet on the Hanger from 2 to 3 (the bets alternating from value 1)' for
    the bets seen (`seen_bets`; values: each figure's, default 1)."""
    words = {"bet": "bet the {}", "no_bet": "did not bet the {}", "held": "held your bet on the {}",
             "raised": "raised your bet on the {}", "bet_after_hold": "held your bet on the {}"}
    parts = []
    for figure, what in seen.items():
        value = (values or {}).get(figure, 1)
        when = ("at value 1" if value == 1 else
                f"from {value} to {value + 1} (the bets on it alternating from value 1)")
        if what in LAST_STEPS:
            then = "so bet it" if what == "raised" else "then bet it"
            when = (f"from {value - 1} to {value}, {then} from {value} to {value + 1} (the bets on it alternating "
                    "from value 1)")
        parts.append(f"{words[what].format(figure.capitalize())} {when}")
    return ", ".join(parts)


def bet_weights(seen: dict[str, str], bluff: float) -> np.ndarray:
    """(`giltspiel.BET_CELLS`,) float: the weight of a deal in each cell of `OddsJob`'s categories (3 x the Gleich's
    + the Hanger's), the chance that the opponents do what was ``seen`` (`simcore.betting.seen_likelihood`, the
    bluffs of the two figures drawn apart)."""
    gleich, hanger = (betting.seen_likelihood(_chain_seen(seen.get(figure)), bluff) for figure in g.FIGURES)
    return np.outer(gleich, hanger).ravel()


def _hold_advice(cells: np.ndarray, bets: dict, own: dict[str, bool]) -> dict:
    """For each figure the opponents bet (from its value v, `seen_bets`), from `OddsJob`'s rows ``cells`` (cells,
    13): d = P(win) - P(lose) with its interval (`weighted_difference`), ``value``: v, ``hold``: §10.6 holds their
    bet from v to v + 1 (d > -v/(v + 1)), ``close``: the interval crosses that line, and ``example``: the seat holds
    an example of the figure (``own``, None when it is not known: the Perlique of an unknown trump; B5: a member
    without one cannot hold)."""
    accepted, outcomes, _ = g.odds_parts(cells)
    advice = {}
    for i, figure in enumerate(g.FIGURES):
        if bets["seen"].get(figure) in ("bet",) + tuple(LAST_STEPS):
            value = bets["values"][figure]
            line = betting.hold_threshold(value)[0]
            d = weighted_difference(outcomes[:, i, 0], outcomes[:, i, 2], accepted, bets["weights"])
            advice[figure] = {**d, "value": value, "hold": d["d"] > line, "close": d["lo"] <= line < d["hi"],
                              "example": own.get(figure)}
    return advice


def _hold_lines(a: dict) -> list[str]:
    """The §10.6 answer to each bet seen, for the text output."""
    if not a.get("hold"):
        return []
    values = {h["value"] for h in a["hold"].values()}
    single = len(values) == 1
    if single:
        v = min(values)
        lines = ["", f"facing their bet from {v} to {v + 1} (spec §10.6, points only): hold it when d = P(win) - "
                     f"P(lose) > -{v}/{v + 1}"]
    else:
        lines = ["", "facing their bets (spec §10.6, points only): hold a bet from v to v + 1 when d = P(win) - "
                     "P(lose) > -v/(v + 1)"]
    for figure, h in a["hold"].items():
        v = h["value"]
        call = "hold it" if h["hold"] else "give it up"
        notes = f"; close: the interval crosses -{v}/{v + 1}" if h["close"] else ""
        if h["example"] is False:
            notes += f"; you hold no {figure.capitalize()}: only a partner holding one may hold it (B5)"
        name = figure.capitalize() if single else f"{figure.capitalize()} from {v} to {v + 1}: "
        lines.append(f"  {name:<8}d = {h['d']:+.4f} [{h['lo']:+.4f},{h['hi']:+.4f}]: {call}{notes}")
    return lines


def _weighted_frame(labels, totals: np.ndarray, successes: np.ndarray, weights: np.ndarray, figure: str
                    ) -> pd.DataFrame:
    """The rows of one figure: totals (cells,) deals and successes (cells, labels) per cell of `OddsJob`, each deal
    weighted by its cell's weight (`weighted_estimate`)."""
    rows = []
    for label, counts in zip(labels, successes.T):
        est = weighted_estimate(counts, totals, weights)
        rows.append({"label": label, "p": est["p"], "lo": est["lo"], "hi": est["hi"],
                     "successes": est["p"] * est["n_eff"], "n": est["n_eff"], "figure": figure})
    return pd.DataFrame(rows)


def odds_json(frame: pd.DataFrame) -> dict:
    a = frame.attrs
    return {"game": a["game"], "n": a["n"], "attempted": a["attempted"], "given": a["given"],
            "seed": a["seed"], "seat": a["seat"], "team": a["team"],
            "hand": a["hand"], "turnup": a["turnup"], "known": {str(k): v for k, v in a["known"].items()},
            "own": {"gleich": a["own_gleich"], "hanger": a["own_hanger"]},
            "estimates": estimates_dict(frame, ["figure", "outcome"]), **({"pimc": a["pimc"]} if "pimc" in a else {}),
            **({"perlique": True} if a.get("perlique") else {}),
            **({"perlique_tie": a["perlique_tie"]} if "perlique_tie" in a else {}),
            **({"bets_seen": {**a["bets"], "n_eff": a["n_eff"], "hold": a["hold"]}} if "bets" in a else {})}


def format_odds(frame: pd.DataFrame) -> str:
    a = frame.attrs
    team_seats = f"seats {a['team']} and {a['team'] + 2}"
    lines = [
        f"Giltspiel{PERLIQUE_TITLE if a.get('perlique') else ''} figure odds for seat {a['seat']} (team {a['team']}: "
        f"{team_seats})",
        f"hand {a['hand']}: best Gleich {a['own_gleich']}, best Hanger {a['own_hanger']}"
        + ("" if not a.get("perlique") else " (the Perlique counted)" if a["turnup"] else
           " (natural cards: the Perlique depend on the trump)"),
        f"turn-up {a['turnup'] or 'unknown'}"
        + "".join(f"; seat {s} holds {c}" for s, c in a["known"].items()),
        *(f"given {text}" for text in a["given"]),
        *_bets_lines(a),
        f"n = {a['n']:,} deals" + (f" accepted of {a['attempted']:,}" if a["given"] else "")
        + f", seed {a['seed']}, 95% Wilson intervals"
        + (f"; weighed by the bets seen: effective sample size {a['n_eff']:,.0f} (Kish)" if "bets" in a else ""),
        "",
        f"{'figure':<8}" + "".join(f"{o:>26}" for o in RELATIVE_OUTCOMES),
    ]
    for fig in dict.fromkeys(frame.figure):
        rows = frame[frame.figure == fig].set_index("outcome")
        cells = "".join(f"{format_cell(rows.loc[o]) if o in rows.index else '-':>26}" for o in RELATIVE_OUTCOMES)
        lines.append(f"{fig.capitalize():<8}{cells}")
    lines += _hold_lines(a)
    lines += _opponent_lines(frame)
    if "pimc" in a:
        lines.append(spiel_play.pimc_note(a["pimc"], "every play it weighs (below)" if a.get("perlique") else
                                          "every legal card"))
    elif a["spiel"]:
        lines.append(f"(Spiel: every deal {SPIEL_METHODS[a['spiel']]}; forehand, seat 1, leads; "
                     "the Spiel has no stand or void)")
    if "perlique_tie" in a:
        lines.append("(the Perlique in tricks: each stands for the card its owner declares, never a visible one; "
                     f"a wild and the natural card it copies: the {a['perlique_tie']} card takes the trick"
                     + {"greedy": "; greedy plays a wild only where no natural card of its hand takes the trick "
                                  "or none is left",
                        "random": "; random counts a hand's wilds as one card",
                        "pimc": "; PIMC weighs a few declarations of a wild: leading, the highest of each suit and "
                                "the lowest; following, the highest trump, the cheapest that takes the trick and the "
                                "lowest"}.get(a["spiel"], "") + ")")
    return "\n".join(lines)


def _bets_lines(a: dict) -> list[str]:
    """The bets seen, and how they weigh the deals (spec Q7), for the text header; [] when none were seen."""
    if "bets" not in a:
        return []
    b = a["bets"]
    return [f"seen (spec Q7): the opponents {seen_text(b['seen'], b['values'])}",
            f"each deal weighs the chance that opponents with its hands would: policy {b['policy']} (bluff "
            f"{b['bluff']:g}), communication {b['communication']}"]


def _opponent_lines(frame: pd.DataFrame) -> list[str]:
    """Spec Q4: P(an opponent holds a better figure than the hand's own best / the opponents' best equals it), your
    partner left out."""
    a = frame.attrs
    by_deal = a.get("perlique") and not a["turnup"]  # your figure then counts the Perlique of each deal's trump
    rows = []
    for fig in g.FIGURES:
        cells = frame[frame.figure == fig].set_index("outcome")
        own, name = a[f"own_{fig}"], fig.capitalize()
        if own == "none" and not by_deal:
            rows.append((f"a {name} (you hold none)", cells.loc["opponent_better"]))
        else:
            rows += [(f"a better {name} than {'yours' if by_deal else 'your ' + own}", cells.loc["opponent_better"]),
                     (f"an equal {name}, none better", cells.loc["opponent_equal"])]
    width = max(len(label) for label, _ in rows) + 4
    return ["", "an opponent holds (your partner left out; spec Q4)",
            *(f"  {label:<{width}}{format_cell(cell)}" for label, cell in rows)]


# --- table statistics -------------------------------------------------------------------------
def stats(n: int = 2_000_000, seed=None, seat: int = 1, perlique: bool = False, **run_kw) -> dict[str, pd.DataFrame]:
    """Table-level distributions of uniform deals (spec §10.4 A-D); ``perlique``: with the trump's 7, Unter and
    Ober wild (§8).

    outcome: per figure, P(team 0 wins / team 1 wins / stands / void);
    best_gleich, best_hanger: P(the table's best figure is this class);
    gleich_by_class, hanger_by_class: P(win / stand / lose / void | the seat's own best class);
    gestrichen: P(both teams gestrichen would be decided by a 3+ Gleich / a 3+ Hanger / the play), and P(the best
    3+ Hanger is tied) (§7.12, spec §10.4-F).
    """
    seat = g.check_seat(seat)
    seed = normalize_seed(seed)
    counts = runner.run(g.StatsJob(g.Known(), seat, (), checks.flag(perlique, "perlique")), n, seed, **run_kw)
    deals, parts = g.StatsJob.split(counts)
    tables = {
        "outcome": pd.concat([estimate_frame(ABSOLUTE_OUTCOMES, parts["outcome"][i], deals, figure=fig)
                              for i, fig in enumerate(g.FIGURES)], ignore_index=True),
    }
    for fig, bins in (("gleich", g.GLEICH_BINS), ("hanger", g.HANGER_BINS)):
        labels = _class_labels(fig, bins)
        best = parts[f"best_{fig}"]
        possible = [i for i in range(bins) if fig == "gleich" or i == 0 or i - 1 in g.possible_hanger_codes()]
        table = estimate_frame([labels[i] for i in possible], best[possible], deals)
        table.insert(1, "code", [i - 1 for i in possible])
        tables[f"best_{fig}"] = _with_cumulative(table.iloc[::-1].reset_index(drop=True))
        by_class = parts[f"{fig}_by_class"]
        rows = [estimate_frame(RELATIVE_OUTCOMES, by_class[i], int(by_class[i].sum()), own_class=labels[i], code=i - 1)
                for i in reversed(possible) if by_class[i].sum()]
        tables[f"{fig}_by_class"] = pd.concat(rows, ignore_index=True).rename(columns={"label": "outcome"})
    tables["outcome"] = tables["outcome"].rename(columns={"label": "outcome"})
    tables["gestrichen"] = estimate_frame(g.GESTRICHEN, parts["gestrichen"], deals).rename(columns={"label": "by"})
    joint = parts["joint"]
    tables["joint"] = estimate_frame([f"{og}.{oh}" for og in ABSOLUTE_OUTCOMES for oh in ABSOLUTE_OUTCOMES],
                                     joint.ravel(), deals).rename(columns={"label": "outcomes"})
    tables["sweep"] = estimate_frame(list(SWEEP_LABELS),
                                     [joint[0, 0] + joint[1, 1], joint[0, 1] + joint[1, 0]], deals
                                     ).rename(columns={"label": "event"})
    for table in tables.values():
        table.attrs.update(game=GAME, n=deals, seed=seed, seat=seat, perlique=perlique)
    return tables


def _with_cumulative(table: pd.DataFrame) -> pd.DataFrame:
    """A best-class table (strongest class first) with P(best >= this class) and its Wilson interval: cum, cum_lo,
    cum_hi (spec §10.4-B's cumulative column, Q3)."""
    cumulative = [Estimate(int(k), int(n)) for k, n in zip(table["successes"].cumsum(), table["n"])]
    return table.assign(cum=[e.p for e in cumulative], cum_lo=[e.lo for e in cumulative],
                        cum_hi=[e.hi for e in cumulative])


def stats_json(tables: dict[str, pd.DataFrame]) -> dict:
    first = tables["outcome"].attrs
    return {"game": GAME, "n": first["n"], "seed": first["seed"], "seat": first["seat"],
            **({"perlique": True} if first.get("perlique") else {}), "tables": table_records(tables)}


def format_stats(tables: dict[str, pd.DataFrame]) -> str:
    a = tables["outcome"].attrs
    lines = [f"Giltspiel{PERLIQUE_TITLE if a.get('perlique') else ''} table statistics: n = {a['n']:,} uniform deals, "
             f"seed {a['seed']}, 95% Wilson intervals", ""]
    lines.append("A. Figure outcome per deal")
    for _, r in tables["outcome"].iterrows():
        lines.append(f"  {r['figure']:<7} {r['outcome']:<6} {format_cell(r)}")
    for fig in g.FIGURES:
        lines += ["", f"B. Best {fig.capitalize()} at the table: P(exactly this class), P(this class or better)"]
        for _, r in tables[f"best_{fig}"].iterrows():
            cumulative = {"p": r["cum"], "lo": r["cum_lo"], "hi": r["cum_hi"]}
            lines.append(f"  {r['label']:<16} {format_cell(r):<24}  {format_cell(cumulative)}")
    for letter, fig in zip("CD", g.FIGURES):
        lines += ["", f"{letter}. Seat {a['seat']}'s team on the {fig.capitalize()}, "
                      f"by the seat's own best {fig.capitalize()}",
                  f"  {'own class':<16}" + "".join(f"{o:>24}" for o in RELATIVE_OUTCOMES) + f"{'n':>10}"]
        table = tables[f"{fig}_by_class"]
        for label, rows in table.groupby("own_class", sort=False):
            rows = rows.set_index("outcome")
            cells = "".join(f"{format_cell(rows.loc[o]):>24}" for o in RELATIVE_OUTCOMES)
            lines.append(f"  {label:<16}{cells}{int(rows['n'].iloc[0]):>10,}")
    lines += ["", "F. Both teams gestrichen (§7.12): how the best figure of 3+ cards decides the game"]
    for r in tables["gestrichen"].itertuples():
        if r.by != "gleich_tied" or r.successes:  # natural Gleichs of 3+ cards never tie
            lines.append(f"  {GESTRICHEN_LABELS[r.by]:<44} {format_cell(r._asdict())}")
    lines += ["", "G. Gleich and Hanger together: P(Gleich outcome, Hanger outcome) per deal (rows: the Gleich; team0 "
                  "= seats 0 and 2, team1 = seats 1 and 3)",
              f"  {'Gleich':<8}" + "".join(f"{'Hanger ' + o:>24}" for o in ABSOLUTE_OUTCOMES)]
    joint = tables["joint"].set_index("outcomes")
    for og in ABSOLUTE_OUTCOMES:
        lines.append(f"  {og:<8}" + "".join(f"{format_cell(joint.loc[f'{og}.{oh}']):>24}" for oh in ABSOLUTE_OUTCOMES))
    lines += [f"  {SWEEP_LABELS[r.event]:<30} {format_cell(r._asdict())}" for r in tables["sweep"].itertuples()]
    return "\n".join(lines)


GESTRICHEN_LABELS = {"gleich": "a Gleich of 3+ cards wins the game", "hanger": "a Hanger of 3+ cards wins the game",
                     "play": "no such figure (or a tie): play the cards",
                     "hanger_tied": "(the best 3+ Hanger tied, so it dropped out)",
                     "gleich_tied": "(the best 3+ Gleich tied, so it dropped out)"}
"""The lines of `format_stats`' table F, per `giltspiel.GESTRICHEN` entry."""
SWEEP_LABELS = {"same_team": "one team wins both", "shared": "the teams share them"}
"""The last lines of `format_stats`' table G, per ``sweep`` event."""


# --- exact enumeration ------------------------------------------------------------------------
def exact(perlique: bool = False) -> dict[str, pd.DataFrame]:
    """Exact single-hand facts (spec §10.2) and best-class counts (§4.2, §5.2) over all C(32,5) hands; with the
    Perlique (§8) over every (turn-up, hand) pair of a trump suit (`simcore.games.giltspiel.exact_hands`)."""
    facts = g.single_hand_facts(perlique)
    total = facts.pop("hands")
    fact_rows = [{"event": k, "hands": v, "fraction": str(Fraction(v, total)), "p": v / total}
                 for k, v in facts.items()]
    gleich, hanger = g.single_hand_classes(perlique)
    tables = {"facts": pd.DataFrame(fact_rows)}
    for fig, counts in (("gleich", gleich), ("hanger", hanger)):
        labels = _class_labels(fig, counts.size)
        rows = [{"class": labels[i], "code": i - 1, "hands": int(c), "p": c / total}
                for i, c in enumerate(counts) if c]
        tables[f"best_{fig}"] = pd.DataFrame(rows).iloc[::-1].reset_index(drop=True)
    tables["table"] = _table_facts(perlique)
    for table in tables.values():
        table.attrs.update(game=GAME, hands=total, perlique=perlique)
    return tables


TRUMP_HOLDINGS = {"one hand": g.HAND_SIZE, "a team": 2 * g.HAND_SIZE, "all 4 hands": g.SEATS * g.HAND_SIZE}
"""Whose trumps `_table_facts` counts, and how many of the 31 cards other than the turn-up they hold."""


def _table_facts(perlique: bool) -> pd.DataFrame:
    """Spec §10.3, exact: P(no player / a given team holds a Gleich) (not with the Perlique, whose wild cards make
    Gleichs of their own), the trumps held by one hand, a team and the whole table (distribution and mean), and
    P(the trump Ace is dealt). Rows: fact, k (a distribution's value, else None), fraction, p."""
    def row(fact: str, value: Fraction, k: int | None = None) -> dict:
        return {"fact": fact, "k": k, "fraction": str(value), "p": float(value)}

    rows = [] if perlique else [row(fact, p) for fact, p in g.table_facts().items()]
    for who, cards in TRUMP_HOLDINGS.items():
        dist = g.trump_count_distribution(cards)
        rows += [row(f"trumps in {who}", p, k) for k, p in dist.items()]
        rows.append(row(f"trumps in {who}: mean", sum((k * p for k, p in dist.items()), Fraction(0))))
    rows.append(row("the trump Ace is in some hand", g.trump_ace_dealt()))
    table = pd.DataFrame(rows)
    table["k"] = table["k"].astype("Int64")
    return table


def exact_json(tables: dict[str, pd.DataFrame]) -> dict:
    perlique = tables["facts"].attrs.get("perlique")
    return {"game": GAME, "hands": tables["facts"].attrs["hands"], **({"perlique": True} if perlique else {}),
            "tables": table_records(tables)}


def format_exact(tables: dict[str, pd.DataFrame]) -> str:
    a = tables["facts"].attrs
    what = ("(turn-up, hand) pairs of one trump suit (8 turn-ups x C(31,5) hands)" if a.get("perlique") else "hands")
    lines = [f"Giltspiel{PERLIQUE_TITLE if a.get('perlique') else ''} single-hand facts: exact enumeration of all "
             f"{a['hands']:,} {what}", ""]
    for _, r in tables["facts"].iterrows():
        lines.append(f"  {r['event']:<28}{r['hands']:>9,}  {r['fraction']:>12}  {r['p']:.6f}")
    for fig in g.FIGURES:
        lines += ["", f"  hands by best {fig.capitalize()}"]
        for _, r in tables[f"best_{fig}"].iterrows():
            lines.append(f"  {r['class']:<28}{r['hands']:>9,}  {r['p']:.6f}")
    lines += ["", "Table facts (spec §10.3; every deal counted; the turn-up is a trump that no hand holds)"]
    for r in tables["table"].itertuples():
        label = r.fact if pd.isna(r.k) else f"{r.fact} = {r.k}"
        lines.append(f"  {label:<34}{r.p:>10.6f}  {r.fraction}")
    return "\n".join(lines)


# --- facing a bet, by class ----------------------------------------------------------------------
FACING_DEALS = 2_000_000
"""Deals behind `facing` unless given."""
FACING_VALUES = bet_tables.FACING_VALUES


def facing(policy: str | Policy = "formula", communication: str = "partner", n: int = FACING_DEALS, seed=None,
           how: str | None = None, **run_kw) -> pd.DataFrame:
    """Facing the opponents' bet on a figure from v to v + 1 (v = 1 .. `MAX_BET_SEEN`, the bets on it alternating
    from value 1 as in `odds`' opponents_bet "gleich:v"): d = P(win) - P(lose) of the figure for each class of the
    answering side, over ``n`` uniform deals, each weighted by the chance that opponents with its hands made that
    history under ``policy`` and ``communication`` (`seen_bets`' model, `simcore.betting.chain_categories`; only
    the opponents' part of the history is weighed). The class is what the answer is made from
    (`simcore.games.giltspiel.FACING_VIEWS`): the team's best of both hands under ``partner``, the player's own best
    under ``none``, and under ``auer_channel`` his own and whether his partner holds an example. ``how``: the bet
    came either way (None), after the opponents held the answering side's bet ("after_hold") or as their raise of it
    ("raise"; `simcore.betting.BET_HOWS`), which the game log tells apart and a reading policy does (`Policy.reads`).

    Rows (classes that met the bet, weakest first; under auer_channel those with the partner's example first):
    figure, value, code, class, partner_example (auer_channel: True / False, else None), deals (of the class),
    facing (the weighted share of them: how often the class meets that bet), n_eff (Kish), d, lo, hi
    (`weighted_difference`), hold (d > -v/(v + 1), spec §10.6), p_win, p_win_lo, p_win_hi (P(win) and its interval,
    `weighted_estimate`: against the game-level thresholds P(win)* of `analysis.games.betting.thresholds`' table
    game_level, which hold iff P(win) is above them); attrs: policy, communication, view, bluff, n, seed, how,
    never_bet ([figure, value] of the bets the policy never makes with any hands)."""
    n = checks.whole(n, "n (deals)", 2)
    policy = betting.load_policy(policy)
    communication = betting.check_communication(communication)
    _check_no_opening_concession(policy, communication)
    seed = normalize_seed(seed)
    categories = bet_tables.facing_categories(policy, communication, how)
    job = g.FacingJob(categories)
    counts = runner.run(job, n, seed, **run_kw).reshape(job.shape)
    view = g.facing_view(communication)
    signals = (True, False) if view == "signal" else (None,)
    weights = betting.seen_likelihood("bet", policy.bluff)
    rows = []
    for f, figure in enumerate(g.FIGURES):
        for k, value in enumerate(FACING_VALUES):
            line = betting.hold_threshold(value)[0]
            by_class = counts[k, f, g.FACING_VIEWS.index(view)].reshape(2, g.HANGER_BINS, 3, 4)
            for signal in signals:
                for index, cells in enumerate(by_class[1 if signal else 0]):  # cells (category, outcome)
                    totals = cells.sum(axis=1)
                    weight = float(weights @ totals)
                    if index == 0 or weight == 0:  # no example of his own (B5: cannot hold), or never met the bet
                        continue
                    d = weighted_difference(cells[:, 0], cells[:, 2], totals, weights)
                    win = weighted_estimate(cells[:, 0], totals, weights)
                    rows.append({"figure": figure, "value": value, "code": index - 1,
                                 "class": bet_tables.class_name(f, index - 1), "partner_example": signal,
                                 "deals": int(totals.sum()), "facing": weight / totals.sum(), "n_eff": win["n_eff"],
                                 "d": d["d"], "lo": d["lo"], "hi": d["hi"], "hold": d["d"] > line,
                                 "p_win": win["p"], "p_win_lo": win["lo"], "p_win_hi": win["hi"]})
    frame = pd.DataFrame(rows, columns=FACING_COLUMNS)
    never = [[figure, value] for f, figure in enumerate(g.FIGURES) for k, value in enumerate(FACING_VALUES)
             if weights[categories[k, f]].max() == 0]
    frame.attrs.update(game=GAME, policy=policy.name, communication=communication, view=view, bluff=policy.bluff,
                       n=n, seed=seed, how=how, never_bet=never)
    return frame


FACING_COLUMNS = ["figure", "value", "code", "class", "partner_example", "deals", "facing", "n_eff", "d", "lo", "hi",
                  "hold", "p_win", "p_win_lo", "p_win_hi"]


def facing_groups(frame: pd.DataFrame):
    """(figure, value, partner_example, rows) of a `facing` frame for every figure, value and, under auer_channel,
    partner's signal (True, then False; else None), the rows of the classes that met the bet (maybe none)."""
    signals = (True, False) if frame.attrs["view"] == "signal" else (None,)
    for figure in g.FIGURES:
        for value in FACING_VALUES:
            rows = frame[(frame.figure == figure) & (frame.value == value)]
            for signal in signals:
                yield figure, value, signal, rows if signal is None else rows[rows.partner_example == signal]


def weakest_holds(frame: pd.DataFrame) -> pd.DataFrame:
    """Per figure, value and (auer_channel) partner's signal of a `facing` frame: the weakest class that holds (its
    code, class, d, lo, hi and n_eff; code -1 with class "none" when no class does, "never bet" when the opponents'
    policy never makes that bet, "not met" when no deal drawn met it), and ``settled``: False when the 95% interval
    of d of it or of a weaker class contains the hold line -v/(v + 1), so that sampling noise could move it."""
    never = {tuple(pair) for pair in frame.attrs["never_bet"]}
    out = []
    for figure, value, signal, rows in facing_groups(frame):
        line = betting.hold_threshold(value)[0]
        holding = rows[rows.hold]
        weakest = holding.iloc[0] if len(holding) else None
        weaker = rows if weakest is None else rows[rows.code <= weakest.code]
        name = (weakest["class"] if weakest is not None else "none" if len(rows)
                else "never bet" if (figure, value) in never else "not met")
        out.append({"figure": figure, "value": value, "partner_example": signal,
                    "code": -1 if weakest is None else int(weakest.code), "class": name,
                    **{k: float("nan") if weakest is None else float(weakest[k]) for k in ("d", "lo", "hi", "n_eff")},
                    "settled": bool(((weaker.lo > line) | (weaker.hi <= line)).all())})
    return pd.DataFrame(out)


# --- commands ---------------------------------------------------------------------------------
def _add_odds_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hand", required=True, help='your five cards, e.g. "LA SA H10 E9 E8"')
    parser.add_argument("--seat", type=whole_number, default=1, help="your seat 0-3, dealer 0, forehand 1 (default 1)")
    parser.add_argument("--turnup", default=None, help="the turned-up trump card, if you want it known")
    parser.add_argument("--known", action="append", metavar="SEAT:CARDS",
                        help='cards known in another seat\'s hand (seen played), e.g. "3:HA"; repeatable')
    parser.add_argument("--given", action="append", default=[], metavar="CONDITION",
                        help="condition the deal, e.g. 'opponents gleich >= pair of Obers' "
                             "(who: opponents/partner/team/seat0-3; gleich or hanger; >= or <); repeatable")
    parser.add_argument("--spiel", type=one_of(SPIEL_CHOICES), default=None,
                        help="also the Spiel: solved double dummy (dd), played by the greedy or random policy, "
                             "or by PIMC players with imperfect information (pimc)")
    spiel_play.add_pimc_arguments(parser)
    parser.add_argument("--opponents-bet", action="append", default=[], metavar="FIGURE[:V]",
                        help="a figure (gleich or hanger) you saw the opponents bet at value 1, or from V to V+1 after "
                             "the bets on it alternated from 1 (gleich:3): each deal then weighs the chance that they "
                             "would with its hands (spec Q7); repeatable")
    parser.add_argument("--opponents-no-bet", action="append", default=[], metavar="FIGURE",
                        help="a figure you saw the opponents not bet when they could; repeatable")
    parser.add_argument("--opponents-held", action="append", default=[], metavar="FIGURE[:V]",
                        help="a figure whose bet of yours from value 1 to 2 (or from V to V+1 after the bets on it "
                             "alternated from 1) the opponents held or raised; repeatable")
    parser.add_argument("--opponents-raised", action="append", default=[], metavar="FIGURE:V",
                        help="a figure whose bet of yours from V-1 to V the opponents raised, their bet going from V "
                             "to V+1 (gleich:2, V from 2; the raise that --opponents-held gleich:1 counts among holds, "
                             "read as their bet, with hold advice; --opponents-bet takes it either way); repeatable")
    parser.add_argument("--opponents-bet-after-hold", action="append", default=[], metavar="FIGURE:V",
                        help="a figure on which the opponents held your bet from V-1 to V and then, in a betting "
                             "window, bet from V to V+1 (gleich:2, V from 2; not a raise); repeatable")
    parser.add_argument("--opponents-policy", action=NotedStore, default=None, metavar="POLICY",
                        help="the opponents' betting policy behind the bets seen: formula (default), cautious, "
                             "aggressive, never or a .json file (as cardsim match)")
    parser.add_argument("--opponents-communication", type=one_of(COMMUNICATION), action=NotedStore, default=None,
                        metavar="MODEL", help="what each opponent knows when he bets: partner (default), none or auer_channel "
                             "(as cardsim match)")
    add_run_arguments(parser, default_n=200_000)
    add_option_argument(parser, GAME)


def _perlique(args: argparse.Namespace, command: str) -> bool:
    """The option perlique of ``cardsim stats giltspiel``, the one rule option it reads (it reports VOID apart and
    takes no betting rule)."""
    return command_options(args, GAME, command, ("perlique",)).get("perlique", False)


def _odds_of(args: argparse.Namespace) -> pd.DataFrame:
    reads = ("perlique", "perlique_tie") if args.spiel in SPIEL_CHOICES else ("perlique",)
    options = command_options(args, GAME, "odds", reads)
    pimc = spiel_play.pimc_options(args)  # refuses the PIMC flags without --spiel pimc
    return odds(args.hand, args.seat, args.turnup, seat_cards(args.known), tuple(args.given), args.n, args.seed,
                args.spiel, pimc if args.spiel == spiel_play.PIMC else None, options.get("perlique", False),
                options.get("perlique_tie", "wild"), tuple(args.opponents_bet), tuple(args.opponents_no_bet),
                tuple(args.opponents_held), args.opponents_policy, args.opponents_communication,
                tuple(args.opponents_raised), tuple(args.opponents_bet_after_hold), **run_options(args))


def _run_odds(args: argparse.Namespace) -> int:
    return emit(args, _odds_of(args), odds_json, format_odds)


def _odds_frame(args: argparse.Namespace) -> pd.DataFrame:
    """The odds as estimates gleich.win, ..., spiel.lose (for sweeps)."""
    return long_frame(_odds_of(args), ["figure", "outcome"])


def _add_stats_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--exact", action="store_true", help="exact single-hand facts by enumeration (no sampling)")
    parser.add_argument("--seat", type=whole_number, action=NotedStore, default=1,
                        help="seat whose own class conditions tables C and D (default 1)")
    add_run_arguments(parser, default_n=2_000_000)
    add_option_argument(parser, GAME)


def _run_stats(args: argparse.Namespace) -> int:
    perlique = _perlique(args, "stats")
    check_exact_alone(args, "seat")  # every hand is enumerated, and a hand's facts do not depend on its seat
    if args.exact:
        tables = exact(perlique)
        return emit(args, tables, exact_json, format_exact)
    tables = stats(args.n, args.seed, args.seat, perlique, **run_options(args))
    return emit(args, tables, stats_json, format_stats)


STATS_KEYS = {"outcome": ["figure", "outcome"], "best_gleich": ["label"], "best_hanger": ["label"],
              "gleich_by_class": ["own_class", "outcome"], "hanger_by_class": ["own_class", "outcome"],
              "gestrichen": ["by"], "joint": ["outcomes"], "sweep": ["event"]}
"""Key columns of each stats table, naming its estimates (e.g. outcome.gleich.team0)."""


def _stats_frame(args: argparse.Namespace) -> pd.DataFrame:
    perlique = _perlique(args, "stats")
    no_exact(args)
    return tables_long(stats(args.n, args.seed, args.seat, perlique, **run_options(args)), STATS_KEYS)


register_command("odds", GAME, Command("figure odds of a hand", _add_odds_arguments, _run_odds, _odds_frame))
register_command("stats", GAME, Command("table-level figure statistics", _add_stats_arguments, _run_stats,
                                         _stats_frame))
