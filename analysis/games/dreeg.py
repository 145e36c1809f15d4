"""Dreeg analyses as DataFrames, and their commands: ``odds``, ``stats`` and ``match``.

Python API::

    from analysis.games import dreeg
    frame = dreeg.odds(1, "HA H10 HK HO E9 L9", players=4, n=20_000, seed=1)   # one hand
    tables = dreeg.stats(players=4, policy="greedy", n=500, seed=1)            # whole games
    tables = dreeg.match("greedy", "random", players=4, n=500, seed=1)         # one A vs the rest B

Every proportion row carries ``p, lo, hi`` (95% Wilson interval), ``successes`` and ``n``; means carry
``mean, se, lo, hi, n`` (normal interval; Bolln per game: `_bolln_row`; paired threshold differences: a
Student-t interval). The tables' ``attrs`` hold the game, n, seed and settings; the text titles name the
non-default rule options.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import replace

import numpy as np
import pandas as pd

from analysis.commands import (Command, NotedStore, add_games_alias, add_run_arguments, check_exact_alone,
                               check_only_with, emit, game_option_items, given_flags, long_frame, no_exact, one_of,
                               options_note, register_command, run_options, whole_number)
from analysis.games import dreeg_phase
from analysis.stats import Z95, Estimate, format_cell, mean_interval, student_t95, table_records
from simcore import checks, runner
from simcore.errors import CardsimError
from simcore.games import dreeg_game as dg
from simcore.games import dreeg_rules as r
from simcore.games.dreeg import DECK, DEFAULTS, OPTIONS, check_needs, rule_options
from simcore.games.dreeg_odds import (COUNTS, DECISION_STAGES, DECISIONS, FOREHAND_DECIDES, INDICATOR_RANKS,
                                     INFORMATION_OPTIONS, STRENGTH_BINS, SURRENDER, SURRENDER_TOP, TABLE_DECISIONS,
                                     THRESHOLD_CLASSES, THRESHOLD_COUNTS, VALUE_COUNTS, VALUE_SCALE, DeciderValues,
                                     PACKET, HandQuestion, OddsJob, StrengthJob, ThresholdJob, decision_reads,
                                     decision_stage, moment_label)
from simcore.games.dreeg_duel_odds import DUEL_COUNTS, DuelOddsJob, DuelQuestion
from simcore.games.dreeg_phase import PhaseHandsJob, first_out
from simcore.games.dreeg_play import PLAYED_AS
from simcore.games.dreeg_policies import POLICIES
from simcore.games.dreeg_reads import check_reads
from simcore.rng import normalize_seed

GAME = "dreeg"


def _estimate_row(successes: int, n: int, **keys) -> dict:
    est = Estimate(int(successes), int(n))
    return {**keys, "p": est.p, "lo": est.lo, "hi": est.hi, "successes": int(successes), "n": int(n)}


def _mean_row(total: float, total_sq: float, n: int, **keys) -> dict:
    """Mean of n values from their sum and sum of squares, with a normal 95% interval (`mean_interval`)."""
    return {**keys, **mean_interval(total, total_sq, n), "n": int(n)}


def _hist_mean(hist: np.ndarray, **keys) -> dict:
    values = np.arange(hist.size, dtype=float)
    n = int(hist.sum())
    return _mean_row(float((hist * values).sum()), float((hist * values ** 2).sum()), n, **keys)


def parse_options(items) -> tuple:
    """``name=value`` rule options (`game_option_items`) as sorted pairs, checked against the game's options
    and against each other (`check_needs`)."""
    chosen = game_option_items(items, GAME, OPTIONS)
    check_needs(rule_options(**chosen))
    return tuple(sorted(chosen.items()))


def _options_note(options: dict) -> str:
    """`options_note` of the options that differ from their defaults, written as ``--option`` takes them."""
    return options_note({k: str(v).lower() if isinstance(v, bool) else v for k, v in options.items()
                         if v != DEFAULTS[k]})


# --- odds of one hand ------------------------------------------------------------------------------
def _card(token: str | None, what: str) -> int:
    if token is None:
        return -1
    cards = DECK.parse_cards(token, what)
    if len(cards) != 1:
        raise CardsimError(f"{what} takes one card, got {len(cards)}")
    return cards[0]


def _trump(text: str | None) -> int | None:
    if text is None:
        return None
    if not isinstance(text, str):
        raise CardsimError(f"--trump takes a suit letter as a string, one of {', '.join(DECK.suits)} (or "
                           f"'surrender'), got {text!r}")
    if text.strip().lower() == "surrender":
        return SURRENDER
    letters = [s.upper() for s in DECK.suits]
    if text.strip().upper() not in letters:
        raise CardsimError(f"--trump must be a suit, one of {', '.join(DECK.suits)} (or 'surrender', in Rot Assen), "
                           f"got '{text}'")
    return letters.index(text.strip().upper())


def _phase_position(phase, position) -> tuple[int, int]:
    """(phase, position) of a hand's odds as ints: a phase 1-8 and a whole position (its range is the question's to
    check); CardsimError otherwise."""
    return checks.whole(phase, "--phase", 1, 8), checks.whole(position, "--position")


def odds(phase: int, hand: str, players: int = 4, position: int = 0, turnup: str | None = None,
         call: str | None = None, trump: str | None = None, policy: str = "greedy", options=(), n: int = 20_000,
         seed=None, **run_kw) -> pd.DataFrame:
    """Outcome of one hand of ``phase`` held at ``position`` (0 = forehand), the other cards dealt
    at random and every seat played by ``policy``.

    Rows (quantity, p, lo, hi, successes, n): erase.0-3 (strokes the hero erases; erasing is good except
    in Kamerun), opp_erase.0-3 (the most an opponent erases); in Rot Assen and Rufen, whose target is 66:
    reach66 (the hero's side has >= 66 as the thresholds count, §5 A5, when the hand ends), schneider
    and schwarz (the hero's side loses the hand with a trick but < 33, with no trick); in Kamerun, no_trick (the
    hero takes no trick), trick1 (wins trick 1), durchmarsch (declaring after winning trick 1 sweeps every trick)
    and durchmarsch_if_trick1 (the same among the deals where he wins trick 1: n is theirs);
    attrs["card_points"]: the hero's mean card points taken with its interval. ``players=2``: the duel of the
    phase (`duel_odds`). ``call="all"`` (Rufen forehand) or ``trump="all"`` (Rot Assen, the heart-ace holder): every
    choice on the same deals, a row each (`_every_choice`).
    """
    phase, position = _phase_position(phase, position)
    players = checks.whole(players, "--players")
    sly = isinstance(policy, str) and policy.strip().lower() == "sly"
    if sly and not (players == 2 and r.SUBGAME[phase] == "RA"):
        raise CardsimError("--policy sly differs from greedy only in 2-player Rot Assen (it hides a heart Ace it "
                           "holds), so here it plays as greedy: give --policy greedy, or --players 2 with a Rot Assen "
                           "phase")
    every_call, every_trump = (isinstance(x, str) and x.strip().lower() == EVERY for x in (call, trump))
    if every_call and every_trump:
        raise CardsimError("--call all and --trump all: Rufen has calls, Rot Assen trumps; give the one of your phase")
    if players == 2:
        if every_call or every_trump:
            raise CardsimError(f"--{'call' if every_call else 'trump'} all compares the choices of a hand of 3 or 4 "
                               "players; drop --players 2")
        return duel_odds(phase, hand, position, turnup, call, trump, policy, options, n, seed, **run_kw)
    question = HandQuestion(phase, players, tuple(DECK.parse_cards(hand, "--hand")), position,
                            _card(turnup, "--turnup"), -1 if every_call else _card(call, "--call"),
                            None if every_trump else _trump(trump), policy, parse_options(options))
    seed = normalize_seed(seed)
    if every_call or every_trump:
        return _every_choice(question, "call" if every_call else "trump", n, seed, run_kw)
    counts = runner.run(OddsJob(question), n, seed, **run_kw)
    c = dict(zip(COUNTS, (int(x) for x in counts)))
    deals = c["deals"]
    two_sided = r.two_sided(PLAYED_AS.get(question.subgame, question.subgame), players)
    rows = _sides66_rows(c, deals) if two_sided else []
    rows += [_estimate_row(c[f"erase{k}"], deals, quantity=f"erase.{k}") for k in range(4)]
    rows += [_estimate_row(c[f"opp{k}"], deals, quantity=f"opp_erase.{k}") for k in range(4)]
    if two_sided:
        rows += [_estimate_row(c[k], deals, quantity=k) for k in ("schneider", "schwarz")]
    if question.subgame == "KA":
        rows += [_estimate_row(c["no_trick"], deals, quantity="no_trick"),
                 _estimate_row(c["trick1"], deals, quantity="trick1"),
                 _estimate_row(c["sweep"], deals, quantity="durchmarsch")]
        if c["trick1"]:
            rows.append(_estimate_row(c["sweep"], c["trick1"], quantity="durchmarsch_if_trick1"))
    frame = pd.DataFrame(rows)
    frame.attrs.update(game=GAME, n=deals, seed=seed, phase=phase, subgame=r.SUBGAME_NAMES[question.subgame],
                       players=players, position=position, policy=policy, hand=DECK.format_cards(question.hand),
                       turnup=turnup, call=call, trump=trump, options=dict(question.options),
                       packet_only=len(question.hand) == PACKET,
                       card_points=_mean_row(c["points"], c["points_sq"], deals, quantity="card_points"))
    return frame


def duel_odds(phase: int, hand: str, position: int = 0, turnup: str | None = None, call: str | None = None,
              trump: str | None = None, policy: str = "greedy", options=(), n: int = 20_000, seed=None,
              **run_kw) -> pd.DataFrame:
    """`odds` of a 2-player hand (the duel of phases 1/8, 2/7, 3/6; spec §3.1.2, §3.2.2, §3.3.2, §6.2), played
    by the engine's duel (`DuelOddsJob`) with ``policy`` at both seats; ``position`` 0 = forehand, 1 = dealer.

    Rows (quantity, p, lo, hi, successes, n): win (the hero erases: his side won the hand), first66 (the hero's
    side reaches 66, `Play.side_score`, before the opponent's, at any moment of the hand), reach66 (>= 66 when
    the hand ends), erase.0-3, opp_erase.0-3, schneider and schwarz (as in `odds`: the hero loses the hand with
    a trick but < 33 / with no trick); attrs: "strokes" (the hero's mean strokes erased), "net" (his erased
    minus the opponent's) and "card_points", each a mean with its interval, and the question."""
    phase, position = _phase_position(phase, position)
    cards = tuple(DECK.parse_cards(hand, "--hand"))
    question = DuelQuestion(phase, 2, cards, position, _card(turnup, "--turnup"), _card(call, "--call"),
                            _trump(trump), policy, parse_options(options))
    seed = normalize_seed(seed)
    counts = runner.run(DuelOddsJob(question), n, seed, **run_kw)
    c = dict(zip(DUEL_COUNTS, (int(x) for x in counts)))
    deals = c["deals"]
    rows = [_estimate_row(sum(c[f"erase{k}"] for k in (1, 2, 3)), deals, quantity="win"),
            _estimate_row(c["first66"], deals, quantity="first66"), *_sides66_rows(c, deals)]
    rows += [_estimate_row(c[f"erase{k}"], deals, quantity=f"erase.{k}") for k in range(4)]
    rows += [_estimate_row(c[f"opp{k}"], deals, quantity=f"opp_erase.{k}") for k in range(4)]
    rows += [_estimate_row(c[k], deals, quantity=k) for k in ("schneider", "schwarz")]
    frame = pd.DataFrame(rows)
    frame.attrs.update(game=GAME, n=deals, seed=seed, phase=phase, subgame=r.SUBGAME_NAMES[question.subgame],
                       players=2, position=position, policy=policy, hand=DECK.format_cards(cards),
                       turnup=turnup, call=None, trump=trump, options=dict(question.options),
                       packet_only=len(cards) == PACKET,
                       strokes=_mean_row(c["strokes"], c["strokes_sq"], deals, quantity="strokes"),
                       net=_mean_row(c["net"], c["net_sq"], deals, quantity="net"),
                       card_points=_mean_row(c["points"], c["points_sq"], deals, quantity="card_points"))
    return frame


EVERY = "all"
"""``--call all`` / ``--trump all``: every legal call of the Rufen forehand, or every trump choice of the Rot Assen
heart-ace holder, a row each (`_every_choice`)."""
CHOICE_ESTIMATES = (("reach66", "P(side has 66)"), ("strokes", "E[strokes erased]"),
                    ("opp_strokes", "E[best opp. erases]"), ("net", "E[net strokes]"), ("erase.0", "P(erases 0)"),
                    ("schneider", "P(loses Schneider)"), ("schwarz", "P(loses Schwarz)"))
"""The estimates of each choice in `_every_choice` (quantity ``<choice>.<estimate>``) and their column titles."""


def legal_calls(question: HandQuestion) -> list[int]:
    """Rufen forehand's legal calls (§3.3.1): every card of a suit among his first three cards, his own cards
    included (calling one of them plays alone, a deliberate solo)."""
    packet = sum(1 << c for c in question.hand[:PACKET])
    return [c for c in range(DECK.n_cards) if packet & r.SUIT_MASKS[r.card_suit(c)]]


def legal_trumps(question: HandQuestion) -> list[int]:
    """The Rot Assen heart-ace holder's choices (§3.2.1): a trump suit (hearts only under rot_assen_trump=hearts),
    or `SURRENDER`."""
    suits = [r.HEART] if rule_options(**dict(question.options))["rot_assen_trump"] == "hearts" else range(r.N_SUITS)
    return [*suits, SURRENDER]


def _choices(question: HandQuestion, field: str) -> list[tuple[str, str, HandQuestion]]:
    """(label, note, question) of every choice of ``field`` ("call" or "trump"); CardsimError where the hand has
    none (`HandQuestion.check` refuses a choice outside its sub-game and seat)."""
    if field == "call":
        if question.subgame != "RU" or question.position != 0:
            raise CardsimError(f"--call all lists forehand's calls in Rufen (phases 3 and 6, --position 0); phase "
                               f"{question.phase} at position {question.position} has none: drop --call")
        notes = {**dict.fromkeys(question.hand[PACKET:], "accidental solo"),
                 **dict.fromkeys(question.hand[:PACKET], "solo")}
        return [(DECK.token(c), notes.get(c, ""), replace(question, call=c)) for c in legal_calls(question)]
    if question.subgame != "RA" or r.HEART_ACE not in question.hand:
        raise CardsimError(f"--trump all lists the heart-ace holder's choices in Rot Assen (phases 2 and 7, HA in "
                           f"--hand); phase {question.phase} with this hand has none: drop --trump")
    return [("surrender" if t == SURRENDER else DECK.suits[t], "", replace(question, trump=t))
            for t in legal_trumps(question)]


def _every_choice(question: HandQuestion, field: str, n: int, seed: int, run_kw: dict) -> pd.DataFrame:
    """Every choice of ``field`` (`_choices`: the Rufen forehand's calls, the Rot Assen heart-ace holder's trumps
    and surrender), each played out on the same ``n`` deals (the same seed; the cards have their own random stream,
    so the same cards are dealt for every choice); rows quantity ``<choice>.<estimate>`` of `CHOICE_ESTIMATES`
    (strokes, opp_strokes: the mean strokes the hand / its best opponent erases, normal intervals kept in [0, 3];
    net: their difference, its interval conservative: the sum of the two standard errors bounds the difference's),
    p, lo, hi, successes, n; attrs "choice" (``field``), "choices" [{"choice", "note"}] ("solo": a call of a card of
    the first packet; "accidental solo": of the second), "best" (the largest net point estimate), "packet_only"."""
    rows, choices = [], []
    for label, note, asked in _choices(question, field):
        c = dict(zip(COUNTS, (int(x) for x in runner.run(OddsJob(asked), n, seed, **run_kw))))
        deals = c["deals"]
        own, opp = (_hist_mean(np.array([c[f"{prefix}{k}"] for k in range(4)])) for prefix in ("erase", "opp"))
        net, half = own["mean"] - opp["mean"], Z95 * (own["se"] + opp["se"])
        rows += [_estimate_row(c["reach66"], deals, quantity=f"{label}.reach66"),
                 *(_strokes_row(f"{label}.{key}", m["mean"], m["lo"], m["hi"], deals, 0)
                   for key, m in (("strokes", own), ("opp_strokes", opp))),
                 _strokes_row(f"{label}.net", net, net - half, net + half, deals, -3),
                 *(_estimate_row(c[key.replace(".", "")], deals, quantity=f"{label}.{key}")
                   for key in ("erase.0", "schneider", "schwarz"))]
        choices.append({"choice": label, "note": note})
    frame = pd.DataFrame(rows)
    net = frame[frame.quantity.str.endswith(".net")].set_index("quantity").p
    frame.attrs.update(game=GAME, n=int(frame.n.iloc[0]), seed=seed, phase=question.phase,
                       subgame=r.SUBGAME_NAMES[question.subgame], players=question.players,
                       position=question.position, policy=question.policy, hand=DECK.format_cards(question.hand),
                       turnup=None, call=EVERY if field == "call" else None, trump=EVERY if field == "trump" else None,
                       options=dict(question.options), choice=field, choices=choices,
                       best=net.idxmax().rsplit(".", 1)[0], packet_only=len(question.hand) == PACKET)
    return frame


def _strokes_row(quantity: str, mean: float, lo: float, hi: float, n: int, least: int) -> dict:
    """A row of a mean number of strokes, its interval kept within the values it can take (``least`` to 3)."""
    return {"quantity": quantity, "p": mean, "lo": max(lo, least), "hi": min(hi, 3), "successes": np.nan, "n": n}


def _format_every_choice(frame: pd.DataFrame) -> str:
    a = frame.attrs
    values = frame.set_index("quantity")
    who = "at forehand, every legal call" if a["choice"] == "call" else "holding the heart ace, every trump choice"
    packet = " (first packet only: the rest dealt at random)" if a.get("packet_only") else ""
    lines = [f"Dreeg phase {a['phase']} ({a['subgame']}), {a['players']} players: hand {a['hand']}{packet} {who}"
             f"{_options_note(a['options'])}",
             f"every seat plays {a['policy']}; n = {a['n']:,} deals per choice, the same cards dealt for each (seed "
             f"{a['seed']}), 95% intervals", "",
             f"  {a['choice']:<18}" + "".join(f"{title:<24}" for _, title in CHOICE_ESTIMATES)]
    for entry in a["choices"]:
        cells = []
        for key, _ in CHOICE_ESTIMATES:
            row = values.loc[f"{entry['choice']}.{key}"]
            cells.append(f"{row.p:+.2f} [{row.lo:+.2f},{row.hi:+.2f}]" if key == "net" else
                         f"{row.p:.2f} [{row.lo:.2f},{row.hi:.2f}]" if key.endswith("strokes") else format_cell(row))
        label = f"{entry['choice']} {entry['note']}".strip()
        lines.append(f"  {label:<18}" + "".join(f"{cell:<24}" for cell in cells)
                     + ("  <- most net strokes" if entry["choice"] == a["best"] else ""))
    lines.append(("(solo: you call a card of your first packet and play alone, §3.3.1; accidental solo: the card is "
                  "in your second packet; " if a["choice"] == "call" else
                  "(surrender: each opponent erases 2, §3.2.1; ")
                 + "strokes erased: 0-3, more is better; best opp.: the most any opponent erases; net: the first mean "
                   "minus the second, its interval conservative (the sum of the two standard errors), the mark on its "
                   "point estimate; Schneider / Schwarz: your side loses the hand with a trick but < 33 / with no "
                   "trick)")
    return "\n".join(line.rstrip() for line in lines)


def odds_json(frame: pd.DataFrame) -> dict:
    a = dict(frame.attrs)
    out = {k: a[k] for k in ("game", "phase", "subgame", "players", "position", "hand", "turnup", "call", "trump",
                             "policy", "options", "n", "seed")}
    out["estimates"] = {row.quantity: {"p": row.p, "lo": row.lo, "hi": row.hi} for row in frame.itertuples()}
    out["packet_only"] = bool(a.get("packet_only", False))
    if "choices" in a:
        out.update(choices=a["choices"], best=a["best"])
    for name in ("card_points", "strokes", "net"):
        if name in a:
            out[name] = {k: a[name][k] for k in ("mean", "se", "lo", "hi")}
    return out


def _sides66_rows(c: dict, deals: int) -> list[dict]:
    """Two-sided hands: P(the hero's side has 66 at the end), P(the other side has), P(neither has)."""
    return [_estimate_row(c[key], deals, quantity=name)
            for key, name in (("reach66", "reach66"), ("opp66", "opp_reach66"), ("none66", "none66"))]


ODDS_NAMES = {"reach66": "side reaches 66", "opp_reach66": "other side reaches 66", "none66": "neither side has 66",
              **{f"erase.{k}": f"erases {k}" for k in range(4)},
              **{f"opp_erase.{k}": f"best opponent erases {k}" for k in range(4)},
              "schneider": "side loses Schneider", "schwarz": "side loses Schwarz", "trick1": "wins trick 1",
              "durchmarsch": "Durchmarsch succeeds", "no_trick": "takes no trick",
              "durchmarsch_if_trick1": "  given trick 1 won"}
DUEL_NAMES = {**ODDS_NAMES, "win": "wins the hand", "first66": "reaches 66 first", "reach66": "has 66 at the end",
              "opp_reach66": "opponent has 66 at end",
              **{f"opp_erase.{k}": f"opponent erases {k}" for k in range(4)},
              "schneider": "loses Schneider", "schwarz": "loses Schwarz"}


def _givens(a: dict) -> str:
    """" (turn-up LA, trump E)" for a title: what the question fixes besides the hand ('' for nothing)."""
    duel = a["players"] == 2
    given = [f"{'indicator' if duel else 'turn-up'} {a['turnup']}" if a["turnup"] else "",
             f"calls {a['call']}" if a.get("call") else "",
             f"trump {a['trump'].upper()}" if a["trump"] and a["trump"].lower() != "surrender" else "",
             "surrenders" if a["trump"] and a["trump"].lower() == "surrender" else "",
             "first packet only" if a.get("packet_only") else ""]
    given = ", ".join(g for g in given if g)
    return f" ({given})" if given else ""


def _format_duel(frame: pd.DataFrame) -> str:
    a = frame.attrs
    lines = [f"Dreeg phase {a['phase']} ({a['subgame']}), 2-player duel: hand {a['hand']} at "
             f"{'forehand' if a['position'] == 0 else 'dealer'}{_givens(a)}{_options_note(a['options'])}",
             f"both seats play {a['policy']} (talon, drawing, closing, exchange and going out as the engine's duel); "
             f"n = {a['n']:,} deals, seed {a['seed']}, 95% intervals", ""]
    for row in frame.itertuples():
        lines.append(f"  {DUEL_NAMES[row.quantity]:<26}{format_cell(row._asdict())}")
    for name, label in (("strokes", "strokes erased (mean)"), ("net", "net strokes (mean)"),
                        ("card_points", "card points taken")):
        m = a[name]
        lines.append(f"  {label:<26}{m['mean']:.2f} [{m['lo']:.2f},{m['hi']:.2f}]")
    lines.append("(wins: the hero erases 1-3; reaches 66 first: his points with marriages reach 66 before the "
                 "opponent's;")
    lines.append(" net: his strokes minus the opponent's; Schneider / Schwarz: he loses the hand with a trick but "
                 "< 33 / with no trick)")
    return "\n".join(lines)


def format_odds(frame: pd.DataFrame) -> str:
    a = frame.attrs
    if a["players"] == 2:
        return _format_duel(frame)
    if "choices" in a:
        return _format_every_choice(frame)
    where = "forehand" if a["position"] == 0 else ("dealer" if a["position"] == a["players"] - 1
                                                   else f"position {a['position']}")
    lines = [f"Dreeg phase {a['phase']} ({a['subgame']}), {a['players']} players: hand {a['hand']} at {where}"
             f"{_givens(a)}{_options_note(a['options'])}",
             f"every seat plays {a['policy']}; n = {a['n']:,} deals, seed {a['seed']}, 95% Wilson intervals", ""]
    for row in frame.itertuples():
        lines.append(f"  {ODDS_NAMES[row.quantity]:<26}{format_cell(row._asdict())}")
    cp = a["card_points"]
    lines.append(f"  {'card points taken':<26}{cp['mean']:.2f} [{cp['lo']:.2f},{cp['hi']:.2f}]")
    lines.append("(best opponent: the most any opponent erases" + (
        "; Schneider / Schwarz: the side loses the hand with a trick but < 33 / with no trick)"
        if "schwarz" in set(frame["quantity"]) else ")"))
    if a["subgame"] in ("Kamerun", "Kamerun bei Nacht"):
        lines.append("(Kamerun: erasing is bad; Durchmarsch = declared by the hand after winning trick 1 and won)")
    return "\n".join(lines)


POLICY = one_of(tuple(POLICIES))
"""argparse type of a policy name (any case)."""


def _add_policy_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--policy", type=POLICY, action=NotedStore, default="greedy",
                        help="policy of every seat: greedy (default), "
                        "random, sly (hides a 2-player Rot Assen heart ace) or pimc (slow)")


def _add_odds_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--phase", type=one_of(tuple(r.SUBGAME)), required=True,
                        help="phase 1-8 (1/8 66, 2/7 Rot Assen, 3/6 Rufen, 4/5 Kamerun)")
    parser.add_argument("--hand", required=True, help="your cards (6 with 4 or 2 players, 8 with 3); in Rufen "
                                                      "forehand's first three are his first packet, and those 3 alone "
                                                      "will do (the rest dealt at random)")
    parser.add_argument("--players", type=one_of((2, 3, 4)), default=4,
                        help="2 (the duel of phases 1-3/6-8), 3 or 4 (default 4)")
    parser.add_argument("--position", type=whole_number, default=0,
                        help="0 = forehand ... players-1 = dealer (default 0)")
    parser.add_argument("--turnup", default=None, help="phases 1/8: the turned trump card (the dealer's; with 2 "
                                                       "players the indicator under the talon)")
    parser.add_argument("--call", default=None, help="Rufen, forehand: the card you call (default: the policy's), "
                                                     "or 'all' (every legal call on the same deals, a row each)")
    parser.add_argument("--trump", default=None, help="Rot Assen, heart-ace holder: trump E/L/H/S, 'surrender', or "
                                                      "'all' (3 or 4 players: every choice on the same deals, a row "
                                                      "each); 2-player Rufen, forehand: the trump you name")
    _add_policy_argument(parser)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a rule option (see 'cardsim games dreeg'), repeatable")
    add_run_arguments(parser, default_n=20_000)


