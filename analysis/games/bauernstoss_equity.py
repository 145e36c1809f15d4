"""Who wins from here? Game-level equity of Bauernstoss (spec §9.1 Q10, with Q7 and Q9 at game level).

W(a, b) = P(our team wins the game | we have a strokes, they have b, the situation of the next hand) by
dynamic programming (`stroke_race`) over per-hand stroke outcomes estimated from self-play hands
(`simcore.games.bauernstoss_jobs.EquityJob`). Hands are independent given the situation, which holds
exactly for uniform deals and score-blind policies.

Situations (spec §6.4, §7): BS/AS: (first hand of a game or not, chalk at us or them, we or they deal
next); in a game's first hand the chalk side is the club jack's team (§6.4: it holds the BS chalk; AS
has none, AS-2). After a hand the deal passes on (§3 D3); the scoring team holds the chalk (§6.2, §6.4);
a throw-in keeps the chalk, and in a first hand deals a new first hand (§4.11, §8 A13). AS: a Big Solo
decides the game (AS-10). DS: no chalk (DS-13); the situation is the dealer and the unsettled 60-60
hands by whose side made them (DS-11, queued, §8 A8); a DS schwarz moves no strokes (§8 A7).

`equity_tables` returns DataFrames with 95% percentile intervals of a parametric bootstrap: the
later-hand and first-hand outcome tables redrawn (multinomial, their own hand counts) and the DP run again.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from analysis.commands import long_frame
from analysis.games.betting import BOOTSTRAP_BLOCK
from analysis.stats import plus_minus, score_grid
from simcore.errors import CardsimError
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_jobs as jobs
from simcore.rng import block_substream

REPLICATES = 200
"""Bootstrap replicates behind the intervals."""
SIDES = ("us", "them")
PENDING = ((0, 0), (1, 0), (0, 1), (2, 0), (1, 1), (0, 2))
"""DS unsettled 60-60 hands (made by us, made by them), at most two: a third in a row is left out of the
bonus (a 60-60 hand is about 1 in 60 with greedy play, so three in a row about 1 in 200,000)."""
SOLO_STAKES = {"small": bs.SOLO_STROKES[bs.SMALL_SOLO], "big": bs.SOLO_STROKES[bs.BIG_SOLO]}
NO_SCORE_CODES = (jobs.ZERO, jobs.TIED, jobs.TIED + 1)
"""Outcome codes where nobody scores: a throw-in, a DS schwarz's credit, a DS 60-60 hand (settled later)."""


def stroke_race(ours, theirs, still, decided, target: int) -> np.ndarray:
    """W[..., a, b, k] = P(we reach ``target`` strokes first | we have a, they have b, the next hand is
    played in situation k), for hands independent given the situation; at most one side scores a hand.

    ours[..., k, j, x]: P(the hand of situation k gives us x strokes and leads to situation j), x >= 1 (x = 0
    unused); theirs: the same for them; still[..., k, j]: nobody scores; decided[..., k, t]: the hand ends
    the game, won by us (t = 0) or them (t = 1). The four sum to 1 per k. Returns (..., target + 1,
    target + 1, K): W = 1 at a = target > b, 0 at b = target > a, NaN at (target, target) (never reached).
    """
    ours, theirs, still, decided = (np.asarray(x, dtype=float) for x in (ours, theirs, still, decided))
    size = still.shape[-1]
    steps = np.arange(1, ours.shape[-1])
    w = np.zeros(still.shape[:-2] + (target + 1, target + 1, size))
    w[..., target, :, :] = 1.0
    w[..., target, target, :] = np.nan
    stay = np.linalg.inv(np.eye(size) - still)  # hands that score nothing keep (a, b)
    ours, theirs = ours[..., 1:], theirs[..., 1:]
    for a in range(target - 1, -1, -1):
        up = np.minimum(a + steps, target)
        for b in range(target - 1, -1, -1):
            right = np.minimum(b + steps, target)
            rhs = (decided[..., 0] + np.einsum("...kjx,...xj->...k", ours, w[..., up, b, :])
                   + np.einsum("...kjx,...xj->...k", theirs, w[..., a, right, :]))
            w[..., a, b, :] = np.einsum("...kj,...j->...k", stay, rhs)
    return w


