"""Game-level equity of Bauernstoss (spec §9.1 Q10, Q7, Q9): the stroke-race DP against a plain recursion,
its symmetry and monotonicity, and the transitions of `chain` against the spec's worked examples (§6.4,
§6.6 SC-01..SC-14 and SEQ-BS, AS-S1..AS-S8, DS-T6..DS-T8)."""

import itertools
import json

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from analysis.games import bauernstoss_equity as eq
from simcore.errors import CardsimError
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_jobs as jobs


def brute_force(ours, theirs, still, decided, target, sweeps=2000):
    """W[(a, b, k)] by iterating W <- E[W after one hand] from 0 over every state (plain Python)."""
    size, span = len(still), len(ours[0][0])
    w = {}
    for _ in range(sweeps):
        new = {}
        for a, b, k in itertools.product(range(target), range(target), range(size)):
            value = decided[k][0]
            for j in range(size):
                value += still[k][j] * w.get((a, b, j), 0.0)
                for x in range(1, span):
                    value += ours[k][j][x] * (1.0 if a + x >= target else w.get((a + x, b, j), 0.0))
                    value += theirs[k][j][x] * (0.0 if b + x >= target else w.get((a, b + x, j), 0.0))
            new[(a, b, k)] = value
        w = new
    return w


def random_model(rng, size=3, span=4):
    """A random (ours, theirs, still, decided) with each row summing to 1 (index 0 of ours/theirs unused)."""
    weights = rng.random((size, 2 * size * span + size + 2))
    weights[:, :2 * size * span].reshape(size, 2, size, span)[..., 0] = 0.0
    weights /= weights.sum(axis=1, keepdims=True)
    moves = weights[:, :2 * size * span].reshape(size, 2, size, span)
    return moves[:, 0], moves[:, 1], weights[:, 2 * size * span:-2], weights[:, -2:]


@pytest.mark.parametrize("seed, target", [(1, 1), (2, 3), (3, 4)])
def test_stroke_race_matches_a_plain_recursion(seed, target):
    model = random_model(np.random.default_rng(seed))
    w = eq.stroke_race(*model, target)
    slow = brute_force(*[m.tolist() for m in model], target)
    for (a, b, k), value in slow.items():
        assert w[a, b, k] == pytest.approx(value, abs=1e-9)
    assert (w[target, :target] == 1).all() and (w[:target, target] == 0).all()
    assert np.isnan(w[target, target]).all()


def test_stroke_race_batches_models():
    rng = np.random.default_rng(5)
    models = [random_model(rng) for _ in range(3)]
    batched = eq.stroke_race(*(np.stack(parts) for parts in zip(*models)), 5)
    for i, model in enumerate(models):
        np.testing.assert_allclose(batched[i], eq.stroke_race(*model, 5))


def mirror(variant, k):
    """The situation k seen from the other team."""
    if variant == "DS":
        dealer, pending = divmod(k, len(eq.PENDING))
        nu, nt = eq.PENDING[pending]
        return eq.situation("DS", dealer=1 - dealer, pending=(nt, nu))
    first, rest = divmod(k, 4)
    chalk, dealer = divmod(rest, 2)
    return eq.situation(variant, first, 1 - chalk, 1 - dealer)


def outcome_tables(draw, variant):
    """Random later (2, OUTCOMES) and first (2, OUTCOMES) distributions with the codes the variant has."""
    scored = [code for code in range(1, 2 * jobs.OUTCOME_SPAN) if code != jobs.ZERO]
    codes = scored + ([jobs.TIED, jobs.TIED + 1] if variant == "DS" else [jobs.DECIDED, jobs.DECIDED + 1])
    later = np.zeros((2, jobs.OUTCOMES))
    first = np.zeros((2, jobs.OUTCOMES))
    for table in (later, first):
        for row in table:
            row[draw(st.lists(st.sampled_from(codes), min_size=1, max_size=6))] = draw(st.floats(0.05, 1.0))
            row[jobs.ZERO] = draw(st.floats(0.0, 0.5))  # nobody scores: throw-ins, DS schwarz
            row /= row.sum()
    if variant == "DS":
        later[1] = later[0]
    return later, first / 2


