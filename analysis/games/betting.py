"""Betting analysis for the Gilten games: policy matches, round-robin tournaments and bet thresholds.

Python API::

    from analysis.games import betting
    frame = betting.match("giltspiel", "aggressive", "cautious", games=2000, seed=7)   # one row per side
    table = betting.tournament("giltspiel", ["formula", "cautious", "aggressive", "never"], games=1000, seed=1)
    tables = betting.thresholds("giltspiel", target=15, games=2000, seed=1)           # dict of DataFrames

A match plays whole games to the target between two betting policies (`simcore.betting.PRESETS` or a
JSON file) with duplicate deals: games 2k and 2k+1 share their deals with the policies' seats swapped.
Game-win rates carry 95% Wilson intervals; points per deal a 95% interval of the ratio estimator with
games as clusters (delta method).
"""

from __future__ import annotations

import argparse
import importlib
import math

import numpy as np
import pandas as pd

from analysis.commands import Command, emit, positive_int, register_command, run_options
from analysis.stats import Estimate
from simcore import runner
from simcore.betting import (AUS, MAX_DEAL_POINTS, G, H, bet_threshold, bluff_break_even, game_hold_threshold, hold_threshold,
                             load_policy, match_equity)
from simcore.errors import CardsimError
from simcore.rng import normalize_seed

ENGINES = {"giltspiel": "simcore.games.giltspiel_betting", "perlaggen": "simcore.games.perlaggen_betting"}
"""Game -> betting module with rules_from_options, match_job, figure_table, class_shares, class_name."""
Z95 = 1.959963984540054
VALUES = range(1, 7)
FIGURE_KEYS = {G: "gleich", H: "hanger"}
FORMULA_SECTION = {"giltspiel": "giltspiel.md §10.6", "perlaggen": "perlaggen.md §11.5"}


def engine(game: str):
    if game not in ENGINES:
        raise CardsimError(f"betting is implemented for {', '.join(ENGINES)}, not {game!r}")
    return importlib.import_module(ENGINES[game])


def _check_games(games: int) -> None:
    if games < 2 or games % 2:
        raise CardsimError(f"--games must be an even number of at least 2 (games come in duplicate pairs), got {games}")


def _ratio_interval(n: int, s_p: int, s_d: int, s_pp: int, s_dd: int, s_pd: int) -> tuple[float, float, float]:
    """Points per deal Σ P / Σ D over n games with its 95% interval (games are clusters)."""
    r = s_p / s_d
    spread = max(s_pp - 2 * r * s_pd + r * r * s_dd, 0.0) / max(n - 1, 1)
    se = math.sqrt(spread / n) / (s_d / n)
    return r, r - Z95 * se, r + Z95 * se


def _side(wins: int, games: int, sums) -> dict:
    est = Estimate(int(wins), int(games))
    mean, lo, hi = _ratio_interval(games, *sums)
    return {"win_p": est.p, "win_lo": est.lo, "win_hi": est.hi, "wins": int(wins), "games": int(games),
            "ppd_mean": mean, "ppd_lo": lo, "ppd_hi": hi}


def match(game: str, a: str, b: str, games: int = 2000, seed=None, target: int | None = None,
          permissive: bool = False, **run_kw) -> pd.DataFrame:
    """Whole games between policies ``a`` and ``b``; rows "a" and "b" with the game-win rate (win_p, lo,
    hi), points per deal (ppd_mean, lo, hi), wins and games. attrs: game, seed, target, deals and the
    per-deal points histogram ``deal_points`` (a, b)."""
    _check_games(games)
    mod = engine(game)
    rules = mod.rules_from_options(target=target, strict_examples=not permissive)
    pa, pb = load_policy(a), load_policy(b)
    seed = normalize_seed(seed)
    counts = runner.run(mod.match_job(pa, pb, rules), games, seed, **run_kw)
    n, a_wins, deals, s_pa, s_pb, s_paa, s_pbb, s_dd, s_pad, s_pbd = (int(c) for c in counts[:10])
    rows = [dict(side="a", policy=pa.name, **_side(a_wins, n, (s_pa, deals, s_paa, s_dd, s_pad))),
            dict(side="b", policy=pb.name, **_side(n - a_wins, n, (s_pb, deals, s_pbb, s_dd, s_pbd)))]
    frame = pd.DataFrame(rows)
    size = MAX_DEAL_POINTS + 1
    frame.attrs.update(game=game, seed=seed, target=rules.target, games=n, deals=deals,
                       deal_points=counts[10:].reshape(size, size).tolist())
    return frame