def situation(variant: str, first: int = 0, chalk: int = 0, dealer: int = 0, pending: tuple = (0, 0)) -> int:
    """Index of a situation in `chain`'s model: first hand 0/1, chalk (first hand: club jack) at us 0 or
    them 1, we 0 or they 1 deal the hand; DS: dealer and the `PENDING` 60-60 hands."""
    if variant == "DS":
        return dealer * len(PENDING) + PENDING.index(pending)
    return 4 * first + 2 * chalk + dealer


def chain(later, first, variant: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The (ours, theirs, still, decided) arrays of `stroke_race` from per-hand outcome distributions.

    later[..., c, o]: P(outcome code o | a later hand with the chalk at team c), first[..., t, o]: P(the club
    jack dealt to team t and code o) of a game's first hand (codes `jobs.outcome_code`, team 0 the
    dealer's; DS: later only, its two rows alike)."""
    later, first = np.asarray(later, dtype=float), np.asarray(first, dtype=float)
    batch = later.shape[:-2]
    ds = variant == "DS"
    size = 2 * len(PENDING) if ds else 8
    span = jobs.OUTCOME_SPAN + 1 + (2 * max(map(sum, PENDING)) if ds else 0)
    ours, theirs = np.zeros(batch + (size, size, span)), np.zeros(batch + (size, size, span))
    still, decided = np.zeros(batch + (size, size)), np.zeros(batch + (size, 2))
    totals = first.sum(-1, keepdims=True)
    club = np.divide(first, totals, out=np.zeros_like(first), where=totals > 0)
    starts = [(0, 0, pending) for pending in PENDING] if ds else [(f, c, (0, 0)) for f in (0, 1) for c in (0, 1)]
    for d in (0, 1):  # we are team d of the dealer's frame
        for f, c, pending in starts:
            k = situation(variant, f, c, d, pending)
            q = (club if f else later)[..., c ^ d, :]
            for code in range(jobs.OUTCOMES):
                p = q[..., code]
                if code == jobs.ZERO and f:  # a thrown-in first hand: a new deal, the club jack anywhere (§8 A13)
                    for side in (0, 1):
                        still[..., k, situation(variant, 1, side, 1 - d)] += p / 2
                elif code == jobs.ZERO:
                    still[..., k, situation(variant, 0, c, 1 - d, pending)] += p
                elif code < jobs.DECIDED:
                    us = int(code < jobs.ZERO) == d
                    own, other = pending if us else pending[::-1]
                    strokes = abs(code - jobs.ZERO) + own + 2 * other  # DS-11: +1 per own tie, +2 per other's
                    (ours if us else theirs)[..., k, situation(variant, 0, 1 - us, 1 - d), strokes] += p
                elif code < jobs.TIED:
                    decided[..., k, int(code - jobs.DECIDED != d)] += p
                else:
                    made = (pending[0] + 1, pending[1]) if code - jobs.TIED == d else (pending[0], pending[1] + 1)
                    still[..., k, situation(variant, 0, 0, 1 - d, made if made in PENDING else pending)] += p
    return ours, theirs, still, decided


def outcome_distributions(later, first) -> tuple[np.ndarray, np.ndarray]:
    """`chain`'s (later, first) distributions from `EquityJob` histograms: later[..., o0, o1] (codes with the
    chalk at team 0, at team 1) -> (..., 2, OUTCOMES) conditional on the chalk; first[..., 2, OUTCOMES]
    -> the joint distribution (zero without first hands)."""
    later, first = np.asarray(later, dtype=float), np.asarray(first, dtype=float)
    marginals = np.stack([later.sum(-1), later.sum(-2)], axis=-2)
    total = first.sum((-1, -2), keepdims=True)
    return (marginals / later.sum((-1, -2))[..., None, None],
            np.divide(first, total, out=np.zeros_like(first), where=total > 0))


def scoring_hands(later: np.ndarray, first: np.ndarray, variant: str) -> tuple[np.ndarray, np.ndarray]:
    """(later, first) (...) int64: self-play hands that score in `EquityJob.unpack` histograms later[..., o0, o1]
    and first[..., 2, o] (a stack of them allowed), the later hands' with the chalk at the team where fewer do, the
    first hands' (0 in DS, which has none)."""
    scoring = np.ones(jobs.OUTCOMES, dtype=bool)
    scoring[list(NO_SCORE_CODES)] = False
    later, first = np.asarray(later), np.asarray(first)
    by_chalk = np.minimum(later.sum(axis=-1)[..., scoring].sum(axis=-1), later.sum(axis=-2)[..., scoring].sum(axis=-1))
    return by_chalk, np.zeros_like(by_chalk) if variant == "DS" else first.sum(axis=-2)[..., scoring].sum(axis=-1)


def games_end(later: np.ndarray, first: np.ndarray, variant: str) -> np.ndarray:
    """(...) bool: the model of histograms later, first (as `scoring_hands`) ends a game: some later hand scores
    with the chalk at either team and (BS, AS) some first hand scores. Else a game never ends and the equity's
    linear system is singular."""
    n_later, n_first = scoring_hands(later, first, variant)
    return (n_later > 0) & ((n_first > 0) | (variant == "DS"))


def _resampled(counts: np.ndarray, replicates: int, rng: np.random.Generator) -> np.ndarray:
    """(replicates + 1, ...) stack: ``counts`` and multinomial redraws of as many hands."""
    n = int(counts.sum())
    draws = rng.multinomial(n, counts.ravel() / n, size=replicates) if n else np.zeros((replicates, counts.size))
    return np.concatenate([counts[None], draws.reshape((replicates,) + counts.shape)])


def _estimate(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(estimate, lo, hi): entry 0 of a stack and the 95% percentile interval of the bootstrap rest (NaN
    replicates, whose games never end, left out)."""
    with warnings.catch_warnings():  # cells NaN in every replicate (never reached) stay NaN
        warnings.simplefilter("ignore", RuntimeWarning)
        lo, hi = np.nanpercentile(values[1:], [2.5, 97.5], axis=0)
    return values[0], lo, hi


def _with_mean(values: np.ndarray) -> np.ndarray:
    """values[..., d, A, B] (we / they deal next) with the mean of the two appended on that axis."""
    return np.concatenate([values, values.mean(axis=-3, keepdims=True)], axis=-3)


DEALS = SIDES + ("either",)
"""Who deals the next hand: us, them, or the mean of the two."""


def later_equity(w: np.ndarray, variant: str) -> np.ndarray:
    """(..., chalk, dealer 2, T+1, T+1) from `stroke_race`'s W: a later hand (DS: no pending 60-60 hands) with
    the chalk at us / them (DS: one chalk row, "none") and we / they dealing."""
    chalks = (0,) if variant == "DS" else (0, 1)
    return np.stack([np.stack([w[..., situation(variant, 0, c, d)] for d in (0, 1)], axis=-3) for c in chalks],
                    axis=-4)


def break_even(later: np.ndarray, variant: str, stake: int) -> np.ndarray:
    """Spec Q7 at game level: the P(solo won) at which a solo worth ``stake`` strokes equals the normal game,
    p W(a + stake, b, chalk us) + (1 - p) W(a, b + stake, chalk them) = W(a, b), the next hand dealt by the
    other side; W(a, b) is the value before an average hand (`later_equity` ``later``: (..., 2, 2, T+1, T+1)).
    Returns (..., chalk 2, deals 3, T+1, T+1), deals "either" from the dealer means of the three W; AS: the
    Big Solo decides the game (AS-10), so p = W(a, b)."""
    target = later.shape[-1] - 1
    shift = np.minimum(np.arange(target + 1) + stake, target)
    flip = later[..., ::-1, :, :]  # the other side deals the next hand
    normal = _with_mean(later)
    if variant == "AS":
        return normal
    won = _with_mean(np.broadcast_to(flip[..., :1, :, shift, :], later.shape))
    lost = _with_mean(np.broadcast_to(flip[..., 1:, :, :, shift], later.shape))
    gap = won - lost
    return np.clip(np.divide(normal - lost, gap, out=np.ones_like(gap), where=gap > 0), 0.0, 1.0)


def equity_tables(counts: dict, variant: str, seed: int, policy: str = "b0",
                  replicates: int = REPLICATES) -> dict[str, pd.DataFrame]:
    """W, first-hand W, chalk value (Q9) and solo break-even (Q7) frames from `EquityJob.unpack` ``counts`` of
    self-play by auction ``policy`` (a name of `jobs.AUCTION_POLICIES`, kept in the attrs).

    Frames (every value with lo, hi: 95% bootstrap percentiles over ``replicates`` redraws of the outcome
    tables, and n: the hands behind it, the later hands, all hands for "first_hand"):
    "equity": a, b, chalk (us / them; DS "none"), deals (who deals next: us, them, either = the mean), W;
    "first_hand": club (the club jack's team, BS chalk), deals, W at 0-0 in a game's first hand;
    "chalk": a, b, deals, value = W(chalk at us) - W(chalk at them);
    "solo": a, b, chalk, deals, solo (small, big), p = `break_even`.
    "first_hand", "chalk" and "solo" are empty in DS (no chalk, no solos). "equity", "chalk" and "solo" flag
    each row "reachable" (`reachable`). CardsimError when no hand scores (`games_end`); bootstrap redraws in which
    none does (possible with a few hands) are left out of the intervals."""
    if not games_end(counts["later"], counts["first"], variant):
        raise CardsimError("part B: no self-play hand scored (all thrown in or DS 60-60), so the model's games never "
                           "end; give more --equity-hands (e.g. 2000)")
    target = bs.TARGETS[variant]
    rng = block_substream(seed, BOOTSTRAP_BLOCK, 1)
    later, first = (_resampled(np.asarray(counts[key]), replicates, rng) for key in ("later", "first"))
    ends = games_end(later, first, variant)
    solved = stroke_race(*chain(*outcome_distributions(later[ends], first[ends]), variant), target)
    w = np.full((len(ends),) + solved.shape[1:], np.nan)
    w[ends] = solved
    n_later, n_first = int(np.asarray(counts["later"]).sum()), int(np.asarray(counts["first"]).sum())
    cells = [(a, b) for a in range(target) for b in range(target)]
    values = later_equity(w, variant)
    empty = pd.DataFrame()
    tables = {"equity": _frame(_with_mean(values), cells, ("none",) if variant == "DS" else SIDES, "W", n_later),
              "first_hand": empty, "chalk": empty, "solo": empty}
    if variant != "DS":
        opening = np.stack([np.stack([w[:, :1, :1, situation(variant, 1, c, d)] for d in (0, 1)], axis=1)
                            for c in (0, 1)], axis=1)
        tables["first_hand"] = (_frame(_with_mean(opening), [(0, 0)], SIDES, "W", n_later + n_first)
                                .drop(columns=["a", "b"]).rename(columns={"chalk": "club"}))
        chalk = _with_mean(values[:, :1] - values[:, 1:])
        tables["chalk"] = _frame(chalk, cells, ("us",), "value", n_later).drop(columns="chalk")
        kinds = [(kind, stake) for kind, stake in SOLO_STAKES.items() if variant == "BS" or kind == "big"]
        tables["solo"] = pd.concat([_frame(_where_ends(ends, break_even(values, variant, stake)), cells, SIDES, "p",
                                           n_later)
                                    .assign(solo=kind) for kind, stake in kinds], ignore_index=True)
    for name in ("equity", "chalk", "solo"):
        if not tables[name].empty:
            tables[name]["reachable"] = reachable(tables[name])
    for table in tables.values():
        table.attrs.update(variant=variant, target=target, policy=policy, hands=n_later + n_first,
                           later_hands=n_later, first_hands=n_first, seed=seed, replicates=replicates)
    return tables


def _where_ends(ends: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``values`` (R + 1, ...) with NaN in the replicates whose games never end (``ends`` (R + 1,) False)."""
    return np.where(ends.reshape((-1,) + (1,) * (values.ndim - 1)), values, np.nan)


def _frame(values: np.ndarray, cells, chalks, name: str, n: int) -> pd.DataFrame:
    """Rows a, b, chalk, deals, ``name``, lo, hi, n of (a, b) in ``cells`` from a (R + 1, chalk, deals 3, A, B)
    stack (`_estimate`)."""
    estimate, lo, hi = _estimate(values)
    return pd.DataFrame([{"a": a, "b": b, "chalk": chalk, "deals": deals, name: estimate[c, d, a, b],
                          "lo": lo[c, d, a, b], "hi": hi[c, d, a, b], "n": n}
                         for c, chalk in enumerate(chalks) for d, deals in enumerate(DEALS) for a, b in cells])


def reachable(frame: pd.DataFrame) -> np.ndarray:
    """Per row (a, b and chalk us / them / none, or no chalk column: the chalk's worth, both settings): can a later
    hand start there? In BS and AS every played hand scores (at least a stroke, or an AS Big Solo ends the game)
    and the scoring team takes the chalk (§6.2, §6.4, AS-2), and a throw-in keeps the state (§4.11): the chalk is
    with a team that has strokes, so 0-0 comes only in a game's first hand. DS (no chalk): every score."""
    ours, theirs = frame["a"].to_numpy() > 0, frame["b"].to_numpy() > 0
    if "chalk" not in frame:
        return ours & theirs
    chalk = frame["chalk"].to_numpy()
    return np.where(chalk == "us", ours, np.where(chalk == "them", theirs, True))


def score_picks(target: int) -> list[tuple[int, int]]:
    """Later-hand scores (a, b), both above 0 (so reachable with the chalk at either team, `reachable`), that the
    text shows for Q7 and Q9: early (2-1, 1-2), even at half way, one side far ahead (target 20: 15-5, 5-15),
    late and the last hand (18-18, 19-19); AS (15): 12-3, 7-7, 13-13, 14-14; DS (9): 7-2, 4-4, 7-7, 8-8."""
    lead, behind = target - max(2, target // 4), max(2, target // 4)
    return sorted({(2, 1), (1, 2), (target // 2, target // 2), (lead, behind), (behind, lead),
                   (target - 2, target - 2), (target - 1, target - 1)})


UNREACHABLE = "·"
"""How the text shows a state no later hand starts from (`reachable`)."""


def _cell(row) -> str:
    """"0.512±0.011": a value and the half-width of its 95% interval; `UNREACHABLE` for a state never met."""
    if not row.get("reachable", True):
        return UNREACHABLE
    value = row["W"] if "W" in row else row["value"] if "value" in row else row["p"]
    return plus_minus(value, row["lo"], row["hi"])


def format_equity(tables: dict[str, pd.DataFrame], options: str = "") -> str:
    """Part B of `cardsim thresholds bauernstoss`: W(a, b) at a grid of scores (the next dealer averaged) for
    the chalk at us and at them (`UNREACHABLE` where no later hand starts), W at 0-0 in a game's first hand, the
    chalk's worth (Q9) and the solo break-even (Q7) at `score_picks`; ``options``: the rule options' note of the
    title."""
    equity = tables["equity"]
    at = equity.attrs
    target, variant = at["target"], at["variant"]
    either = equity[equity.deals == "either"].set_index(["chalk", "a", "b"])
    given = ("the dealer and the unsettled 60-60 hands (DS-11)" if variant == "DS" else
             "the chalk, the dealer and the first hand (§6.4)")
    hands = (f"{at['later_hands']:,} later hands, each scored with the chalk at either team, and "
             f"{at['first_hands']:,} first hands of a game" if variant != "DS" else f"{at['later_hands']:,} hands")
    lines = [f"B. Who wins from here? (spec §9.1 Q10) W(a, b) = P(our team wins the game | we have a strokes, they "
             f"have b), target {target}{options}:",
             f"   dynamic programming over the stroke outcomes of {at['hands']:,} self-play hands (auction "
             f"{at['policy']} at every seat, greedy card play; {hands}; seed {at['seed']}),",
             f"   hands independent given {given}; the next dealer averaged (--json: each);",
             f"   ± the half-width of the 95% interval of a parametric bootstrap ({at['replicates']} redraws of the "
             "outcome tables)"]
    grid = score_grid(target)
    for chalk in either.index.unique("chalk"):
        title = "no chalk (DS-13)" if chalk == "none" else f"chalk at {chalk}"
        lines += ["", f"{title}: rows a = our strokes, columns b = theirs",
                  "a\\b " + "".join(f"{b:>12}" for b in grid)]
        lines += [f"{a:>3} " + "".join(f"{_cell(either.loc[(chalk, a, b)]):>12}" for b in grid) for a in grid]
    if variant == "DS":
        lines.append("\n(DS: W with no unsettled 60-60 hand; a schwarz's game credit moves no strokes and does not "
                     "end the game, §8 A7; no solos, DS-6)")
        return "\n".join(lines)
    lines.append(f"\n({UNREACHABLE}: no later hand starts there: every hand scores and the scoring team takes the "
                 "chalk (§6.2, §6.4), so the chalk is with a team that has strokes; 0-0 is a game's first hand)")
    first = tables["first_hand"].set_index(["club", "deals"])
    chalk_word = "chalk = the club jack's team, §6.4" if variant == "BS" else "no chalk yet: 61 wins, AS-2"
    lines += ["", f"First hand of a game at 0-0 (solos banned, §4.7; {chalk_word}): W = "
              f"{_cell(first.loc[('us', 'either')])} with the club jack at us, "
              f"{_cell(first.loc[('them', 'either')])} at them"]
    worth = tables["chalk"]
    worth = worth[worth.deals == "either"].set_index(["a", "b"])
    lines += ["", "Q9 the chalk at game level, W(chalk at us) - W(chalk at them):",
              "   " + "   ".join(f"{a}-{b} {_cell(worth.loc[(a, b)])}" for a, b in score_picks(target))]
    solo = tables["solo"]
    solo = solo[solo.deals == "either"].set_index(["solo", "chalk", "a", "b"])
    kinds = list(solo.index.unique("solo"))
    names = {"small": f"small solo ±{SOLO_STAKES['small']}",
             "big": "big solo (game)" if variant == "AS" else f"big solo ±{SOLO_STAKES['big']}"}
    rule = ("p* = W(a, b): an AS Big Solo decides the game (AS-10)" if variant == "AS" else
            "p* W(after the win) + (1 - p*) W(after the loss) = W(a, b)")
    lines += ["", f"Q7 solo break-even P(solo won) p*(a, b) at game level, {rule}; W(a, b): the game's value before "
              "an average hand,",
              "   so a hand strong enough for a solo, worth more in a normal game, needs more:",
              f"{'a':>3}{'b':>4}  {'chalk':<7}" + "".join(f"{names[k]:>16}" for k in kinds)]
    for a, b in score_picks(target):
        for chalk in SIDES:
            lines.append(f"{a:>3}{b:>4}  {chalk:<7}" + "".join(f"{_cell(solo.loc[(k, chalk, a, b)]):>16}"
                                                              for k in kinds))
    return "\n".join(lines)


LONG_PARTS = (("equity", "W", ["a", "b", "chalk"], "W"), ("first_hand", "first_hand", ["club"], "W"),
              ("chalk", "chalk", ["a", "b"], "value"), ("solo", "solo", ["solo", "a", "b", "chalk"], "p"))
"""`equity_long`'s parts: table, name in the estimate, its key columns and value column."""


def equity_long(tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Part B as `cardsim sweep` stores it (`analysis.commands.LONG_COLUMNS`), the next dealer averaged, at the
    `score_picks`: ``equity.W.<a>.<b>.<chalk>``, ``equity.first_hand.<club>`` (0-0), ``equity.chalk.<a>.<b>`` and
    ``equity.solo.<small|big>.<a>.<b>.<chalk>`` (DS: W only)."""
    picks = set(score_picks(tables["equity"].attrs["target"]))
    parts = []
    for table, name, keys, value in LONG_PARTS:
        frame = tables[table]
        if frame.empty:
            continue
        frame = frame[frame.deals == "either"]
        if "a" in frame:
            frame = frame[[(a, b) in picks for a, b in zip(frame.a, frame.b)]]
        parts.append(long_frame(frame, keys, f"equity.{name}", value))
    return pd.concat(parts, ignore_index=True)


def equity_json(tables: dict[str, pd.DataFrame]) -> dict:
    """{"target", "policy", "hands", "later_hands", "first_hands", "seed", "replicates", "options" (the rule options
    of the self-play), "interval", and the records of each frame: "W", "first_hand", "chalk", "solo" (with their
    "reachable" flags)}."""
    at = tables["equity"].attrs
    return {**{key: at[key] for key in ("target", "policy", "hands", "later_hands", "first_hands", "seed",
                                        "replicates")}, "options": dict(at.get("rules", ())),
            "interval": "95% percentile, parametric bootstrap of the per-hand outcome tables",
            "W": tables["equity"].to_dict(orient="records"),
            **{name: tables[name].to_dict(orient="records") for name in ("first_hand", "chalk", "solo")}}