def _odds_args(args):
    return dict(phase=args.phase, hand=args.hand, players=args.players, position=args.position, turnup=args.turnup,
                call=args.call, trump=args.trump, policy=args.policy, options=args.option, n=args.n, seed=args.seed,
                **run_options(args))


def _run_odds(args: argparse.Namespace) -> int:
    return emit(args, odds(**_odds_args(args)), odds_json, format_odds)


def _odds_frame(args: argparse.Namespace) -> pd.DataFrame:
    return long_frame(odds(**_odds_args(args)), ["quantity"])


# --- P(66) by hand strength ------------------------------------------------------------------------
def strength(phase: int = 1, players: int = 2, policy: str = "greedy", n: int = 5_000, seed=None, options=(),
             **run_kw) -> pd.DataFrame:
    """P(the side reaches 66) and P(the hand is won, i.e. its side erases) by the dealt hand's strength
    (card points + marriages, in classes of 10) and position (forehand, dealer, ...), uniform deals of
    ``phase`` with ``players`` active (2: the duel) and ``policy`` at every seat.

    Rows: class, position, outcome ("reach66" / "win"), p, lo, hi, successes, n.
    """
    phase, players = checks.whole(phase, "--phase"), checks.whole(players, "--players")
    if phase not in r.SUBGAME or players not in (2, 3, 4):
        raise CardsimError(f"strength needs a phase 1-8 and 2-4 players, got phase {phase}, {players} players")
    seed = normalize_seed(seed)
    checks.one_of(policy, "policy", POLICIES)
    job = StrengthJob(phase, players, policy, parse_options(options))
    counts = runner.run(job, n, seed, **run_kw).reshape(players, STRENGTH_BINS, 6)
    names = ["forehand"] + [f"position {i}" for i in range(1, players - 1)] + ["dealer"]
    rows = []
    for b in range(STRENGTH_BINS):
        label = f"{10 * b}+" if b == STRENGTH_BINS - 1 else f"{10 * b}-{10 * b + 9}"
        for pos in range(players):
            deals, reached, erased = counts[pos, b, 0], counts[pos, b, 1], counts[pos, b, 3:].sum()
            if deals:
                rows.append(_estimate_row(reached, deals, **{"class": label, "position": names[pos],
                                                             "outcome": "reach66"}))
                rows.append(_estimate_row(erased, deals, **{"class": label, "position": names[pos], "outcome": "win"}))
    frame = pd.DataFrame(rows)
    frame.attrs.update(game=GAME, n=int(n), seed=seed, phase=phase, players=players, policy=policy)
    return frame