def match_json(frame: pd.DataFrame) -> dict:
    """The command's JSON: {"games", "a": {"win_rate": {p, lo, hi}, "points_per_deal": {mean, lo, hi}}, "b"}."""
    out = {"games": int(frame.attrs["games"])}
    for _, row in frame.iterrows():
        out[row["side"]] = {"win_rate": {"p": row["win_p"], "lo": row["win_lo"], "hi": row["win_hi"]},
                            "points_per_deal": {"mean": row["ppd_mean"], "lo": row["ppd_lo"], "hi": row["ppd_hi"]}}
    return out


def match_text(frame: pd.DataFrame) -> str:
    at = frame.attrs
    lines = [f"{at['game'].capitalize()} match: {frame.policy[0]} (a) vs {frame.policy[1]} (b), target {at['target']}",
             f"{at['games']:,} games ({at['games'] // 2:,} duplicate pairs: every deal sequence played with the seats "
             f"swapped), {at['deals']:,} deals, seed {at['seed']}; 95% intervals", "",
             f"{'side':<5}{'policy':<14}{'game-win rate':>28}{'points per deal':>30}"]
    for _, r in frame.iterrows():
        lines.append(f"{r['side']:<5}{r['policy']:<14}{r['win_p']:>10.4f} [{r['win_lo']:.4f},{r['win_hi']:.4f}]"
                     f"{r['ppd_mean']:>14.4f} [{r['ppd_lo']:.4f},{r['ppd_hi']:.4f}]")
    return "\n".join(lines)


def tournament(game: str, policies: list[str], games: int = 1000, seed=None, target: int | None = None,
               **run_kw) -> pd.DataFrame:
    """Round robin: every pair of policies plays a `match` of ``games`` games (the same seed, so the
    same deal sequences). Rows: policy, opponent, win_p, win_lo, win_hi, ppd_mean, ppd_lo, ppd_hi, games."""
    names = [p.strip() for p in policies if p.strip()]
    if len(names) < 2:
        raise CardsimError(f"--policies needs at least two policies separated by commas, got '{','.join(policies)}'")
    if len(set(n.lower() for n in names)) != len(names):
        raise CardsimError(f"--policies names a policy twice: {', '.join(names)}")
    seed = normalize_seed(seed)
    rows = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            frame = match(game, a, b, games, seed, target, **run_kw)
            for side, other_side in (("a", "b"), ("b", "a")):
                row = frame.set_index("side").loc[side]
                rows.append({"policy": row["policy"], "opponent": frame.set_index("side").loc[other_side, "policy"],
                             **{k: row[k] for k in ("win_p", "win_lo", "win_hi", "ppd_mean", "ppd_lo", "ppd_hi",
                                                     "wins", "games")}})
            target = frame.attrs["target"]
    table = pd.DataFrame(rows)
    table.attrs.update(game=game, seed=seed, target=target, games=games)
    return table


def tournament_text(table: pd.DataFrame) -> str:
    at = table.attrs
    totals = table.groupby("policy", sort=False)[["wins", "games"]].sum()
    lines = [f"{at['game'].capitalize()} round robin, target {at['target']}, {at['games']:,} games per pairing "
             f"(duplicate deals), seed {at['seed']}; 95% intervals", "",
             f"{'policy':<14}{'opponent':<14}{'game-win rate':>28}{'points per deal':>30}"]
    for _, r in table.iterrows():
        lines.append(f"{r['policy']:<14}{r['opponent']:<14}{r['win_p']:>10.4f} [{r['win_lo']:.4f},{r['win_hi']:.4f}]"
                     f"{r['ppd_mean']:>14.4f} [{r['ppd_lo']:.4f},{r['ppd_hi']:.4f}]")
    lines += ["", "overall game-win rate (all opponents):"]
    for policy, r in totals.sort_values("wins", ascending=False).iterrows():
        est = Estimate(int(r["wins"]), int(r["games"]))
        lines.append(f"  {policy:<14}{est.p:.4f} [{est.lo:.4f},{est.hi:.4f}]  ({int(r['games']):,} games)")
    return "\n".join(lines)


