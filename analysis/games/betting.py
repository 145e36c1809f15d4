"""Betting analysis for the Gilten games: policy matches, round-robin tournaments and bet thresholds.

Python API::

    from analysis.games import betting
    frame = betting.match("giltspiel", "aggressive", "cautious", games=2000, seed=7)   # one row per side
    frame = betting.match("perlaggen", "formula", "never", games=200, seed=1, communication="none", style="eichel")
    table = betting.tournament("giltspiel", ["formula", "cautious", "aggressive", "never"], games=1000, seed=1)
    tables = betting.thresholds("giltspiel", target=15, games=2000, seed=1)           # dict of DataFrames

A match plays whole games to the target between two betting policies (`simcore.betting.PRESETS` or a
JSON file) with duplicate deals: games 2k and 2k+1 share their deals with the policies' seats swapped.
Game-win rates carry 95% Wilson intervals; points per deal a 95% interval of the ratio estimator with
games as clusters (delta method). ``communication`` is the players' information (`simcore.betting.
COMMUNICATION`: ``partner``, ``none`` or ``auer_channel``); Perlaggen only: ``style`` (a team style),
``players`` (2, 3, 4, 6), ``hand`` (cards each) and, for Strafperlaggen, ``places`` (the finish for
places 2 and 3). Three players: `match3`, the first-order `thresholds3` and the match equity `equity3`. Every
command has a table form (`match_frame`, `tournament_frame`, `thresholds_frame`) for ``cardsim sweep``.
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.commands import (LONG_COLUMNS, MIN_SAMPLES, SAMPLING_DESTS, Command, NotedStore, add_option_argument,
                               command_options, emit, flags_text, given_flags, one_of, options_note, path_text,
                               positive_int, probe_writable, quoted, register_command, run_options, sample_count,
                               seed_number, option_items, whole_number, whole_value, write_failure)
from analysis.games import giltspiel
from analysis.stats import (Z95, clustered_share, estimate_columns, mean_interval, paired_difference, plus_minus,
                            score_grid, wilson)
from simcore import checks, runner
from simcore.betting import (AUER, AUS, COMMUNICATION, MAX_PAIRED_DEALS, MIN_DEAL_POINTS, NET_PARTS, OUTCOME_SIZE,
                             PAIRED_COUNTS, POINT_BINS, RACE_SIZE, reach_table, split_outcomes,
                             SP, G, H, bet_allowed, bet_threshold, Policy, bluff_break_even, check_communication,
                             check_target, class_match_equity, hold_threshold, load_policy, LIMIT_REACH,
                             near_classes, limit_class)
from simcore.errors import CardsimError
from simcore.rng import block_substream, normalize_seed

ENGINES = {"giltspiel": "simcore.games.giltspiel_betting", "perlaggen": "simcore.games.perlaggen_betting"}
"""Game -> betting module with default_target, rules_from_options, match_job, figure_table, class_shares,
class_name."""
VALUES = range(1, 7)
FIGURE_KEYS = {G: "gleich", H: "hanger"}
FORMULA_SECTION = {"giltspiel": "giltspiel.md §10.6", "perlaggen": "perlaggen.md §11.5"}
LIMIT_RULE = {"giltspiel": "§7.11", "perlaggen": "§8.6"}
"""Where each game states the betting limit near the end (`simcore.betting.bet_allowed`), for the text's '-' cells."""


BOOTSTRAP = 100
"""Replicates of the parametric bootstrap behind the match-equity intervals."""
BOOTSTRAP_BLOCK = 1 << 40
"""Random-stream block of the bootstrap (far from the games' blocks)."""


def hand_size(text: str) -> int:
    """argparse type of the betting commands' --hand: the cards each player holds, a whole number (`whole_number`;
    ``odds`` takes the cards themselves under that name, so the error says which this is)."""
    return whole_number(text, "the number of cards each player holds, e.g. 5 (--hand of this command is a hand "
                              "size, not cards)")


def engine(game: str):
    if not isinstance(game, str) or game not in ENGINES:
        raise CardsimError(f"betting is implemented for {', '.join(ENGINES)}, not {game!r}")
    return importlib.import_module(ENGINES[game])


CARD_OPTIONS = ("six_below_bells_seven",)
"""Perlaggen options of the engine's view of the cards (`perlaggen_betting.match_job`), not of its rules."""


def variant(game: str, style: str | None = None, players: int | None = None, hand: int | None = None) -> dict:
    """The game's variant keywords: Perlaggen's style (default the registered option), players (2, 4, 6)
    and cards per hand (None: the table's default); none for Giltspiel."""
    if game == "perlaggen":
        from simcore.games.perlaggen import OPTIONS

        return {"style": style or next(o.default for o in OPTIONS if o.name == "style"),
                "players": 4 if players is None else checks.whole(players, "--players"),
                "hand": None if hand is None else checks.whole(hand, "--hand", 1)}
    if style is not None or players not in (None, 4) or hand not in (None, 5):
        raise CardsimError(f"--style, --players and --hand are Perlaggen options; {game} is played by four "
                           "with five cards")
    return {}


def _check_games(games: int) -> int:
    """``games`` as an int, an even number of at least 2; CardsimError otherwise."""
    games = checks.whole(games, "--games")
    if games < 2 or games % 2:
        raise CardsimError(f"--games must be an even number of at least 2 (games come in duplicate pairs), got {games}")
    return games


def _ratio_interval(n: int, s_p: int, s_d: int, s_pp: int, s_dd: int, s_pd: int) -> tuple[float, float, float]:
    """Points per deal Σ P / Σ D over n games with its 95% interval (games are clusters)."""
    r = s_p / s_d
    spread = max(s_pp - 2 * r * s_pd + r * r * s_dd, 0.0) / max(n - 1, 1)
    se = math.sqrt(spread / n) / (s_d / n)
    return r, r - Z95 * se, r + Z95 * se


def _side(wins: int, games: int, win: dict, sums) -> dict:
    """A side's row: wins and games, the game-win rate ``win`` ({p, lo, hi}) and points per deal from
    the ``sums`` of `_ratio_interval`."""
    mean, lo, hi = _ratio_interval(games, *sums)
    return {"win_p": win["p"], "win_lo": win["lo"], "win_hi": win["hi"], "wins": int(wins), "games": int(games),
            "ppd_mean": mean, "ppd_lo": lo, "ppd_hi": hi}


def _mapped_to_b(share: dict) -> dict:
    """One b player's rate at a 3-player table from a's: (1 - a's) / 2, the interval mapped the same way."""
    return {"p": (1 - share["p"]) / 2, "lo": (1 - share["hi"]) / 2, "hi": (1 - share["lo"]) / 2}


def _loaded(spec: str | Policy) -> Policy:
    """A policy as given, or loaded from its preset name or .json file (`simcore.betting.load_policy`)."""
    return spec if isinstance(spec, Policy) else load_policy(spec)


def _pair(a: str | Policy, b: str | Policy) -> tuple[Policy, Policy]:
    """The policies a and b (`_loaded`); two different policies must have different names, which the output
    reports them by (one policy against itself is a self-play match)."""
    pa, pb = _loaded(a), _loaded(b)
    if pa.name.lower() == pb.name.lower() and pa != pb:
        files = [spec.strip() for spec in (b, a) if isinstance(spec, str) and spec.strip().endswith(".json")]
        mend = f"give {files[0]} another \"name\"" if files else "give one of them another name"
        raise CardsimError(f"--a and --b are two policies both named {pa.name!r}, and the output reports policies by "
                           f"name: {mend}")
    return pa, pb