# --- whole games -----------------------------------------------------------------------------------
def _games(lineup: tuple[str, ...], rotate: bool, options, n: int, seed,
           run_kw) -> tuple[dict, int, list[str], tuple[str, ...]]:
    """Counts of whole games (`dreeg_game.GameJob`) split by part, the seed, a label per phase and the phases'
    sub-games (`GameJob.plan`)."""
    seed = normalize_seed(seed)
    job = dg.GameJob(tuple(lineup), parse_options(options), rotate)
    counts = runner.run(job, n, seed, **run_kw)
    plan = job.plan()
    labels = [f"{p} {r.SUBGAME_NAMES[sub]}" for p, sub in enumerate(plan, start=1)]
    return dg.split_counts(counts, len(lineup), len(plan)), seed, labels, plan


def stats(players: int = 4, policy: str = "greedy", n: int = 200, seed=None, options=(), **run_kw) -> dict:
    """Whole games with ``policy`` at every seat (seat 0 deals first): tables

    losers: P(seat loses phase); lengths: hands per phase (mean); bolln: Bolln per seat (mean) and
    P(seat alone has the most Bolln); events: per sub-game, the share of hands gone out, closed,
    surrendered, with Durchmarsch declared / won.
    """
    players = dg.check_players(players)
    parts, seed, labels, plan = _games((policy,) * players, False, options, n, seed, run_kw)
    games = int(parts["games"][0])
    losers = pd.DataFrame([_estimate_row(parts["loser_seat"][p, s], games, phase=label, seat=s)
                           for p, label in enumerate(labels) for s in range(players)])
    lengths = pd.DataFrame([_hist_mean(parts["hands"][p], phase=label) for p, label in enumerate(labels)])
    bolln = pd.DataFrame([{**_bolln_row(parts["bolln_seat"][s], len(labels), seat=s),
                           **{f"most_{k}": v for k, v in _estimate_row(parts["most_bolln"][s], games).items()
                              if k in ("p", "lo", "hi")}} for s in range(players)])
    tables = {"losers": losers, "lengths": lengths, "bolln": bolln, "events": _events(parts["events"]),
              "stages": _stages(parts, labels, plan, players),
              "stage_skips": _stage_skips(parts, labels, plan, players)}
    for table in tables.values():
        table.attrs.update(game=GAME, n=games, seed=seed, players=players, policy=policy,
                           options=dict(parse_options(options)))
    return tables