@settings(max_examples=25, deadline=None)
@given(st.data(), st.sampled_from(["BS", "AS", "DS"]), st.integers(1, 9))
def test_equity_is_symmetric_and_monotone(data, variant, target):
    later, first = outcome_tables(data.draw, variant)
    scoring = np.ones(jobs.OUTCOMES, dtype=bool)
    scoring[list(eq.NO_SCORE_CODES)] = False
    assume(later[:, scoring].sum(axis=1).min() > 0 and (variant == "DS" or first[:, scoring].sum() > 0))  # else endless
    w = eq.stroke_race(*eq.chain(later, first, variant), target)
    size = w.shape[-1]
    for k in range(size):
        np.testing.assert_allclose(w[:target, :target, k] + w[:target, :target, mirror(variant, k)].T, 1.0,
                                   atol=1e-9)
    inner = w[:target, :target]
    assert (np.diff(w[:, :target], axis=0) >= -1e-12).all()  # more strokes for us never hurt
    assert (np.diff(w[:target, :], axis=1) <= 1e-12).all()
    assert ((inner >= -1e-12) & (inner <= 1 + 1e-12)).all()


@pytest.mark.parametrize("variant", ["BS", "AS", "DS"])
def test_models_without_end_are_refused_or_left_out_not_inverted(variant):
    """Hands that never score (throw-ins, DS 60-60 hands) make a game without end: none scoring among the later
    (or the first) hands is one clear error instead of a singular matrix; with one scoring hand of each the point
    estimate stands and the bootstrap redraws without one are left out of the intervals (`games_end`)."""
    later = np.zeros((jobs.OUTCOMES, jobs.OUTCOMES), dtype=np.int64)
    first = np.zeros((2, jobs.OUTCOMES), dtype=np.int64)
    nobody = jobs.TIED if variant == "DS" else jobs.ZERO
    later[nobody, nobody] = 500
    first[0, jobs.ZERO + 1] = first[1, jobs.ZERO - 1] = 30
    counts = {"hands": 560, "later": later, "first": first}
    with pytest.raises(CardsimError, match=r"no self-play hand scored.*--equity-hands"):
        eq.equity_tables(counts, variant, seed=1, replicates=10)
    later[jobs.ZERO + 1, jobs.ZERO - 1] = 1  # one later hand in 501 scores: most redraws have none
    assert eq.scoring_hands(later, first, variant) == (1, 0 if variant == "DS" else 60)
    redraws = eq._resampled(later, 50, np.random.default_rng(1))
    assert 0 < (~eq.games_end(redraws, np.broadcast_to(first, (51,) + first.shape), variant)).sum() < 50
    w = eq.equity_tables(counts, variant, seed=1, replicates=50)["equity"]
    assert w["W"].between(-1e-9, 1 + 1e-9).all() and w["lo"].notna().all() and (w["lo"] <= w["hi"] + 1e-12).all()


def test_a_tiny_part_b_runs(capsys):
    """`thresholds --n 20` (part B: 20 self-play hands, as many as --n) gives its tables, intervals included."""
    from analysis.cli import main

    assert main(["thresholds", "bauernstoss", "--n", "20", "--seed", "4", "--json", "--no-progress"]) == 0
    assert json.loads(capsys.readouterr().out)["equity"]["W"]


# --- the transitions of `chain` against the spec's worked examples -------------------------------------
def swapped(result: bs.HandResult) -> bs.HandResult:
    """The hand seen with the teams' numbers exchanged."""
    return bs.replace(result, points=bs.CARD_POINTS - result.points, tricks=bs.TRICKS - result.tricks,
                      maker=1 - result.maker, club_jack=1 - result.club_jack)


def step(variant, a, b, k, result, chalk, first, pending=()):
    """(a, b, next situation) or ("won", team) after one hand ``result`` (team 0 = us) played in situation k of
    `eq.chain`, team ``k``'s dealer dealing; ``chalk``/``pending``: the state the code is scored from."""
    dealer = k // len(eq.PENDING) if variant == "DS" else k % 2
    seen = result if dealer == 0 else swapped(result)  # the job's frame: team 0 is the dealer's
    frame_chalk = None if chalk is None else chalk ^ dealer
    state = bs.GameState(chalk=frame_chalk, first_hand=first, pending=())
    code = jobs.outcome_code(state, seen, bs.rule_options(variant=variant))
    table = np.zeros((2, jobs.OUTCOMES))
    table[:, code] = 1.0
    ours, theirs, still, decided = eq.chain(table, table / 2, variant)
    if decided[k].any():
        return "won", int(np.argmax(decided[k]))
    for moves, side in ((ours, 0), (theirs, 1)):
        if moves[k].any():
            j, x = np.unravel_index(np.argmax(moves[k]), moves[k].shape)
            return (a + x, b, int(j)) if side == 0 else (a, b + x, int(j))
    return a, b, int(np.argmax(still[k]))