# --- thresholds -------------------------------------------------------------------------------------
def first_order(game: str) -> pd.DataFrame:
    """Per figure (G, H) and value v = 1..6: the §10.6 hold threshold on d and on P(win) without
    stands and with the figure's mean stand rate, the bet threshold, the bluff break-even
    concession rate at d = -1, and the weakest team class (best code of the two hands) that holds."""
    mod = engine(game)
    table = mod.figure_table()
    class_share = mod.class_shares()
    rows = []
    for figure, key in FIGURE_KEYS.items():
        probs = table[figure]
        share = class_share[figure]
        stand = float((share * probs[:, 1]).sum())
        d_class = probs[:, 0] - probs[:, 2]
        for v in VALUES:
            d_hold, p_plain = hold_threshold(v)
            _, p_stand = hold_threshold(v, stand)
            holding = [code for code in range(len(d_class) - 1) if share[code + 1] > 0 and d_class[code + 1] > d_hold]
            rows.append({"figure": key, "value": v, "hold_d": d_hold, "hold_p": p_plain, "hold_p_stands": p_stand,
                         "stand_rate": stand, "bet_d": bet_threshold()[0], "bet_p_stands": bet_threshold(stand)[1],
                         "bluff_c": bluff_break_even(v, -1.0),
                         "weakest_hold": mod.class_name(figure, min(holding)) if holding else "none"})
    return pd.DataFrame(rows)


def thresholds(game: str, target: int | None = None, games: int = 2000, seed=None, policy: str = "formula",
               **run_kw) -> dict[str, pd.DataFrame]:
    """First-order thresholds (`first_order`), the match-equity table W(a, b) from self-play of
    ``policy`` (``games`` games; per-deal points distribution, then `simcore.betting.match_equity`)
    and game-level hold thresholds P(win)* for v = 1..6 at every score (a, b)."""
    frame = match(game, policy, policy, games, seed, target, **run_kw)
    target = frame.attrs["target"]
    dist = np.array(frame.attrs["deal_points"], dtype=float)
    dist = dist + dist.T  # both seats of self-play: symmetric
    w = match_equity(dist, target)
    equity = pd.DataFrame([{"a": a, "b": b, "W": w[a, b]} for a in range(target) for b in range(target)])
    game_level = pd.DataFrame([{"a": a, "b": b, "value": v, "hold_p": game_hold_threshold(w, a, b, v)}
                               for a in range(target) for b in range(target) for v in VALUES])
    meta = dict(game=game, target=target, seed=frame.attrs["seed"], games=frame.attrs["games"],
                deals=frame.attrs["deals"], policy=policy)
    first = first_order(game)
    for table in (first, equity, game_level):
        table.attrs.update(meta)
    return {"first_order": first, "match_equity": equity, "game_level": game_level}


def thresholds_text(tables: dict[str, pd.DataFrame]) -> str:
    first, equity, level = tables["first_order"], tables["match_equity"], tables["game_level"]
    at = first.attrs
    lines = [f"{at['game'].capitalize()} bet thresholds, target {at['target']}",
             "", f"A. First order ({FORMULA_SECTION[at['game']]}, points EV of one figure): facing a bet from v to v+1, hold iff",
             "   d = P(win) - P(lose) > -v/(v+1); value-bet iff d > 0; bluff break-even concession rate at d = -1.",
             "   hold P(win)* with stands uses the figure's mean stand rate; 'weakest hold' is the weakest best",
             "   class of the team's two hands whose d clears the hold threshold (full partner information).", "",
             f"{'figure':<8}{'v':>3}{'hold d >':>10}{'hold P(win) >':>15}{'with stands':>13}{'bet P(win) >':>14}"
             f"{'bluff c*':>10}  weakest hold"]
    for _, r in first.iterrows():
        lines.append(f"{r['figure']:<8}{r['value']:>3}{r['hold_d']:>10.3f}{r['hold_p']:>15.3f}{r['hold_p_stands']:>13.3f}"
                     f"{r['bet_p_stands']:>14.3f}{r['bluff_c']:>10.3f}  {r['weakest_hold']}")
    target = at["target"]
    w = equity.pivot(index="a", columns="b", values="W")
    lines += ["", f"B. Match equity W(a, b) = P(team on a beats the team on b), target {target}: dynamic programming "
              f"over the per-deal points of self-play ({at['policy']}, {at['games']:,} games, {at['deals']:,} deals, "
              f"seed {at['seed']})", "a\\b " + "".join(f"{b:>6}" for b in w.columns)]
    for a, row in w.iterrows():
        lines.append(f"{a:>3} " + "".join(f"{x:>6.3f}" for x in row))
    lines += ["", "C. Game-level hold threshold P(win the figure)* facing a bet from v to v+1 (no stands, rest of the "
              "deal ignored), at some scores:", f"{'a':>3}{'b':>4}" + "".join(f"{'v=' + str(v):>8}" for v in VALUES)]
    picks = sorted({(0, 0), (target // 2, target // 2), (target - 3, target - 3), (target - 2, 0), (0, target - 2),
                    (target - 2, target - 2), (target - 1, target - 3)})
    for a, b in picks:
        vals = level[(level.a == a) & (level.b == b)].sort_values("value")["hold_p"]
        lines.append(f"{a:>3}{b:>4}" + "".join(f"{x:>8.3f}" for x in vals))
    lines.append("(first-order P(win)* for comparison: " + ", ".join(f"v={v}: {hold_threshold(v)[1]:.3f}" for v in VALUES)
                 + f"; a held Spiel aus (v = {AUS - 1} -> aus) is judged only by W)")
    return "\n".join(lines)


def thresholds_json(tables: dict[str, pd.DataFrame]) -> dict:
    at = tables["first_order"].attrs
    return {**{k: at[k] for k in ("game", "target", "seed", "games", "deals", "policy")},
            **{name: table.to_dict(orient="records") for name, table in tables.items()}}


# --- commands -----------------------------------------------------------------------------------------
def _target(text: str) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"the target must be a whole number of points, got '{text}'") from None
    if value < 2:
        raise argparse.ArgumentTypeError(f"the target must be at least 2 points, got '{text}'")
    return value