STAGE_SUBGAMES = ("66", "RA", "RU")
"""Sub-games whose stages block D shows (§2.1: players at 0 drop out, the last one holding strokes loses). Not shown:
Kamerun (the first out loses: no stages); Weglöscher, where two play each hand, so the players in a hand do not tell
the stage; Schweige-Maß, whose phase also ends when a player speaks, which would read as a skipped stage."""


def _stages(parts: dict, labels: list[str], plan: tuple[str, ...], players: int) -> pd.DataFrame:
    """Per phase of a STAGE_SUBGAMES sub-game (``plan``: each phase's) and stage of k = players - 1 .. 2 players
    (spec §6.2, phase transitions): P(the phase plays a hand with k players; else it skips that stage: two or more
    players dropped out in one hand), and the mean number of its hands with k players per game (0 in games that skip
    it; the normal interval clamped at 0)."""
    games = int(parts["games"][0])
    rows = []
    for p, label in enumerate(labels):
        if plan[p] not in STAGE_SUBGAMES:
            continue
        for k in range(players - 1, 1, -1):
            hands = _mean_row(float(parts["stage_hands"][p, k]), float(parts["stage_hands_sq"][p, k]), games)
            rows.append({**_estimate_row(parts["stages"][p, k], games, phase=label, players=k),
                         "hands": hands["mean"], "hands_lo": max(hands["lo"], 0.0), "hands_hi": hands["hi"]})
    return pd.DataFrame(rows, columns=["phase", "players", "p", "lo", "hi", "successes", "n", "hands", "hands_lo",
                                       "hands_hi"])


def _stage_skips(parts: dict, labels: list[str], plan: tuple[str, ...], players: int) -> pd.DataFrame:
    """Per phase of a STAGE_SUBGAMES sub-game, with four or more players: P(the phase skips every stage: it plays
    only hands with all its players, and they drop out all but one in one hand); none with three players, where it is
    the 2-player stage's complement."""
    games = int(parts["games"][0])
    rows = [_estimate_row(parts["no_stage"][p], games, phase=label) for p, label in enumerate(labels)
            if plan[p] in STAGE_SUBGAMES and players >= 4]
    return pd.DataFrame(rows, columns=["phase", "p", "lo", "hi", "successes", "n"])