def chalk_of(k):
    return (k % 4) // 2


SEQ_BS = [  # spec §6.6 SEQ-BS: (result, strokes after, chalk after); team 0 = seats 0 and 2
    (bs.HandResult(points=45, tricks=4, maker=0, club_jack=0), (1, 0), 0),
    (bs.HandResult(points=40, tricks=3, maker=0), (1, 1), 1),
    (bs.HandResult(points=25, tricks=2, maker=1), (1, 3), 1),
    (bs.HandResult(bs.SMALL_SOLO, maker=0, solo_won=False), (1, 11), 1),
    (bs.HandResult(bs.BIG_SOLO, maker=0, solo_won=True, tricks=8), (13, 11), 0),
    (bs.HandResult(points=120, tricks=8, maker=0), (16, 11), 0),
    (bs.HandResult(points=38, tricks=3, maker=0), (16, 12), 1),
    (bs.HandResult(points=70, tricks=5, maker=1), (16, 13), 1),
    (bs.HandResult(points=95, tricks=6, maker=0), (18, 13), 0),
    (bs.HandResult(points=61, tricks=5, maker=0), (19, 13), 0),
]


def test_chain_replays_the_spec_sequence_seq_bs():
    """SEQ-BS: the club jack with seat 2 in hand 1, so the first hand's chalk is team 0 (SC-14); the deal
    alternates between the teams; hand 11 (team 0 takes 100) wins the game at 21 (SC-13)."""
    a, b, k = 0, 0, eq.situation("BS", first=1, chalk=0, dealer=0)
    chalk, first = 0, True
    for result, strokes, chalk_after in SEQ_BS:
        a, b, k = step("BS", a, b, k, result, chalk, first)
        assert (a, b) == strokes and chalk_of(k) == chalk_after and k < 4  # later hands from here on
        chalk, first = chalk_after, False
    a, b, _ = step("BS", a, b, k, bs.HandResult(points=100, tricks=7, maker=0), chalk, first)
    assert a >= bs.TARGETS["BS"] > b


@pytest.mark.parametrize("chalk, result, scorer, strokes", [
    (0, bs.HandResult(points=42, tricks=3), 0, 1),    # SC-01
    (0, bs.HandResult(points=41, tricks=3), 1, 1),    # SC-02
    (0, bs.HandResult(points=90, tricks=6), 0, 1),    # SC-03
    (0, bs.HandResult(points=91, tricks=6), 0, 2),    # SC-04
    (0, bs.HandResult(points=30, tricks=2), 1, 1),    # SC-05
    (0, bs.HandResult(points=29, tricks=2), 1, 2),    # SC-06
    (0, bs.HandResult(points=0, tricks=1), 1, 2),     # SC-07: a trick without points stops schwarz
    (0, bs.HandResult(points=120, tricks=8), 0, 3),   # SC-08
    (1, bs.HandResult(points=78, tricks=5), 1, 1),    # SC-09
    (1, bs.HandResult(bs.SMALL_SOLO, maker=0, solo_won=True), 0, 8),   # SC-10
    (0, bs.HandResult(bs.SMALL_SOLO, maker=0, solo_won=False), 1, 8),  # SC-11
    (1, bs.HandResult(bs.BIG_SOLO, maker=0, solo_won=True), 0, 12),    # SC-12
])
def test_chain_scores_the_chalk_table(chalk, result, scorer, strokes):
    """§6.2/§6.6: the scoring team gains the strokes and always holds the chalk next, whoever deals."""
    for dealer in (0, 1):
        a, b, k = step("BS", 5, 5, eq.situation("BS", 0, chalk, dealer), result, chalk, False)
        assert (a - 5, b - 5) == ((strokes, 0) if scorer == 0 else (0, strokes))
        assert chalk_of(k) == scorer and k % 2 == 1 - dealer  # §3 D3: the deal passes on


