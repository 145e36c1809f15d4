"""The phase value of Dreeg (spec §6.2, §6.4): V(strokes, seat, dealer) = P(the player loses the phase).

Estimand: the probability that a player loses the phase from a given stroke vector with a given player to deal
the next hand, when every hand is played by the same score-blind policy (the built-in ones do not read the
strokes). Hands are then independent given the number of active players, so the phase is a Markov chain over
(strokes, dealer) whose one-hand step is the erase vector's distribution by position from forehand
(`simcore.games.dreeg_phase.PhaseHandsJob` estimates one per number of active players). `phase_values` solves it
exactly by dynamic programming: strokes only fall and every hand erases at least one stroke (§2.2, §3.0.6,
§3.0.7, §3.4.4), so the states are ordered by their total strokes.

Rules of the chain (§2.1-§2.3, §3.4.6): erasing is clamped at 0; ELIMINATION (phases 1-3, 6-8): a player at 0
leaves, and the last one holding strokes loses; FIRST-OUT-LOSES (Kamerun): the 3s are erased first, then the
2s, then the 1s, and every player who reaches 0 in the first group that brings one to 0 loses (several losers
are possible, so the values can sum to more than 1). The deal passes to the next player on the left who took part
in the hand, i.e. that hand's forehand, even one who has just dropped out (the non-playing dealer); a state whose
dealer is out is the same as the one where the active player on his right deals, so queries name active dealers.

States are stored canonically, relative to the dealer: t[j] = strokes of the player j seats to the dealer's left
(t[0]: the dealer), each 0 .. ``most``, at flat index sum t[j] (most + 1)**j. ``most`` is one above the phase's
start, so that the value of one more stroke exists at the start too (a hypothetical state, whose value the same
chain defines).

Intervals: a parametric bootstrap, as `analysis.games.bauernstoss_equity` does for Bauernstoss: each active
count's hand table is redrawn (multinomial, its own number of hands), the DP run again, 95% percentile intervals.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.commands import digits_value, long_frame, option_items
from analysis.games.betting import BOOTSTRAP_BLOCK
from analysis.stats import plus_minus
from simcore import checks, runner
from simcore.config import njit
from simcore.errors import CardsimError
from simcore.games import dreeg_rules as r
from simcore.games.dreeg import rule_options
from simcore.games.dreeg_phase import ERASE_BASE, PhaseHandsJob, erase_vector, first_out
from simcore.games.dreeg_policies import POLICIES
from simcore.rng import block_substream, normalize_seed

REPLICATES = 200
"""Bootstrap replicates behind the intervals."""
RULES = {False: "ELIMINATION: a player at 0 leaves, the last one holding strokes loses",
         True: "FIRST-OUT-LOSES: every player who reaches 0 in the hand that first brings one to 0 loses (§3.4.6)"}


def stroke_states(n: int, most: int) -> np.ndarray:
    """(S, n) int64: every canonical stroke vector t (0 .. most each) in flat-index order, S = (most + 1)**n."""
    return np.indices((most + 1,) * n).reshape(n, -1).T[:, ::-1].copy()


def state_index(t, most: int) -> int:
    """Flat index of the canonical stroke vector ``t`` (t[0]: the dealer's strokes)."""
    return int(sum(int(x) * (most + 1) ** j for j, x in enumerate(t)))


def _kamerun(before: np.ndarray, erase: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """§3.4.6 on arrays (..., n): (strokes after, losers bool): the 3s, the 2s, then the 1s, stopping at the first
    group that brings a player to 0 (`dreeg_rules.apply_kamerun`)."""
    after, lost = before.copy(), np.zeros(before.shape, dtype=bool)
    done = np.zeros(before.shape[:-1], dtype=bool)
    for k in (3, 2, 1):
        hit = (erase == k) & ~done[..., None]
        after = np.where(hit, np.maximum(after - k, 0), after)
        lost |= hit & (after == 0)
        done |= lost.any(-1)
    return after, lost


def hand_step(before: np.ndarray, erase: np.ndarray, kamerun: bool) -> tuple[np.ndarray, np.ndarray]:
    """One hand on arrays (..., n) of strokes and erase counts by seat: (strokes after, losers bool). Erasing is
    clamped at 0; Kamerun: `_kamerun`; ELIMINATION: a player at 0 leaves, the last one holding strokes loses."""
    if kamerun:
        return _kamerun(before, erase)
    after = np.maximum(before - erase, 0)
    left = after > 0
    return after, left & (left.sum(-1, keepdims=True) <= 1)


def transitions(n: int, most: int, codes: dict[int, np.ndarray], kamerun: bool) -> dict[str, np.ndarray]:
    """The chain's one-hand steps for the erase codes ``codes`` (active count m -> 1-d array of codes of
    `simcore.games.dreeg_phase.erase_code`, by position from forehand) of ``n`` seats.

    Returns "order" (the states to solve, total strokes ascending: 2+ players holding strokes, Kamerun all n),
    "group" (S,): index of the state's active count in ``codes``' order (-1: not solved), "shift" (S,): the next
    dealer's offset from the dealer (the forehand's), "succ" (S, K): the canonical successor per code (-1: the phase
    ends), "mask" (S, K): the losers' offset bits when it ends; K = the longest code list (padding: succ -1, mask 0).
    """
    t = stroke_states(n, most)
    alive = t > 0
    count = alive.sum(1)
    solved = count == n if kamerun else count >= 2
    width = max(len(c) for c in codes.values())
    succ = np.full((len(t), width), -1, dtype=np.int64)
    mask = np.zeros((len(t), width), dtype=np.int64)
    group = np.full(len(t), -1, dtype=np.int64)
    shift = np.zeros(len(t), dtype=np.int64)
    offsets = np.arange(n)
    for g, (m, code_list) in enumerate(codes.items()):
        rows = np.flatnonzero(solved & (count == m))
        group[rows] = g
        if not rows.size or not len(code_list):
            continue
        # positions from forehand: the active players to the dealer's left in order, the dealer last (§2.3)
        key = np.where(alive[rows], np.where(offsets == 0, n, offsets), 2 * n)
        pos = np.argsort(key, axis=1, kind="stable")[:, :m]
        shift[rows] = pos[:, 0]
        erase_pos = np.array([erase_vector(int(c), m) for c in code_list])
        erase = np.zeros((rows.size, len(code_list), n), dtype=np.int64)
        erase[np.arange(rows.size)[:, None, None], np.arange(len(code_list))[None, :, None], pos[:, None, :]] = \
            erase_pos[None]
        after, lost = hand_step(np.broadcast_to(t[rows][:, None, :], erase.shape), erase, kamerun)
        ends = lost.any(-1)
        roll = (offsets[None, :] + shift[rows][:, None]) % n  # the next dealer's frame: u[i] = after[i + shift]
        moved = np.take_along_axis(after, np.broadcast_to(roll[:, None, :], after.shape), axis=2)
        flat = (moved * (most + 1) ** offsets).sum(-1)
        succ[rows, :len(code_list)] = np.where(ends, -1, flat)
        mask[rows, :len(code_list)] = (lost * (1 << offsets)).sum(-1)
    order = np.flatnonzero(solved)
    order = order[np.argsort(t[order].sum(1), kind="stable")]
    return {"order": order, "group": group, "shift": shift, "succ": succ, "mask": mask}


@njit
def _sweep(order, group, shift, succ, mask, probs, out):
    """out[s, r, j] = P(the player j seats left of the dealer loses | state s) under replicate r's probs[g, r, c]
    (the code list of the state's group g), states in ``order`` (successors first)."""
    n, reps = out.shape[2], out.shape[1]
    for s in order:
        g, k = group[s], shift[s]
        for c in range(succ.shape[1]):
            nxt, bits = succ[s, c], mask[s, c]
            for rep in range(reps):
                p = probs[g, rep, c]
                if p == 0.0:
                    continue
                if nxt < 0:
                    for j in range(n):
                        if (bits >> j) & 1:
                            out[s, rep, j] += p
                else:
                    for j in range(n):
                        out[s, rep, j] += p * out[nxt, rep, (j - k + n) % n]


def check_distribution(m: int, probs: np.ndarray, kamerun: bool) -> None:
    """ValueError unless every hand of ``m`` active players with positive probability (``probs[..., code]``) erases
    at least one stroke (§3.0.6, §3.0.7, §3.4.4) and, outside Kamerun, leaves one player erasing 0 (§2.2)."""
    used = np.flatnonzero(np.asarray(probs).reshape(-1, ERASE_BASE ** m).max(0) > 0)
    for code in used:
        erase = erase_vector(int(code), m)
        if not any(erase) or (not kamerun and all(erase)):
            raise ValueError(f"erase vector {erase} of {m} players cannot happen: every hand erases a stroke"
                             + ("" if kamerun else " and leaves one player erasing 0 (§2.2)"))


def phase_values(dists: dict[int, np.ndarray], n: int, most: int, kamerun: bool) -> np.ndarray:
    """P(lose the phase) of every canonical state by exact dynamic programming.

    dists: active count m -> P(erase code) of a hand of m players, shape (..., 4**m) with one leading batch shape
    for all (e.g. bootstrap replicates); n: seats (3 or 4); most: the highest strokes of a state; kamerun:
    FIRST-OUT-LOSES, else ELIMINATION. Returns (..., S, n) float64: [..., index, j] = P(the player j seats left
    of the dealer loses | the canonical state at ``index``, `state_index`); 0 for states not solved (fewer than 2
    holding strokes; in Kamerun, anyone at 0)."""
    arrays = {m: np.asarray(p, dtype=float) for m, p in dists.items()}
    batch = next(iter(arrays.values())).shape[:-1]
    for m, p in arrays.items():
        check_distribution(m, p, kamerun)
    flat = {m: p.reshape(-1, ERASE_BASE ** m) for m, p in arrays.items()}
    codes = {m: np.flatnonzero(p.max(0) > 0) for m, p in flat.items()}
    steps = transitions(n, most, codes, kamerun)
    reps = int(np.prod(batch, dtype=np.int64))
    probs = np.zeros((len(flat), reps, steps["succ"].shape[1]))
    for g, (m, p) in enumerate(flat.items()):
        probs[g, :, :len(codes[m])] = p[:, codes[m]]
    out = np.zeros((len(stroke_states(n, most)), reps, n))
    _sweep(steps["order"], steps["group"], steps["shift"], steps["succ"], steps["mask"], probs, out)
    return np.moveaxis(out, 1, 0).reshape(batch + out.shape[::2])


def seat_values(values: np.ndarray, strokes, dealer: int, most: int) -> np.ndarray:
    """(..., k) P(seat i loses) of the state ``strokes`` (by seat, clockwise, k <= n players all holding strokes;
    the n - k others are out) with seat ``dealer`` to deal, from `phase_values` ``values`` (..., S, n)."""
    n, k = values.shape[-1], len(strokes)
    seats = list(strokes) + [0] * (n - k)
    t = [seats[(dealer + j) % n] for j in range(n)]
    row = values[..., state_index(t, most), :]
    return row[..., [(seat - dealer) % n for seat in range(k)]]


def stroke_worth(values: np.ndarray, strokes, dealer: int, most: int) -> np.ndarray:
    """(..., k) the value of one stroke of each seat i: V(strokes) - V(strokes with one more stroke of i), its own
    P(lose). ELIMINATION: at most 0 (a stroke is a burden; minus it: what the last stroke erased, from s + 1 down to
    s, was worth); Kamerun: at least 0 (a stroke is a life)."""
    here = seat_values(values, strokes, dealer, most)
    more = [seat_values(values, [s + (i == seat) for i, s in enumerate(strokes)], dealer, most)[..., seat]
            for seat in range(len(strokes))]
    return here - np.stack(more, axis=-1)


def decider_table(values: np.ndarray, strokes, dealer: int, most: int, kamerun: bool) -> np.ndarray:
    """(..., k, 4**k) P(the player at position p from forehand loses the phase | the next hand's erase code c, by
    position, `simcore.games.dreeg_phase.erase_code`), from the state ``strokes`` (k players by seat clockwise, all
    holding strokes) with seat ``dealer`` dealing: the hand is applied (`hand_step`), an ended phase is 1 for its
    losers and 0 for the others, else V (`phase_values` ``values``, (..., S, n)) of the state after it, the hand's
    forehand dealing next (§2.3)."""
    n, k = values.shape[-1], len(strokes)
    seat = (dealer + 1 + np.arange(k)) % k  # seat of each position from forehand
    erase = np.zeros((ERASE_BASE ** k, n), dtype=np.int64)
    erase[:, seat] = [erase_vector(code, k) for code in range(ERASE_BASE ** k)]
    before = np.array(list(strokes) + [0] * (n - k), dtype=np.int64)
    after, lost = hand_step(np.broadcast_to(before, erase.shape), erase, kamerun)
    frame = (seat[0] + np.arange(n)) % n  # the canonical frame of the next dealer, the hand's forehand
    index = (after[:, frame] * (most + 1) ** np.arange(n)).sum(-1)
    later = values[..., index, :][..., (seat - seat[0]) % n]
    return np.swapaxes(np.where(lost.any(-1, keepdims=True), lost[:, seat], later), -1, -2)


def resampled(counts: np.ndarray, replicates: int, rng: np.random.Generator) -> np.ndarray:
    """(replicates + 1, C) probabilities: the hand table ``counts`` (C,) normalized, then multinomial redraws of as
    many hands."""
    n = int(counts.sum())
    draws = rng.multinomial(n, counts / n, size=replicates)
    return np.concatenate([counts[None], draws]) / n


def _estimate(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(estimate, lo, hi): entry 0 of a stack and the 95% percentile interval of the bootstrap rest."""
    lo, hi = np.percentile(values[1:], [2.5, 97.5], axis=0)
    return values[0], lo, hi


def seat_labels(k: int) -> list[str]:
    """Positions of k players from forehand: forehand, second, (third,) dealer."""
    return ["forehand", "second", "third"][:k - 1] + ["dealer"]


def sample_vectors(k: int, top: int) -> list[tuple[int, ...]]:
    """Stroke vectors of k active players by position from forehand (the dealer last) that the text shows: all
    level (at the start, 4, 2, 1), one player at 1 (forehand, the dealer) against the start, and a spread from
    the start down to 1 either way."""
    spread = tuple(int(x) for x in np.rint(np.linspace(top, 1, k)))
    level = [(v,) * k for v in (top, 4, 2, 1)]
    return level + [(1,) + (top,) * (k - 1), (top,) * (k - 1) + (1,), spread, spread[::-1]]


def _vector_text(v) -> str:
    return "-".join(map(str, v))


def value_tables(hands: dict[int, np.ndarray], phase: int, players: int, subgame: str, top: int, seed: int,
                 replicates: int = REPLICATES, query: dict | None = None) -> dict[str, pd.DataFrame]:
    """The phase value frames from ``hands`` (active count -> erase-code histogram, `PhaseHandsJob.unpack`).

    Every value with lo, hi (95% bootstrap percentiles, ``replicates`` redraws) and n (hands per active count):
    "start": seat (relative to the first dealer), V at ``top`` strokes each; "duel" (ELIMINATION): mine, his,
    deal (forehand: he deals; dealer: I deal), V = P(I lose); "vectors": active, vector (by position from
    forehand), position, strokes, V, stroke (`stroke_worth`) with stroke_lo, stroke_hi; "state" (``query``:
    strokes by seat, dealer, seat): seat, strokes, you, V and stroke as in "vectors"."""
    kamerun = first_out(subgame)
    most = top + 1
    rng = block_substream(seed, BOOTSTRAP_BLOCK, 1)
    dists = {m: resampled(np.asarray(h), replicates, rng) for m, h in hands.items()}
    values = phase_values(dists, players, most, kamerun)
    n = int(next(iter(hands.values())).sum())
    est, lo, hi = _estimate(seat_values(values, (top,) * players, players - 1, most))
    tables = {"start": pd.DataFrame([{"seat": label, "V": est[i], "lo": lo[i], "hi": hi[i], "n": n}
                                     for i, label in enumerate(seat_labels(players))])}
    duel = []
    if not kamerun:
        for deal, dealer in (("forehand", 1), ("dealer", 0)):
            for mine in range(1, top + 1):
                for his in range(1, top + 1):
                    e, l, h = _estimate(seat_values(values, (mine, his), dealer, most)[:, 0])
                    duel.append({"deal": deal, "mine": mine, "his": his, "V": e, "lo": l, "hi": h, "n": n})
    tables["duel"] = pd.DataFrame(duel)
    rows = []
    for k in [m for m in hands if m > 2]:
        for vector in sample_vectors(k, top):
            rows += _state_rows(values, vector, k - 1, most, n, active=k, vector=_vector_text(vector))
    tables["vectors"] = pd.DataFrame(rows).rename(columns={"seat": "position"}).assign(
        position=lambda f: [seat_labels(k)[p] for k, p in zip(f.active, f.position)])
    tables["state"] = pd.DataFrame(_state_rows(values, query["strokes"], query["dealer"], most, n)).assign(
        you=lambda f: f.seat == query["seat"]) if query else pd.DataFrame()
    for table in tables.values():
        table.attrs.update(phase=phase, subgame=r.SUBGAME_NAMES[subgame], players=players, top=top,
                           kamerun=kamerun, hands=n, seed=seed, replicates=replicates,
                           query=None if query is None else dict(query, strokes=list(query["strokes"])))
    return tables


def _state_rows(values, strokes, dealer: int, most: int, n: int, **keys) -> list[dict]:
    """Rows seat, strokes, V, lo, hi, stroke, stroke_lo, stroke_hi, n of every seat of one state."""
    v, v_lo, v_hi = _estimate(seat_values(values, strokes, dealer, most))
    w, w_lo, w_hi = _estimate(stroke_worth(values, strokes, dealer, most))
    return [{**keys, "seat": i, "strokes": s, "V": v[i], "lo": v_lo[i], "hi": v_hi[i], "stroke": w[i],
             "stroke_lo": w_lo[i], "stroke_hi": w_hi[i], "n": n} for i, s in enumerate(strokes)]


def check_query(strokes, seat: int | None, dealer: int | None, players: int, top: int, kamerun: bool) -> dict:
    """The --strokes question as {"strokes", "seat", "dealer"} (defaults: seat 0, the last seat deals), or
    CardsimError: ELIMINATION takes 2 to ``players`` players still holding strokes (the others are out),
    Kamerun all ``players``; each 1 .. ``top``."""
    k = len(strokes)
    low = players if kamerun else 2
    if not low <= k <= players:
        need = f"{players} numbers (Kamerun: everyone plays)" if kamerun else \
            f"2 to {players} numbers, one per player still holding strokes"
        raise CardsimError(f"--strokes needs {need}, clockwise from seat 0; got {k}")
    bad = [s for s in strokes if not 1 <= s <= top]
    if bad:
        raise CardsimError(f"--strokes values must be 1-{top} (the strokes a player holds; one at 0 is out: leave "
                           f"him out), got {bad[0]}")
    seat = 0 if seat is None else checks.whole(seat, "--seat")
    dealer = k - 1 if dealer is None else checks.whole(dealer, "--dealer")
    for name, value in (("--seat", seat), ("--dealer", dealer)):
        if not 0 <= value < k:
            raise CardsimError(f"{name} must be a seat 0-{k - 1} of --strokes, got {value}")
    return {"strokes": tuple(strokes), "seat": seat, "dealer": dealer}


def parse_strokes(text: str) -> tuple[int, ...]:
    """"7,5,3,2" -> (7, 5, 3, 2); CardsimError for anything but whole numbers separated by commas."""
    if not isinstance(text, str):
        raise CardsimError(f"--strokes takes whole numbers separated by commas in a string, e.g. '7,5,3,2'; got "
                           f"{text!r}")
    parts = [p.strip() for p in text.split(",")]
    if not all(p.isascii() and p.isdigit() for p in parts):
        raise CardsimError(f"--strokes takes positive whole numbers separated by commas, e.g. 7,5,3,2; got '{text}'")
    return tuple(digits_value(p, "--strokes takes each player's strokes left, e.g. 7,5,3,2") for p in parts)


MIN_HANDS = 100
"""The fewest self-play hands per number of active players `phase_value` accepts."""


def check_hands(n: int, what: str = "--n") -> int:
    """``n`` as an int; CardsimError naming ``what`` unless ``n`` self-play hands per number of active players are a
    whole number of at least `MIN_HANDS`."""
    n = checks.whole(n, what)
    if n < MIN_HANDS:
        raise CardsimError(f"{what} must be at least {MIN_HANDS} with --decision value or --strokes (hands per number "
                           "of active players: fewer leave most erase vectors unseen and the bootstrap meaningless), "
                           f"got {n}")
    return n


def check_state_flags(strokes, seat, dealer) -> None:
    """CardsimError for --seat or --dealer without --strokes."""
    if strokes is None and (seat is not None or dealer is not None):
        raise CardsimError("--seat and --dealer apply only with --strokes; drop them or add --strokes")


def point_values(job: PhaseHandsJob, n: int, seed: int, replicates: int = 0, **run_kw) -> np.ndarray:
    """(replicates + 1, S, players) `phase_values` of ``job``'s phase from ``n`` self-play hands per active count:
    entry 0 from the hands as played, then ``replicates`` parametric-bootstrap redraws (`resampled`, the random
    stream of `value_tables`, so the same seed gives the same redraws); ``most`` one above the start's strokes as in
    `value_tables`."""
    hands = job.unpack(runner.run(job, n, seed, **run_kw))
    top = rule_options(**dict(job.options))["strokes_per_phase"]
    rng = block_substream(seed, BOOTSTRAP_BLOCK, 1)
    dists = {m: resampled(np.asarray(h), replicates, rng) for m, h in hands.items()}
    return phase_values(dists, job.players, top + 1, first_out(job.subgame))


def phase_value(phase: int = 1, players: int = 4, policy: str = "greedy", n: int = 2_000, seed=None,
                options: tuple = (), strokes: str | None = None, seat: int | None = None, dealer: int | None = None,
                replicates: int = REPLICATES, **run_kw) -> dict[str, pd.DataFrame]:
    """V of phase ``phase`` in ``players``-player Dreeg: ``n`` self-play hands per active count (``policy`` at
    every seat, `PhaseHandsJob`; ``options``: checked rule option pairs) and `value_tables`; ``strokes`` ("7,5,3,2",
    by seat clockwise) with ``seat`` and ``dealer`` asks one state (`check_query`)."""
    n = check_hands(n)
    options = tuple(sorted(option_items(options).items()))
    job = PhaseHandsJob(checks.whole(phase, "phase", 1, 8), checks.whole(players, "players", 3, 4),
                        checks.one_of(policy, "policy", POLICIES), options)
    replicates = checks.whole(replicates, "replicates (bootstrap redraws)", 1)
    top = rule_options(**dict(options))["strokes_per_phase"]
    kamerun = first_out(job.subgame)
    query = None if strokes is None else check_query(parse_strokes(strokes), seat, dealer, job.players, top, kamerun)
    check_state_flags(strokes, seat, dealer)
    seed = normalize_seed(seed)
    hands = job.unpack(runner.run(job, n, seed, **run_kw))
    tables = value_tables(hands, job.phase, job.players, job.subgame, top, seed, replicates, query)
    for table in tables.values():
        table.attrs.update(policy=policy, options=dict(options))
    return tables


# --- output ----------------------------------------------------------------------------------------------
def format_value(tables: dict[str, pd.DataFrame], options: str = "") -> str:
    """Text of `phase_value`: the start by seat, the 2-player grids (ELIMINATION), the sample vectors with the value
    of one stroke, and the --strokes state; ``options``: the rule options' note of the title."""
    start = tables["start"]
    a = start.attrs
    lines = [f"Phase value V = P(lose the phase) (spec §6.2, §6.4): phase {a['phase']} {a['subgame']}, "
             f"{a['players']} players, {a['top']} strokes each{options}",
             f"  {RULES[a['kamerun']]};",
             "  the deal passes to the last hand's forehand (§2.3). Exact dynamic programming over stroke vectors,",
             f"  from the erase vectors of {a['hands']:,} self-play hands per number of active players "
             f"({a['policy']} at every seat; seed {a['seed']});",
             "  hands independent of the score (the policies do not read the strokes);",
             f"  ± the half-width of the 95% interval of a parametric bootstrap ({a['replicates']} redraws of the "
             "hand tables)", "",
             "From the start, by seat relative to the first dealer:",
             "  " + "   ".join(f"{row.seat} {plus_minus(row.V, row.lo, row.hi)}" for row in start.itertuples())]
    if a["kamerun"]:
        lines.append(f"  (co-losers possible: the values sum to {start.V.sum():.3f})")
    duel = tables["duel"]
    for deal, title in (("forehand", "I am forehand (he deals the next hand)"), ("dealer", "I deal the next hand")):
        if duel.empty:
            break
        grid = duel[duel.deal == deal].set_index(["mine", "his"])
        lines += ["", f"Two players left, P(I lose); rows my strokes, columns his; {title}:",
                  "me\\him" + "".join(f"{b:>13}" for b in range(1, a["top"] + 1))]
        lines += [f"{mine:>6}" + "".join(f"{plus_minus(*grid.loc[(mine, his), ['V', 'lo', 'hi']]):>13}"
                                         for his in range(1, a["top"] + 1)) for mine in range(1, a["top"] + 1)]
    sign = "at least 0: a stroke is a life" if a["kamerun"] else \
        "at most 0: a stroke is a burden; minus it: what erasing down to s from one more was worth"
    for k, part in tables["vectors"].groupby("active", sort=False):
        lines += ["", f"{k} active players, strokes by position from forehand (the dealer last): V and the value of "
                      "one stroke,", f"  V(s) - V(s with one more stroke of mine) ({sign}):",
                  f"  {'strokes':<12}{'':<7}" + "".join(f"{label:>15}" for label in seat_labels(k))]
        for vector, rows in part.groupby("vector", sort=False):
            cells = list(rows.itertuples())
            lines.append(f"  {vector:<12}{'V':<7}" + "".join(f"{plus_minus(x.V, x.lo, x.hi):>15}" for x in cells))
            lines.append(f"  {'':<12}{'stroke':<7}"
                         + "".join(f"{plus_minus(x.stroke, x.stroke_lo, x.stroke_hi):>15}" for x in cells))
    state = tables["state"]
    if not state.empty:
        q = a["query"]
        lines += ["", f"State {','.join(map(str, q['strokes']))} by seat clockwise, seat {q['dealer']} deals the next "
                      "hand:", f"  {'seat':<12}{'strokes':>8}{'P(lose)':>15}{'one stroke':>15}"]
        for row in state.itertuples():
            name = f"{row.seat} (you)" if row.you else str(row.seat)
            lines.append(f"  {name:<12}{row.strokes:>8}{plus_minus(row.V, row.lo, row.hi):>15}"
                         f"{plus_minus(row.stroke, row.stroke_lo, row.stroke_hi):>15}")
    return "\n".join(lines)


def value_json(tables: dict[str, pd.DataFrame]) -> dict:
    """{"phase", "subgame", "players", "strokes_per_phase", "rule", "policy", "options", "hands" (per active count),
    "seed", "replicates", "interval", and the records "start", "duel", "vectors", "state" (null without a
    query), "query"}."""
    a = tables["start"].attrs
    return {"phase": a["phase"], "subgame": a["subgame"], "players": a["players"], "strokes_per_phase": a["top"],
            "rule": "first_out_loses" if a["kamerun"] else "elimination", "policy": a["policy"],
            "options": a["options"], "hands": a["hands"], "seed": a["seed"], "replicates": a["replicates"],
            "interval": "95% percentile, parametric bootstrap of the per-hand erase tables",
            **{name: tables[name].to_dict(orient="records") for name in ("start", "duel", "vectors")},
            "state": tables["state"].to_dict(orient="records") if a["query"] else None, "query": a["query"]}


def value_long(tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The values as `cardsim sweep` stores them: ``value.start.<seat>``, ``value.duel.<deal>.<mine>.<his>``,
    ``value.V.<vector>.<position>``, ``value.stroke.<vector>.<position>`` and with --strokes ``value.state.<seat>``
    and ``value.state_stroke.<seat>``."""
    parts = [long_frame(tables["start"], ["seat"], "value.start", "V")]
    if not tables["duel"].empty:
        parts.append(long_frame(tables["duel"], ["deal", "mine", "his"], "value.duel", "V"))
    for name, frame, keys in (("", tables["vectors"], ["vector", "position"]), ("state", tables["state"], ["seat"])):
        if frame.empty:
            continue
        parts.append(long_frame(frame, keys, f"value.{name or 'V'}", "V"))
        parts.append(long_frame(frame, keys, f"value.{name + '_' if name else ''}stroke", "stroke", "stroke_lo",
                                "stroke_hi"))
    return pd.concat(parts, ignore_index=True)