def _bolln_row(hist: np.ndarray, phases: int, **keys) -> dict:
    """Mean Bolln per game per player from a histogram over players' games (Bolln 0, 1, ...), with an
    interval inside [0, phases]: a player loses each phase at most once, so Bolln / phases is the share of
    phases lost, and the interval is ``phases`` times its Wilson interval over the player-phases (read as
    independent trials)."""
    games = int(hist.sum())
    est = Estimate(int((hist * np.arange(hist.size)).sum()), games * phases)
    return {**keys, "mean": est.p * phases, "lo": est.lo * phases, "hi": est.hi * phases, "n": games}


SHOWN_EVENTS = {"66": ("out", "closed"), "RA": ("out", "closed", "surrender"), "RU": ("out", "closed"),
                "KA": ("durchmarsch", "durchmarsch_won"), "SM": ("out", "closed", "spoke"), "WL": ("out", "closed")}
"""Events section C shows for every sub-game played, 0 included; any other event shows when it happened."""


def _events(events: np.ndarray) -> pd.DataFrame:
    rows = []
    for i, sub in enumerate(dg.SUBGAMES):
        hands = int(events[i, 0])
        for j, name in enumerate(dg.EVENTS[1:], start=1):
            if events[i, j] or (hands and name in SHOWN_EVENTS.get(sub, ())):
                rows.append(_estimate_row(events[i, j], hands, subgame=r.SUBGAME_NAMES[sub], event=name))
    return pd.DataFrame(rows, columns=["subgame", "event", "p", "lo", "hi", "successes", "n"])


def stats_json(tables: dict) -> dict:
    a = tables["losers"].attrs
    return {"game": GAME, "n": a["n"], "seed": a["seed"], "players": a["players"], "policy": a["policy"],
            "options": a["options"], "tables": table_records(tables)}


BOLLN_NOTE = "Bolln per game: phases x the Wilson interval of the share of phases lost"


def format_stats(tables: dict) -> str:
    a = tables["losers"].attrs
    n = a["players"]
    lines = [f"Dreeg whole games, {n} players, {a['policy']} at every seat (seat 0 deals first)"
             f"{_options_note(a['options'])}", f"n = {a['n']:,} games, seed {a['seed']}, 95% intervals ({BOLLN_NOTE})",
             "",
             "A. P(seat loses the phase)" + "".join(f"{'seat ' + str(s):>26}" for s in range(n)) + "     hands (mean)"]
    lengths = tables["lengths"].set_index("phase")
    for phase, rows in tables["losers"].groupby("phase", sort=False):
        cells = "".join(f"{format_cell(row):>26}" for _, row in rows.iterrows())
        ln = lengths.loc[phase]
        lines.append(f"  {phase:<24}{cells}     {ln['mean']:.2f} [{ln['lo']:.2f},{ln['hi']:.2f}]")
    lines += ["", "B. Bolln per game (mean) and P(alone with the most Bolln)"]
    for row in tables["bolln"].itertuples():
        lines.append(f"  seat {row.seat}   {row.mean:.3f} [{row.lo:.3f},{row.hi:.3f}]   "
                     f"{row.most_p:.4f} [{row.most_lo:.4f},{row.most_hi:.4f}]")
    lines += ["", "C. Events, share of the sub-game's hands"]
    for _, row in tables["events"].iterrows():
        lines.append(f"  {row['subgame']:<16}{row['event']:<18}{format_cell(row)}  of {row['n']:,}")
    stages = tables["stages"]
    if len(stages):
        lines += ["", "D. Stages of the elimination phases: P(the phase plays hands with k players; else two or more "
                      "players dropped out", "   in one hand and it skips that stage), and its hands with k players "
                      "(mean per game, 0 when skipped)"]
        for phase, rows in stages.groupby("phase", sort=False):
            lines.append(f"  {phase:<24}" + "".join(
                f"{row['players']} players {format_cell(row)}  {row['hands']:5.2f} [{row['hands_lo']:.2f},"
                f"{row['hands_hi']:.2f}]    " for _, row in rows.iterrows()).rstrip())
        skips = tables.get("stage_skips", pd.DataFrame())
        if len(skips):
            lines += ["   P(the phase skips both stages: all its players but one drop out in one hand)"]
            lines += [f"  {row['phase']:<24}{format_cell(row)}" for _, row in skips.iterrows()]
    return "\n".join(lines)


def match(a: str, b: str, players: int = 4, n: int = 200, seed=None, options=(), **run_kw) -> dict:
    """One player with policy ``a`` against ``players - 1`` with ``b``; A's seat rotates game by
    game. Tables: phases (P(lose the phase) per player of each policy), bolln (mean Bolln per
    player of each policy, P(A alone has the most Bolln))."""
    players = dg.check_players(players)
    parts, seed, labels, _ = _games((a,) + (b,) * (players - 1), True, options, n, seed, run_kw)
    games = int(parts["games"][0])
    slot = parts["loser_slot"]
    phases = pd.DataFrame([row for p, label in enumerate(labels) for row in (
        _estimate_row(slot[p, 0], games, phase=label, policy=f"A {a}"),
        _estimate_row(slot[p, 1:].sum(), games * (players - 1), phase=label, policy=f"B {b}"))])
    hist = parts["bolln_slot"]
    bolln = pd.DataFrame([_bolln_row(hist[0], len(labels), policy=f"A {a}"),
                          _bolln_row(hist[1:].sum(axis=0), len(labels), policy=f"B {b}")])
    most = parts["most_slot"]
    bolln["most_p"], bolln["most_lo"], bolln["most_hi"] = zip(
        *[(e.p, e.lo, e.hi) for e in (Estimate(int(most[0]), games), Estimate(int(most[1:players].sum()),
                                                                                games * (players - 1)))])
    tables = {"phases": phases, "bolln": bolln}
    for table in tables.values():
        table.attrs.update(game=GAME, n=games, seed=seed, players=players, a=a, b=b,
                           options=dict(parse_options(options)))
    return tables


def match_json(tables: dict) -> dict:
    a = tables["phases"].attrs
    return {"game": GAME, "n": a["n"], "seed": a["seed"], "players": a["players"], "a": a["a"], "b": a["b"],
            "options": a["options"], "tables": table_records(tables)}


def format_match(tables: dict) -> str:
    a = tables["phases"].attrs
    lines = [f"Dreeg match, {a['players']} players: one {a['a']} (A) against {a['players'] - 1} {a['b']} (B), "
             f"A's seat rotating{_options_note(a['options'])}",
             f"n = {a['n']:,} games, seed {a['seed']}, 95% intervals ({BOLLN_NOTE}); per player", "",
             f"P(lose the phase){'A ' + a['a']:>32}{'B ' + a['b']:>26}"]
    for phase, rows in tables["phases"].groupby("phase", sort=False):
        cells = "".join(f"{format_cell(row):>26}" for _, row in rows.iterrows())
        lines.append(f"  {phase:<22}{cells}")
    lines += ["", "Bolln per game (mean) and P(alone with the most Bolln)"]
    for row in tables["bolln"].itertuples():
        lines.append(f"  {row.policy:<12}{row.mean:.3f} [{row.lo:.3f},{row.hi:.3f}]   "
                     f"{row.most_p:.4f} [{row.most_lo:.4f},{row.most_hi:.4f}]")
    return "\n".join(lines)


def _add_game_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=one_of((3, 4)), action=NotedStore, default=4, help="3 or 4 (default 4)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a rule option (see 'cardsim games dreeg'), repeatable")
    add_run_arguments(parser, default_n=200, unit="games")
    add_games_alias(parser)


def _add_stats_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--exact", action="store_true",
                        help="exact deal facts, every hand or deal counted (spec §6.3; no sampling): marriages, "
                             "trumps, card points held, Rot Assen, Rufen, the 2-player deal, hand shapes")
    _add_policy_argument(parser)
    _add_game_arguments(parser)


def _add_match_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--a", type=POLICY, default="greedy",
                        help="policy of the one player A: greedy (default), random, sly or pimc")
    parser.add_argument("--b", type=POLICY, default="random", help="policy of the other players B (default random)")
    _add_game_arguments(parser)


def _game_args(args, *policies: str) -> dict:
    """Keywords of `stats` / `match` from the parsed options; policies: the policy options' names."""
    return dict({p: getattr(args, p) for p in policies}, players=args.players, n=args.n, seed=args.seed,
                options=args.option, **run_options(args))


def _run_stats(args: argparse.Namespace) -> int:
    check_exact_alone(args, "policy", "players")  # every hand is counted, for 2, 3 and 4 players alike
    if args.exact:
        if args.option:
            raise CardsimError("--exact counts deals, which no rule option changes; drop --option or drop --exact")
        from analysis.games import dreeg_exact

        return emit(args, dreeg_exact.exact(), dreeg_exact.exact_json, dreeg_exact.format_exact)
    return emit(args, stats(**_game_args(args, "policy")), stats_json, format_stats)