def _common(parser: argparse.ArgumentParser, default_games: int) -> None:
    parser.add_argument("--games", type=positive_int, default=default_games,
                        help=f"games per match, an even number (default {default_games:,})")
    parser.add_argument("--target", type=_target, default=None, help="points that win a game (default: the game's option)")
    parser.add_argument("--seed", default=None, help="random seed (default: fresh, printed with the result)")
    parser.add_argument("--jobs", type=positive_int, default=1, help="worker processes (default 1); results do not depend on it")
    parser.add_argument("--chunk-size", type=positive_int, default=None,
                        help="games per work unit (default 128); results do not depend on it")
    parser.add_argument("--checkpoint", default=None, help="folder for finished chunks so an interrupted run resumes")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _match_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--a", required=True, help="policy a: formula, cautious, aggressive, never or a .json file")
    parser.add_argument("--b", required=True, help="policy b (same choices)")
    parser.add_argument("--permissive", action="store_true",
                        help="allow G/H bets and holds without an example (A-19; penalised at verification)")
    _common(parser, 2000)


def _tournament_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--policies", required=True, help="comma-separated policies, e.g. formula,cautious,aggressive,never")
    parser.add_argument("--csv", default=None, help="also write the table to this CSV file")
    _common(parser, 1000)


def _thresholds_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--policy", default="formula", help="the self-play policy behind the match-equity table")
    _common(parser, 2000)


def _run_match(game: str):
    def run(args: argparse.Namespace) -> int:
        frame = match(game, args.a, args.b, args.games, args.seed, args.target, args.permissive, **run_options(args))
        return emit(args, frame, match_json, match_text)
    return run


def _run_tournament(game: str):
    def run(args: argparse.Namespace) -> int:
        table = tournament(game, args.policies.split(","), args.games, args.seed, args.target, **run_options(args))
        if args.csv:
            table.to_csv(args.csv, index=False)
        return emit(args, table, lambda t: {**t.attrs, "table": t.to_dict(orient="records")}, tournament_text)
    return run


def _run_thresholds(game: str):
    def run(args: argparse.Namespace) -> int:
        tables = thresholds(game, args.target, args.games, args.seed, args.policy, **run_options(args))
        return emit(args, tables, thresholds_json, thresholds_text)
    return run


for _game in ENGINES:
    register_command("match", _game, Command(
        "play whole games between two betting policies (duplicate deals) and compare game-win rates",
        _match_arguments, _run_match(_game)))
    register_command("tournament", _game, Command(
        "round robin of betting policies: game-win rates and points per deal of every pairing",
        _tournament_arguments, _run_tournament(_game)))
    register_command("thresholds", _game, Command(
        "hold/concede and bet thresholds per figure and value, first order and by match equity",
        _thresholds_arguments, _run_thresholds(_game)))