def test_throw_ins_keep_the_chalk_and_the_first_hand():
    """§4.11, §8 A13: a later throw-in keeps the chalk; a first-hand throw-in deals a new first hand, the club
    jack anywhere (SC-14: the chalk is the team of whoever gets it)."""
    throw_in = bs.HandResult(bs.THROW_IN)
    assert step("BS", 3, 4, eq.situation("BS", 0, 1, 0), throw_in, 1, False) == (3, 4, eq.situation("BS", 0, 1, 1))
    table = np.zeros((2, jobs.OUTCOMES))
    table[:, jobs.ZERO] = 0.5
    still = eq.chain(table, table, "BS")[2]
    row = still[eq.situation("BS", 1, 0, 0)]
    assert row[eq.situation("BS", 1, 0, 1)] == row[eq.situation("BS", 1, 1, 1)] == 0.5


@pytest.mark.parametrize("chalk, first, result, expected", [
    (None, True, bs.HandResult(points=59, tricks=4, maker=0), (0, 1, 1)),   # AS-S1: team 1 takes 61
    (None, True, bs.HandResult(points=60, tricks=4, maker=0), (0, 1, 1)),   # AS-S2: 60-60, the maker's opponents
    (None, True, bs.HandResult(points=89, tricks=6, maker=0), (2, 0, 0)),   # AS-S3
    (1, False, bs.HandResult(points=79, tricks=5, maker=0), (1, 0, 0)),     # AS-S4: team 1 takes 41
    (0, False, bs.HandResult(points=88, tricks=6), (1, 0, 0)),              # AS-S5
    (0, False, bs.HandResult(points=89, tricks=6), (2, 0, 0)),
    (1, False, bs.HandResult(points=89, tricks=6), (2, 0, 0)),              # AS-S6
    (0, False, bs.HandResult(points=0, tricks=0), (0, 4, 1)),               # AS-S7: schwarz is 4
])
def test_chain_follows_the_as_examples(chalk, first, result, expected):
    k = eq.situation("AS", int(first), chalk or 0, 0)
    a, b, after = step("AS", 0, 0, k, result, chalk, first)
    assert (a, b, chalk_of(after)) == expected


def test_as_big_solo_decides_the_game():
    """AS-S8: at 3-12 a Big Solo won by team 0 wins the game; lost, it loses it."""
    for won, winner in ((True, 0), (False, 1)):
        solo = bs.HandResult(bs.BIG_SOLO, maker=0, solo_won=won, tricks=8 if won else 0)
        assert step("AS", 3, 12, eq.situation("AS", 0, 1, 1), solo, 1, False) == ("won", winner)


@pytest.mark.parametrize("result, expected", [
    (bs.HandResult(points=61, tricks=5, maker=0), (1, 0)),    # DS-T6: M 61 / 90 / 91 -> 1 / 1 / 2
    (bs.HandResult(points=90, tricks=6, maker=0), (1, 0)),
    (bs.HandResult(points=91, tricks=6, maker=0), (2, 0)),
    (bs.HandResult(points=59, tricks=4, maker=0), (0, 2)),    # O 61 -> 2, O 91 -> 4
    (bs.HandResult(points=29, tricks=2, maker=0), (0, 4)),
    (bs.HandResult(points=120, tricks=8, maker=0), (0, 0)),   # DS-10, §8 A7: schwarz moves no strokes
])
def test_chain_follows_ds_scoring(result, expected):
    for dealer in (0, 1):
        a, b, k = step("DS", 0, 0, eq.situation("DS", dealer=dealer), result, None, False)
        assert (a, b, k) == (*expected, eq.situation("DS", dealer=1 - dealer))


@pytest.mark.parametrize("decider, expected", [
    (bs.HandResult(points=25, tricks=2, maker=1), (0, 3)),    # DS-T7: the tie's makers (team 1) take 95: +2 +1
    (bs.HandResult(points=70, tricks=5, maker=1), (4, 0)),    # DS-T8: team 0 wins with 70 as opponents: +2 +2
])
def test_chain_settles_a_ds_tie_with_the_next_hand(decider, expected):
    tie = bs.HandResult(points=60, tricks=4, maker=1)
    a, b, k = step("DS", 0, 0, eq.situation("DS", dealer=0), tie, None, False)
    assert (a, b, k) == (0, 0, eq.situation("DS", dealer=1, pending=(0, 1)))
    assert step("DS", a, b, k, decider, None, False)[:2] == expected