def _stats_frame(args: argparse.Namespace) -> pd.DataFrame:
    no_exact(args)
    tables = stats(**_game_args(args, "policy"))
    return pd.concat([long_frame(tables["losers"], ["phase", "seat"], "loser"),
                      long_frame(tables["lengths"], ["phase"], "hands", value="mean"),
                      long_frame(tables["stages"], ["phase", "players"], "stage"),
                      long_frame(tables["stages"], ["phase", "players"], "stage_hands", value="hands", lo="hands_lo",
                                 hi="hands_hi"),
                      long_frame(tables["stage_skips"], ["phase"], "stage_skip")], ignore_index=True)


def _run_match(args: argparse.Namespace) -> int:
    return emit(args, match(**_game_args(args, "a", "b")), match_json, format_match)


def _match_frame(args: argparse.Namespace) -> pd.DataFrame:
    tables = match(**_game_args(args, "a", "b"))
    return pd.concat([long_frame(tables["phases"], ["phase", "policy"], "loser"),
                      long_frame(tables["bolln"], ["policy"], "bolln", value="mean")], ignore_index=True)


# --- decision thresholds -------------------------------------------------------------------------------
CLASS_LABELS = {"close": lambda c: f"estimate {10 * c}+" if c == THRESHOLD_CLASSES - 1
                else f"estimate {10 * c}-{10 * c + 9}",
                "call": lambda c: f"{c} packet card(s) of the suit",
                "durchmarsch": lambda c: f"{c} card(s) not sure",
                "hide": lambda c: f"longest suit {c} cards",
                "moment": lambda c: "after trick {}, points {}, trumps {}".format(*moment_label(c)),
                "surrender": lambda c: f"trumps + side aces {c}" + ("+" if c == SURRENDER_TOP else ""),
                "exchange": lambda c: f"indicator {r.DECK.ranks[INDICATOR_RANKS[c]]}"}
SCHWARZ_SHOWN = ("surrender",)
"""Decisions whose text table also shows P(Schwarz) A: the decider's side loses with A without a trick (§6.4 asks it
of the Rot Assen soloist who plays; every decision's rows carry it for A and B)."""


MIN_CLASS_N = 10
"""Deals a class needs for its difference to count in a decision's summaries (a_better, b_better, close_from)."""
NET_SPAN = 6
"""Largest possible |A - B| of the decider's net strokes (each lies in [-3, 3]): the interval of a class of one
deal, and the bound of every interval."""


def paired_diff(total: float, total_sq: float, n: int, span: float = NET_SPAN,
                extra_se: float = 0.0) -> tuple[float, float, float]:
    """(mean, lo, hi) of n paired differences from their sum and sum of squares: the Student-t 95% interval
    (sample standard deviation, n - 1 degrees of freedom) within [-span, span]; n = 1: that range. ``extra_se``: the
    standard error of an independent second error of the mean (the phase value's own), its normal 95% half-width
    added to the deals' in quadrature."""
    mean = total / n
    if n < 2:
        return mean, -span, span
    half = math.hypot(student_t95(n - 1) * math.sqrt(max(total_sq - n * mean * mean, 0.0) / (n - 1) / n),
                      Z95 * extra_se)
    return mean, max(mean - half, -span), min(mean + half, span)


VALUE_SEED_OFFSET = 1
"""The value tables behind --strokes are played from seed + 1, apart from the decision's deals (the same seed's
block streams would deal the same cards)."""


def decision_phase(decision: str, options: tuple) -> int:
    """The first phase whose sub-game under the rule options is the one the decision is played in
    (`DECISION_STAGES`); CardsimError when the options leave none."""
    subgame = DECISION_STAGES[decision][0]
    plan = r.phase_plan(rule_options(**dict(options)))[:8]
    if subgame not in plan:
        raise CardsimError(f"--strokes: no phase is {r.SUBGAME_NAMES[subgame]} under the options, so --decision "
                           f"{decision} has no phase value; drop --strokes")
    return plan.index(subgame) + 1


def value_lookup(decision: str, strokes: str, seat: int | None, dealer: int | None, n: int, seed: int,
                 options: tuple, players: int = 4, **run_kw) -> tuple[DeciderValues, dict]:
    """The decider's V after the hand (`DeciderValues`) from the state ``strokes`` (the players of the decision's
    hand by seat clockwise) with ``dealer`` dealing (default the last seat), deals decided at ``seat`` (default:
    at any seat, each decider valued at his own): V by exact DP (`dreeg_phase.point_values`, as played and in
    `dreeg_phase.REPLICATES` bootstrap redraws) from ``n`` greedy self-play hands per number of active players of
    ``players``-player Dreeg, seed ``seed`` + `VALUE_SEED_OFFSET`.
    Returns it with the state's description {"strokes", "seat", "dealer", "phase", "players", "policy",
    "value_hands", "value_seed", "replicates"}."""
    subgame, k = decision_stage(decision, players)
    phase = decision_phase(decision, options)
    given = dreeg_phase.parse_strokes(strokes)
    if len(given) != k:
        raise CardsimError(f"--strokes with --decision {decision} needs {k} numbers, the strokes of the {k} players "
                           f"of its {r.SUBGAME_NAMES[subgame]} hand by seat clockwise; got {len(given)}")
    n = dreeg_phase.check_hands(n)
    top = rule_options(**dict(options))["strokes_per_phase"]
    dealer = dreeg_phase.check_query(given, seat, dealer, k, top, first_out(subgame))["dealer"]
    position = -1 if seat is None else (seat - dealer - 1) % k
    if decision in FOREHAND_DECIDES and position > 0:
        raise CardsimError(f"--decision {decision} is forehand's, seat {(dealer + 1) % k} with --dealer {dealer}; "
                           f"got --seat {seat}")
    job = PhaseHandsJob(phase, players, "greedy", tuple(options))
    check_reads(options, job.reads(k), f"the phase value from a state of {k} players (phase {phase}, "
                                        f"{r.SUBGAME_NAMES[subgame]}, {players}-player Dreeg: hands of {k} or fewer)")
    state = {"strokes": list(given), "seat": seat, "dealer": dealer, "phase": phase, "players": players,
             "policy": job.policy, "value_hands": n, "value_seed": (seed + VALUE_SEED_OFFSET) % (1 << 63),
             "replicates": dreeg_phase.REPLICATES}
    values = dreeg_phase.point_values(job, n, state["value_seed"], state["replicates"], **run_kw)
    table = dreeg_phase.decider_table(values, given, dealer, top + 1, first_out(subgame))
    tag = "|".join(f"{key}={value}" for key, value in state.items())
    return DeciderValues(tag, position, np.rint(table * VALUE_SCALE).astype(np.int64)), state


def _value_columns(sums: np.ndarray, k: int) -> dict:
    """lose_a, lose_b (the decider's mean P(lose the phase) after the hand with A, with B) and lose_diff = A - B
    with its 95% interval lose_diff_lo, lose_diff_hi over both the deals (paired) and V's own sampling error, whose
    standard error lose_diff_value_se is the spread of the class's mean A - B over V's bootstrap replicates; from a
    class's scaled sums (`VALUE_COUNTS`, then one per replicate)."""
    v_a, v_b, d, d2 = (float(x) for x in sums[:VALUE_COUNTS])
    value_se = _spread([int(x) for x in sums[VALUE_COUNTS:]]) / VALUE_SCALE / k
    diff, lo, hi = paired_diff(d / VALUE_SCALE, d2 / VALUE_SCALE ** 2, k, span=1.0, extra_se=value_se)
    return {"lose_a": v_a / VALUE_SCALE / k, "lose_b": v_b / VALUE_SCALE / k, "lose_diff": diff,
            "lose_diff_lo": lo, "lose_diff_hi": hi, "lose_diff_value_se": value_se}


def _spread(values: list[int]) -> float:
    """Sample standard deviation of whole numbers, exact up to the square root (0 for fewer than two)."""
    m = len(values)
    if m < 2:
        return 0.0
    return math.sqrt((m * sum(v * v for v in values) - sum(values) ** 2) / (m * (m - 1)))