def match(game: str, a: str | Policy, b: str | Policy, games: int = 2000, seed=None, target: int | None = None,
          permissive: bool = False, communication: str = "partner", style: str | None = None,
          players: int | None = None, hand: int | None = None, options: dict | None = None, **run_kw) -> pd.DataFrame:
    """Whole games between policies ``a`` and ``b`` (names, .json files or `Policy`s); rows "a" and "b" with
    the game-win rate (win_p, lo, hi), points per deal (ppd_mean, lo, hi), wins and games. ``options``: further
    rule options of the game ({name: value}: the engine's ``rules_from_options``; 3 players: `match3`'s). attrs:
    game, seed, target, communication, style, players, hand, options, deals, the per-deal points histogram
    ``deal_points`` (a, b; bin k for k + ``point_low`` points) and per dealing side (0: a's team dealt)
    ``dealt_points`` (2, B, B) and ``race`` (2, R, R), the same of the deals both teams began at least
    `simcore.betting.LIMIT_REACH` points from the target: ``far_points`` and ``far_race`` (`simcore.betting.MatchJob`,
    `simcore.betting.OUTCOME_SIZE`)."""
    options, permissive = option_items(options), checks.flag(permissive, "permissive")
    if "target" in options:  # the option target is the keyword target (rules_from_options took it twice)
        given = options.pop("target")
        if target is not None and target != given:
            raise CardsimError(f"the target is given twice, as target={target!r} and the option target={given!r}; "
                               "give it once")
        target = given
    if game == "perlaggen" and players == THREE:
        return match3(a, b, games, seed, target, style, hand, options=options, **run_kw)
    games = _check_games(games)
    mod, extra, cards, rules = _team_setting(game, target, permissive, communication, style, players, hand, options)
    pa, pb = _pair(a, b)
    seed = normalize_seed(seed)
    counts = runner.run(mod.match_job(pa, pb, rules, communication, **extra, **cards), games, seed, **run_kw)
    n, a_wins, deals, s_pa, s_pb, s_paa, s_pbb, s_dd, s_pad, s_pbd = (int(c) for c in counts[:10])
    # a pair's games have one winner each: b's wins in a pair are 2 - a's
    a_sq = int(counts[-1])
    b_sq = 4 * (n // 2) - 4 * a_wins + a_sq
    pairs = n // 2
    rows = [dict(side="a", policy=pa.name, **_side(a_wins, n, clustered_share(a_wins, a_sq, pairs, 2),
                                                    (s_pa, deals, s_paa, s_dd, s_pad))),
            dict(side="b", policy=pb.name, **_side(n - a_wins, n, clustered_share(n - a_wins, b_sq, pairs, 2),
                                                    (s_pb, deals, s_pbb, s_dd, s_pbd)))]
    frame = pd.DataFrame(rows)
    points, race = split_outcomes(counts[10:-1].reshape(2, 2, OUTCOME_SIZE))  # [all deals, far deals][dealing side]
    table = mod.kit(**extra)
    shown = {**options, "strict_examples": False} if permissive else options  # --permissive labelled as its option
    frame.attrs.update(game=game, seed=seed, target=rules.target, games=n, deals=deals, communication=communication,
                       options=shown, style=extra.get("style"), players=table.players,
                       hand=getattr(table, "hand", 5), point_low=MIN_DEAL_POINTS,
                       deal_points=points[0].sum(axis=0).tolist(), dealt_points=points[0].tolist(),
                       race=race[0].tolist(), far_points=points[1].tolist(), far_race=race[1].tolist())
    return frame


def _team_setting(game: str, target: int | None, permissive: bool, communication: str, style: str | None,
                  players: int | None, hand: int | None, options: dict) -> tuple:
    """(engine module, variant keywords, card options, `BettingRules`) of a team game's self-play (`match`)."""
    mod = engine(game)
    extra = variant(game, style, players, hand)
    check_communication(communication)
    target = mod.default_target(**extra) if target is None else target
    cards = {name: options[name] for name in CARD_OPTIONS if name in options}
    rules = mod.rules_from_options(target=target, **{"strict_examples": not permissive,
                                                     **{k: v for k, v in options.items() if k not in cards}})
    return mod, extra, cards, rules


def match_json(frame: pd.DataFrame) -> dict:
    """The command's JSON: {"games", "seed", "a": {"win_rate": {p, lo, hi}, "points_per_deal": {mean, lo, hi}},
    "b"}; with the Strafperlaggen finish each side also has "second_place" and "third_place" {p, lo, hi}."""
    options = frame.attrs["options"]
    out = {"games": int(frame.attrs["games"]), "seed": int(frame.attrs["seed"]),
           **({"options": options} if options else {})}
    for _, row in frame.iterrows():
        out[row["side"]] = {"win_rate": {"p": row["win_p"], "lo": row["win_lo"], "hi": row["win_hi"]},
                            "points_per_deal": {"mean": row["ppd_mean"], "lo": row["ppd_lo"], "hi": row["ppd_hi"]}}
        if frame.attrs.get("places"):
            for key in ("second", "third"):
                out[row["side"]][f"{key}_place"] = {k: row[f"{key}_{k}"] for k in ("p", "lo", "hi")}
    return out


def style_title(style: str) -> str:
    """A Perlaggen style as titles name it: 'innsbruck' -> 'Innsbruck', 'schlanders_e8' -> 'Schlanders E8'."""
    return style.replace("_", " ").title()


def _setting(at: dict) -> str:
    """", target 18, Innsbruck style, communication partner" for the titles (players when not four), then the rule
    options given."""
    style = f", {style_title(at['style'])} style" if at.get("style") else ""
    table = f", {at['players']} players x {at['hand']} cards" if at.get("players", 4) != 4 else ""
    if at.get("players") == THREE:
        setting = (f", Strafperlaggen from {at['target']} down to 0{table}" if at["style"] == "straf" else
                   f", target {at['target']}{style}{table}, each for himself (a pairing x, y of the "
                   f"policies list is one match: x in one seat, y in two)")
    else:
        setting = f", target {at['target']}{style}{table}, communication {at['communication']}"
    return setting + options_note(at.get("options"))


def match_text(frame: pd.DataFrame) -> str:
    at = frame.attrs
    if at.get("players") == THREE:
        return match3_text(frame)
    lines = [f"{at['game'].capitalize()} match: {frame.policy[0]} (a) vs {frame.policy[1]} (b){_setting(at)}",
             f"{at['games']:,} games ({at['games'] // 2:,} duplicate pairs: every deal sequence played with the seats "
             f"swapped), {at['deals']:,} deals, seed {at['seed']}; 95% intervals", "",
             f"{'side':<5}{'policy':<14}{'game-win rate':>28}{'points per deal':>30}"]
    for _, r in frame.iterrows():
        lines.append(f"{r['side']:<5}{r['policy']:<14}{r['win_p']:>10.4f} [{r['win_lo']:.4f},{r['win_hi']:.4f}]"
                     f"{r['ppd_mean']:>14.4f} [{r['ppd_lo']:.4f},{r['ppd_hi']:.4f}]")
    return "\n".join(lines)


def match_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """`match` as a long table (`analysis.commands.long_frame` columns): a.win_rate, b.win_rate,
    a.points_per_deal, b.points_per_deal; n = games (the intervals treat games as clusters); with the
    Strafperlaggen finish also a.second_rate, a.third_rate, b.second_rate, b.third_rate."""
    rows = []
    for _, r in frame.iterrows():
        rows.append((f"{r['side']}.win_rate", r["win_p"], r["win_lo"], r["win_hi"], int(r["games"])))
        rows.append((f"{r['side']}.points_per_deal", r["ppd_mean"], r["ppd_lo"], r["ppd_hi"], int(r["games"])))
        for key in ("second", "third"):
            if frame.attrs.get("places"):
                rows.append((f"{r['side']}.{key}_rate", r[f"{key}_p"], r[f"{key}_lo"], r[f"{key}_hi"],
                             int(r["games"])))
    return pd.DataFrame(rows, columns=LONG_COLUMNS)


def match_rows(frame: pd.DataFrame) -> list[dict]:
    """A `match` as two tournament rows, a's then b's: policy, opponent, win_p, win_lo, win_hi, ppd_mean, ppd_lo,
    ppd_hi, wins, games."""
    sides = frame.set_index("side")
    return [{"policy": sides.loc[side, "policy"], "opponent": sides.loc[other, "policy"],
             **{k: sides.loc[side, k] for k in ("win_p", "win_lo", "win_hi", "ppd_mean", "ppd_lo", "ppd_hi", "wins",
                                                "games")}}
            for side, other in (("a", "b"), ("b", "a"))]


def tournament(game: str, policies: list[str], games: int = 1000, seed=None, target: int | None = None,
               communication: str = "partner", style: str | None = None, players: int | None = None,
               hand: int | None = None, options: dict | None = None, **run_kw) -> pd.DataFrame:
    """Round robin: every pair of policies plays a `match` of ``games`` games (the same seed, so the
    same deal sequences; ``options`` as for `match`). Rows: policy, opponent, win_p, win_lo, win_hi, ppd_mean,
    ppd_lo, ppd_hi, games."""
    if run_kw.pop("places", None):
        raise CardsimError("--places is reported by `cardsim match` only (the tournament table shows game-win "
                           "rates): drop --places here")
    if isinstance(policies, str):
        policies = policies.split(",")
    names = [p.strip() for p in checks.texts(policies, "policies", "formula")]
    if "" in names and len(names) > 1:
        raise CardsimError(f"--policies '{','.join(policies)}' has an empty name (two commas in a row, or one at "
                           "an end); give the policies separated by single commas, e.g. formula,cautious")
    if len(names) < 2:
        raise CardsimError(f"--policies needs at least two policies separated by commas, got '{','.join(policies)}'")
    if len(set(n.lower() for n in names)) != len(names):
        raise CardsimError(f"--policies names a policy twice: {', '.join(names)}")
    loaded = _distinct_policies(names)
    seed = normalize_seed(seed)
    rows = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            frame = match(game, loaded[a], loaded[b], games, seed, target, communication=communication, style=style,
                          players=players, hand=hand, options=options, **run_kw)
            rows += match_rows(frame)
            setting = {k: frame.attrs[k] for k in ("target", "style", "players", "hand", "options")}
    table = pd.DataFrame(rows)
    table.attrs.update(game=game, seed=seed, games=games, communication=communication, **setting)
    return table


def _distinct_policies(specs: list[str]) -> dict[str, Policy]:
    """Every policy loaded once, by spec; each must have its own name: the table reports (and pools) policies by
    name."""
    loaded, seen = {}, {}
    for spec in specs:
        loaded[spec] = load_policy(spec)
        name = loaded[spec].name
        if name.lower() in seen:
            first = seen[name.lower()]
            file = spec if spec.endswith(".json") else first
            raise CardsimError(f"--policies {first} and {spec} are both named {name!r} and the table reports policies "
                               f"by name: give {file} another \"name\"")
        seen[name.lower()] = spec
    return loaded


def tournament_frame(table: pd.DataFrame) -> pd.DataFrame:
    """`tournament` as a long table: <policy>.<opponent>.win_rate and .points_per_deal, n = games."""
    rows = []
    for _, r in table.iterrows():
        key = f"{r['policy']}.{r['opponent']}"
        rows.append((f"{key}.win_rate", r["win_p"], r["win_lo"], r["win_hi"], int(r["games"])))
        rows.append((f"{key}.points_per_deal", r["ppd_mean"], r["ppd_lo"], r["ppd_hi"], int(r["games"])))
    return pd.DataFrame(rows, columns=LONG_COLUMNS)


def tournament_text(table: pd.DataFrame) -> str:
    at = table.attrs
    totals = table.groupby("policy", sort=False)[["wins", "games"]].sum()
    lines = [f"{at['game'].capitalize()} round robin{_setting(at)}, {at['games']:,} games per pairing "
             f"(duplicate deals), seed {at['seed']}; 95% intervals", "",
             f"{'policy':<14}{'opponent':<14}{'game-win rate':>28}{'points per deal':>30}"]
    for _, r in table.iterrows():
        lines.append(f"{r['policy']:<14}{r['opponent']:<14}{r['win_p']:>10.4f} [{r['win_lo']:.4f},{r['win_hi']:.4f}]"
                     f"{r['ppd_mean']:>14.4f} [{r['ppd_lo']:.4f},{r['ppd_hi']:.4f}]")
    lines += ["", "overall game-win rate (all opponents):"]
    for policy, r in totals.sort_values("wins", ascending=False).iterrows():
        p, lo, hi = pooled_win_rate(table[table.policy == policy])
        lines.append(f"  {policy:<14}{p:.4f} [{lo:.4f},{hi:.4f}]  ({int(r['games']):,} games)")
    return "\n".join(lines)


def pooled_win_rate(rows: pd.DataFrame) -> tuple[float, float, float]:
    """(p, lo, hi) of one policy's game-win rate over its pairings (rows of `tournament`): p = wins / games;
    the pairings are independent matches, so the variance is the games-weighted sum of each pairing's own
    (read off its interval, which already allows for the duplicate pairs); Wilson at the effective number
    of games that variance gives."""
    games = rows.games.sum()
    p = rows.wins.sum() / games
    se = (rows.win_hi - rows.win_lo) / (2 * Z95)
    variance = float((((rows.games / games) * se) ** 2).sum())
    n_eff = p * (1 - p) / variance if variance > 0 and 0 < p < 1 else float(games)
    lo, hi = wilson(p * n_eff, n_eff)
    return p, lo, hi


# --- thresholds -------------------------------------------------------------------------------------
def first_order(game: str, communication: str = "partner", style: str | None = None, players: int | None = None,
                hand: int | None = None) -> pd.DataFrame:
    """Per figure (G, H) and value v = 1..6: the §10.6 hold threshold on d and on P(win) without
    stands and with the figure's mean stand rate, the bet threshold, the bluff break-even
    concession rate at d = -1, and the weakest known class (the team's best code under ``partner``,
    the player's own under ``none``; under ``auer_channel`` the player's own, averaged over the partners'
    signals, which is the ``none`` table) that holds.

    The stand rate and the class odds are estimates from the deals of the game's figure table: stand_rate
    has its 95% Wilson interval stand_lo, stand_hi over stand_n deals (a stand is an event of the deal), and
    hold_p_stands, bet_p_stands their intervals (_lo, _hi) carried through; weakest_settled is False when the
    95% interval of d of the weakest holding class or of a weaker one (`class_d`) contains the hold threshold,
    so that sampling noise could move the weakest hold."""
    mod = engine(game)
    kit = mod.kit(**variant(game, style, players, hand))
    model = "none" if check_communication(communication) == AUER else communication
    counts = kit.figure_counts(model)
    per_deal = 2 if model == "partner" else kit.players  # counts of one deal: its two teams, or its seats
    rows = []
    for figure, key in FIGURE_KEYS.items():
        deals, stands = int(counts[figure].sum()) // per_deal, int(counts[figure, :, 1].sum()) // per_deal
        stand, (stand_lo, stand_hi) = stands / deals, wilson(stands, deals)
        d_class, d_half = class_d(counts[figure])
        seen = [code for code in range(len(d_class) - 1) if counts[figure, code + 1].sum() > 0]
        for v in VALUES:
            d_hold, p_plain = hold_threshold(v)
            holding = [code for code in seen if d_class[code + 1] > d_hold]
            weakest = min(holding, default=len(d_class))
            settled = all(abs(d_class[code + 1] - d_hold) >= d_half[code + 1] for code in seen if code <= weakest)
            rows.append({"figure": key, "value": v, "hold_d": d_hold, "hold_p": p_plain,
                         "hold_p_stands": hold_threshold(v, stand)[1],
                         "hold_p_stands_lo": hold_threshold(v, stand_hi)[1],
                         "hold_p_stands_hi": hold_threshold(v, stand_lo)[1],
                         "stand_rate": stand, "stand_lo": stand_lo, "stand_hi": stand_hi, "stand_n": deals,
                         "bet_d": bet_threshold()[0], "bet_p_stands": bet_threshold(stand)[1],
                         "bet_p_stands_lo": bet_threshold(stand_hi)[1], "bet_p_stands_hi": bet_threshold(stand_lo)[1],
                         "bluff_c": bluff_break_even(v, -1.0),
                         "weakest_hold": mod.class_name(figure, weakest) if holding else "none",
                         "weakest_settled": settled})
    return pd.DataFrame(rows)


def class_d(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(d, half-width of its 95% normal interval) per known class of one figure's `figure_counts` (bins, 4):
    d = P(win) - P(lose) among the class's counts, taken as independent (classes never seen: d = 0, half 0)."""
    n = np.maximum(counts.sum(axis=1), 1)
    win, lose = counts[:, 0] / n, counts[:, 2] / n
    d = win - lose
    return d, Z95 * np.sqrt(np.maximum(win + lose - d * d, 0.0) / n)


def self_play_model(dealt, race, low: int = MIN_DEAL_POINTS) -> tuple[np.ndarray, np.ndarray, int]:
    """(P (B, B), F (R, R), deals) of a deal dealt by team A, from self-play counts seen from side a:
    dealt[d] ((B, B), bin k for k + ``low`` points), race[d] ((R, R)), d = 0: a's team dealt, are
    `simcore.betting.MatchJob`'s outcome counts. Both sides play the same policy, so a deal dealt by b is a deal dealt
    by A with the teams swapped. P[x, y] = P(A scores bin x, B bin y); F[na, nb] = P(both reach na, nb and A first)."""
    dealt, race = np.asarray(dealt, dtype=float), np.asarray(race, dtype=float)
    b_first = reach_table(dealt[1], low) - race[1]  # [i, j]: a >= i and b >= j and b first, b's team dealt
    b_first[0, :] = b_first[:, 0] = 0.0
    deals = dealt.sum()
    return (dealt[0] + dealt[1].T) / deals, (race[0] + b_first.T) / deals, int(deals)


def mirrored(p: np.ndarray, first: np.ndarray, low: int = MIN_DEAL_POINTS) -> tuple[np.ndarray, np.ndarray]:
    """The (P, F) of a deal dealt by team B from those of a deal dealt by A (same policies); (..., B, B) and
    (..., R, R) tables (`self_play_model`)."""
    other = (reach_table(p, low) - first).swapaxes(-1, -2)  # [na, nb]: B reaches na, A nb, B first
    other[..., 0, :] = other[..., :, 0] = 0.0
    return p.swapaxes(-1, -2), other


def class_model(at: dict, class_counts: np.ndarray, target: int) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                          np.ndarray]:
    """(P (L, L, B, B), F (L, L, R, R), deals (L, L), prior (B, B)) of a deal dealt by team A per pair of limit
    classes, L = `LIMIT_REACH` (`self_play_model`'s tables), the deals behind each and the prior of the near classes:
    the far class (L, L) from the self-play match's far deals (``at``: `match`'s attrs), each other from
    `simcore.betting.LimitClassJob` counts of ``target``'s `near_classes` and `PRIOR_DEALS` deals of all self-play
    deals (so that a class whose few deals never score cannot stall the game). Classes the target never reaches
    stay empty."""
    p = np.zeros((LIMIT_REACH, LIMIT_REACH, POINT_BINS, POINT_BINS))
    first = np.zeros((LIMIT_REACH, LIMIT_REACH, RACE_SIZE, RACE_SIZE))
    deals = np.zeros((LIMIT_REACH, LIMIT_REACH), dtype=np.int64)
    if np.asarray(at["far_points"]).sum():
        p[-1, -1], first[-1, -1], deals[-1, -1] = self_play_model(at["far_points"], at["far_race"])
    prior, prior_first, _ = self_play_model(at["dealt_points"], at["race"])
    points, race = split_outcomes(np.asarray(class_counts, dtype=float).reshape(-1, OUTCOME_SIZE))
    for (i, j), class_points, class_race in zip(near_classes(target), points, race):
        n = class_points.sum()
        p[i - 1, j - 1] = (class_points + PRIOR_DEALS * prior) / (n + PRIOR_DEALS)
        first[i - 1, j - 1] = (class_race + PRIOR_DEALS * prior_first) / (n + PRIOR_DEALS)
        deals[i - 1, j - 1] = n
    return p, first, deals, prior


def equity_tables(p: np.ndarray, first: np.ndarray, target: int) -> tuple[np.ndarray, np.ndarray]:
    """(W (2, T+1, T+1) by who deals next, game-level hold thresholds (2, T, T, len(VALUES)) by who
    dealt the current deal: the continuation is W with the other team dealing), from `class_model`'s P and F
    (a deal dealt by B in classes (i, j) is one dealt by A in (j, i) with the teams swapped)."""
    p_b, first_b = mirrored(p.swapaxes(0, 1), first.swapaxes(0, 1))
    w = class_match_equity(np.stack([p, p_b]), target, np.stack([first, first_b]), MIN_DEAL_POINTS, top_ends=True)
    return w, np.stack([hold_thresholds(w[1 - d]) for d in (0, 1)])


def hold_thresholds(w: np.ndarray) -> np.ndarray:
    """`simcore.betting.game_hold_threshold` of every score and value at once: (T, T, len(VALUES))."""
    target = w.shape[0] - 1
    a = np.arange(target)[:, None, None]
    b = np.arange(target)[None, :, None]
    v = np.array(VALUES)[None, None, :]

    def at(x, y):
        return w[np.minimum(x, target), np.minimum(y, target)]

    concede, win, lose = at(a, b + v), at(a + v + 1, b), at(a, b + v + 1)
    gap = np.where(win > lose, win - lose, 1.0)
    return np.where(win > lose, np.clip((concede - lose) / gap, 0.0, 1.0), 1.0)


def bootstrap_equity(p: np.ndarray, first: np.ndarray, deals: np.ndarray, prior: np.ndarray, target: int, seed: int,
                     replicates: int = BOOTSTRAP) -> tuple[np.ndarray, np.ndarray]:
    """Percentile 95% intervals (lo, hi stacked on axis 0) of `equity_tables` by a parametric bootstrap: per
    replicate and limit class, the class's ``deals`` deals drawn from its P (multinomial), the near classes with
    `PRIOR_DEALS` of ``prior`` as in `class_model`, F scaled by the share of each (na, nb) race that A wins (kept
    fixed). The deals are drawn from the class's P with its prior in it (a smoothed bootstrap: a class whose few deals
    all agree still varies; the replicates lean toward the prior by PRIOR_DEALS / (deals + PRIOR_DEALS), 0.5% at 200
    deals). Returns (W interval (2, 2, T+1, T+1), level interval (2, 2, T, T, V))."""
    rng = block_substream(seed, BOOTSTRAP_BLOCK, 1)
    both = reach_table(p, MIN_DEAL_POINTS)
    share = np.divide(first, both, out=np.zeros_like(first), where=both > 0)
    seen = list(zip(*np.nonzero(deals)))
    ws, levels = [], []
    for _ in range(replicates):
        q = np.zeros_like(p)
        for cls in seen:
            weight = 0.0 if cls == (LIMIT_REACH - 1, LIMIT_REACH - 1) else PRIOR_DEALS
            drawn = rng.multinomial(deals[cls], p[cls].ravel()).reshape(p.shape[-2:])
            q[cls] = (drawn + weight * prior) / (deals[cls] + weight)
        w, level = equity_tables(q, share * reach_table(q, MIN_DEAL_POINTS), target)
        ws.append(w)
        levels.append(level)
    return (np.percentile(ws, [2.5, 97.5], axis=0), np.percentile(levels, [2.5, 97.5], axis=0))


def thresholds(game: str, target: int | None = None, games: int | None = None, seed=None, policy: str = "formula",
               communication: str = "partner", style: str | None = None, players: int | None = None,
               hand: int | None = None, options: dict | None = None, scores: tuple | None = None,
               blind=None, concede=None, paired_deals: int | None = None, class_deals: int | None = None,
               facing: int | None = None, **run_kw) -> dict[str, pd.DataFrame]:
    """First-order thresholds (`first_order`), the match-equity table W(a, b) from a deal model of ``policy`` per
    pair of limit classes (`simcore.betting.limit_class`: the §8.6 / §7.11 limits near the end change what a deal
    can score): the far class from self-play (``games`` games, default 2,000, rule ``options`` as for `match`), each
    near class from ``class_deals`` deals (default ``games`` / `CLASS_DEALS_PER_GAME`) begun at its scores
    (`simcore.betting.LimitClassJob`); the per-deal points and race order, then
    `simcore.betting.class_match_equity`; and game-level hold thresholds P(win)* for v = 1..6 at every score (a,
    b), with 95% bootstrap intervals (`bootstrap_equity`, `BOOTSTRAP` replicates).

    match_equity rows: deals ("a": the team on a deals next, "b": the other), a, b, W, lo, hi, n (the deals of the
    score's class); game_level rows: dealer (who dealt the deal of the bet), a, b, value, hold_p, lo, hi, n; none for
    a bet the betting limit forbids (`simcore.betting.bet_allowed`, `LIMIT_RULE`).

    Paired deals (`paired_tables`, ``paired_deals`` deals per score and dealer): ``blind`` (Perlaggen's team games;
    True: at `blind_scores`, or pairs (a, b)) adds the table "blind" (§8.14), ``concede`` (True: at 0:0, or pairs)
    the table "concede" (conceding the Spiel).

    ``facing`` (Giltspiel; a number of deals) adds the tables "facing" and "facing_weakest": d of every class of the
    answering side facing the opponents' bet from v under ``policy`` (`analysis.games.giltspiel.facing`, the rows
    there) and the weakest class that holds (`analysis.games.giltspiel.weakest_holds`).

    Three players (Perlaggen): the first-order `thresholds3`; with ``games`` (the plain game only) also `equity3`'s
    match_equity and game_level tables from ``policy``'s deals per limit class (self-play to ``target``, and
    ``class_deals`` deals per near class; ``scores``: one more score triple of the accept thresholds, `equity3`)."""
    paired = _paired_questions(game, blind, concede, paired_deals, target, communication, style, players, hand,
                               options)
    if players == THREE:
        if game != "perlaggen":
            raise CardsimError(f"{game} is played by four: the 3-player thresholds are Perlaggen's (§9.4, §9.5)")
        places = run_kw.pop("places", None)
        ignored = [name for name, used in (("--target", target is not None and games is None),
                                           ("--seed", seed is not None and games is None),
                                           ("--policy", policy != "formula" and games is None),
                                           ("--scores", scores is not None and games is None), ("--places", places),
                                           ("--class-deals", class_deals is not None and games is None),
                                           ("--communication", communication != "partner"),
                                           ("--facing", facing is not None),
                                           ("--option", options)) if used]
        if ignored:  # from Python; the command line refuses every option it was given first (`_thresholds_of`)
            raise CardsimError(f"the 3-player thresholds take none of these: drop {flags_text(ignored)}")
        first = {"first_order": thresholds3(style, hand)}
        return first if games is None else {**first, **equity3(policy, games, seed, target, style, scores,
                                                                     class_deals, **run_kw)}
    if scores is not None:
        raise CardsimError("--scores asks the 3-player game-level table: use it with --players 3 --games N")
    seed = normalize_seed(seed)
    facing_tables = _facing_tables(game, facing, policy, communication, seed, **run_kw)
    games = _check_games(2000 if games is None else games)
    class_deals = checked_class_deals(class_deals, games)
    frame = match(game, policy, policy, games, seed, target, communication=communication, style=style,
                  players=players, hand=hand, options=options, **run_kw)
    at = frame.attrs
    target = at["target"]
    mod, extra, cards, rules = _team_setting(game, target, False, communication, style, players, hand,
                                             {k: v for k, v in option_items(options).items() if k != "target"})
    class_counts = runner.run(mod.class_job(_loaded(policy), rules, communication, **extra, **cards), class_deals,
                              at["seed"], **run_kw)
    p, first, deals, prior = class_model(at, class_counts, target)
    w, level = equity_tables(p, first, target)
    w_ci, level_ci = bootstrap_equity(p, first, deals, prior, target, at["seed"])
    sides = ("a", "b")

    def n(d: int, a: int, b: int) -> int:
        """The deals behind the class model at scores a, b with team d dealing (B's deals are A's mirrored)."""
        i, j = limit_class(target - a) - 1, limit_class(target - b) - 1
        return int(deals[i, j] if d == 0 else deals[j, i])

    equity = pd.DataFrame([{"deals": sides[d], "a": a, "b": b, "W": w[d, a, b], "lo": w_ci[0, d, a, b],
                            "hi": w_ci[1, d, a, b], "n": n(d, a, b)}
                           for d in (0, 1) for a in range(target) for b in range(target)])
    game_level = pd.DataFrame([{"dealer": sides[d], "a": a, "b": b, "value": v, "hold_p": level[d, a, b, i],
                                "lo": level_ci[0, d, a, b, i], "hi": level_ci[1, d, a, b, i], "n": n(1 - d, a, b)}
                               for d in (0, 1) for a in range(target) for b in range(target)
                               for i, v in enumerate(VALUES) if bet_allowed(b, v, target)])
    meta = dict(game=game, target=target, seed=at["seed"], games=at["games"], deals=at["deals"], policy=policy,
                communication=communication, style=at["style"], players=at["players"], hand=at["hand"],
                options=at["options"], class_deals=class_deals, far_deals=int(deals[-1, -1]),
                model_deals=int(deals.sum()))
    first_table = first_order(game, communication, style, players, hand)
    bluff = bluff_table()
    tables = {"first_order": first_table, "match_equity": equity, "game_level": game_level, "bluff": bluff}
    tables.update(_paired_tables(paired, policy, at["seed"], **run_kw))
    for table in tables.values():
        table.attrs.update(meta)
    return {**tables, **facing_tables}  # F keeps its own settings (the policy by name)


def _facing_tables(game: str, deals: int | None, policy: str | Policy, communication: str, seed,
                   **run_kw) -> dict[str, pd.DataFrame]:
    """`thresholds`' tables "facing" and "facing_weakest" from ``deals`` deals (None: neither), run before the
    self-play so that a refusal comes first."""
    if deals is None:
        return {}
    if game != "giltspiel":
        raise CardsimError(f"--facing weighs the bets seen by Giltspiel's model (cardsim odds giltspiel "
                           f"--opponents-bet); {game.capitalize()} has no such table yet: drop --facing")
    deals = checks.whole(deals, "--facing (deals)", MIN_SAMPLES)
    frame = giltspiel.facing(policy, communication, deals, seed, **run_kw)
    return {"facing": frame, "facing_weakest": giltspiel.weakest_holds(frame)}


BLIND_ARMS = {"none": (), "gleich": (G,), "hanger": (H,), "spiel": (SP,), "hoell_auf": (G, H, SP)}
"""The blind-bet table's arms: team A's blind bets (none, one figure, all three: "Höll auf!", perlaggen.md §8.14)."""
BLIND_TITLES = ("no bet", "Gleich", "Hanger", "Spiel", "Höll auf!")
CONCEDE_BELOW = (0.2, 0.35, 0.5)
"""The concession table's arms besides never: team A concedes the Spiel when its P(win it) drops below these."""
PAIRED_DEALS = 500
"""Deals of a paired table per score and dealer unless given."""
PRIOR_DEALS = 1.0
"""Weight, in deals, of all self-play deals in each near class's distribution (`class_model`)."""
CLASS_DEALS_PER_GAME = 10
"""Unless given, the deals per near pair of limit classes behind the match equity are the self-play games over this
(at least 2; `thresholds`): 200 for the default 2,000 games."""


def deal_count(text: str) -> int:
    """argparse type of --class-deals and --paired-deals: a whole number from 2 to `MAX_PAIRED_DEALS`, the range
    the Python API checks."""
    return positive_int(text, MAX_PAIRED_DEALS, 2)


def checked_class_deals(class_deals: int | None, games: int) -> int:
    """The deals per near limit class: ``class_deals`` checked (2 to `MAX_PAIRED_DEALS`), or ``games`` /
    `CLASS_DEALS_PER_GAME` (at least 2)."""
    if class_deals is None:
        return max(2, games // CLASS_DEALS_PER_GAME)
    return checks.whole(class_deals, "--class-deals", 2, MAX_PAIRED_DEALS)


def blind_scores(target: int) -> list[tuple[int, int]]:
    """The blind-bet table's scores (a, b) unless given: team B gestrichen (one point short) with team A on 0, T - 7
    and T - 4 (S1's example of §8.14: 11 or fewer against 14 in a game to 15), and both short of it, A on T - 7
    and B on T - 3; only where A may bet (a + 1 < T, §8.6)."""
    picks = {(0, target - 1), (target - 7, target - 1), (target - 4, target - 1), (target - 7, target - 3)}
    return sorted((a, b) for a, b in picks if 0 <= a <= target - 2 and b >= 0)


def check_scores(scores, target: int, what: str, top_a: int) -> list[tuple[int, int]]:
    """``scores``, pairs (a, b) of team A's and team B's scores, each once, checked against ``target``: a from 0 to
    ``top_a``, b below the target; ``what`` names them in errors."""
    if isinstance(scores, (str, bytes)) or not hasattr(scores, "__iter__"):
        raise CardsimError(f"{what} scores must be pairs (a, b), got {checks.shown(scores)}")
    pairs = []
    for pair in scores:
        if isinstance(pair, (str, bytes)) or not hasattr(pair, "__len__") or len(pair) != 2:
            raise CardsimError(f"{what} scores must be pairs (a, b), got {checks.shown(pair)}")
        a = checks.whole(pair[0], f"score a of the {what} table", 0, top_a)
        b = checks.whole(pair[1], f"score b of the {what} table", 0, target - 1)
        if (a, b) in pairs:
            raise CardsimError(f"the {what} score {a}:{b} is given twice; give each score once")
        pairs.append((a, b))
    if not pairs:
        raise CardsimError(f"no {what} score given; give at least one a:b")
    return pairs


def _paired_questions(game: str, blind, concede, deals: int | None, target: int | None, communication: str,
                      style: str | None, players: int | None, hand: int | None, options) -> dict:
    """The paired tables `thresholds` was asked for, checked before any game is played: {"setting": (engine,
    variant, card options, rules), "communication", "deals": n, "blind": scores, "concede": scores} (only those
    asked)."""
    if blind is None and concede is None:
        if deals is not None:
            tables = "--blind and --concede: give one of them" if game == "perlaggen" else "--concede: give it"
            raise CardsimError(f"--paired-deals sizes the tables of {tables}, or drop --paired-deals")
        return {}
    asked = flags_text([flag for flag, value in (("--blind", blind), ("--concede", concede)) if value is not None])
    if players == THREE:
        raise CardsimError(f"{asked} play the team games' deals; the 3-player game has its own thresholds: drop it")
    if blind is not None and game != "perlaggen":
        raise CardsimError(f"blind bets are Perlaggen's (perlaggen.md §8.14); {game.capitalize()} has none: drop "
                           "--blind")
    options = dict(option_items(options))
    target = options.pop("target", target)
    setting = _team_setting(game, target, False, communication, style, players, hand, options)
    target = setting[3].target
    out = {"setting": setting, "communication": communication,
           "deals": PAIRED_DEALS if deals is None else checks.whole(deals, "--paired-deals", 2, MAX_PAIRED_DEALS)}
    if blind is not None:
        out["blind"] = blind_scores(target) if blind is True else check_scores(blind, target, "blind-bet", target - 2)
    if concede is not None:
        out["concede"] = [(0, 0)] if concede is True else check_scores(concede, target, "concession", target - 1)
    return out


def paired_tables(game: str, policy: str | Policy = "formula", seed=None, blind=None, concede=None,
                  paired_deals: int | None = None, target: int | None = None, communication: str = "partner",
                  style: str | None = None, players: int | None = None, hand: int | None = None,
                  options: dict | None = None, **run_kw) -> dict[str, pd.DataFrame]:
    """`thresholds`' paired tables alone (no self-play match): "blind" (``blind``: True or score pairs, Perlaggen)
    and "concede" (``concede``: True or score pairs), ``paired_deals`` deals per score and dealer (`paired_frame`'s
    rows). attrs: game, seed, target, policy, paired_deals."""
    paired = _paired_questions(game, blind, concede, paired_deals, target, communication, style, players, hand,
                               options)
    if not paired:
        raise CardsimError("no paired table asked: give blind and/or concede")
    seed = normalize_seed(seed)
    tables = _paired_tables(paired, policy, seed, **run_kw)
    for table in tables.values():
        table.attrs.update(game=game, seed=seed, target=paired["setting"][3].target, policy=_loaded(policy).name)
    return tables


def _paired_tables(paired: dict, policy: str | Policy, seed: int, **run_kw) -> dict[str, pd.DataFrame]:
    """The tables "blind" and "concede" of `_paired_questions`' ``paired`` (either or none), each from a
    `simcore.betting.PairedDealJob` with ``policy`` on both sides."""
    if not paired:
        return {}
    base = _loaded(policy)
    never = replace(base, concede_spiel=0.0)
    conceding = {f"below_{round(100 * c)}": ((), replace(never, concede_spiel=c, name=f"{base.name}, concede below "
                                                                                    f"{c:g}"))
                 for c in CONCEDE_BELOW}
    arms = {"blind": {name: (blind, base) for name, blind in BLIND_ARMS.items()},
            "concede": {"never": ((), never), **conceding}}
    mod, extra, cards, rules = paired["setting"]
    tables = {}
    for table in ("blind", "concede"):
        if table in paired:
            job = mod.paired_job(base, rules, paired[table], tuple(arms[table].values()), paired["communication"],
                                 **extra, **cards)
            counts = runner.run(job, paired["deals"], seed, **run_kw)
            tables[table] = paired_frame(counts, paired[table], list(arms[table]), paired["deals"])
    return tables


def paired_frame(counts: np.ndarray, scores: list[tuple[int, int]], arms: list[str], deals: int) -> pd.DataFrame:
    """`simcore.betting.PairedDealJob` counts as rows a, b, dealt ("a": A's seat dealt), arm, n; W, lo, hi (P(A wins
    the game), Wilson); d, d_lo, d_hi (W minus the first arm's, paired on the same deals, Tango's interval);
    game_a, game_b (the game ends in the first deal, won by A / by B) and gave_spiel (A gave the Spiel up there),
    Wilson; points_a, points_b (the first deal's mean points); net and dnet (A's net points in the first deal, and
    their change from the first arm, normal intervals); net_<part> per `simcore.betting.NET_PARTS`."""
    counts = counts.reshape(len(scores), 2, len(arms), len(PAIRED_COUNTS))
    rows = []
    for i, (a, b) in enumerate(scores):
        for side, dealt in enumerate("ab"):
            for k, arm in enumerate(arms):
                c = dict(zip(PAIRED_COUNTS, (int(x) for x in counts[i, side, k])))
                n = c["deals"]
                d = paired_difference(c["only_arm"], c["only_base"], n)
                row = {"a": a, "b": b, "dealt": dealt, "arm": arm, "n": n, **estimate_columns("W", c["a_wins"], n),
                       "d": d[0], "d_lo": d[1], "d_hi": d[2], "points_a": c["a_points"] / n,
                       "points_b": c["b_points"] / n}
                for name, count in (("game_a", "a_game"), ("game_b", "b_game"), ("gave_spiel", "gave_spiel")):
                    row.update(estimate_columns(name, c[count], n))
                for name in ("net", "dnet", *(f"net_{part}" for part in NET_PARTS)):
                    row.update(_mean_columns(name, c[name], c[f"{name}_sq"], n))
                rows.append(row)
    frame = pd.DataFrame(rows).rename(columns={"W_lo": "lo", "W_hi": "hi"})
    frame.attrs.update(paired_deals=deals)
    return frame


def _mean_columns(name: str, total: int, squares: int, n: int) -> dict:
    """{name, name_lo, name_hi}: the mean of n values from their sum and sum of squares (`mean_interval`)."""
    m = mean_interval(total, squares, n)
    return {name: m["mean"], f"{name}_lo": m["lo"], f"{name}_hi": m["hi"]}


def _blind_lines(blind: pd.DataFrame, policy: str, seed: int) -> list[str]:
    """Table D of a thresholds text: W without a blind bet and its change by each blind bet, per score and dealer."""
    deals = blind.attrs["paired_deals"]
    heading = ["", f"D. Blind bets (perlaggen.md §8.14, spec Q13), {deals:,} deals per score and dealer, seed {seed}: "
                   "before the cut the first player of",
               "   team A (on a) after the dealer bets blind at 2 on the figure of the column (Höll auf!: all three); "
               "the others answer",
               f"   each bet after seeing their hands, and both teams bet by {policy}; then the game is played out by "
               f"{policy} to its end.",
               "   'no bet' is W = P(A wins the game) without a blind bet (95% Wilson interval); the other columns are "
               "the change in W",
               "   on the same deals (same cards and bluff draws, Tango's 95% interval for paired shares); ± is half "
               "the interval."]
    lines = heading + [f"{'a':>3}{'b':>4}{'dealt':>7}" + "".join(f"{title:>15}" for title in BLIND_TITLES)]
    for (a, b, dealt), rows in blind.groupby(["a", "b", "dealt"], sort=False):
        cells = _w_cells(*rows.itertuples())
        lines.append(f"{a:>3}{b:>4}{dealt:>7}" + "".join(f"{cell:>15}" for cell in cells))
    return lines + ["   (a blind bet on a figure the team turns out not to have scores nothing, with no -2 penalty; "
                    "--json: the games ended in the deal, A's net points in it by figure and from penalties)"]


def _w_cells(first, *others) -> list[str]:
    """A paired table's W cells of one score and dealer: W±half of the first column, the change d±half of the
    others (rows of `paired_frame`)."""
    return [plus_minus(first.W, first.lo, first.hi)] + [plus_minus(r.d, r.d_lo, r.d_hi, sign=True) for r in others]


def _concede_lines(concede: pd.DataFrame, policy: str, seed: int) -> list[str]:
    """Table E of a thresholds text: A's net points in the deal when it never concedes the Spiel and their change
    when it concedes below each threshold, then the same for W."""
    deals = concede.attrs["paired_deals"]
    titles = ("never", *(f"below {c:g}" for c in CONCEDE_BELOW))
    question = {"perlaggen": "perlaggen.md Q11", "giltspiel": "giltspiel.md Q10"}[concede.attrs["game"]]
    heading = ["", f"E. Conceding the Spiel ({question}), {deals:,} deals per score and dealer, seed {seed}: at each "
                   "betting window team A",
               "   gives the Spiel up when its P(win the Spiel) as it sees it drops below the column's value, so that "
               "the others show first;",
               f"   both teams otherwise bet by {policy} ('never': A never concedes), and the game is played out to "
               "its end.",
               "   First: A's net points in the deal (A's minus B's; 'never': the mean, the others: the change, normal "
               "95% intervals),",
               "   then P(A gives the Spiel up) in the deal (conceding, or gut to a bet on it); last, W = P(A wins the "
               "game) and its change."]
    lines = heading + [f"{'a':>3}{'b':>4}{'dealt':>7}{'':>8}" + "".join(f"{title:>15}" for title in titles)]
    for (a, b, dealt), rows in concede.groupby(["a", "b", "dealt"], sort=False):
        first, *others = list(rows.itertuples())
        for label, cells in (
                ("points", [plus_minus(first.net, first.net_lo, first.net_hi, sign=True)]
                 + [plus_minus(r.dnet, r.dnet_lo, r.dnet_hi, sign=True) for r in others]),
                ("gives up", [plus_minus(r.gave_spiel, r.gave_spiel_lo, r.gave_spiel_hi) for r in (first, *others)]),
                ("W", _w_cells(first, *others))):
            start = f"{a:>3}{b:>4}{dealt:>7}" if label == "points" else " " * 14
            lines.append(f"{start}{label:>8}" + "".join(f"{c:>15}" for c in cells))
    return lines


BLUFF_D = (-0.1, -0.25, -0.5, -0.75, -1.0)
"""The d = P(win) - P(lose) of `bluff_table`'s columns."""


def bluff_table() -> pd.DataFrame:
    """Spec §10.6's bluff break-even concession rate c*(v, d) = |d| / (v + (v+1)|d|) per value v (`VALUES`) and
    d (`BLUFF_D`): a bet with d < 0 gains points when the opponents concede more often than c*."""
    return pd.DataFrame([{"value": v, "d": d, "c": bluff_break_even(v, d)} for v in VALUES for d in BLUFF_D])


def _bluff_lines(bluff: pd.DataFrame) -> list[str]:
    """The c*(v, d) grid under table A."""
    grid = bluff.set_index(["value", "d"]).c
    return ["", "   Bluff break-even c*(v, d) = |d| / (v + (v+1)|d|): a bet with d < 0 gains when the opponents "
                "concede more often than c*",
            f"{'v':>6}" + "".join(f"{'d=' + format(d, '.2f'):>9}" for d in BLUFF_D)] + \
        [f"{v:>6}" + "".join(f"{grid[v, d]:>9.3f}" for d in BLUFF_D) for v in VALUES]


def thresholds_text(tables: dict[str, pd.DataFrame]) -> str:
    if tables["first_order"].attrs.get("players") == THREE:
        first = thresholds3_text(tables["first_order"], "match_equity" in tables)
        return first + "\n\n" + equity3_text(tables) if "match_equity" in tables else first
    first, equity, level = tables["first_order"], tables["match_equity"], tables["game_level"]
    at = first.attrs
    known = {"partner": "the team's hands", "none": "the player's own hand",
             AUER: "the player's own hand (averaged over the partner's signals)"}[at["communication"]]
    stand = first.drop_duplicates("figure")
    lines = [f"{at['game'].capitalize()} bet thresholds{_setting(at)}",
             "", f"A. First order ({FORMULA_SECTION[at['game']]}, points EV of one figure): "
                 "facing a bet from v to v+1, hold iff",
             "   d = P(win) - P(lose) > -v/(v+1); value-bet iff d > 0; bluff break-even concession rate at d = -1.",
             "   hold P(win)* with stands uses the figure's mean stand rate; 'weakest hold' is the weakest best",
             f"   class of {known} whose d clears the hold threshold.",
             f"   Stand rates (estimated from the {int(stand.stand_n.iloc[0]):,} deals of the figure table): "
             + ", ".join(f"{r.figure} {plus_minus(r.stand_rate, r.stand_lo, r.stand_hi)}" for r in stand.itertuples())
             + ";",
             "   ± is half the 95% Wilson interval, carried into the columns with stands (the other columns are "
             "exact).",
             "   '~': a weakest hold within noise (the 95% interval of d of it or of a weaker class contains the "
             "threshold)." + ("\n   A assumes the default rules; the rule options enter B and C (self-play)."
                             if at.get("options") else ""),
             "",
             f"{'figure':<8}{'v':>3}{'hold d >':>10}{'hold P(win) >':>15}{'with stands':>13}{'bet P(win) >':>14}"
             f"{'bluff c*':>10}  weakest hold"]
    for _, r in first.iterrows():
        lines.append(f"{r['figure']:<8}{r['value']:>3}{r['hold_d']:>10.3f}{r['hold_p']:>15.3f}"
                     f"{plus_minus(r['hold_p_stands'], r['hold_p_stands_lo'], r['hold_p_stands_hi']):>13}"
                     f"{plus_minus(r['bet_p_stands'], r['bet_p_stands_lo'], r['bet_p_stands_hi']):>14}"
                     f"{r['bluff_c']:>10.3f}  {'' if r['weakest_settled'] else '~'}{r['weakest_hold']}")
    lines += _bluff_lines(tables["bluff"])
    target = at["target"]
    cells = {(r.a, r.b): plus_minus(r.W, r.lo, r.hi) for r in equity[equity.deals == "a"].itertuples()}
    lines += [""] + _grid_lines(
        f"B. Match equity W(a, b) = P(team on a beats the team on b) when the team on a deals next, target {target}: "
        f"dynamic programming over the per-deal points of {at['policy']} on both sides, one distribution per pair of "
        f"limit classes (each team's distance to the target, 1 to {LIMIT_REACH - 1} or {LIMIT_REACH} and more: near "
        f"the end the {LIMIT_RULE[at['game']]} limits change what a deal can score): "
        + (f"the far pair from self-play ({at['games']:,} games, {at['far_deals']:,} of their {at['deals']:,} deals "
           f"begun with both teams {LIMIT_REACH} or more points short), every other pair" if target >= LIMIT_REACH
           else "every pair")
        + f" from {at['class_deals']:,} deals begun at its scores (--class-deals), seed {at['seed']}; both teams "
        "reaching the target in one deal are ordered as §7.10 scores, a game a deal wins outright (Spiel aus held, "
        "both gestrichen) ends there. The other team dealing: 1 - W(b, a).", "points, class by class",
        "every cell's lo, hi", cells, target, at["model_deals"])
    lines += ["", "C. Game-level hold threshold P(win the figure)* facing a bet from v to v+1 (no stands, rest of the "
              "deal ignored), at some scores, by the team that dealt the deal; ± as in B, from the same deals: a wide "
              "± is noise, not a feature of the score (more --games and --class-deals narrow it).",
              f"{'a':>3}{'b':>4}{'dealt':>7}" + "".join(f"{'v=' + str(v):>12}" for v in VALUES)]
    picks = sorted({(a, b) for a, b in ((0, 0), (target // 2, target // 2), (target - 3, target - 3), (target - 2, 0),
                                        (0, target - 2), (target - 2, target - 2), (target - 1, target - 3))
                    if a >= 0 and b >= 0})  # low targets (2, 3) have fewer scores to show
    for a, b in picks:
        for dealer in ("a", "b"):
            rows = level[(level.a == a) & (level.b == b) & (level.dealer == dealer)]
            shown = {r.value: plus_minus(r.hold_p, r.lo, r.hi) for r in rows.itertuples()}
            lines.append(f"{a:>3}{b:>4}{dealer:>7}" + "".join(f"{shown.get(v, '-'):>12}" for v in VALUES))
    if not all(bet_allowed(b, max(VALUES), target) for _, b in picks):
        lines.append(f"('-': {LIMIT_RULE[at['game']]} forbids that bet: conceding it would put the betting team on the "
                     "target)")
    lines.append("(first-order P(win)* for comparison: "
                 + ", ".join(f"v={v}: {hold_threshold(v)[1]:.3f}" for v in VALUES)
                 + f"; a held Spiel aus (v = {AUS - 1} -> aus) is judged only by W)")
    if "blind" in tables:
        lines += _blind_lines(tables["blind"], at["policy"], at["seed"])
    if "concede" in tables:
        lines += _concede_lines(tables["concede"], at["policy"], at["seed"])
    if "facing" in tables:
        lines += _facing_lines(tables["facing"], tables["facing_weakest"], first)
    return "\n".join(lines)


FACING_KNOWN = {"team": "the team's best class (both hands)", "own": "the player's own best class",
                "signal": "the player's own best class and his partner's signal"}
"""Table F's text: what the answering side's class is, by `analysis.games.giltspiel.facing`'s view."""


def _facing_lines(frame: pd.DataFrame, weakest: pd.DataFrame, first: pd.DataFrame) -> list[str]:
    """Table F of a thresholds text: per figure, value (and partner's signal) the weakest class that holds the
    opponents' bet, its d, the next weaker class's d (when none holds: the strongest class's), and table A's weakest
    hold for comparison."""
    at = frame.attrs
    signal = at["view"] == "signal"
    lines = ["", "F. Facing the opponents' bet from v to v+1, the bets on the figure alternating from value 1 (as "
                 "cardsim odds",
             f"   giltspiel --opponents-bet FIGURE:V): the opponents play {at['policy']} (communication "
             f"{at['communication']}, bluff {at['bluff']:g}).",
             f"   d = P(win) - P(lose) by {FACING_KNOWN[at['view']]}, over {at['n']:,} deals (seed {at['seed']}),",
             "   each weighted by the chance that opponents with its hands made that history (their part of it only); "
             "n_eff:",
             "   Kish's effective deals. 'weakest hold': the weakest class whose d clears -v/(v+1) ('~' as in A); "
             "'next weaker':",
             "   the class below it (when none holds: the strongest); 'A': A's weakest hold, which ignores the bet"
             + (" and the signal." if signal else "."),
             "   A class's d averages its hands: for your own hand, cardsim odds giltspiel --opponents-bet FIGURE:V. "
             "--json: every d.",
             f"{'figure':<8}{'v':>3}  " + (f"{'partner':<9}" if signal else "")
             + f"{'weakest hold':<16}{'d [95%]':<24}{'n_eff':>9}  {'next weaker':<28}A"]
    a_weakest = {(r.figure, r.value): ("" if r.weakest_settled else "~") + r.weakest_hold for r in first.itertuples()}
    groups = giltspiel.facing_groups(frame)  # the order of weakest's rows, which walks the same groups
    for (_, r), (_, _, _, rows) in zip(weakest.iterrows(), groups):
        below = rows[rows.code < r.code] if r.code >= 0 else rows
        shown = f"{r.d:+.3f} [{r.lo:+.3f},{r.hi:+.3f}]" if r.code >= 0 else ""
        n_eff = f"{r.n_eff:,.0f}" if r.code >= 0 else ""
        weaker = "" if below.empty else f"{below.iloc[-1]['class']} {below.iloc[-1]['d']:+.3f}"
        name = ("" if r.settled else "~") + r["class"]
        partner = f"{'has one' if r.partner_example else 'has none':<9}" if signal else ""
        lines.append(f"{r.figure:<8}{r.value:>3}  {partner}{name:<16}{shown:<24}{n_eff:>9}  {weaker:<28}"
                     f"{a_weakest[r.figure, r.value]}")
    return lines


def _grid_lines(heading: str, redrawn: str, in_json: str, cells: dict, target: int, deals: int) -> list[str]:
    """Part B of a thresholds text: ``heading``, the bootstrap note (the deals' ``redrawn`` were redrawn; ``in_json``:
    what --json adds) and the grid of ``cells`` {(a, b): text} over `score_grid`(target)."""
    grid = score_grid(target)
    shown = "" if len(grid) == target else "every other score shown, "
    return [heading,
            f"   ± is half the width of the 95% interval of a parametric bootstrap ({BOOTSTRAP} redraws of the "
            f"{deals:,} deals' {redrawn};",
            f"   it need not be centred on the value); {shown}--json: {in_json}.",
            "a\\b " + "".join(f"{b:>12}" for b in grid)] + \
        [f"{a:>3} " + "".join(f"{cells[a, b]:>12}" for b in grid) for a in grid]


def thresholds_json(tables: dict[str, pd.DataFrame]) -> dict:
    at = tables["first_order"].attrs
    if at.get("players") == THREE:
        first = {**at, "first_order": tables["first_order"].to_dict(orient="records")}
        if "match_equity" not in tables:
            return first
        meta = tables["match_equity"].attrs
        return {**first, **{k: meta[k] for k in ("target", "seed", "games", "deals", "far_deals", "class_deals",
                                                 "model_deals", "policy")}, **equity3_json(tables)}
    facing = tables["facing"].attrs if "facing" in tables else None
    return {**{k: at[k] for k in ("game", "target", "seed", "games", "deals", "far_deals", "class_deals",
                                   "model_deals", "policy", "communication", "style", "players", "hand")},
            **({"options": at["options"]} if at["options"] else {}),
            **({"facing_settings": {k: facing[k] for k in FACING_SETTINGS}} if facing else {}),
            **{name: table.to_dict(orient="records") for name, table in tables.items()}}


FACING_SETTINGS = ("n", "seed", "policy", "bluff", "communication", "view", "never_bet")
"""Table F's settings in the thresholds JSON (`analysis.games.giltspiel.facing`'s attrs; n: its deals)."""


NOTHING_TO_SWEEP = ("the 3-player thresholds have no table form for a sweep (first-order formulas on cached tables, "
                    "and a match equity over three scores); sweep the team tables (--players 2, 4 or 6) or run it "
                    "once")


def thresholds_frame(tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The simulated estimates of `thresholds` as a long table: equity.<deals>.<a>.<b> (W) and
    hold.<dealer>.<a>.<b>.v<v> (game-level thresholds), with their bootstrap intervals, n = deals; with the paired
    tables <blind|concede>.<dealt>.<a>.<b>.<arm> (W), .d (its change from the first arm) and .net (A's net points in
    the deal), n = deals per score and dealer; with table F facing.<figure>.v<v>.c<code> (d of the class of that code
    facing the bet from v; under auer_channel + .partner_has or .partner_none, the partner's signal), n = its
    effective deals, rounded."""
    if "match_equity" not in tables:
        raise CardsimError(NOTHING_TO_SWEEP)
    equity, level = tables["match_equity"], tables["game_level"]
    names = [f"equity.{r.deals}.{r.a}.{r.b}" for r in equity.itertuples()]
    names += [f"hold.{r.dealer}.{r.a}.{r.b}.v{r.value}" for r in level.itertuples()]
    parts = [(equity.W, equity.lo, equity.hi, equity.n), (level.hold_p, level.lo, level.hi, level.n)]
    for name in ("blind", "concede"):
        if name in tables:
            table = tables[name]
            changed = table[table.arm != table.arm.iloc[0]]
            names += [f"{name}.{r.dealt}.{r.a}.{r.b}.{r.arm}{end}" for end, rows in (("", table), (".d", changed),
                                                                                    (".net", table))
                      for r in rows.itertuples()]
            parts += [(table.W, table.lo, table.hi, table.n), (changed.d, changed.d_lo, changed.d_hi, changed.n),
                      (table.net, table.net_lo, table.net_hi, table.n)]
    if "facing" in tables:
        facing = tables["facing"]
        signal = {True: ".partner_has", False: ".partner_none", None: ""}
        names += [f"facing.{r.figure}.v{r.value}.c{r.code}{signal[r.partner_example]}" for r in facing.itertuples()]
        parts.append((facing.d, facing.lo, facing.hi, facing.n_eff.round()))
    value, lo, hi, n = (np.concatenate(column) for column in zip(*parts))
    return pd.DataFrame({"estimate": names, "value": value, "lo": lo, "hi": hi, "n": n.astype("int64")},
                        columns=LONG_COLUMNS)


# --- commands -----------------------------------------------------------------------------------------
def _target(text: str) -> int:
    value = whole_value(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"the target must be a whole number of points, got '{text}'")
    try:
        check_target(value, text)
    except CardsimError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return value


def score_pairs(text: str) -> list[tuple[int, int]]:
    """argparse type of --blind and --concede: comma-separated scores A:B (team A's, the other team's)."""
    pairs = []
    for part in text.split(","):
        scores = [whole_value(x) for x in part.split(":")]
        if len(scores) != 2 or any(x is None or x < 0 for x in scores):
            raise argparse.ArgumentTypeError(f"give scores as A:B (the betting team's, the other's), comma-separated, "
                                             f"e.g. 11:17,14:17, got {quoted(text)}")
        pairs.append(tuple(scores))
    return pairs


def three_scores(text: str) -> tuple[int, int, int]:
    """argparse type of --scores: three whole numbers, the answerer's, the bettor's and the third player's score."""
    parts = [whole_value(part) for part in text.split(",")]
    if len(parts) != 3 or any(part is None or part < 0 for part in parts):
        raise argparse.ArgumentTypeError(f"give three scores of 0 or more, the answerer's, the bettor's and the "
                                         f"third player's, as A,B,C (e.g. 12,15,9), got {quoted(text)}")
    return tuple(parts)


def _common(game: str, parser: argparse.ArgumentParser, default_games: int, games_help: str | None = None,
            places: bool = False) -> None:
    """The options match, tournament and thresholds share; ``places``: --places too (match only)."""
    parser.add_argument("--games", type=sample_count, action=NotedStore, default=default_games,
                        help=games_help or f"games per match, an even number (default {default_games:,})")
    parser.add_argument("--target", type=_target, action=NotedStore, default=None,
                        help="points that win a game (default: the game's option; Perlaggen: the style's usual "
                             "target, Eichel 15, Schlanders 24, else 18)")
    parser.add_argument("--communication", type=one_of(COMMUNICATION), action=NotedStore, default="partner",
                        help="what a player knows: partner = both hands of his team (partners signal openly, "
                             "default), none = his own hand only (plus the cards played and shown), auer_channel = "
                             "his own hand and Auer's signals of his partners' hands (trumps, has-Gleich, has-Hanger, "
                             "§7.14)")
    if game == "perlaggen":
        from simcore.games.perlaggen_deal import FOUR_PLAYER_STYLES, PLAYER_COUNTS

        parser.add_argument("--style", type=one_of(FOUR_PLAYER_STYLES), action=NotedStore, default=None,
                            help="the style (default: the game's style option, innsbruck)")
        parser.add_argument("--players", type=one_of(PLAYER_COUNTS), action=NotedStore, default=None,
                            help="players: 4 (default), 2 (one against one, 7 cards, §9.2), 3 (each for himself, "
                                 "7 cards, §9.4: match and tournament; --games a multiple of 3) or 6 (two teams of "
                                 "three, 4 or 5 cards, §9.3)")
        parser.add_argument("--straf", action="store_true",
                            help="with --players 3: Strafperlaggen (§9.5): everyone starts on --target (default 9) "
                                 "and counts down to 0, failed commitments add penalty points")
        if places:
            parser.add_argument("--places", action="store_true", default=None,
                                help="with --straf: after someone has won, the other two play on for places 2 and "
                                     "3 (§9.5, \"Höll auf!\" included); reports how often a came 2nd and 3rd "
                                     "(default: the game's straf_places option, off)")
        parser.add_argument("--hand", type=hand_size, action=NotedStore, default=None,
                            help="cards each (default: 5 for four players, 7 for two, 4 for six; six may hold 5)")
    add_option_argument(parser, game)
    parser.add_argument("--seed", type=seed_number, action=NotedStore, default=None,
                        help="random seed (default: fresh, printed with the result)")
    parser.add_argument("--jobs", type=positive_int, action=NotedStore, default=1,
                        help="worker processes (default 1); results do not depend on it")
    parser.add_argument("--chunk-size", type=positive_int, action=NotedStore, default=None,
                        help="games per work unit (default 128); results do not depend on it")
    parser.add_argument("--checkpoint", action=NotedStore, default=None,
                        help="folder for finished chunks so an interrupted run resumes")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _match_arguments(game: str):
    def add(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--a", required=True, help="policy a: formula, cautious, aggressive, never or a .json file")
        parser.add_argument("--b", required=True, help="policy b (same choices)")
        parser.add_argument("--permissive", action="store_true",
                            help="allow G/H bets and holds without an example (Giltspiel A-19, Perlaggen §8.9; "
                                 "penalised -2 at verification)")
        _common(game, parser, 2000, places=True)
    return add


def _tournament_arguments(game: str):
    def add(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--policies", required=True,
                            help="comma-separated policies, e.g. formula,cautious,aggressive,never")
        parser.add_argument("--csv", type=path_text, default=None, help="also write the table to this CSV file")
        _common(game, parser, 1000)
    return add


def _thresholds_arguments(game: str):
    def add(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--policy", action=NotedStore, default="formula",
                            help="the self-play policy behind the match-equity table")
        if game == "perlaggen":
            parser.add_argument("--blind", nargs="?", const=True, type=score_pairs, action=NotedStore, default=None,
                                metavar="A:B,...",
                                help="also table D: the value of blind bets (§8.14, \"Höll auf!\") at these scores "
                                     "of the betting team and the other (default, target 18: 0:17, 11:17, 14:17 "
                                     "and 11:15), e.g. --blind 11:17,14:17")
        parser.add_argument("--concede", nargs="?", const=True, type=score_pairs, action=NotedStore, default=None,
                            metavar="A:B,...",
                            help="also table E: the value of conceding the Spiel so that the others show first, at "
                                 "these scores of the conceding team and the other (default 0:0)")
        if game == "giltspiel":
            parser.add_argument("--facing", nargs="?", const=giltspiel.FACING_DEALS, type=sample_count,
                                action=NotedStore, default=None, metavar="N",
                                help="also table F: facing the opponents' bet from v to v+1 under --policy, d of "
                                     "every class and the weakest that holds, from N deals (default "
                                     f"{giltspiel.FACING_DEALS:,})")
        parser.add_argument("--paired-deals", type=deal_count, action=NotedStore, default=None, metavar="N",
                            help=f"deals per score and dealer of tables D and E (default {PAIRED_DEALS:,}; each is "
                                 "played once per column and the game played out to its end)")
        parser.add_argument("--class-deals", type=deal_count, action=NotedStore, default=None, metavar="N",
                            help=f"deals per limit class near the end behind the match-equity table (default: "
                                 f"the games / {CLASS_DEALS_PER_GAME}, at least 2; teams: up to "
                                 f"{LIMIT_REACH * LIMIT_REACH - 1} pairs, each team 1-{LIMIT_REACH - 1} points from "
                                 "the target or farther, not both farther"
                                 + ("; --players 3 --games N: up to 63 triples, each player 1-3 points from the "
                                    "target or farther, not all three farther" if game == "perlaggen" else "") + ")")
        if game == "perlaggen":
            parser.add_argument("--scores", type=three_scores, action=NotedStore, default=None,
                                help="with --players 3 --games N: also the game-level accept thresholds at these "
                                     "scores: the answerer's, the bettor's (on his left) and the third player's, "
                                     "e.g. 12,15,9")
        _common(game, parser, 2000, "self-play games behind the match-equity table (teams: an even number, "
                "default 2,000)"
                + ("; with --players 3 (plain game) N games add the game-level tables B and C to the first-order "
                   "table (default: none)" if game == "perlaggen" else ""))
    return add


TEAM_READS = {"giltspiel": ("target", "communication", "strict_examples", "void_policy", "fifth_trick_bet",
                            "speech_order", "spiel_aus_held", "stop_on_target"),
              "perlaggen": ("target", "communication", "style", "players", "strict_examples", "concede_needs_example",
                            "one_pending_in_play", "fifth_trick_bet", "six_below_bells_seven")}
"""The rule options the team games' match, tournament and thresholds read (Perlaggen with six players also
six_player_cards)."""


def _reads(game: str, command: str):
    """The function of the parsed arguments giving the options ``cardsim command game`` reads
    (`analysis.commands.command_options`): the team game's (at two players without communication: no partner),
    or at three players (`match3`) the table's and, with --straf, straf_no_hopeless_spiel_bet and (match only)
    straf_places; the 3-player thresholds are formulas of the style, with --games N played to the target."""
    def reads(args: argparse.Namespace) -> tuple[str, ...]:
        players = getattr(args, "players", None)
        if players == 2:
            return tuple(name for name in TEAM_READS[game] if name != "communication")
        if players != THREE:
            return TEAM_READS[game] + (("six_player_cards",) if players == 6 else ())
        if command == "thresholds":
            self_play = given_flags(args, "games") and not getattr(args, "straf", False)
            return ("players", "style") + (("target",) if self_play else ())
        if not args.straf:
            return ("players", "target", "style")
        return ("players", "straf_no_hopeless_spiel_bet") + (("straf_places",) if command == "match" else ())
    return reads


def _setting_kw(args: argparse.Namespace, game: str, command: str) -> dict:
    """The keywords of the command's `match`, `tournament` or `thresholds` call from the parsed arguments;
    ``--option`` values first set their flags' destinations (`analysis.commands.command_options`)."""
    flags = {"target": "target", "communication": "communication", "style": "style", "players": "players",
             "six_player_cards": "hand", "straf_places": "places"}
    if hasattr(args, "permissive"):
        flags["strict_examples"] = "!permissive"
    options = command_options(args, game, command, _reads(game, command), flags)
    if command != "thresholds" or getattr(args, "players", None) != THREE:  # those name every unused flag at once
        _check_team_flags(args)
    kw = {"communication": args.communication, "options": options,
          **{k: getattr(args, k, None) for k in ("style", "players", "hand")}, **run_options(args)}
    if getattr(args, "straf", False):
        if args.players != THREE or args.style:
            raise CardsimError("--straf is the 3-player Strafperlaggen (§9.5, its own Perlaggen): use it with "
                               "--players 3 and without --style")
        kw["style"] = "straf"
    elif kw["style"] == "straf":
        raise CardsimError("Strafperlaggen is its own 3-player game (§9.5): give --players 3 --straf, not the style")
    if getattr(args, "places", None):
        if not getattr(args, "straf", False):
            raise CardsimError("--places is the Strafperlaggen finish for places 2 and 3 (§9.5): use it with "
                               "--players 3 --straf")
        kw["places"] = True
    return kw


def _check_team_flags(args: argparse.Namespace) -> None:
    """CardsimError when self-play of two or three players is given a flag of the partnership game it cannot
    read: --communication (what partners tell each other) with no partner, --permissive (the 4-player engine's
    example rule, A-19) in the 3-player game."""
    players = getattr(args, "players", None)
    unread = given_flags(args, "communication") if players in (2, THREE) else []
    if players == THREE and getattr(args, "permissive", False):
        unread.append("--permissive")
    if unread:
        one = len(unread) == 1
        own = " (the 3-player game has its own rules)" if players == THREE else ""
        raise CardsimError(f"{flags_text(unread)} {'belongs' if one else 'belong'} to the partnership game: with "
                           f"--players {players} every player is on his own{own}, so {'it does' if one else 'they do'} "
                           f"not apply; drop {'it' if one else 'them'}")


def _match_of(game: str):
    def frame(args: argparse.Namespace) -> pd.DataFrame:
        kw = _setting_kw(args, game, "match")
        return match(game, args.a, args.b, args.games, args.seed, args.target, args.permissive, **kw)
    return frame


def _tournament_of(game: str):
    def frame(args: argparse.Namespace) -> pd.DataFrame:
        kw = _setting_kw(args, game, "tournament")
        return tournament(game, args.policies.split(","), args.games, args.seed, args.target, **kw)
    return frame


def _thresholds_of(game: str):
    def frame(args: argparse.Namespace) -> dict[str, pd.DataFrame]:
        kw = _setting_kw(args, game, "thresholds")
        scores = getattr(args, "scores", None)
        paired = {"blind": getattr(args, "blind", None), "concede": args.concede, "paired_deals": args.paired_deals,
                  "class_deals": args.class_deals, "facing": getattr(args, "facing", None)}
        if getattr(args, "players", None) != THREE:
            return thresholds(game, args.target, args.games, args.seed, args.policy, scores=scores, **paired, **kw)
        if paired["blind"] is None and paired["concede"] is None:
            _check_three_flags(args, kw["style"])
        games = args.games if given_flags(args, "games") else None
        return thresholds(game, args.target, games, args.seed, args.policy, scores=scores, **paired, **kw)
    return frame


def _check_three_flags(args: argparse.Namespace, style: str) -> None:
    """CardsimError naming every flag the 3-player thresholds would not read: without --games (first-order
    formulas on fixed tables) and in Strafperlaggen the self-play flags, always --communication."""
    self_play = given_flags(args, "games", "target", "policy", "scores", "class_deals",
                            *(dest for dest in SAMPLING_DESTS if dest != "n"))
    others = given_flags(args, "communication")
    if style == "straf":
        unused, why = self_play + others, ("the Strafperlaggen thresholds are first-order formulas on fixed tables "
                                           "(its match equity over three counts is not built)")
    elif not given_flags(args, "games"):
        unused, why = self_play + others, ("the 3-player thresholds without --games are first-order formulas on "
                                           "fixed tables (add --games N for the game-level tables)")
    else:
        unused, why = others, "the 3-player game has no partners to tell"
    if unused:
        raise CardsimError(f"{why}: drop {flags_text(unused)}")


def _thresholds_frame_of(game: str):
    """`thresholds_frame` of the command line's thresholds (for sweeps); the 3-player ones are refused before
    their tables are built."""
    compute = _thresholds_of(game)

    def frame(args: argparse.Namespace) -> pd.DataFrame:
        if getattr(args, "players", None) == THREE:
            raise CardsimError(NOTHING_TO_SWEEP)
        return thresholds_frame(compute(args))
    return frame


def _run_match(game: str):
    def run(args: argparse.Namespace) -> int:
        return emit(args, _match_of(game)(args), match_json, match_text)
    return run


def _check_csv(path: str) -> None:
    """--csv names a file that can be written, checked before any simulation runs."""
    target = Path(path).expanduser()
    if target.is_dir():
        problem = "it is a folder"
    elif target.exists() and not os.access(target, os.W_OK):
        problem = "the file is read-only"
    elif not target.parent.is_dir():
        problem = f"{target.parent} is a file, not a folder" if target.parent.exists() else \
            f"its folder {target.parent} does not exist"
    else:
        try:
            probe_writable(target.parent)
            return
        except OSError as exc:  # /proc: the folder exists, yet creating a file there gives 'No such file'
            problem = f"no file can be created in its folder {target.parent}: {exc.strerror or exc}"
    raise CardsimError(f"cannot write the table to --csv {path} ({problem}); give a file name in an existing, "
                       "writable folder")


def _run_tournament(game: str):
    def run(args: argparse.Namespace) -> int:
        if args.csv:
            _check_csv(args.csv)
        table = _tournament_of(game)(args)
        if args.csv:
            try:
                table.to_csv(Path(args.csv).expanduser(), index=False)
            except OSError as exc:  # checked writable before the run; the disk may fill or the file change since
                raise CardsimError(write_failure(args.csv, exc)) from None
        return emit(args, table, lambda t: {**t.attrs, "table": t.to_dict(orient="records")}, tournament_text)
    return run


def _run_thresholds(game: str):
    def run(args: argparse.Namespace) -> int:
        return emit(args, _thresholds_of(game)(args), thresholds_json, thresholds_text)
    return run


def _long(compute, to_long):
    return lambda args: to_long(compute(args))


for _game in ENGINES:
    register_command("match", _game, Command(
        "play whole games between two betting policies (duplicate deals) and compare game-win rates",
        _match_arguments(_game), _run_match(_game), _long(_match_of(_game), match_frame)))
    register_command("tournament", _game, Command(
        "round robin of betting policies: game-win rates and points per deal of every pairing",
        _tournament_arguments(_game), _run_tournament(_game), _long(_tournament_of(_game), tournament_frame)))
    register_command("thresholds", _game, Command(
        "hold/concede and bet thresholds per figure and value, first order and by match equity",
        _thresholds_arguments(_game), _run_thresholds(_game), _thresholds_frame_of(_game)))


# --- three players, each for himself (perlaggen.md §9.4) -------------------------------------------
THREE = 3
THREE_B = 2
"""Seats policy b holds at a 3-player table."""
MATCH3_OPTIONS = ("straf_no_hopeless_spiel_bet",)
"""The rule options `match3` takes in ``options`` (`simcore.games.perlaggen_three.Deal3`)."""


def match3(a: str | Policy, b: str | Policy, games: int = 2001, seed=None, target: int | None = None,
           style: str | None = None, hand: int | None = None, places: bool | None = None, options: dict | None = None,
           **run_kw) -> pd.DataFrame:
    """Whole 3-player Perlaggen games (`simcore.games.perlaggen_three`; ``style="straf"``: Strafperlaggen,
    ``target`` is then the starting count, default 9): policy a in one seat against two b players, every
    deal sequence played three times with a in each seat. Rows "a" (a's seat) and "b" (one b player): the
    game-win rate (win_p, lo, hi: Wilson at the effective number of games of the deal sequences,
    `analysis.stats.clustered_share`; b's is (1 - a's) / 2 with the interval mapped the same way), points per
    deal (ppd_mean, lo, hi; b's per b player; Strafperlaggen: points counted
    off), wins (b: games won by either b player) and games (b: 2 x games, the seats b played). A policy
    as good as its opponents wins 1/3 of its games. ``places`` (Strafperlaggen; None: the registered
    ``straf_places`` option): the other two play on for places 2 and 3 (§9.5); columns second_p/lo/hi and
    third_p/lo/hi (intervals as for the win rate; b's per b player, mapped from a's), attrs finish_deals.
    ``options``: {"straf_no_hopeless_spiel_bet": True} or none (`simcore.games.perlaggen_three.Deal3`)."""
    from simcore.games import perlaggen_three as T
    from simcore.games.perlaggen import OPTIONS

    options = option_items(options)
    for name, value in options.items():
        checks.flag(value, checks.one_of(name, "3-player match option", MATCH3_OPTIONS))
    places = None if places is None else checks.flag(places, "places")
    games = checks.whole(games, "--games")
    if games < THREE or games % THREE:
        raise CardsimError(f"--games must be a multiple of 3 for 3 players (a in each seat of every deal sequence), "
                           f"e.g. {games + (-games) % THREE}; got {games}")
    if hand not in (None, T.HAND):
        raise CardsimError(f"three players hold {T.HAND} cards (§9.4), got --hand {hand}")
    option = {o.name: o.default for o in OPTIONS}
    style = style or option["style"]
    places = option["straf_places"] and style == T.STRAF if places is None else places
    if target is None:
        target = T.STRAF_START if style == T.STRAF else engine("perlaggen").default_target(style)
    pa, pb = _pair(a, b)
    seed = normalize_seed(seed)
    job = T.Match3Job(pa, pb, target, style, places, options.get("straf_no_hopeless_spiel_bet", False))
    counts = runner.run(job, games, seed, **run_kw)
    (n, a_wins, deals, s_pa, s_pb, s_paa, s_pbb, s_dd, s_pad, s_pbd, seconds, thirds, finish_deals,
     wins_sq, seconds_sq, thirds_sq) = (int(c) for c in counts)
    win = clustered_share(a_wins, wins_sq, n // THREE, THREE)
    side_a = _side(a_wins, n, win, (s_pa, deals, s_paa, s_dd, s_pad))
    side_b = _side(n - a_wins, n, _mapped_to_b(win), (s_pb, deals, s_pbb, s_dd, s_pbd))
    side_b.update(games=THREE_B * n, ppd_mean=side_b["ppd_mean"] / 2, ppd_lo=side_b["ppd_lo"] / 2,
                  ppd_hi=side_b["ppd_hi"] / 2)
    if places:
        for key, count, count_sq in (("second", seconds, seconds_sq), ("third", thirds, thirds_sq)):
            est = clustered_share(count, count_sq, n // THREE, THREE)
            for side, share in ((side_a, est), (side_b, _mapped_to_b(est))):
                side.update({f"{key}_p": share["p"], f"{key}_lo": share["lo"], f"{key}_hi": share["hi"]})
    frame = pd.DataFrame([dict(side="a", policy=pa.name, **side_a), dict(side="b", policy=pb.name, **side_b)])
    frame.attrs.update(game="perlaggen", seed=seed, target=target, games=n, deals=deals, communication="none",
                       options=options,
                       style=style, players=THREE, hand=T.HAND, places=bool(places), finish_deals=finish_deals)
    return frame


def match3_text(frame: pd.DataFrame) -> str:
    at = frame.attrs
    if at["style"] == "straf":
        kind, setting = "Strafperlaggen match (§9.5)", f"everyone starts on {at['target']}, first to 0 wins"
    else:
        kind, setting = "3-player match (each for himself, §9.4)", (f"target {at['target']}, "
                                                                    f"{style_title(at['style'])} style")
    lines = [f"Perlaggen {kind}: {frame.policy[0]} (a) in one seat vs two {frame.policy[1]} (b), {setting}, 7 cards"
             f"{options_note(at['options'])}",
             f"{at['games']:,} games ({at['games'] // THREE:,} deal sequences, each played with a in every seat), "
             f"{at['deals']:,} deals, seed {at['seed']}; 95% intervals; an even policy wins 1/3",
             "(b: one b player; its win rate is (1 - a's) / 2"
             + ("; points per deal: points counted off, net of penalty points)" if at["style"] == "straf" else ")"),
             "",
             f"{'side':<5}{'policy':<14}{'game-win rate':>28}{'points per deal':>30}"]
    for _, r in frame.iterrows():
        lines.append(f"{r['side']:<5}{r['policy']:<14}{r['win_p']:>10.4f} [{r['win_lo']:.4f},{r['win_hi']:.4f}]"
                     f"{r['ppd_mean']:>14.4f} [{r['ppd_lo']:.4f},{r['ppd_hi']:.4f}]")
    if at.get("places"):
        lines += ["", f"Places 2 and 3 (§9.5: after the win the other two play on, {at['finish_deals']:,} more deals; "
                  "an even policy comes 2nd and 3rd 1/3 each):",
                  f"{'side':<5}{'policy':<14}{'2nd place':>28}{'3rd place':>30}"]
        for _, r in frame.iterrows():
            lines.append(f"{r['side']:<5}{r['policy']:<14}{r['second_p']:>10.4f} [{r['second_lo']:.4f},"
                         f"{r['second_hi']:.4f}]{r['third_p']:>14.4f} [{r['third_lo']:.4f},{r['third_hi']:.4f}]")
    return "\n".join(lines)


THREE_VALUES = (1, 2)
"""Values before a bet in the 3-player game: a bet makes 2, a raise 3 (the maximum, §9.4)."""
THREE_FIGURES = {G: "gleich", H: "hanger", SP: "spiel"}


def thresholds3(style: str | None = None, hand: int | None = None) -> pd.DataFrame:
    """First-order accept/concede thresholds of one player against the bettor in the 3-player game
    (§9.4; ``style="straf"``: Strafperlaggen §9.5), `simcore.games.perlaggen_three.accept_threshold`, per
    figure and value v = 1, 2. Rows: figure, value, stand (Gleich/Hanger: two players' best codes equal;
    Spiel: hin, from G1 play-outs) with its 95% Wilson interval stand_lo, stand_hi over stand_n deals (table
    deals or play-outs), accept_d, accept_p (no stands), accept_p_stands (accept_d and accept_p_stands with
    the stand interval carried through: _lo, _hi), policy_d (the d the match policies answer on: -v/(v+1),
    Straf 0), weakest_accept (the weakest own best class whose d against one other player, from the deals'
    codes, clears accept_d; the bettor is no random player, so this is a lower bound)."""
    from simcore.games import perlaggen_three as T
    from simcore.games.perlaggen import OPTIONS, STYLES
    from simcore.games.perlaggen_betting import CODE_BINS, class_name

    if hand not in (None, T.HAND):
        raise CardsimError(f"three players hold {T.HAND} cards (§9.4), got --hand {hand}")
    style = style or next(o.default for o in OPTIONS if o.name == "style")
    checks.one_of(style, "Perlaggen style", STYLES)
    straf = style == T.STRAF
    stats = T.stand_stats(style)
    rows = []
    for figure, key in THREE_FIGURES.items():
        stand = float(stats[figure, 0])
        n = T.SPIEL_DEALS if figure == SP else T.TABLE_DEALS  # no 3-player table deal is thrown in (A-28)
        stand_lo, stand_hi = wilson(round(stand * n), n)
        for v in THREE_VALUES:
            d, p_plain = T.accept_threshold(v, 0.0, straf, figure == SP)
            d_stand, p_stand = T.accept_threshold(v, stand, straf, figure == SP)
            ends = [T.accept_threshold(v, end, straf, figure == SP) for end in (stand_lo, stand_hi)]
            weakest = "-"
            if figure != SP:
                seen = [code for code in range(CODE_BINS - 1)
                        if stats[figure, code + 2] > 0 and stats[T.PAIR_D + figure, code + 2] > d_stand]
                weakest = class_name(figure, min(seen)) if seen else "none"
            rows.append({"figure": key, "value": v, "stand": stand, "stand_lo": stand_lo, "stand_hi": stand_hi,
                         "stand_n": n, "accept_d": d_stand, "accept_d_lo": min(e[0] for e in ends),
                         "accept_d_hi": max(e[0] for e in ends), "accept_p": p_plain, "accept_p_stands": p_stand,
                         "accept_p_stands_lo": min(e[1] for e in ends), "accept_p_stands_hi": max(e[1] for e in ends),
                         "policy_d": 0.0 if straf else -v / (v + 1), "weakest_accept": weakest})
    frame = pd.DataFrame(rows)
    frame.attrs.update(game="perlaggen", style=style, players=THREE, hand=T.HAND,
                       target=T.STRAF_START if straf else engine("perlaggen").default_target(style))
    return frame


def thresholds3_text(first: pd.DataFrame, equity: bool = False) -> str:
    """The first-order table's text; ``equity``: the game-level parts B and C follow it."""
    at = first.attrs
    straf = at["style"] == "straf"
    kind = ("Strafperlaggen (§9.5)"
            if straf else f"3-player Perlaggen (each for himself, §9.4), {style_title(at['style'])} style")
    payoff = ("points counted off (winning at v+1 counts off v+1, a failed commitment adds its level v+1)"
              if straf else "points scored")
    n = first.groupby("figure").stand_n.first()
    lines = [f"{kind}: first-order accept/concede thresholds" + (" (A; the game-level B and C follow)" if equity
                                                                    else ""),
             "",
             "One player answers a bet from v to v+1 (v = 2: a raise to 3, the maximum), the figure then between the",
             "bettor and him (the third player conceded). Payoff: his own minus the mean of the other two players'",
             f"{payoff}.",
             "gut gives the bettor v; accept iff d = P(win) - P(bettor wins) > the threshold. 'stand' is P(two",
             "players' best examples are equal) for Gleich/Hanger and P(das Spiel ist hin) for the Spiel (G1 play,",
             "no bets). 'weakest accept' is the weakest own best class whose d against one other player clears the",
             "threshold with stands (the bettor is stronger than a random player: a lower bound).",
             f"'stand' is estimated (Gleich/Hanger: {n['gleich']:,} table deals; Spiel: {n['spiel']:,} play-outs): "
             "± is half its 95% Wilson",
             "interval, carried into 'accept d' and 'with stands' (±0.000: under 0.0005, or the value does not depend",
             "on it); the other columns are exact. 'weakest accept' is read off the same table deals (no interval).",
             "",
             f"{'figure':<8}{'v':>3}{'accept d >':>14}{'P(win) >':>10}{'stand':>13}{'with stands':>13}"
             f"{'policy d >':>12}  weakest accept"]
    for _, r in first.iterrows():
        lines.append(f"{r['figure']:<8}{r['value']:>3}"
                     f"{plus_minus(r['accept_d'], r['accept_d_lo'], r['accept_d_hi']):>14}{r['accept_p']:>10.3f}"
                     f"{plus_minus(r['stand'], r['stand_lo'], r['stand_hi']):>13}"
                     f"{plus_minus(r['accept_p_stands'], r['accept_p_stands_lo'], r['accept_p_stands_hi']):>13}"
                     f"{r['policy_d']:>12.3f}  {r['weakest_accept']}")
    rule = ("accept iff d > -(2c+v)/(3(v+1)) (Spiel: + stand/3), c = 0 for a bet and c = 2 for the bettor answering "
            "the raise: accepting risks the level, conceding gives the bettor v and costs a committed answerer c"
            if straf else "accept iff d > -(2v/(v+1) + 1 - stand)/3: with no stands P(win) > 1/(3(v+1))")
    lines += ["", f"({rule}. 'policy d' is what the match policies answer on: "
              + ("own points, d > 0" if straf else "the two-team §11.5 rule, d > -v/(v+1)")
              + (". No game-level table for Strafperlaggen: its match equity over three counts is not built.)" if straf
                 else ".)" if equity else ". The game-level tables B and C (match equity over three scores): add "
                 "--games N.)")]
    return "\n".join(lines)


THREE_EQUITY_MAX_TARGET = 30
"""The highest target of the 3-player match equity (at 30 its bootstrap holds about 65 MB of tables)."""
THREE_EQUITY_TOLERANCE = 1e-6
"""Settling tolerance of the bootstrap redraws' 3-player match equity (each starts from the estimate's table; against
1e-9 the interval ends move by under 1e-7 and each redraw takes 0.6x the time)."""


def equity3(policy: str | Policy = "formula", games: int = 600, seed=None, target: int | None = None,
            style: str | None = None, scores: tuple | None = None, class_deals: int | None = None,
            threads: int | None = None, **run_kw) -> dict[str, pd.DataFrame]:
    """The plain 3-player game's match equity (`simcore.games.perlaggen_three_equity`) from a deal model of
    ``policy`` in all three seats per limit class (each player 1 to 3, or 4 and more points from the target, seen from
    the dealer: `simcore.games.perlaggen_three_equity.limit_class`): the far class from self-play (``games`` whole
    games to ``target``, ``style``'s wild cards), each near class from ``class_deals`` deals begun at its scores
    (default ``games`` / `CLASS_DEALS_PER_GAME`, `simcore.games.perlaggen_three_equity.Class3Job`), each with all
    self-play deals weighted as `PRIOR_DEALS` deals; 95% intervals of a parametric bootstrap (`BOOTSTRAP`
    multinomial redraws of each class's deals).

    match_equity rows: dealer ("him", "left", "right": who deals next, seen from the player), a (his score), b
    (his left's), c (his right's), W (P(he wins the game)), lo, hi, n (the deals of the score's class); game_level
    rows (some scores, the bettor on the answerer's left): a (answerer), b (bettor), c (third), dealt ("him",
    "bettor", "third": who dealt the deal of the bet), value (1: a bet of 2, 2: a raise to 3), accept_p (P(win the
    figure)* above which accepting beats conceding, `accept_threshold`), lo, hi, n (the deals of the class the next
    deal starts in when conceded); no rows for bets §8.6 forbids (`simcore.betting.bet_allowed`).
    ``scores``: (answerer, bettor, third), a score triple shown first in game_level. ``threads``: the threads the
    bootstrap's redraws are solved on (default: ``jobs``; the numbers do not depend on either)."""
    from simcore.games import perlaggen_three as T
    from simcore.games import perlaggen_three_equity as E
    from simcore.games.perlaggen import OPTIONS

    style = style or next(o.default for o in OPTIONS if o.name == "style")
    if style == T.STRAF:
        raise CardsimError("the 3-player match equity is built for the plain game (§9.4); Strafperlaggen's "
                           "count-down (§9.5) changes several counts a figure: drop --games and its options")
    games = checks.whole(games, "--games")
    if games < 2:
        raise CardsimError(f"--games must be at least 2 for the match equity, got {games}")
    class_deals = checked_class_deals(class_deals, games)
    target = engine("perlaggen").default_target(style) if target is None else target
    if target > THREE_EQUITY_MAX_TARGET:
        raise CardsimError(f"the 3-player match equity holds targets up to {THREE_EQUITY_MAX_TARGET} (its table grows "
                           f"with the cube of the target; the rules play to 15-24), got --target {target}")
    if scores is not None:
        try:
            scores = checks.wholes(scores, "--scores", 3, 0, target - 1)
        except CardsimError:
            raise CardsimError(f"--scores {scores!r}: give three whole scores from 0 to below the target {target} (a "
                               "player on the target has won)") from None
    seed, player = normalize_seed(seed), _loaded(policy)
    counts = runner.run(E.Equity3Job(player, target, style), games, seed, **run_kw)
    class_counts = runner.run(E.Class3Job(player, target, style), class_deals, seed, **run_kw)
    self_play, far = E.Equity3Job.outcomes(counts)
    probs, deals = E.class_probs(self_play, far, class_counts, target, PRIOR_DEALS)
    w = E.match_equity(probs, target)
    threads = checks.whole(run_kw.get("jobs") or 1 if threads is None else threads, "threads", 1)
    threads = min(threads, os.cpu_count() or 1)  # as the runner caps its processes
    redraws = bootstrap_equity3(probs, deals, self_play, target, seed, w, jobs=threads)
    views = E.player_views(w, target)
    lo, hi = np.percentile([E.player_views(r, target) for r in redraws], [2.5, 97.5], axis=0)

    def n(dealer: str, a: int, b: int, c: int) -> int:
        """The deals behind the class of scores a (the player), b (his left), c (his right), ``dealer`` next."""
        order = {"him": (a, b, c), "left": (b, c, a), "right": (c, a, b)}[dealer]
        return int(deals[E.score_class(order, target)])

    every = range(target)
    equity = pd.DataFrame([{"dealer": dealer, "a": a, "b": b, "c": c, "W": views[d, a, b, c], "lo": lo[d, a, b, c],
                            "hi": hi[d, a, b, c], "n": n(dealer, a, b, c)}
                           for d, dealer in enumerate(E.DEALERS) for a in every for b in every for c in every])
    rows = []
    asked = [tuple(scores)] if scores is not None else []
    for a, b, c in asked + [pick for pick in equity3_picks(target) if pick not in asked]:
        for dealt, label in zip(E.DEALERS, THREE_DEALT):
            for v in (v for v in THREE_VALUES if bet_allowed(b, v, target)):
                def threshold(table):
                    return E.accept_threshold(table, target, a, b, c, v, dealt, "left")
                ends = np.percentile([threshold(r) for r in redraws], [2.5, 97.5])
                rows.append({"a": a, "b": b, "c": c, "dealt": label, "value": v, "accept_p": threshold(w),
                             "lo": ends[0], "hi": ends[1], "n": n(E.NEXT_DEALER[dealt], a, b + v, c)})
    level = pd.DataFrame(rows)
    meta = dict(game="perlaggen", players=THREE, style=style, target=target, seed=seed, games=int(counts[0]),
                deals=int(counts[1]), policy=player.name, hand=T.HAND, class_deals=class_deals,
                far_deals=int(deals[E.FAR_CLASS]), model_deals=int(deals.sum()))
    for table in (equity, level):
        table.attrs.update(meta)
    level.attrs["scores"] = list(scores) if scores is not None else None
    return {"match_equity": equity, "game_level": level}


def bootstrap_equity3(probs: np.ndarray, deals: np.ndarray, self_play: np.ndarray, target: int, seed: int,
                      start: np.ndarray, replicates: int = BOOTSTRAP, jobs: int = 1) -> list[np.ndarray]:
    """`BOOTSTRAP` redraws of the 3-player match equity W: per replicate and limit class, the class's ``deals``
    drawn from its row of ``probs`` (multinomial; a smoothed bootstrap as `bootstrap_equity`), with the ``self_play``
    deals weighted as `PRIOR_DEALS` deals as in `simcore.games.perlaggen_three_equity.class_probs`; each solved from
    ``start`` to `THREE_EQUITY_TOLERANCE` on the codes grouped once (`class_grouping`: a redraw weighs no code
    outside ``probs``' support). The redraws are drawn in order, ``jobs`` at a time (each is a (CLASSES, CODES)
    array of 4 MB), and each batch solved on ``jobs`` threads (the kernel releases the GIL), so they do not depend on
    ``jobs``."""
    from concurrent.futures import ThreadPoolExecutor

    from simcore.games import perlaggen_three_equity as E

    rng = block_substream(seed, BOOTSTRAP_BLOCK, 1)
    prior = self_play / self_play.sum()
    grouping = E.class_grouping(probs)
    scored = np.flatnonzero(probs.sum(axis=1))

    def drawn() -> np.ndarray:
        q = np.zeros_like(probs)
        for c in scored:
            q[c] = (rng.multinomial(deals[c], probs[c]) + PRIOR_DEALS * prior) / (deals[c] + PRIOR_DEALS)
        return q

    def solved(q: np.ndarray) -> np.ndarray:
        return E.match_equity(q, target, tolerance=THREE_EQUITY_TOLERANCE, start=start, grouping=grouping)

    jobs = max(1, jobs)
    redraws = []
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for first in range(0, replicates, jobs):
            redraws += pool.map(solved, [drawn() for _ in range(min(jobs, replicates - first))])
    return redraws


THREE_DEALT = ("him", "bettor", "third")
"""Who dealt the deal of a bet, seen from the answerer with the bettor on his left (`DEALERS` him, left, right)."""


def equity3_picks(target: int) -> list[tuple[int, int, int]]:
    """The scores (answerer, bettor, third) of the game-level accept table: the start, level scores, one player
    near the target, two and three near it."""
    near, close = target - 2, max(target - 3, 0)
    picks = [(0, 0, 0), (target // 2,) * 3, (close,) * 3, (near, 0, 0), (0, near, 0), (0, 0, near), (near, near, 0),
             (0, near, near), (target - 1, close, 0)]
    return sorted({p for p in picks if min(p) >= 0})


def equity3_text(tables: dict[str, pd.DataFrame]) -> str:
    from simcore.games import perlaggen_three_equity as E

    equity, level = tables["match_equity"], tables["game_level"]
    at = equity.attrs
    target = at["target"]
    him = equity[(equity.dealer == "him") & (equity.b == equity.c)]
    cells = {(r.a, r.b): plus_minus(r.W, r.lo, r.hi) for r in him.itertuples()}
    reach = E.LIMIT_REACH
    lines = _grid_lines(
        f"B. Match equity W(a; b, b) = P(the player on a wins) when both others are on b and he deals next, target "
        f"{target}: the first to reach it wins (§8.12 order within a deal); value iteration over the deals' award "
        f"sequences of {at['policy']} in all three seats, one distribution per limit class (each player's distance "
        f"to the target, 1 to {reach - 1} or {reach} and more: near the end the §8.6 limit changes what a deal can "
        "pay): "
        + (f"the far class from self-play ({at['games']:,} games, {at['far_deals']:,} of their {at['deals']:,} deals "
           f"begun with all three {reach} or more points short), every other class" if target >= reach
           else "every class")
        + f" from {at['class_deals']:,} deals begun at its scores (--class-deals), seed {at['seed']}; W of the "
        "three players sums to 1.", "outcomes, class by class",
        "every score (a, b, c) and dealer with lo, hi, n", cells, target, at["model_deals"])
    lines += ["", "C. Game-level accept threshold P(win the figure)* of the player on a facing a bet from v to v+1 by "
              "the player on b, his left (the third, on c, answered first and said gut; no stands, rest of the deal "
              "ignored), by who dealt the deal; ± as in B, from the same deals"
              + (f"; first the asked scores {','.join(map(str, level.attrs['scores']))}." if level.attrs.get("scores")
                 else "."),
              f"{'a':>3}{'b':>4}{'c':>4}{'dealt':>8}" + "".join(f"{'v=' + str(v):>14}" for v in THREE_VALUES)]
    for (a, b, c, dealt), rows in level.groupby(["a", "b", "c", "dealt"], sort=False):
        shown = {r.value: plus_minus(r.accept_p, r.lo, r.hi) for r in rows.itertuples()}
        lines.append(f"{a:>3}{b:>4}{c:>4}{dealt:>8}" + "".join(f"{shown.get(v, '-'):>14}" for v in THREE_VALUES))
    if len(level) < len(level.groupby(["a", "b", "c", "dealt"])) * len(THREE_VALUES):
        lines.append("('-': §8.6 forbids that bet: conceding it would put the bettor on the target)")
    lines.append("(first order, one figure's points against the mean of the other two: P(win)* "
                 + ", ".join(f"v={v}: {1 / (3 * (v + 1)):.3f}" for v in THREE_VALUES) + ")")
    return "\n".join(lines)


def equity3_json(tables: dict[str, pd.DataFrame]) -> dict:
    """The match-equity part of the 3-player thresholds' JSON: W, lo, hi as nested lists [dealer][a][b][c]."""
    equity = tables["match_equity"]
    target = equity.attrs["target"]
    shape = (len(THREE_DEALT), target, target, target)

    def nested(column: str) -> list:
        return np.round(equity[column].to_numpy().reshape(shape), 6).tolist()

    level = tables["game_level"]
    return {"match_equity": {"dealers": list(dict.fromkeys(equity.dealer)), "scores": list(range(target)),
                             "n": equity.n.to_numpy().reshape(shape).tolist(), "W": nested("W"), "lo": nested("lo"),
                             "hi": nested("hi")},
            "game_level": level.to_dict(orient="records"), "asked_scores": level.attrs.get("scores")}