# --- self-play, the API and the command -----------------------------------------------------------------
@pytest.fixture(scope="module")
def bs_tables():
    from analysis.games import bauernstoss as api

    return api.equity("BS", 4000, seed=3, replicates=40)


def test_equity_from_self_play_is_sane(bs_tables):
    """W rises with our strokes and falls with theirs; the chalk is worth something at 1-1 (and more in the
    first hand, where the club jack's team also holds the top trump); the game is over at the target."""
    equity = bs_tables["equity"]
    for chalk in ("us", "them"):
        grid = equity[(equity.chalk == chalk) & (equity.deals == "either")].pivot(index="a", columns="b", values="W")
        assert (np.diff(grid.values, axis=0) > 0).all() and (np.diff(grid.values, axis=1) < 0).all()
    at = equity[(equity.a == 1) & (equity.b == 1) & (equity.deals == "either")].set_index("chalk")
    assert at.W["us"] > 0.5 > at.W["them"] and at.W["us"] + at.W["them"] == pytest.approx(1.0)
    assert (equity.lo <= equity.W).all() and (equity.W <= equity.hi).all()
    first = bs_tables["first_hand"].set_index(["club", "deals"]).W
    assert first[("us", "either")] > 0.5
    chalk = bs_tables["chalk"]
    assert (chalk[chalk.deals == "either"].value > 0).all()
    late = bs_tables["solo"]
    late = late[(late.a == 19) & (late.b == 19) & (late.deals == "either")].set_index(["solo", "chalk"]).p
    w_late = equity[(equity.a == 19) & (equity.b == 19) & (equity.deals == "either")].set_index("chalk").W
    assert late[("big", "us")] == pytest.approx(w_late["us"])  # any solo ends the game at 19-19: p* = W


def test_solo_break_even_solves_its_equation(bs_tables):
    """Q7: p* W(a + 8, b, chalk us) + (1 - p*) W(a, b + 8, chalk them) = W(a, b), the other side dealing next."""
    equity = bs_tables["equity"].set_index(["a", "b", "chalk", "deals"]).W
    solo = bs_tables["solo"].set_index(["solo", "a", "b", "chalk", "deals"]).p
    for a, b, chalk, deals in ((0, 0, "us", "us"), (3, 7, "them", "them"), (5, 2, "us", "them")):
        other = "them" if deals == "us" else "us"
        p = solo[("small", a, b, chalk, deals)]
        assert p * equity[(a + 8, b, "us", other)] + (1 - p) * equity[(a, b + 8, "them", other)] == \
            pytest.approx(equity[(a, b, chalk, deals)])


def test_thresholds_command_adds_part_b_and_keeps_its_numbers(capsys):
    from analysis.cli import main

    args = ["thresholds", "bauernstoss", "--n", "600", "--seed", "5", "--no-progress"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "B. Who wins from here?" in text and "chalk at them" in text and "Q7 solo break-even" in text
    outputs = []
    for extra in ([], ["--jobs", "2"], ["--chunk-size", "256"]):
        assert main(args + ["--json"] + extra) == 0
        outputs.append(json.loads(capsys.readouterr().out))
    assert outputs[0] == outputs[1] == outputs[2]
    equity = outputs[0]["equity"]
    assert equity["hands"] == 600 and equity["later_hands"] == 300 and len(equity["W"]) == 20 * 20 * 2 * 3
    assert main(args + ["--equity-hands", "0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["equity"] is None


def test_as_advice_uses_the_game_level_break_even(capsys):
    from analysis.cli import main

    assert main(["thresholds", "bauernstoss", "--variant", "AS", "--n", "400", "--seed", "5", "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "= W(1, 1) of part B with the chalk at forehand's team and the other team dealing" in text
    assert "big solo (game)" in text


@pytest.mark.parametrize("flags, message", [
    (["--equity-hands", "-3"], "expected a whole number from 0 (0 skips part B)"),
    (["--equity-hands", "1"], "part B needs at least 2 self-play hands"),
    (["--policy", "bold"], "invalid choice: 'bold'"),
    (["--variant", "DS", "--policy", "cautious"], "so --policy cautious plays as D0: drop --policy"),
])
def test_bad_part_b_input_is_one_line_and_exit_2(capsys, flags, message):
    from analysis.cli import main

    assert main(["thresholds", "bauernstoss", "--n", "300", "--no-progress"] + flags) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err