def _better(frame: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    """(A better, B better) per row: the paired interval excludes 0, by P(lose the phase) when the frame has it
    (lower is better), else by net strokes."""
    if "lose_diff" in frame:
        return frame["lose_diff_hi"] < 0, frame["lose_diff_lo"] > 0
    return frame["diff_lo"] > 0, frame["diff_hi"] < 0


def thresholds(decision: str = "close", n: int = 2_000, seed=None, options=(), strokes: str | None = None,
               seat: int | None = None, dealer: int | None = None, value_hands: int | None = None, players: int = 4,
               **run_kw) -> pd.DataFrame:
    """Paired play-outs of one decision (`simcore.games.dreeg_odds.DECISIONS`): option A against
    option B on the same deals, every other choice greedy, by class of the decider's situation.

    Rows: class, n, p_a / p_b (P(the decider wins: erases in 66 and Rufen, erases nothing in
    Kamerun) with Wilson intervals lo_a, hi_a, lo_b, hi_b), mean_a, mean_b (net strokes: own
    erase minus the opponents' best, Kamerun: minus own erase) and diff = mean_a - mean_b with its
    paired 95% interval (diff_lo, diff_hi; `paired_diff`); schwarz_a / schwarz_b (P(the decider's side
    loses the hand without a trick), 0 in Kamerun and for a hand not played, e.g. surrendered) with Wilson
    intervals schwarz_lo_a, schwarz_hi_a, schwarz_lo_b, schwarz_hi_b. attrs["a_better"] / ["b_better"]: the classes
    of at least `MIN_CLASS_N` deals where A (B) is better, the paired interval excluding 0: the decision's
    threshold lies between them. The "moment" decision's rows also carry their class parts (tricks,
    points, trumps), and attrs["close_from"] gives per (tricks, trumps) the lowest points class from
    which closing is better in every class of at least `MIN_CLASS_N` deals (`close_from`).

    ``strokes`` ("7,7,7,7", the players of the decision's hand by seat clockwise) with ``seat`` and ``dealer``
    values every deal's outcome by the decider's phase value after it (`value_lookup`; deals decided at ``seat``
    only, when given; V from ``value_hands`` self-play hands per number of active players, default ``n``): the rows
    also carry `_value_columns`, attrs["state"] the state, and a_better / b_better (and close_from) go by P(lose
    the phase). ``players``: 3 plays the decisions of the whole table (`TABLE_DECISIONS`) with 3 players and
    values every decision in 3-player Dreeg; the 2-player decisions take it only with ``strokes``.
    """
    checks.one_of(decision, "--decision", DECISIONS)
    seed = normalize_seed(seed)
    opts = parse_options(options)
    players = dg.check_players(players)
    dreeg_phase.check_state_flags(strokes, seat, dealer)
    hands = n if value_hands is None else dreeg_phase.check_hands(value_hands, "value_hands")
    value, state = (None, None) if strokes is None else value_lookup(decision, strokes, seat, dealer, hands, seed,
                                                                     opts, players, **run_kw)
    # a 2-player decision's hand is the same in 3- and 4-player Dreeg: ``players`` reaches it through V only
    job = ThresholdJob(decision, opts, value=value, players=4 if value and decision not in TABLE_DECISIONS else players)
    counts = runner.run(job, n, seed, **run_kw)
    n = int(n)  # a whole number: the runner refuses any other
    rows = []
    for cls, sums in enumerate(counts.reshape(-1, job.width)):
        k, win_a, win_b, sum_a, sum_b, sum_d, sum_d2, schwarz_a, schwarz_b = sums[:THRESHOLD_COUNTS]
        if k == 0:
            continue
        a, b = Estimate(int(win_a), int(k)), Estimate(int(win_b), int(k))
        sa, sb = Estimate(int(schwarz_a), int(k)), Estimate(int(schwarz_b), int(k))
        diff, diff_lo, diff_hi = paired_diff(sum_d, sum_d2, int(k))
        moment = dict(zip(("tricks", "points", "trumps"), moment_label(cls))) if decision == "moment" else {}
        rows.append({"class": CLASS_LABELS[decision](cls), **moment, "n": int(k), "p_a": a.p, "lo_a": a.lo,
                     "hi_a": a.hi, "p_b": b.p, "lo_b": b.lo, "hi_b": b.hi, "mean_a": sum_a / k, "mean_b": sum_b / k,
                     "diff": diff, "diff_lo": diff_lo, "diff_hi": diff_hi, "schwarz_a": sa.p, "schwarz_lo_a": sa.lo,
                     "schwarz_hi_a": sa.hi, "schwarz_b": sb.p, "schwarz_lo_b": sb.lo, "schwarz_hi_b": sb.hi,
                     **(_value_columns(sums[THRESHOLD_COUNTS:], int(k)) if value is not None else {})})
    if not rows:
        raise CardsimError(f"none of the {n:,} deals came to the decision '{decision}', so there is nothing to "
                           "compare; ask for more deals with --n")
    frame = pd.DataFrame(rows)
    enough = frame["n"] >= MIN_CLASS_N
    a_better, b_better = _better(frame)
    frame.attrs.update(game=GAME, n=n, seed=seed, decision=decision, meaning=DECISIONS[decision], options=dict(opts),
                       players=players,
                       a_better=list(frame["class"][enough & a_better]),
                       b_better=list(frame["class"][enough & b_better]))
    if state:
        frame.attrs["state"] = state
    if decision == "moment":
        frame.attrs["close_from"] = close_from(frame)
    return frame


def close_from(frame: pd.DataFrame) -> list[dict]:
    """Per (tricks played, trumps held) of a "moment" frame, among its own-points classes of at least
    `MIN_CLASS_N` deals: the lowest from which closing is significantly better (`_better`) and no
    higher one is significantly worse; None when there is none. Rows: tricks, trumps, close_from,
    classes (the points classes used)."""
    out = []
    for (tricks, trumps), part in frame.groupby(["tricks", "trumps"], sort=True):
        part = part[part["n"] >= MIN_CLASS_N]
        better, worse = (list(mask) for mask in _better(part))
        start = next((i for i in range(len(part)) if better[i] and not any(worse[i:])), None)
        out.append({"tricks": int(tricks), "trumps": trumps, "classes": len(part),
                    "close_from": None if start is None else part["points"].iloc[start]})
    return out


def thresholds_json(frames: list) -> dict:
    return {"game": GAME, "n": frames[0].attrs["n"], "seed": frames[0].attrs["seed"],
            "decisions": {f.attrs["decision"]: {"meaning": f.attrs["meaning"],
                                                "players": decision_stage(f.attrs["decision"], f.attrs["players"])[1],
                                                "options": f.attrs["options"], "a_better": f.attrs["a_better"],
                                                "b_better": f.attrs["b_better"],
                                                **{key: f.attrs[key] for key in ("close_from", "state")
                                                   if key in f.attrs},
                                                "rows": table_records({"rows": f})["rows"]} for f in frames}}


def _state_note(state: dict) -> list[str]:
    """The title lines of a --strokes run: the state, whose deals count, how V was made and what it leaves out."""
    who = "any seat, each valued at his own" if state["seat"] is None else f"seat {state['seat']} only"
    return [f"  By phase value: each deal's erase vectors with A and with B applied to the strokes "
            f"{','.join(map(str, state['strokes']))}",
            f"  (by seat clockwise, seat {state['dealer']} deals; the decider at {who}).",
            "  P(lose) = the decider's P(lose the phase) after the hand, by exact DP over stroke vectors",
            f"  (phase {state['phase']}, {state['players']}-player Dreeg) from {state['value_hands']:,} "
            f"{state['policy']} self-play hands per number of active players, seed {state['value_seed']};",
            "  it assumes score-blind greedy play for the rest of the phase. The interval of A - B covers the deals",
            f"  and V's own sampling error ({state['replicates']} bootstrap redraws of V). A - B < 0: A better."]


def _net_cells(row) -> str:
    """The net-strokes cells of a threshold row: net A, net B, A - B [interval]."""
    return (f"{row['mean_a']:>6.2f} {row['mean_b']:>6.2f}  {row['diff']:+.2f} [{row['diff_lo']:+.2f},"
            f"{row['diff_hi']:+.2f}]")


def _lose_cells(row) -> str:
    """The phase-value cells of a threshold row: P(lose) A, P(lose) B, A - B [interval]."""
    return (f"{row['lose_a']:>9.3f} {row['lose_b']:>9.3f}  {row['lose_diff']:+.3f} [{row['lose_diff_lo']:+.3f},"
            f"{row['lose_diff_hi']:+.3f}]")


def format_thresholds(frames: list) -> str:
    net = "" if "state" in frames[0].attrs else " (net strokes: own erase minus the opponents' best)"
    options = {name: value for f in frames for name, value in f.attrs["options"].items()}
    three = " of 3-player Dreeg" if any(f.attrs["players"] == 3 for f in frames) else ""
    lines = [f"Dreeg decision thresholds{three}: n = {frames[0].attrs['n']:,} deals per decision, seed "
             f"{frames[0].attrs['seed']}{_options_note(options)}, 95% intervals{net}",
             f"A - B: paired mean difference, Student-t interval; * a class of fewer than {MIN_CLASS_N} deals: shown, "
             "not used in the summaries"]
    for f in frames:
        a = f.attrs
        schwarz = a["decision"] in SCHWARZ_SHOWN
        by_value = "state" in a
        lines += ["", f"{a['decision']}: {a['meaning']}", *(_state_note(a["state"]) if by_value else []),
                  f"  {'class':<28}{'n':>7}   {'P(win) A':>24}  {'P(win) B':>24}  "
                  + (f"{'P(Schwarz) A':>24}  " if schwarz else "")
                  + (f"{'P(lose) A':>9}{'P(lose) B':>10}  A - B" if by_value else f"{'net A':>7}{'net B':>7}  A - B")]
        for _, row in f.iterrows():
            mark = "*" if row["n"] < MIN_CLASS_N else " "
            lines.append(f"  {row['class']:<28}{row['n']:>7,}{mark}  {row['p_a']:.4f} [{row['lo_a']:.4f},"
                         f"{row['hi_a']:.4f}]  {row['p_b']:.4f} [{row['lo_b']:.4f},{row['hi_b']:.4f}]  "
                         + (f"{row['schwarz_a']:.4f} [{row['schwarz_lo_a']:.4f},{row['schwarz_hi_a']:.4f}]  "
                            if schwarz else "")
                         + (_lose_cells(row) if by_value else _net_cells(row)))
        if "close_from" in a:
            lines.append(f"  closing now pays from (own points; '-': in no class of {MIN_CLASS_N}+ deals):")
            for row in a["close_from"]:
                lines.append(f"    after trick {row['tricks']}, trumps {row['trumps']:<4} {row['close_from'] or '-'}")
            continue
        lines.append(f"  A better: {', '.join(a['a_better']) or 'in no class'}; "
                     f"B better: {', '.join(a['b_better']) or 'in no class'}")
    return "\n".join(lines)


VALUE_FLAGS = ("phase", "policy")
"""The options of --decision value only (the phase value, `analysis.games.dreeg_phase`); --strokes, --seat and
--dealer also value a decision's deals (`value_lookup`), and --players plays and values them in 3-player Dreeg."""


def _add_thresholds_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--decision", type=one_of((*DECISIONS, "value", "all")), default="all",
                        help=f"{', '.join(DECISIONS)}, all of these (default), or value: the phase value V = P(lose "
                             "the phase) by stroke vector (spec §6.2, §6.4), --n hands per number of active players")
    parser.add_argument("--phase", type=one_of(tuple(r.SUBGAME)), action=NotedStore, default=1,
                        help="--decision value: phase 1-8 (default 1)")
    parser.add_argument("--players", type=one_of((3, 4)), action=NotedStore, default=4,
                        help="4-player or 3-player Dreeg (default 4): the phase value's game, and the players of the "
                             f"decisions of the whole table ({', '.join(TABLE_DECISIONS)}); the 2-player decisions "
                             "take it only with --strokes")
    parser.add_argument("--policy", type=POLICY, action=NotedStore, default="greedy",
                        help="--decision value: policy of every seat: greedy (default), random, sly or pimc (slow)")
    parser.add_argument("--strokes", action=NotedStore, default=None, metavar="S0,S1,...",
                        help="--decision value: also ask one state, the strokes of the players still holding some, "
                             "by seat clockwise, e.g. 7,5,3,2; with one decision: value its deals by the decider's "
                             "P(lose the phase) from this state (the players of its hand: 4, 3 with --players 3, or 2 "
                             "for close, moment, exchange and hide)")
    parser.add_argument("--seat", type=whole_number, action=NotedStore, default=None,
                        help="with --strokes: your seat (--decision value: default 0; a decision: count only deals "
                             "decided at this seat, default any)")
    parser.add_argument("--dealer", type=whole_number, action=NotedStore, default=None,
                        help="with --strokes: the seat dealing the next hand (default the last)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a rule option (see 'cardsim games dreeg'), repeatable")
    add_run_arguments(parser, default_n=2_000)


def _phase_value(args) -> dict:
    """`dreeg_phase.phase_value` of the parsed options of --decision value."""
    return dreeg_phase.phase_value(args.phase, args.players, args.policy, args.n, args.seed, parse_options(args.option),
                                   args.strokes, args.seat, args.dealer, **run_options(args))


def _value_json(tables: dict) -> dict:
    a = tables["start"].attrs
    return {"game": GAME, "n": a["hands"], "seed": a["seed"], "decisions": {"value": dreeg_phase.value_json(tables)}}


def _value_text(tables: dict) -> str:
    return dreeg_phase.format_value(tables, _options_note(tables["start"].attrs["options"]))


def _threshold_frames(args) -> list:
    check_only_with(given_flags(args, *VALUE_FLAGS), "--decision value", False)
    if args.strokes is not None and args.decision == "all":
        raise CardsimError("--strokes values the deals of one decision; name it with --decision (not all)")
    seed = normalize_seed(args.seed)
    if args.decision != "all":
        return [thresholds(args.decision, args.n, seed, args.option, args.strokes, args.seat, args.dealer,
                           players=args.players, **run_options(args))]
    # each decision takes the options its hands read, refused if none does; the counting-error options go to each,
    # which refuses them with the reason
    options = parse_options(args.option)
    check_reads(options, {name for d in DECISIONS for name in decision_reads(d)} | set(INFORMATION_OPTIONS),
                "any decision's hand")
    return [thresholds(d, args.n, seed, [f"{name}={value}" for name, value in options
                                         if name in decision_reads(d) + INFORMATION_OPTIONS],
                       args.strokes, args.seat, args.dealer, players=args.players if d in TABLE_DECISIONS else 4,
                       **run_options(args)) for d in DECISIONS]


def _run_thresholds(args: argparse.Namespace) -> int:
    if args.decision == "value":
        return emit(args, _phase_value(args), _value_json, _value_text)
    return emit(args, _threshold_frames(args), thresholds_json, format_thresholds)


def _thresholds_frame(args: argparse.Namespace) -> pd.DataFrame:
    """Estimates ``<decision>.<class>.win_a`` / ``win_b`` (P(the decider wins) with option A / B),
    ``.diff`` (the paired mean difference of net strokes A - B) and, for the decisions of `SCHWARZ_SHOWN`,
    ``.schwarz_a`` / ``schwarz_b`` (P(the decider's side loses Schwarz) with A / B), with --strokes ``.lose_diff``
    (the paired mean difference of the decider's P(lose the phase) A - B), n: deals of the class;
    --decision value: `dreeg_phase.value_long`, n: hands per number of active players."""
    if args.decision == "value":
        return dreeg_phase.value_long(_phase_value(args))
    parts = []
    for frame in _threshold_frames(args):
        schwarz = (("schwarz_a", "schwarz_a", "schwarz_lo_a", "schwarz_hi_a"),
                   ("schwarz_b", "schwarz_b", "schwarz_lo_b", "schwarz_hi_b"))
        for quantity, value, lo, hi in (("win_a", "p_a", "lo_a", "hi_a"), ("win_b", "p_b", "lo_b", "hi_b"),
                                        ("diff", "diff", "diff_lo", "diff_hi"),
                                        *(schwarz if frame.attrs["decision"] in SCHWARZ_SHOWN else ()),
                                        *((("lose_diff", "lose_diff", "lose_diff_lo", "lose_diff_hi"),)
                                          if "state" in frame.attrs else ())):
            part = long_frame(frame, ["class"], frame.attrs["decision"], value=value, lo=lo, hi=hi)
            part["estimate"] += f".{quantity}"
            parts.append(part)
    return pd.concat(parts, ignore_index=True)


register_command("thresholds", GAME, Command("when to close, call alone, declare Durchmarsch, surrender, exchange "
                                             "the trump 9 (paired play-outs); the phase value V",
                                             _add_thresholds_arguments, _run_thresholds, _thresholds_frame))
register_command("odds", GAME, Command("outcome odds of one Dreeg hand, played out", _add_odds_arguments, _run_odds,
                                       _odds_frame))
register_command("stats", GAME, Command("whole Dreeg games: phase losers by seat, phase lengths", _add_stats_arguments,
                                        _run_stats, _stats_frame))
register_command("match", GAME, Command("whole Dreeg games, one policy against another", _add_match_arguments,
                                        _run_match, _match_frame))
