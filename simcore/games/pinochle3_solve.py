"""Double-dummy solver for three-player Pinochle play: the bidder's trick points under perfect play.

All three hands are known, trump is fixed, the bidder (maximizing) plays against the two defenders,
who cooperate to minimize his trick points (spec shared/rules/pinochle3.md §5: legal moves R5.2
under the ``play_rule`` option, trick winner R5.3 with the identical-card rule R5.4, counters and the
last trick R5.6). Discards are not part of play: add their counters outside.

Search: alpha-beta (fail-soft) over single cards, with

* a transposition table at trick starts, keyed by the *power structure* of the layout (`_relative_key`,
  with the proof): per suit, the faces still out from high to low and who holds their copies, where
  every run of faces held by one player alone (no card of another player ranked between) counts only
  by its cards, and the plain suits are taken in a canonical order; card points are not in the key
  (payoff-similarity transposition, Furtak & Buro, IJCAI 2011), played cards and ranks no longer in
  play drop out, so positions reached by different tricks share an entry. It stores lower and upper
  bounds of the bidder's points from that trick on, the best lead and the counters still out per suit
  of the position they were found for; a position of the same key with other counters widens them by
  its counters more or fewer per suit (`_widened`, the proof there). Buckets of two rows (one cache line)
  and a stamp per deal instead of clearing. A probe takes the bounds of both rows when both were made for
  its key (for other counters, each widened: `_probe`); the search's result narrows the row made for its own
  counters, else goes to the bucket's other row so that the entry of the other counters stays (unless that
  row holds a position with more cards left), else replaces the row with fewer cards left (`_store_slot`).
  Keeping the two entries of one key, over rewriting the one entry with the new counters: 0.926x nodes over
  the benchmark's 30 full deals (old; median per deal 0.963x), 0.95-0.99x on endings of 8-12 tricks under
  old, old_strict and new1945, same values (the 30 full deals, 300 endings each of 8 and 10 tricks and 100
  of 12 per rule); CPU time 1.14x in all on the full deals in two alternating rounds, median per-deal
  speedup 1.09-1.10x (median deal 0.33-0.36 -> 0.30-0.32 s). The power key (over the key with each face's
  point class, runs counted by their counters and losers): nodes 0.666x over the benchmark's 30 full deals
  (old; per deal median 0.66x on the first 20), 0.67-0.70x on endings of 12 tricks, 0.71-0.72x of 10,
  0.74-0.76x of 8 under old, old_strict and new1945; same values (the 30 full deals, 3 x 300 random endings
  each of 4, 6, 8 and 10 tricks and 3 x 60 of 12, random leader and bidder); CPU time, deal by deal
  alternating in one process, two rounds: 1.48x and 1.43x in all, median per-deal speedup 1.49x and 1.54x
  (median deal 0.51 -> 0.37 s); the benchmark's first 100 endings of 12 tricks 0.642x nodes, 1.46-1.48x in
  all, median per ending 1.26-1.29x (three rounds). The same key with no widening (unsound, a ceiling):
  0.47x nodes on the first 20 full deals;
* equivalent-card reduction: of two copies of a face in one hand only one is tried, and of two cards
  of one suit and one point class (counters A 10 K, losers Q J 9) in one hand with every card of the
  ranks between them (both copies included) either in the same hand or already played, only the
  higher one is tried (the rest of the game is the same with the two swapped);
* move ordering: the *shape lead* first (`_shape`: the lead that last cut
  off at a trick start of the same shape, every hand's length in every suit, the leader and his
  counters per suit, in this solve, kept as a suit, a point class and a place among the leader's faces
  of that class; 0.80x the nodes over the benchmark's first 30 full deals, same values; a shape made of
  the suit lengths alone 0.86x, two leads per shape 0.79x; with every hand's counters 0.91x over 11
  deals), then the table's best lead (in the killer's place; it came first until 7a25a01, see the tree
  below), else, from 8 tricks left on, the *guessed lead* (`_lead_guess`, below), then the *killer
  lead* (the face whose lead last cut off at the same trick by the same leader
  in this null-window search), then cheap heuristics (the
  bidder leads low, a defender high; take a trick with the lowest card that wins it, smear counters
  on a trick the own side holds as last to play, else throw the lowest);
* bounds at every trick start (`_sure_bounds`, `_quick_points`): a trump ranked above every trump
  of the other side wins its trick, so its counter is that side's; the side on lead surely takes
  the winners it can cash while the others must follow (with the counters they must follow with),
  trumps first, so that a player whose trumps are drawn cannot ruff the plain winners, and cards
  become winners when the higher cards of the others have fallen (0.93-0.99x nodes); in the
  tricks a side surely takes, an opponent gives a counter for every trick beyond his losers
  (0.62-0.98x nodes on 11 full deals, 0.90x in all; 0.82-0.85x on 8-12-trick endings; same values);
  a player whose top trumps (above every trump of the others) number enough to keep one to the end
  takes the last trick (`_wins_last_trick`; 0.96-0.98x nodes on endings when all his trumps had to be
  top, 0.999x more with lower trumps allowed), and so does a leader whose trumps draw the others' and
  who keeps one beyond the cards he cannot cash (`_quick_points`, the line and the proof there;
  0.97-0.98x nodes on endings of 8-12 tricks); the last trick plays itself. The bidder scores at most
  the counters still out plus the last trick minus what the defenders surely take.
  Not kept: two more sound cuts of the bidder's upper bound, checked once the bounds above left the
  node open: the defenders' trump counters no bidder trump can take (a defender's trump counter goes
  to the bidder only in a trick he wins with a trump of at least its face, one such trump a trick:
  those left over by the largest matching of them to the bidder's trumps; this contains the top
  trumps), and the bidder's *dominated* counters (of a plain suit, ranked below the n-th highest
  card of the suit in one defender's hand, n the bidder's length: a counter of the bidder scores only
  if it wins its trick, and it never does if that defender plays his highest card of the suit in
  every round of it, legal under every rule, and discards outside his n highest; if he has nothing
  else the bidder holds only those n cards and discards one too; each defender guards one suit),
  taken with the forced counters as max(dominated, tricks lost - losers). Never below the exact
  value on 1,500 random and played endings of 4-8 tricks under old, old_strict and new1945, and 2.6
  points under `_sure_bounds`' upper bound on average (lower in 22% of them), but 0.995-1.000x the
  nodes on 330 endings of 8-12 tricks, 1.000x on the benchmark's 30 full deals under each of the
  three rules (same values), 0.96x the speed (median per deal). The same matching for the bidder (his
  trump counters no defender trump can take, in the lower bound): 0.996-0.999x nodes on the endings.
  Why so little: of the trick starts the search enters (not settled by a bound or the table; six full
  deals, old) only 8-33% at tricks 7-10 end below the window (bidder on lead 8-25%, a defender
  19-38%), and there the upper bound lies a median 40-50 points above it at trick 9: 10 points
  tighter would cut 4% of those, 20 points 9%, 30 points 22% (trick 11: 13%, 31%, 52%). The rest,
  67-92% of the entered trick starts, end at or above the window, and in about half of those (50-53%
  at tricks 7-12, as often with the bidder as with a defender on lead) the lower bound is exactly 10
  points short of it (70-77% within 20 points; the quick points give that bound at 53% of them, the
  sure last trick, `_wins_last_trick`, is in it at 1%): a lower bound of the bidder one counter or
  the last trick stronger is where a bound could still pay.
  Kept from that: the last trick of the quick points when the leader's trumps draw the others' and he
  keeps one (`_quick_points`), and the top trumps counted alone in `_wins_last_trick`. Never across
  the exact value (HEAD f6ae80d's `solve`) on 3,000 random and played endings of 4-8 tricks under old,
  old_strict and new1945 (the quick points higher than before at 6.6% of them, the sure bounds at
  0.7%); same values on 125 endings of 8-12 tricks under each rule and the benchmark's 30 full deals
  under old and old_strict (new1945 not run to the end: its first deal took over 8 minutes of CPU
  time on a loaded machine); nodes: endings 0.978x (old), 0.977x (old_strict), 0.971x (new1945),
  geometric mean of the ratios 0.975-0.979x; full deals 0.991x (old, 701.2 -> 695.1 million) and
  0.989x (old_strict, 727.6 -> 719.4 million), per deal 0.93-1.002x, median 0.998x. CPU time,
  alternating position by position on one core (shared with other jobs): full deals (old) 1.00x in
  all, median 0.634 -> 0.610 s, median per-deal speedup 1.004x; endings 0.90-1.02x in all per rule,
  median per ending 0.99-1.00x (speed ratios; the 0.90x is old_strict's total): within the noise.
  Not kept: the leader's top trumps kept without drawing trumps, his plain winners cashed first
  with the others' trumps as ruff threats, the last trick if the top trumps then number his cards
  left (also drawing with some of the top trumps, keeping the others): 0.999x nodes over the above
  on the endings and 1-3% slower there (median per ending; it raised the bound at the root of 4.1% of
  random endings of 4-8 tricks without the drawn-trumps rule, 0.5% with it). The bidder's trump
  counters no defender trump can beat were the top trumps' counters already in `_sure_bounds` (now
  those of the matching, `_trump_winners`, below).
  Where the lower bound falls short (HEAD c8c1642; the trick starts the search enters that end at or above
  the window with the lower bound below it: all of 60 endings of 10 and of 12 tricks, old and new1945, every 20th at
  tricks 7-12 of the benchmark's first six full deals, old): 36-37% of them on the endings and 64% on the full
  deals are exactly 10 points short. Of those, by the trumps left: the bidder holds trumps but none above the
  defenders' highest 45% (full deals 76%), he holds top trumps and the defenders lower ones 22-29% (18%), the
  defenders hold none and he does 19-25% (4%; a defender on lead in two thirds of them), he holds none 7% (2%).
  In one optimal line of each (300 per set, old and new1945) the bidder takes, beyond the tricks the bound
  counts, the last trick in 63-68% of them (full deals 36%), a trick with a trump below the defenders' highest
  ruffing 42-48% (71%) or on a trump lead 17-18% (45%), a trick with a plain card he leads outside the quick run
  35-38% (40%) or with one that wins following a defender's lead 23-30% (15%), and a defender throws a counter
  into a trick of his 30-32% (31%). Kept from that: the bidder's trumps that win whatever the matching of the
  defenders' higher trumps to them (`_trump_winners`: as many tricks as his trumps outnumber theirs from some
  face up, their counters from some counter face up, and the counters the defenders must give in those tricks;
  the top trumps alone before; his trump counters alone by the matching were 0.996-0.999x, above), and, with a
  defender on lead and no trump in the defence, a trick for every card of the bidder ranked above the
  defenders' cards of its suit and the last trick when his trumps outnumber his other cards
  (`_trumpless_defence`, the proof there). They bring those trick starts to the window at 7% of them on the
  full deals (matching 4.8%, trumpless defence 2.2%) and 10.5-12% on the endings (2.7-4.2%, 7.7-8.0%). Never
  across the exact value (HEAD c8c1642's `solve`) on 9,000 random and played endings of 4-8 tricks under old,
  old_strict and new1945 (3,000 as dealt, 3,000 with the defenders' trumps moved to the bidder, 3,000 with
  their trumps but each one's highest moved to him, the leader random); same values on the benchmark's 300
  endings of 8 and of 10 tricks and 100 of 12 tricks per rule and its 30 full deals (old). Nodes, both: full
  deals 0.946x (591.8 -> 559.6 million; per deal 0.65-1.00x, median 0.945x, geometric mean 0.908x), endings of
  8 tricks 0.909-0.916x, of 10 0.904-0.920x, of 12 0.887-0.914x per rule (medians per ending 0.95-0.98x,
  geometric means 0.89-0.92x); the trumpless defence alone 0.971x (full deals) and 0.921-0.942x (endings), the
  matching alone 0.972x (median per deal 0.996x) and 0.956-0.992x. Not kept: the same matching for the
  defenders' tricks in the upper bound (each defender's trumps against the bidder's): 1.000x nodes.
  After those (HEAD f7f4f78; the same recorded trick starts, bounds recomputed): of the trick starts the search
  enters on the full deals 76% end at or above the window with the lower bound below it, 67% of those exactly 10
  points short, and of these the window is 10 (one counter or the last trick) at 58%, the bidder leads 38%, exactly
  one defender holds trumps 80% (12-trick endings: 41%) and the bidder none above his 61% (18%). Kept: the quick
  points add the leader's trumps that win whatever the play (`_trump_winners` beyond his trump rounds, in tricks
  apart from the cashed plain rounds, with the counters the others must give in all of them; the proof in
  `_quick_points`): it brings 8.0% of those trick starts with the bidder on lead to the window on the full deals
  (2.5% and 1.8% on endings of 10 and 12 tricks). Never across the exact value (HEAD f7f4f78's `solve`) on 12,000
  random and played endings of 4-8 tricks under old, old_strict and new1945 (3,000 as dealt, 3,000 as dealt with the
  bidder on lead, 3,000 with the defenders' trumps but each one's highest moved to the bidder, 3,000 with all moved;
  the sure bounds and the leader's quick points, either side on lead); same values on the benchmark's 300 endings of
  8 and of 10 tricks and 100 of 12 tricks per rule and its 30 full deals (old). Nodes: full deals 0.957x (559.6 ->
  535.5 million; per deal 0.80-1.04x, median 0.997x, geometric mean 0.983x), endings 0.996-0.998x (8 and 10 tricks)
  and 0.990-0.994x (12) per rule; per node the same within the noise (12-trick endings, old, alternating trees:
  72.9/68.0 -> 71.6/69.0 ns), the quick points alone 56 -> 59 ns a call (random 8-trick positions, every leader).
  Not kept: the bidder's own counters in the tricks he surely takes (at least those tricks less his losers, as the
  defenders' forced counters): it raises no recorded trick start to the window; `_wins_last_trick` with his lower
  trumps counted as lost by the matching only (at most his trumps less the matching's winners are beaten, so his top
  trumps need only number his other cards plus min(lower trumps, trumps - winners + 1)): fires at 47 of 1.3 million
  recorded trick starts of 12-trick endings (new1945), none on the full deals. Unsound: with one defender holding
  trumps, min(his trump counters, matching winners) as his trump counters (he plays his lowest trump when it may be
  beaten, his highest when it surely wins): the defence lets a low trump of his win and keeps its high trump for his
  counter (new1945, spades trumps: he holds SK SQ SJ HJ D9 C10, seat 1 SA SK S9 S9 HQ DJ, seat 2 HA HJ H9 H9 CA C9,
  seat 1 to lead: 10 against the exact 0; 1 of 3,000 random endings). As an oracle it shows what a sound bound of
  the bidder's play around the defence's trumps could give: 0.940x nodes on the full deals (median per deal 0.998x),
  0.952-0.982x on endings, same values there.

The guessed lead (`_lead_guess`, as the sibling Bauernstoss solver's): at a trick start with at least
`GUESS_MIN_TRICKS` (8) tricks left that neither the table nor the shape-lead table gives a lead, an alpha-beta
over the trick's candidates (those of the search, in its order) scores the end of the trick by what the side on
lead surely keeps (`_guess_leaf`: the bidder leading, the trick's counters if he takes it plus the next trick
start's lower bound; a defender leading, the same with the upper bound), and its best lead is tried first. Same
values (HEAD 5cc9098's `solve`, a copy outside the tree) on 1,500 random and played endings of 4-8 tricks (100
per length and rule under old, old_strict and new1945), 360 of 10-12 tricks (40 per length and rule) and the
benchmark's 30 full deals (old). Nodes: full deals 0.853x (693.2 -> 591.0 million; per deal 0.28-1.79x, median
0.82x, geometric mean 0.755x), endings of 8 tricks 0.94x, 0.93x, 0.98x (old, old_strict, new1945), of 10-12
tricks 0.76-0.97x per length and rule (geometric means of the ratios 0.75-0.93x); endings of 4-7 tricks the same
nodes. CPU time on one core (shared with other jobs), alternating deal by deal in one process: full deals median
0.603 -> 0.474 s, in all 41.9 -> 38.2 s, median per-deal speedup 1.17x (0.52-3.3x), 95th percentile 5.6 -> 6.3 s
(the largest deals gain least); the benchmark's endings of 10 and 12 tricks 1.09x and 1.23x (median per ending).
Not kept (full deals, old, nodes against the 693.2 million): Bauernstoss's leaf, the middle of the next trick
start's bounds, from 6, 8, 10 tricks left 0.863x, 0.871x, 0.896x but a median deal slower (0.62 -> 0.73, 0.68,
0.67 s); with it only at the defenders' leads 0.864x, only at the bidder's 1.027x; the lower bound as the leaf at
every lead 0.895x (geometric mean 0.80x), the upper bound at the bidder's leads and the lower at the defenders'
0.917x, the lower bound at the defenders' leads alone 0.920x; the killer lead before the guess (a guess only when
the leader holds no killer) 0.898x and 0.905x from 6 and 10 tricks left; the guess before the shape lead 0.99x on
endings of 12 tricks (0.79x after it) and 0.76x the speed. The kept leaf from 6, 8, 10 tricks left: 0.847x,
0.853x, 0.885x, median deal 0.52, 0.50, 0.55 s against 0.61 s in that run; the kept leaf only at the
defenders' leads 0.860x (median deal 0.75 s), only at the bidder's 0.991x (0.56 s), at both 0.853x (0.50 s
against 0.63 s in that run, median per-deal speedup 1.16x). Loop kernels for the last tricks (as
the Bauernstoss solver's) were not tried: over the benchmark's first 8 full deals the last three tricks hold 3.7%
of the nodes (the 13th 3.0%, the 14th 0.6%), tricks 7-11 hold 17%, 23%, 21%, 15% and 8%.

`solve` finds the exact value by null-window searches (MTD(f), in steps of 10 points) from a first guess,
the bidder's points when all three play the greedy policy out (`_greedy_points`, a fraction of a
millisecond), `reaches` answers "can the bidder take at least ``target`` points?" with one null-window
search, and `optimal_line` plays one best line out. From the upper bound, as before, a full deal took 9-21
probes (median 15); the probes far above the value are cheap, the two next to it (value and value + 10) take
a median 83% of the nodes. From the greedy guess (2-5 probes, median 3; greedy misses the value by up to 40
points either way) over the benchmark's 30 full deals: 0.86x the nodes under ``old`` (816.4 -> 703.2
million; per-deal ratios 0.47-2.5x, median 0.90x), 0.85x under ``old_strict`` and 0.79x under ``new1945``
(per-deal medians 0.92x and 0.99x: a cold first probe at the value costs more than one after the cheap
probes from above, whose table entries order the later moves); 0.79-0.93x on 900 endings of 8-12 tricks
under the three rules (per rule and length; geometric mean of the ratios 0.69-0.81x); same values. CPU time
on one core, alternating deal by deal: median 0.680 -> 0.652 s, 95th percentile 8.27 -> 5.82 s, median
per-deal speedup 1.10x (0.41-2.3x). Starting at the exact value (an oracle) would give 0.81-0.84x the nodes:
no first guess can win much more. Not kept: greedy + 10, + 20 or + 30 (0.91x, 0.97x, 0.97x nodes), bisecting
the bounds (1.05x), the greedy play of the first 7 or 9 tricks with the rest solved (0.86-0.93x, noisier),
killer leads kept from probe to probe (1.00x on the endings); one full-window search in place of the probes
(plain fail-soft alpha-beta in (lower bound - 1, upper bound + 1); 60 endings of 12 tricks, 2026-12-03): 1.32x the
nodes, per ending median 1.14x, same values; the null-window scouts of a principal-variation search, which save
the Bauernstoss solver 1.29x nodes over its plain full window, would bring it back only to about MTD(f)'s count,
so they were not written. The search is iterative (an explicit stack),
as numba's on-disk cache cannot hold recursive functions.

The tree (HEAD 7a25a01, old; 8 full deals, 75.3 million nodes, and 60 endings of 12 tricks, 18.8 million):
nodes at leads 45% (43%), second cards 21% (22%), third cards 34% (35%); of the trick starts entered (not
the last trick) 46% (47%) are settled by the bounds, 41% (36%) by the table, 13% (17%) searched. The probes
(MTD(f)): 25 on the 8 deals, the successful ones 62% of the nodes. Cut-offs come at the first card at 95.4%
of the leads, 96.8% of the second and 98.8% of the third cards that cut (44%, 49%, 67% of those searched
cut), but a first lead that fails at a lead that cuts later is costly: by where that first lead came from,
the table's lead failed at 14% of such nodes (22.8 thousand; up to 30.6 million nodes in the failed
subtrees, nested counts), the shape lead at 1.9% (28.6 thousand of 1.5 million; 5.0 million nodes), the
killer 8.5%, the heuristics 23%, the guess 18% (both small trees). Kept: the shape lead before the table's
(the table's second, in the killer's place): nodes 0.957x over the benchmark's 30 full deals (535.5 -> 512.7
million; per deal geometric mean 0.943x, median 0.969x), endings of 12 tricks 0.974-0.984x per rule
(geometric means 0.958-0.963x), of 10 0.975-0.984x, of 8 0.991-0.995x; same values (300 endings of 8
tricks, 100 of 10 and 100 of 12 under old, old_strict and new1945, the 30 full deals under old); the
table's lead dropped altogether 0.958x too. CPU time, the 30 full deals deal by deal interleaved in three
processes (new, base, base again as the control) on one shared core, two rounds: in all 0.97x and 1.11x,
median per-deal ratio 1.006x and 1.032x (control 0.95x, 0.995x in all; 0.98x, 1.005x per deal), median
0.75 -> 0.74 s and 0.87 -> 0.79 s: a few percent at most, near the noise. Why the table's lead loses: not its
encoding (`_relative_index` names a face by its place, which differs across the layouts of one class when a
run holds pairs; a class-invariant index by key digit: 0.999x), nor the lead stored at fail-low nodes (kept
from the earlier entry or none: 0.993x): it was stored at another window of another probe. Not kept: a history
heuristic (tricks left squared per cut, per seat and face) for the cards after the first: 1.06x, 1.02x,
1.005x nodes at leads, second, third cards (12-trick endings); enhanced transposition cut-offs at the trick's
last card (a child whose table bound cuts tried first) before trick 10: 0.945x nodes on 8 full deals, 0.967x
on 12-trick endings, but 1.2-1.35x the CPU time (every candidate's key and row read); only after the first
card failed: 1.000x (the table rarely holds the refutation then); tables of 2**23 and 2**24 rows: 0.992x and
0.990x nodes on 8 full deals, slower (0.98x, 0.92x median per deal); the table in transparent huge pages
(madvise): 0.99x the speed.

Speed (one core, benchmarks/bench_pinochle3.py): endings of 8 tricks solved in a median 0.4 ms, of 10 tricks
4 ms, of 12 tricks 16 ms (95th percentile 0.1 s) before the per-node work below (1.42-1.49x faster since); a full
15-trick deal takes from hundredths of a second to tens of seconds (the benchmark's first 30 deals: median 0.68 s
of CPU time, its 95% interval 0.28-1.05 s, 95th percentile 8.2 s, against 0.94 s, 0.39-1.46 s and 11.4 s for the
code before the per-node work in the same run, deal by deal alternating on a shared core; up to a few hundred
million nodes at about 65 ns each, 88 ns before), far from the 50 ms aim, so the analyses use
`policy_then_solve` (policy play of the first tricks, perfect play of the last ones), labelled as such. One
`reaches` test near the value costs about half an exact solve. What limits it: of the trick starts a full solve
searches at tricks 5-10, 76-92% were distinct positions under the relative key of before the power structure
(three benchmark deals; the payoff-similarity table since searches 0.666x the nodes); keeping
only each hand's number of counters and losers per suit would leave 9-20% of the raw distinct ones, the ceiling
of what table entries that ignore ranks which did not matter (partition search) could share.
The hot helpers are inlined into the search (`njit_inline`); the steps of the search loop are
written out in `_search` and the per-node key and bound helpers (`_suit_digits`, `_ordered_key`,
`_quick_points`) take hand masks instead of the hands array (why: `_search`), and the table key is read from
small per-half-suit tables (`_half_tables`).

Per node, profiled with perf (samples mapped to the JIT code with gdb) and measured A/B on one core
(alternating rounds, same nodes and values; 160 10-trick and 60 12-trick endings, 5 full deals): the
table bucket is read by the search and chosen by helpers of scalars (`_probe`, `_store_slot`, `_entry_word`),
so that no table array is handed to a helper (numba's reference counting, 8% of the time: 1.03-1.04x);
once the sure bounds leave the node open its table row is prefetched (`simcore.search.prefetch`) while the
quick-tricks bound is computed (1.03x when prefetched before the sure bounds, with a key for every
trick start; 1.01-1.02x more after them); the trick so far (its winner, the highest card of the suit
led, its cards) is kept up card by card in the stack, not walked again at every node (`_legal`:
1.07-1.09x); the candidates are a mask and the next one is picked when needed (`_next_move`; lowest
and highest card by tzcnt/lzcnt: 1.00-1.04x); equivalent cards are dropped by a table per suit
(`_representatives`: 1.04-1.07x); `_beyond` is one lzcnt (1.01-1.02x), `_cashed` walks the leader's
cards, not the ranks (1.03-1.05x), and the seat arithmetic avoids numba's signed modulo (`_seat`:
1.04-1.07x). In all 1.40x over the benchmark's first 30 full deals (median of the per-deal ratios of
CPU time), 1.40x, 1.42x and 1.49x on the five full deals, the 12- and the 10-trick endings. Not kept:
one packed word for the three half tables (0.99x), ``& 3`` and ``>> 1`` for the suit and face
arithmetic (1.0x). What is left: about a quarter of the time waits for the table row (128 MB for a
full deal: a miss in every cache), which a prefetch can hide only behind the bounds, and a smaller
table searches more nodes (`FULL_DEAL_TT_BITS`).

Instruction-level profile (perf at 5000 samples/s on one core, the JIT code named by a perf map written
from numba's compiled objects; 5 full deals, old, 57.0 million nodes at 73.5 ns): `_search` 92%,
`_lead_guess` 7.5%; one load, the first word of the table row at the probe, takes 21% of the samples (4%
more at the prefetch): the row is still on its way from memory (30 endings of 12 tricks: 18% and 4%). By
source line (a build with debug info, where popcount is a call: 101 ns a node): the probe 14%,
`_quick_points` with `_cashed` 13%, the bounds, key and prefetch block 6.5% with `_suit_digits` 5.5% and
`_sure_bounds_of` with `_wins_last_trick` and `_beyond` 6.6%, the next move and the child's row 6.5%,
taking a move back 5.5%, `_representatives` 3.5%, `_legal` 3%, `_weakest` 2.6%. Of the 25.8 million trick
starts (45% of the nodes) 32% are settled by the sure bounds, 16% by the quick points, and 77% of the 13.4
million that read the table by its entry: the quick points run in the prefetch's shadow, and work moved
before the probe would be wasted at three probes in four. Kept from it: `_weakest` and `_strongest` take
the rank from the suits folded onto one (`_ranks`, a tzcnt or lzcnt) instead of a loop with a branch per
rank, and a trick start's key reuses the suit digits of the trick start three plies up (searched, so it
read them) and reads again only the suits of the trick's three cards (`_ordered_key`). Same values and
nodes (300 endings each of 8 and 10 tricks under old, old_strict and new1945 with random leaders and
bidders, the benchmark's 30 full deals under old, 5 under old_strict). CPU time, position by position
interleaved in fresh processes with a control (the code against itself): endings of 10 and 12 tricks
(100 + 40, four rounds) 1.041x in all, median per-ending ratio 1.035x (control 1.005x, 1.014x; the fold
alone 1.023x, the digits alone 1.018x and 1.013x); the benchmark's 30 full deals (old) median 0.562 ->
0.525 s, 1.047x in all, median per-deal ratio 1.037x (control 1.032x, 1.007x), again with two rounds
1.033x and 1.030x (control 1.012x, 1.008x; the first 10 deals 1.022x in all, control 1.009x): a small
gain, about 1.02-1.03x beyond the control. Not kept (same nodes and values unless said):
the table rows of all the children prefetched at the trick's last card (their keys from the parent's
suit digits, one suit read per card) 0.975x on 8 full deals, 0.93x with a whole key per card (0.91x on
endings); the stack as a flat array (constant strides, no shape read) 0.94x on endings; `_quick_points`
skipped where it cannot change the value (the bidder on lead with the sure upper bound at most alpha, a
defender with the sure lower bound at least beta: 8.6% of the trick starts) 0.99x; `_representatives`
over the legal cards' suits only (a branch per suit) 0.97x; `_quick_points` called, not inlined, 0.98x
(these four measured with an unchanged copy at 0.98-0.99x); the trick starts of the last 3-6 tricks kept
in a small region of the table (2**15-2**17 rows, near the caches) 62-67 ns a node against 69 ns, but
1.01-1.35x the nodes and 0.83-0.99x the speed (8 full deals); `_sure_bounds_of` called, not inlined (as the
Perlaggen solver's large helpers are, which made that search 1.20x faster): 0.95x (60 endings of 10 and 20 of 12
tricks, six interleaved rounds in one process, the unchanged copy at 1.01x; inlined copies are only 8-13 s of this
solver's 60 s first compilation). Small rewrites of `_search` mostly lose: its body
runs many independent steps at once, and a loop or branch that saves work costs more in mispredictions.

Encoding as in `simcore.games.pinochle3_play`: ``card = 2 * face + copy``, ``face = 6 * suit + rank``.
"""

from __future__ import annotations

import numpy as np

from simcore.config import njit, njit_inline
from simcore import checks
from simcore.errors import CardsimError
from simcore.games.pinochle3 import DECK, N_RANKS, N_SUITS, SEATS
from simcore.games.pinochle3_play import (
    CARDS_PER_SUIT,
    COUNTER_POINTS,
    SUITS,
    COUNTERS,
    LAST_TRICK_BONUS,
    NEW1945,
    OLD,
    OLD_STRICT,
    TRICKS,
    _above,
    _beaters,
    _greedy,
    checked_deals,
    legal_cards,
    play_rule,
    trusted_play_line,
    winning_slot,
)
from simcore.search import (aligned_zeros, cut_off, narrow, prefetch, shape_code, shape_done, shape_mix, shape_word,
                            layout_text, table_rows, table_slot)
from simcore.tricks import leading_zeros, popcount, trailing_zeros


@njit_inline
def lowest_card(mask):
    """Index of the lowest set bit of a non-empty uint64 mask: one tzcnt (numba's trailing_zeros),
    where `simcore.tricks.lowest_card` multiplies and looks up a table."""
    return np.int64(trailing_zeros(mask))


@njit_inline
def _highest_card(mask):
    """Index of the highest set bit of a non-empty uint64 mask (one lzcnt)."""
    return 63 - np.int64(leading_zeros(mask))


TT_BITS = 20
"""The transposition table holds 2**TT_BITS entries (32 MB) unless sized by `table_bits`."""
FULL_DEAL_TT_BITS = 22
"""Table bits for positions of more than 12 tricks (128 MB): over six full deals 0.86x the nodes and
1.16x the speed of 2**20 entries (2**21: 0.90x, 1.11x). 2**23 and 2**24 entries: 0.91x and 0.88x the nodes
of the benchmark's 30 full deals in all, but a median 1.00x per deal (only the largest searches gain;
MTD(f) from the upper bound)."""
TRUMP, RULE, BIDDER, NODES, STAMP = range(5)
"""Slots of the solver's params array: trump suit, play-rule code, bidder seat, nodes searched, and
the table stamp of the current deal (entries of other stamps are stale: no clearing between deals)."""
N_PARAMS = 5
KEY_TAG, KEY_FIELDS = 2, 3
"""Columns of the table's rows after the two key words: tag = leader + 1 + 4 * stamp (0: empty), and
a word of fields (`_word_field`: bits 0-11 LO, 12-23 HI, 24-31 MOVE, 32-47 COUNTS, 48-63 CARDS)."""
LO, HI, MOVE, CARDS, COUNTS = range(5)
"""Fields of a row: lower bound, upper bound (FIELD_MAX: none), best lead + 1 (`_relative_index`),
cards still in play (the worth of the entry: rows pair up in buckets of two and a new position
replaces the one of the two with fewer cards left, `_store_slot`), and the counters still out per suit in the
key's order (`_suit_counters`) of the position the bounds were found for."""
FIELD_SHIFTS = np.array([0, 12, 24, 48, 32], dtype=np.int64)
FIELD_MASKS = np.array([0xFFF, 0xFFF, 0xFF, 0xFFFF, 0xFFFF], dtype=np.int64)
FIELD_MAX = 0xFFF
ROW_WORDS = 4
"""64-bit words per table row: a bucket of two rows is one 64-byte cache line."""
ROW_BYTES = 8 * ROW_WORDS
_ONE = np.uint64(1)
_NONE = np.uint64(0)
_PAIRS = np.uint64(0x5555555555555555)


class Table:
    """A transposition table for `_search`: rows of ROW_WORDS words (buckets aligned to 64 bytes), seen
    as ``keys`` (size, ROW_WORDS) uint64 (columns 0-1: the `_relative_key` words) and as ``data``,
    the same memory as int64 (KEY_* columns). One table serves many solves of any deal."""

    def __init__(self, bits: int = TT_BITS):
        self.keys = aligned_zeros(table_rows(bits, 2), ROW_WORDS)
        self.data = self.keys.view(np.int64)
        self.stamp = 0

    def stamps(self, n: int) -> int:
        """The first of ``n`` fresh stamps, one per deal to solve."""
        self.stamp += n
        return self.stamp - n + 1


def table_bits(tricks: int) -> int:
    """Table size (2**bits entries) for positions of ``tricks`` tricks: 2**(8 + tricks) up to 2**TT_BITS
    (endings of 8-10 tricks run faster in a table that stays in the caches), FULL_DEAL_TT_BITS beyond 12
    tricks (full deals search millions of positions)."""
    return FULL_DEAL_TT_BITS if tricks > 12 else min(TT_BITS, 8 + tricks)


def _holder_codes() -> np.ndarray:
    """(27,) int64: code 0-8 of the holders of a face's copies still out, indexed c0*9 + c1*3 + c2."""
    codes = np.full(27, -1, dtype=np.int64)
    held = [c for c in np.ndindex(3, 3, 3) if 1 <= sum(c) <= 2]
    for code, (c0, c1, c2) in enumerate(held):
        codes[9 * c0 + 3 * c1 + c2] = code
    return codes


HOLDER_CODES = _holder_codes()
KEY_BASE = 19
"""Digits of a suit's key: 0 no face, else 1 + 2 * holder code (the even digits, which marked a counter
before the key became the power structure, are unused)."""
RUN_CODES = np.array([[0] + [1 + 2 * HOLDER_CODES[copies * 3 ** (SEATS - 1 - seat)] for copies in (1, 2)]
                      for seat in range(SEATS)], dtype=np.int64)
"""(3, 3) int64: the digit of ``copies`` (1-2) copies of a face held by one seat alone."""


def _levels() -> np.ndarray:
    """(64, 3) int64 per face's copies in the three hands (2 bits each, seat 0 lowest): copies
    still out, the one seat holding them all (-1: two seats), the digit of a shared face."""
    levels = np.zeros((64, 3), dtype=np.int64)
    for level in range(64):
        c = [bin(level >> (2 * seat) & 3).count("1") for seat in range(SEATS)]
        n = sum(c)
        if not 1 <= n <= 2:
            continue
        seat = c.index(n) if n in c else -1
        levels[level] = n, seat, 1 + 2 * HOLDER_CODES[9 * c[0] + 3 * c[1] + c[2]]
    return levels


LEVELS = _levels()
_SUIT_BITS = np.uint64((1 << CARDS_PER_SUIT) - 1)
_COUNTER_RANKS = sum(1 << r for r in range(N_RANKS) if int(COUNTERS) >> (2 * r) & 1)
"""Bit r set: rank r is a counter (A 10 K)."""
HALF_RANKS = N_RANKS // 2
"""The counters are the upper half of the ranks (K 10 A), the losers the lower half (9 J Q)."""
if _COUNTER_RANKS != (1 << N_RANKS) - (1 << HALF_RANKS):
    raise AssertionError("the half tables of `_suit_digits` need the counters to be the top ranks")


@njit_inline
def _seat(n):
    """``n % SEATS`` for 0 <= n < 2 * SEATS (a seat plus at most two places): one compare, not the
    signed modulo."""
    return n - SEATS if n >= SEATS else n


@njit_inline
def _copies(hand, face):
    """Copies (0-2) of ``face`` in a hand mask."""
    return popcount(hand & (np.uint64(3) << np.uint64(2 * face)))


def _run_digits(seat: int, n: int) -> list[int]:
    """The key digits of a run of ``n`` cards held by ``seat`` alone, written as pairs of copies
    whatever their ranks and points (the power structure: counters are not told from losers)."""
    return [int(RUN_CODES[seat, 2])] * (n // 2) + ([int(RUN_CODES[seat, 1])] if n % 2 else [])


def _scan(levels, run=None) -> tuple[list[int], list[int] | None]:
    """(digits, open run): the key digits of faces from the highest down, given by their `LEVELS` rows,
    after an open run [seat, cards] of the faces above (None: none); the run still open at the end (a
    run of one seat's faces, counted by its cards) is not written."""
    digits = []
    for n, seat, code in levels:
        if n == 0:
            continue
        if run and seat != run[0]:
            digits += _run_digits(*run)
            run = None
        if seat >= 0:
            run = run or [seat, 0]
            run[1] += n
        else:
            digits.append(code)
    return digits, run


def rank_digits(m0: int, m1: int, m2: int) -> list[int]:
    """The key digits of one suit (`_relative_key`), highest first, from its 12-bit masks in the three
    hands, rank by rank: the definition, from which `_suit_digits` reads them by tables."""
    levels = [LEVELS[(m0 >> 2 * r & 3) | (m1 >> 2 * r & 3) << 2 | (m2 >> 2 * r & 3) << 4]
              for r in range(N_RANKS - 1, -1, -1)]
    digits, run = _scan([tuple(int(x) for x in level) for level in levels])
    return digits + (_run_digits(*run) if run else [])


def _number(digits: list[int]) -> int:
    """The base-19 number of key digits, highest first."""
    value = 0
    for digit in digits:
        value = value * KEY_BASE + digit
    return value


HALF_STATES = [c for c in np.ndindex(3, 3, 3) if sum(c) <= 2]
"""The copies (0-2 each, at most 2 in all) of one face in the three hands."""
RUN_STATES = SEATS * (N_RANKS + 1)
"""Open runs handed from the upper half to the lower: seat * 7 + cards (0-6; 0: none)."""


def _half_tables() -> tuple[np.ndarray, ...]:
    """Tables of `_suit_digits`: (64,) base-3 value of three 2-bit copy counts (0-2) of a half suit in
    one hand; per half-suit layout (index: the three hands' base-3 values, base 27) its number 0-999;
    per upper half's number the digits before its open run (a run of one seat's faces may go on into
    the lower half) and that run (`RUN_STATES`); per lower half's number * RUN_STATES + open run the
    digits of the lower half after that run (the run included) and 19 ** (their count), all int64."""
    base3 = np.zeros(4 ** HALF_RANKS, dtype=np.int64)
    for x in range(4 ** HALF_RANKS):
        base3[x] = sum((x >> 2 * f & 3) * 3 ** f for f in range(HALF_RANKS))
    n_layouts = len(HALF_STATES) ** HALF_RANKS
    number = np.zeros(3 ** (SEATS * HALF_RANKS), dtype=np.int64)
    upper, upper_run = np.zeros(n_layouts, dtype=np.int64), np.zeros(n_layouts, dtype=np.int64)
    lower, scale = np.zeros(n_layouts * RUN_STATES, dtype=np.int64), np.zeros(n_layouts * RUN_STATES, dtype=np.int64)
    for layout in np.ndindex(*[len(HALF_STATES)] * HALF_RANKS):  # face f's state layout[f]
        i = sum(state * len(HALF_STATES) ** f for f, state in enumerate(layout))
        number[sum(HALF_STATES[state][seat] * 3 ** f * 27 ** seat for f, state in enumerate(layout)
                   for seat in range(SEATS))] = i
        levels = [tuple(int(x) for x in LEVELS[sum(((1 << HALF_STATES[state][seat]) - 1) << 2 * seat
                                                   for seat in range(SEATS))]) for state in reversed(layout)]
        digits, run = _scan(levels)
        upper[i], upper_run[i] = _number(digits), (run[0] * (N_RANKS + 1) + run[1]) if run else 0
        for state in range(RUN_STATES):
            seat, cards = divmod(state, N_RANKS + 1)
            digits, run = _scan(levels, [seat, cards] if cards else None)
            digits += _run_digits(*run) if run else []
            lower[i * RUN_STATES + state], scale[i * RUN_STATES + state] = _number(digits), KEY_BASE ** len(digits)
    return base3, number, upper, upper_run, lower, scale


HALF_BASE3, HALF_NUMBER, UPPER_DIGITS, UPPER_RUN, LOWER_DIGITS, LOWER_SCALE = _half_tables()


@njit_inline
def _half_index(c0, c1, c2, shift):
    """Layout number (0-999) of the half at bit ``shift`` of the copy counts (`_suit_digits`)."""
    return HALF_NUMBER[HALF_BASE3[(c0 >> shift) & 63] + 27 * HALF_BASE3[(c1 >> shift) & 63]
                       + 729 * HALF_BASE3[(c2 >> shift) & 63]]


@njit_inline
def _suit_digits(h0, h1, h2, s):
    """The key digits of suit ``s`` (`_relative_key`, `rank_digits`) in the hands h0, h1, h2 (uint64
    masks of seats 0-2): uint64, base 19, at most 6 digits, read from tables by the halves' layouts
    (`_half_tables`: the upper half's digits, then the lower half's after the upper's open run)."""
    shift = np.uint64(CARDS_PER_SUIT * s)
    m0 = np.int64((h0 >> shift) & _SUIT_BITS)
    m1 = np.int64((h1 >> shift) & _SUIT_BITS)
    m2 = np.int64((h2 >> shift) & _SUIT_BITS)
    c0, c1, c2 = m0 - ((m0 >> 1) & 0x555), m1 - ((m1 >> 1) & 0x555), m2 - ((m2 >> 1) & 0x555)  # copies per face
    upper = _half_index(c0, c1, c2, 2 * HALF_RANKS)
    lower = _half_index(c0, c1, c2, 0) * RUN_STATES + UPPER_RUN[upper]
    return np.uint64(UPPER_DIGITS[upper] * LOWER_SCALE[lower] + LOWER_DIGITS[lower])


@njit_inline
def _relative_key(h0, h1, h2, trump):
    """(word, word, order): two uint64 words naming the power structure (the class of layouts of one
    game tree) of the position (at a trick start) with the hands h0, h1, h2 (uint64 masks of seats
    0-2), and the suits in the order the words list them (2 bits each, the first lowest).

    Per suit, from the highest rank down, the faces still held by anyone as base-19 digits (who
    holds the copies), except that every run of faces held by one player alone, with no card of
    another player ranked between them, is written by its number of cards only (`_run_digits`, as
    pairs of copies); a suit held by one player alone is one run. Card points are not in the key:
    it is the layout's power structure.

    Why positions with equal words have the same game tree (same leader, trump and bidder): match
    the cards of the two layouts suit by suit, keeping each player's cards his own, slot by slot in
    the order of the digits (a run's cards in any order: take its counters first). The match keeps
    every card's suit, and for any two cards of *different* players whether one ranks above the other
    or both are copies of one face: faces held by two players are written one by one, and a run lies
    wholly between the same faces of the others. The legal moves and trick winners use nothing else:
    the trick winner (R5.3, R5.4: higher card of the suit led or trump, the first of two identical
    cards) and the duty to head (R5.2, every rule) compare only cards of different players (the cards
    already in the trick against the one to play). So every line of play in one layout maps to a line
    of the other with the same legal choices and winners; only the points of the matched cards may
    differ (`_widened` bounds the values by that; equal counters per suit, equal values, as counters
    A 10 K outrank losers Q J 9 and so come first in every suit's slots). Cards already played (and ranks
    no longer in play) do not appear, so positions reached after different tricks share entries.
    The words list the trump suit first, then the plain suits by their digits (renaming the plain
    suits among themselves changes nothing either: the rules name only the suit led and trump).
    This is the key's definition (the tests check it); `_search` builds the same words with `_ordered_key`
    from suit digits kept from the trick start above.
    """
    a, b, c = (trump + 1) % N_SUITS, (trump + 2) % N_SUITS, (trump + 3) % N_SUITS
    return _ordered_key(_suit_digits(h0, h1, h2, trump), _suit_digits(h0, h1, h2, a), _suit_digits(h0, h1, h2, b),
                        _suit_digits(h0, h1, h2, c), trump)


@njit_inline
def _ordered_key(dt, da, db, dc, trump):
    """`_relative_key` from the suits' digits (`_suit_digits`): dt of the trump suit, da, db, dc of the
    suits trump + 1, + 2, + 3 (mod 4)."""
    a, b, c = (trump + 1) % N_SUITS, (trump + 2) % N_SUITS, (trump + 3) % N_SUITS
    if da > db:
        a, b, da, db = b, a, db, da
    if db > dc:
        b, c, db, dc = c, b, dc, db
    if da > db:
        a, b, da, db = b, a, db, da
    base = np.uint64(KEY_BASE ** N_RANKS)
    return dt * base + da, db * base + dc, trump + 4 * a + 16 * b + 64 * c


@njit_inline
def _relative_index(hands, face, order):
    """8 * the suit's position in ``order`` (the packed `_relative_key` order) + the place of
    ``face`` among its suit's faces still out, highest first."""
    s = face // N_RANKS
    position = 0
    while (order >> (2 * position)) & 3 != s:
        position += 1
    everyone = hands[0] | hands[1] | hands[2]
    place = 0
    for r in range(N_RANKS - 1, face % N_RANKS, -1):
        place += _copies(everyone, N_RANKS * s + r) > 0
    return 8 * position + place


@njit_inline
def _face_at(hands, index, order):
    """The face at relative index ``index`` (`_relative_index`), or -1 when the suit has fewer faces."""
    s, place = (order >> (2 * (index // 8))) & 3, index % 8
    everyone = hands[0] | hands[1] | hands[2]
    for r in range(N_RANKS - 1, -1, -1):
        if _copies(everyone, N_RANKS * s + r):
            if place == 0:
                return N_RANKS * s + r
            place -= 1
    return -1


@njit_inline
def one_copy(cards):
    """The cards of a mask with one copy of each face (the lower; two copies play alike)."""
    return cards & ~(((cards >> _ONE) & cards & _PAIRS) << _ONE)


def _drop_tables() -> tuple[np.ndarray, np.ndarray]:
    """Tables of `_representatives`: (4096,) uint8, the faces (6 bits) of a suit's 12-bit card mask,
    and (4096,) uint16, for a suit's faces in the hand's legal cards and outside it (``legal | outside
    << 6``), the cards (both copies) of the legal faces not worth trying: of counters or losers next to
    each other with no card outside between them, all but the highest."""
    faces = np.array([sum(1 << r for r in range(N_RANKS) if m >> 2 * r & 3) for m in range(1 << CARDS_PER_SUIT)],
                     dtype=np.uint8)
    drop = np.zeros(1 << (2 * N_RANKS), dtype=np.uint16)
    for legal in range(1 << N_RANKS):
        for outside in range(1 << N_RANKS):
            kept, dropped = -1, 0
            for r in range(N_RANKS - 1, -1, -1):
                if not legal >> r & 1:
                    continue
                span = ((1 << (kept + 1)) - (1 << r)) if kept >= 0 else 0
                if kept >= 0 and (r >= HALF_RANKS) == (kept >= HALF_RANKS) and not outside & span:
                    dropped |= 3 << 2 * r
                else:
                    kept = r
            drop[legal | outside << N_RANKS] = dropped
    return faces, drop


SUIT_FACES, SUIT_DROPS = _drop_tables()
_SUIT_CARDS = np.uint64((1 << CARDS_PER_SUIT) - 1)


@njit_inline
def _representatives(legal, outside):
    """Legal cards worth trying: one copy per face and the highest of every run of equivalent cards.

    outside: cards not in this hand and not yet played (the other hands and the current trick).
    Two faces of a suit are equivalent when they are both counters or both losers and no card of
    the ranks from the lower to the higher (both included) is outside. Read per suit from tables
    (`_drop_tables`) rather than rank by rank.
    """
    legal = one_copy(legal)
    drop = _NONE
    for s in range(N_SUITS):
        shift = np.uint64(CARDS_PER_SUIT * s)
        index = np.int64(SUIT_FACES[np.int64((legal >> shift) & _SUIT_CARDS)]) \
            | np.int64(SUIT_FACES[np.int64((outside >> shift) & _SUIT_CARDS)]) << N_RANKS
        drop |= np.uint64(SUIT_DROPS[index]) << shift
    return legal & ~drop


@njit_inline
def _legal(hand, top, winner, trump, rule):
    """`legal_cards` of ``hand`` following a trick whose highest card of the suit led is ``top``
    and whose card holding it so far is ``winner`` (both kept up card by card by the search): the
    same rule, without the trick array (`legal_cards` walks the trick for them at every node)."""
    follow = hand & SUITS[top // CARDS_PER_SUIT]
    trumps = hand & SUITS[trump]
    cand = follow if follow else (trumps if trumps else hand)
    if rule == OLD:
        duty = _beaters(winner, trump)
    elif rule == OLD_STRICT:
        duty = _above(top) if follow else _beaters(winner, trump)
    elif rule == NEW1945:
        duty = _beaters(winner, trump) if top // CARDS_PER_SUIT == trump else _NONE
    else:
        duty = _beaters(winner, trump) if follow else _NONE
    win = cand & duty
    return win if win else cand


_RANK_CARDS = np.array([sum(3 << 2 * (N_RANKS * s + r) for s in range(N_SUITS)) for r in range(N_RANKS)],
                       dtype=np.uint64)
"""(6,) uint64: both copies of rank r in every suit."""


@njit_inline
def _ranks(cards):
    """The cards of every suit folded onto the first suit's 12 bits (uint64): bit 2 * rank + copy is set
    when some suit holds that card, so the lowest (highest) set bit gives the lowest (highest) rank held."""
    return (cards | (cards >> np.uint64(CARDS_PER_SUIT)) | (cards >> np.uint64(2 * CARDS_PER_SUIT))
            | (cards >> np.uint64(3 * CARDS_PER_SUIT))) & _SUIT_BITS


@njit_inline
def _weakest(cards, trump):
    """The card of ``cards`` (non-empty, one copy per face) of the lowest trick strength (rank, a
    trump above every plain card), of equals the lowest card. The rank from the folded suits
    (`_ranks`), not by a loop over the ranks (a branch per rank)."""
    plain = cards & ~SUITS[trump]
    if plain:
        return lowest_card(plain & _RANK_CARDS[lowest_card(_ranks(plain)) // 2])
    return lowest_card(cards)


@njit_inline
def _strongest(cards, trump):
    """The card of ``cards`` (non-empty, one copy per face) of the highest trick strength, of equals
    the lowest card."""
    trumps = cards & SUITS[trump]
    if trumps:
        return _highest_card(trumps)
    return lowest_card(cards & _RANK_CARDS[_highest_card(_ranks(cards)) // 2])


@njit_inline
def _next_move(cards, first_face, killer_face, count, trump, own_side_wins, beaters):
    """The card of ``cards`` (the candidates not yet tried, non-empty, one copy per face) to try next:
    a card of ``first_face`` (the shape, table's or guessed lead, -1: none), then of ``killer_face`` (the
    table's lead behind a shape lead, else the killer lead, -1: none), then by the heuristics: at a lead
    (count 0) the bidder (``own_side_wins``) the weakest card, a defender the strongest; to a trick, as
    last to play with the own side holding it the weakest counter, else the weakest non-counter; else
    the weakest card that beats the card holding the trick (``beaters``: `_beaters`), else the weakest
    non-counter, else the weakest counter; of equals the lowest card. Picked from the mask when needed
    (the first move cuts off at most nodes) instead of sorting every candidate by a key."""
    if first_face >= 0 and cards & (np.uint64(3) << np.uint64(2 * first_face)):
        return lowest_card(cards & (np.uint64(3) << np.uint64(2 * first_face)))
    if killer_face >= 0 and cards & (np.uint64(3) << np.uint64(2 * killer_face)):
        return lowest_card(cards & (np.uint64(3) << np.uint64(2 * killer_face)))
    if count == 0:
        return _weakest(cards, trump) if own_side_wins else _strongest(cards, trump)
    if own_side_wins and count == SEATS - 1:
        return _weakest(cards & COUNTERS if cards & COUNTERS else cards, trump)
    if cards & beaters:
        return _weakest(cards & beaters, trump)
    return _weakest(cards & ~COUNTERS if cards & ~COUNTERS else cards, trump)


SHAPE_BITS = 18
"""Most entries of the shape-lead table, 2**SHAPE_BITS (2 MB); a solve of t tricks takes 2**min(18, 3 + t)."""
SHAPE_MIN_TRICKS = 5
"""Trick starts with fewer tricks left neither read nor write shape leads: their searches are too small
for the order to pay for the hash (8-trick endings ran 0.98x without this floor, 1.03x with it)."""


@njit_inline
def _shape(hands, leader):
    """A 64-bit hash of a trick start's shape: the leader, every hand's number of cards per suit and
    the leader's number of counters per suit."""
    shape = np.uint64(leader + 1)
    for s in range(N_SUITS):
        for seat in range(SEATS):
            cards = hands[seat] & SUITS[s]
            shape = shape_mix(shape, popcount(cards) + (8 * popcount(cards & COUNTERS) if seat == leader else 0))
    return shape_done(shape)


@njit_inline
def _shape_entry(shape, face, hand):
    """The shape-lead table's word (`simcore.search.shape_word`) for the lead of ``face`` from ``hand``:
    code 4 * (2 * suit + counter) + the face's place among the hand's faces of its suit and class (0:
    the highest)."""
    s, r = face // N_RANKS, face % N_RANKS
    counter = r >= HALF_RANKS
    place = 0
    for above in range(r + 1, N_RANKS):
        if (above >= HALF_RANKS) == counter and _copies(hand, N_RANKS * s + above):
            place += 1
    return shape_word(shape, 4 * (2 * s + counter) + place)


@njit_inline
def _shape_lead(entry, shape, hand):
    """The face ``hand`` leads by the shape-lead table's word ``entry`` (`_shape_entry`) if it was
    written for ``shape``: of the entry's suit and class, the face at its place (or the lowest of
    them); -1 for none."""
    code = shape_code(entry, shape)
    if code < 0:
        return -1
    s, counter, place = code // 8, (code // 4) % 2 == 1, code % 4
    found = -1
    for r in range(N_RANKS - 1, -1, -1):
        if (r >= HALF_RANKS) == counter and _copies(hand, N_RANKS * s + r):
            found = N_RANKS * s + r
            if place == 0:
                break
            place -= 1
    return found


@njit_inline
def _beyond(mask):
    """Cards ranked above every face of ``mask`` (a mask within one suit; both copies of a face
    count as that face): the bits above the highest face held."""
    if not mask:
        return ~_NONE
    return ~((_ONE << np.uint64((_highest_card(mask) | 1) + 1)) - _ONE)


@njit_inline
def _wins_last_trick(hand, everyone, trumps, leading):
    """True if the player of ``hand`` can make sure to win the last trick: his *top* trumps (ranked
    above every other trump still out, ``everyone``: all cards in play) number at least his other
    cards, his lower trumps among them, one more when not ``leading`` now. He plays a top trump only
    when the rule makes him (he cannot follow, or must follow or beat a trump lead and only a top
    trump does; it wins) or he has nothing else. Such a forced top trump goes to a trick another
    player leads (on lead he leads one of his other cards), and another player leads only now or
    after winning a trick to which he played one of his other cards (a top trump wins its trick);
    so if his last card were not a top trump, all of them were forced before it, and they would
    number at most his other cards less one (plus one when not leading now). His last card is a top
    trump and wins. (Until f6ae80d all his trumps had to be top: the looser rule adds the last trick
    at 0.7% of random endings of 4-8 tricks, 0.999x nodes on endings of 8-12 tricks.)"""
    held = popcount(hand & trumps & _beyond(everyone & trumps & ~hand))
    return held > 0 and 2 * held >= popcount(hand) + (not leading)


@njit_inline
def _sure_bounds(hands, trump, bidder, leader):
    """`_sure_bounds_of` the hands array (seats 0-2) with ``leader`` to lead."""
    return _sure_bounds_of(hands[bidder], hands[_seat(bidder + 1)], hands[_seat(bidder + 2)], trump,
                           _seat(leader + SEATS - bidder))


@njit_inline
def _forced_counters(tricks, left, right):
    """Counters the hands ``left`` and ``right`` (uint64 masks) surely give to ``tricks`` tricks they each play one
    card to: every card beyond a hand's losers is a counter."""
    return max(0, tricks - popcount(left & ~COUNTERS)) + max(0, tricks - popcount(right & ~COUNTERS))


@njit_inline
def _sure_bounds_of(own, left, right, trump, leader):
    """(lower, upper) bounds of the bidder's points from a trick start on, whatever the defence (lower)
    or the bidder's play (upper); own, left, right: the hands of the bidder and of the next two seats
    in play order, ``leader``: the place of the one to lead in that order (0: the bidder).

    A trump above every trump of the other side wins whatever trick it is played to, and one
    player's such trumps fall in different tricks (one card a trick each). Each of those tricks
    brings the side the trump's counter and a card of each opponent, who after his losers has only
    counters to give. The bidder's such points are a lower bound, his trumps counted by the matching
    of `_trump_winners` (the top trumps and those the defenders' higher trumps cannot all beat), and
    with a defender on lead and no trump in the defence by `_trumpless_defence`; all counters still out plus the
    last trick minus the defenders' such points an upper bound, their tricks counted for one
    defender at a time (both defenders' top trumps may fall in one trick). A player who can keep a
    trump to the end (`_wins_last_trick`) adds the last trick to his side's bound (0.96-0.98x nodes
    on endings of 8-12 tricks, 1.02-1.06x faster; about 0.99x nodes on full deals; same values).
    """
    everyone = own | left | right
    trumps = SUITS[trump]
    theirs = (left | right) & trumps
    mine = own & trumps
    top_theirs = theirs & _beyond(mine)
    won, won_counters = _trump_winners(mine, theirs, trump)
    lo = won_counters + _forced_counters(won, left, right)
    lost = max(popcount(left & top_theirs), popcount(right & top_theirs))
    given = popcount(top_theirs & COUNTERS) + max(0, lost - popcount(own & ~COUNTERS))
    lo, hi = COUNTER_POINTS * lo, COUNTER_POINTS * (popcount(everyone & COUNTERS) - given) + LAST_TRICK_BONUS
    if _wins_last_trick(own, everyone, trumps, leader == 0):
        lo += LAST_TRICK_BONUS
    elif _wins_last_trick(left, everyone, trumps, leader == 1) \
            or _wins_last_trick(right, everyone, trumps, leader == 2):
        hi -= LAST_TRICK_BONUS
    if leader != 0 and mine and not theirs:
        lo = max(lo, _trumpless_defence(own, left, right, trump))
    return lo, hi


@njit_inline
def _trump_winners(mine, theirs, trump):
    """(tricks, counters): how many of the bidder's trumps ``mine`` surely win their tricks against the
    defenders' trumps ``theirs`` (uint64 masks), and how many of his trump counters at least.

    A trump of his wins its trick unless a defender plays a trump of at least its face to the same
    trick (the same face first, R5.4); each defender's card goes to one trick, to which the bidder plays
    one card, so the trumps of his beaten are matched to distinct higher or equal trumps of theirs.
    By Hall's theorem for these nested sets (a trump of theirs beats every trump of his up to its face)
    at least max over faces f of (his trumps of face >= f - theirs of face >= f) are not beaten;
    for his counters (A 10 K, the top ranks) the same over the counter faces. Above the highest trump
    of theirs this is his top trumps (`_sure_bounds_of` before the matching); below, trumps that win
    after the higher trumps of theirs have fallen on his other trumps count too."""
    tricks, counters, his, others = 0, 0, 0, 0
    for r in range(N_RANKS - 1, -1, -1):
        face = np.uint64(3) << np.uint64(2 * (N_RANKS * trump + r))
        his += popcount(mine & face)
        others += popcount(theirs & face)
        tricks = max(tricks, his - others)
        if r == HALF_RANKS:
            counters = tricks
    return tricks, counters


@njit_inline
def _trumpless_defence(own, left, right, trump):
    """A lower bound of the bidder's points from a trick start a defender leads, when the defenders
    hold no trumps and the bidder does (own, left, right: the hands of the bidder and of the next two
    seats in play order).

    His *sure* cards: his trumps (no defender can beat them) and his plain cards ranked above every
    card of their suit the defenders hold (`_beyond`: not the same face, so never the second of two
    identical cards; nobody can trump them). He takes a trick with every sure card: until he first
    takes a trick, he plays to each trick his highest card of the suit led if it is sure (legal
    under every rule: it beats the trick), else some card of the suit, and trumps when void (legal
    and forced: he holds trumps, as he plays none before), so he spends only cards that are not sure
    (and takes a trick at the latest when they run out). Once he wins a trick he leads: first all his
    sure plain cards, then the others that are not trumps, trumps only when made to (void in the
    suit led) or holding nothing else. A sure plain card wins when led, and so he keeps the lead
    through them (no sure card was played before: a sure card takes the trick it is played to); a
    trump wins whenever played. So he takes a trick with each of his sure cards, and in those
    tricks each defender gives a counter for every trick beyond his losers (as in `_sure_bounds_of`).
    The last trick too when his trumps outnumber his cards that are not sure: his last card wins if
    it is a trump or a sure plain card (he plays those only to their own suit, leading or following).
    Were it a card not sure, every trump of his went to a trick a defender led and he could not
    follow (a ruff) before the last trick; a defender leads only now or after a trick to which the
    bidder played a card not sure (a sure card takes its trick), other than his last card, so the
    ruffs would number at most his cards not sure, fewer than his trumps.
    Not counted: the counters of the cards the defenders lead into his first trick and of his cards
    not sure. (Brings 7.7-8.0% of the trick starts the search enters on endings of 10-12 tricks
    that end at or above the window with the bound below it to the window, 2.2% on full deals.)"""
    sure = own & SUITS[trump]
    for s in range(N_SUITS):
        if s != trump:
            sure |= own & SUITS[s] & _beyond((left | right) & SUITS[s])
    won = popcount(sure)
    points = popcount(sure & COUNTERS) + _forced_counters(won, left, right)
    return COUNTER_POINTS * points + (LAST_TRICK_BONUS if popcount(own & SUITS[trump]) > popcount(own) - won else 0)


@njit_inline
def _cashed(mine, left, right, s, left_ruffs, right_ruffs):
    """How many of his cards ``mine`` of suit ``s`` a leader wins one after another from the top,
    the other two (hands left, right) following: his card of a round wins if neither other holds a
    card of the suit above it (the first of two identical cards wins, R5.4), or one who does has
    run out of the suit in the earlier rounds (he keeps his high card to the last) and cannot trump
    (``*_ruffs``: he holds trumps; then the card wins only while he still follows)."""
    n_left, n_right = popcount(left & SUITS[s]), popcount(right & SUITS[s])
    won = 0
    while mine:  # his cards from the highest, one by one
        card = _highest_card(mine)
        mine ^= _ONE << np.uint64(card)
        above = SUITS[s] & ~((_ONE << np.uint64((card | 1) + 1)) - _ONE)
        left_above, right_above = (left & above) != _NONE, (right & above) != _NONE
        if left_ruffs:
            if won >= n_left or left_above:
                return won
        elif left_above and won < n_left:
            return won
        if right_ruffs:
            if won >= n_right or right_above:
                return won
        elif right_above and won < n_right:
            return won
        won += 1
    return won


@njit_inline
def _quick_points(lead, left, right, trump):
    """Points the leader's side surely takes from a trick start by cashing winners (a lower bound);
    lead, left, right: the uint64 hands of the leader and of the next two seats in play order.

    In trumps, then in each plain suit, the leader leads his cards from the top while they win
    (`_cashed`: ranked at least as high as every card of the suit the other two still hold, the
    first of two identical cards winning, R5.4), keeping the lead, while both others must follow.
    A player who holds no more trumps than the leader cashes in trumps has none left after those
    rounds (he must follow trumps); one who has trumps left limits a plain suit to as many rounds
    as he has cards of it, as he could trump after. The points: the leader's counters among the
    cards he cashes (his highest, so counters first), and of each other player the counters he
    cannot avoid giving: in each suit his cards of it beyond his losers (he must follow), and over
    all the rounds at least as many counters as the rounds exceed his losers (he plays a card to
    each, following or not); plus the last trick when every trick is cashed. The partner of a
    defender leader counts among the others (he cannot beat the leader's card either, and what he
    gives stays with the side).

    The last trick also when the leader keeps a trump to the end: his trumps all win (``trump_rounds``
    is all of them: a higher trump of another falls before each of his lower ones), and beyond the
    first ``drawn`` rounds (the longer trumps of the other two, who must follow trumps and so hold
    none after them) he holds at least as many trumps as cards not cashed. The line: lead trumps for
    ``drawn`` rounds, cash the plain winners (nobody can trump them), then lead the cards not cashed
    and play a trump only when made to or with nothing else: his trumps are the only ones left, each
    wins its trick whenever played, and he keeps one to the last trick by the count of
    `_wins_last_trick` (leading, all his trumps top). Every trick counted above is still his, with
    the same cards of the others (their trumps all fall in the first rounds), only in another order;
    the last trick is one more 10 points. (0.97-0.98x nodes on endings of 8-12 tricks; raises the
    bound at 6.6% of random endings of 4-8 tricks.)

    Plus the leader's trumps that win whatever the play (`_trump_winners`, against the trumps of both
    others, a partner's counted as a threat too), when some of his trumps do not cash: in any play at least
    ``won`` of his trumps win their tricks and ``won_counters`` of his trump counters among them. Those
    tricks are won with trumps, the cashed plain rounds with plain cards: in the line above, played on in
    any way, he takes at least the plain rounds plus max(trump rounds, won) tricks, with his counters of
    the plain rounds and max(trump counters cashed, won_counters) of his trump counters, and each other
    player plays one card to each of those tricks (his counters beyond his losers, as above); if they make
    all his cards, he takes every trick, the last one too. (All his trumps cash: won <= trump rounds.)
    """
    points, tricks, trump_rounds, forced_left, forced_right, trump_points = 0, 0, 0, 0, 0, 0
    for i in range(N_SUITS):
        s = (trump + i) % N_SUITS  # trumps first
        mine = lead & SUITS[s]
        if not mine:
            continue
        plain = s != trump
        rounds = _cashed(mine, left, right, s, plain and popcount(left & SUITS[trump]) > trump_rounds,
                         plain and popcount(right & SUITS[trump]) > trump_rounds)
        if not plain:
            trump_rounds = rounds
        if rounds == 0:
            continue
        tricks += rounds
        if plain:
            points += min(rounds, popcount(mine & COUNTERS))
        else:
            trump_points = min(rounds, popcount(mine & COUNTERS))
        held = popcount(left & SUITS[s])
        forced_left += max(0, min(rounds, held) - held + popcount(left & SUITS[s] & COUNTERS))
        held = popcount(right & SUITS[s])
        forced_right += max(0, min(rounds, held) - held + popcount(right & SUITS[s] & COUNTERS))
    mine = popcount(lead & SUITS[trump])
    if trump_rounds < mine:  # his trumps that win whatever the play, beyond the trump rounds
        won, won_counters = _trump_winners(lead & SUITS[trump], (left | right) & SUITS[trump], trump)
        tricks += max(0, won - trump_rounds)
        trump_points = max(trump_points, won_counters)
    points += trump_points + max(forced_left, tricks - popcount(left & ~COUNTERS)) \
        + max(forced_right, tricks - popcount(right & ~COUNTERS))
    left_over = popcount(lead) - tricks
    drawn = max(popcount(left & SUITS[trump]), popcount(right & SUITS[trump]))
    last = LAST_TRICK_BONUS if left_over == 0 or (trump_rounds == mine and mine - drawn >= left_over) else 0
    return COUNTER_POINTS * points + last


GUESS_MIN_TRICKS = 8
"""Trick starts with at least this many tricks left and no lead from the table or the shape-lead table
lead by `_lead_guess`."""
_OPEN = 1 << 20


@njit_inline
def _rotated(h0, h1, h2, first):
    """The three hands h0-h2 in play order from place ``first`` (0-2), so that `_guess_leaf` inlines each bound once,
    not once per seat: the solver's first compilation took 47 s instead of 68 s (numba's inliner copies a callee's
    code at every call site), the same nodes and values (100 endings of 10 and 30 of 12 tricks) and 1.00x the speed
    (eight interleaved rounds on one core)."""
    if first == 0:
        return h0, h1, h2
    if first == 1:
        return h1, h2, h0
    return h2, h0, h1


@njit_inline
def _guess_leaf(r0, r1, r2, win, bidder, gained, trump, bidder_leads):
    """The guessed bidder's points at the end of a trick (`_lead_guess`): ``gained`` in it plus, when
    ``bidder_leads`` the trick, the next trick start's lower bound (`_sure_bounds_of`, the quick points
    if he won it), else its upper bound (the same, the defenders' quick points if they won it): the
    side on lead scores a lead by what it surely keeps. r0-r2 the hands left in play order from the
    trick's leader, ``win`` and ``bidder`` places in that order."""
    own, left, right = _rotated(r0, r1, r2, bidder)
    lo, hi = _sure_bounds_of(own, left, right, trump, _seat(win + 3 - bidder))
    if bidder_leads != (win == bidder):
        return gained + (lo if bidder_leads else hi)
    lead, left, right = _rotated(r0, r1, r2, win)
    quick = _quick_points(lead, left, right, trump)
    if bidder_leads:
        return gained + max(lo, quick)
    return gained + min(hi, COUNTER_POINTS * popcount((r0 | r1 | r2) & COUNTERS) + LAST_TRICK_BONUS - quick)


@njit
def _lead_guess(p0, p1, p2, bidder, trump, rule):
    """The face to lead first at a trick start by a one-trick lookahead: an alpha-beta over the trick's
    cards (the candidates and order of `_search`) on `_guess_leaf` at its end; p0-p2 the hands in play
    order from the leader, ``bidder`` the bidder's place in that order (he maximises)."""
    up0, up1, up2 = bidder == 0, bidder == 1, bidder == 2
    best_a, lead = (-1 if up0 else _OPEN), -1
    c0 = _representatives(p0, p1 | p2)
    while c0:
        a = _next_move(c0, -1, -1, 0, trump, up0, _NONE)
        bit_a = _ONE << np.uint64(a)
        c0 ^= bit_a
        r0 = p0 ^ bit_a
        lo_b, hi_b = narrow(best_a, -1, _OPEN, up0)
        best_b = -1 if up1 else _OPEN
        beat_a = _beaters(a, trump)
        c1 = _representatives(_legal(p1, a, a, trump, rule), r0 | p2 | bit_a)
        while c1 and not cut_off(best_b, lo_b, hi_b, up1):
            b = _next_move(c1, -1, -1, 1, trump, up0 == up1, beat_a)
            bit_b = _ONE << np.uint64(b)
            c1 ^= bit_b
            r1 = p1 ^ bit_b
            win_b, card_b = (1, b) if (beat_a >> np.uint64(b)) & _ONE else (0, a)
            top = b if (_above(a) >> np.uint64(b)) & _ONE else a
            lo_c, hi_c = narrow(best_b, lo_b, hi_b, up1)
            best_c = -1 if up2 else _OPEN
            beat_b = _beaters(card_b, trump)
            own = (win_b == bidder) == up2
            c2 = _representatives(_legal(p2, top, card_b, trump, rule), r0 | r1 | bit_a | bit_b)
            while c2 and not cut_off(best_c, lo_c, hi_c, up2):
                c = _next_move(c2, -1, -1, 2, trump, own, beat_b)
                bit_c = _ONE << np.uint64(c)
                c2 ^= bit_c
                win = 2 if (beat_b >> np.uint64(c)) & _ONE else win_b
                gained = COUNTER_POINTS * popcount((bit_a | bit_b | bit_c) & COUNTERS) if win == bidder else 0
                value = _guess_leaf(r0, r1, p2 ^ bit_c, win, bidder, gained, trump, up0)
                best_c = max(best_c, value) if up2 else min(best_c, value)
            best_b = max(best_b, best_c) if up1 else min(best_b, best_c)
        if (best_b > best_a) if up0 else (best_b < best_a):
            best_a, lead = best_b, a
    return lead // 2


@njit_inline
def _word_field(word, field):
    """Field ``field`` (LO, HI, MOVE, CARDS, COUNTS) of a table row's word of fields (column KEY_FIELDS)."""
    return (word >> FIELD_SHIFTS[field]) & FIELD_MASKS[field]


@njit_inline
def _replaced_row(row, tag, tag0, word0, tag1, word1):
    """The row of the bucket ``row``, ``row + 1`` (their tags and words of fields read by the caller) that a
    position of ``tag`` whose key neither holds replaces: a stale one (of an earlier stamp) first, else the
    one with fewer cards left. Scalars only: a helper handed the table arrays costs numba's reference
    counting per call."""
    fresh = tag - tag % 4 + 1
    if tag0 < fresh:
        return row
    if tag1 < fresh or _word_field(word1, CARDS) < _word_field(word0, CARDS):
        return row + 1
    return row


@njit_inline
def _entry_word(lo, hi, value, alpha, beta, move, cards, counts):
    """The word of fields recording a search result as bounds, from the row's bounds lo, hi (0,
    FIELD_MAX for a new position): value <= alpha is an upper bound, >= beta a lower bound; move: the
    best lead as a `_relative_index`; cards: cards still in play; counts: `_suit_counters`."""
    if value <= alpha:
        hi = min(hi, value)
    elif value >= beta:
        lo = max(lo, value)
    else:
        lo = hi = value
    return lo | min(hi, FIELD_MAX) << 12 | (move + 1) << 24 | counts << 32 | cards << 48


@njit_inline
def _suit_counters(everyone, order):
    """The counters still out (``everyone``: the cards in play) per suit, 3 bits each in the order of the
    `_relative_key` (``order``, the first suit lowest)."""
    counts = 0
    for i in range(N_SUITS):
        counts |= popcount(everyone & SUITS[(order >> (2 * i)) & 3] & COUNTERS) << (3 * i)
    return counts


@njit_inline
def _widened(lo, hi, stored, counts):
    """(lo, hi): bounds ``lo``, ``hi`` found for a position with the counters per suit ``stored``
    (`_suit_counters`), made sound for a position of the same key with the counters ``counts``.

    Same key, same power structure: matching the cards still out slot by slot (suit by suit in the
    key's order, in each the faces from the highest, a run of one player's cards counters first) keeps
    every legal move and trick winner, so the two game trees are the same but for the points of the
    cards. The counters of a suit are the first of its slots (A 10 K outrank Q J 9), so slot by slot
    the current position has max(0, counts - stored) counters more in a suit and max(0, stored - counts)
    fewer; every line's points (the last trick is the same trick in both) differ by at most those."""
    more, fewer = 0, 0
    for i in range(N_SUITS):
        c, s = (counts >> (3 * i)) & 7, (stored >> (3 * i)) & 7
        more += max(0, c - s)
        fewer += max(0, s - c)
    return max(0, lo - COUNTER_POINTS * fewer), hi if hi >= FIELD_MAX else hi + COUNTER_POINTS * more


@njit_inline
def _bounds_for(word, counts):
    """(lo, hi) of an entry's word of fields for a position of its key with the counters ``counts``."""
    stored = _word_field(word, COUNTS)
    if stored == counts:
        return _word_field(word, LO), _word_field(word, HI)
    return _widened(_word_field(word, LO), _word_field(word, HI), stored, counts)


@njit_inline
def _holds(tag, k0, k1, row_tag, row_k0, row_k1):
    """Does a row of tag ``row_tag`` and key words ``row_k0``, ``row_k1`` hold the position (k0, k1, ``tag``)?"""
    return row_tag == tag and row_k0 == k0 and row_k1 == k1


@njit_inline
def _probe(tag, k0, k1, counts, tag0, key00, key01, word0, tag1, key10, key11, word1):
    """(found, lo, hi, move): the bounds of the position (k0, k1, ``tag``) with the counters ``counts`` from
    every row of its bucket made for its key (each widened to those counters, `_widened`), and the best lead of
    the row made for its counters, else of the first such row (MOVE field, 0: none)."""
    hit0, hit1 = _holds(tag, k0, k1, tag0, key00, key01), _holds(tag, k0, k1, tag1, key10, key11)
    lo, hi, move = 0, FIELD_MAX, 0
    if hit0:
        lo, hi = _bounds_for(word0, counts)
        move = _word_field(word0, MOVE)
    if hit1:
        lo1, hi1 = _bounds_for(word1, counts)
        lo, hi = max(lo, lo1), min(hi, hi1)
        if not hit0 or (_word_field(word1, COUNTS) == counts and _word_field(word0, COUNTS) != counts):
            move = _word_field(word1, MOVE)
    return hit0 or hit1, lo, hi, move


@njit_inline
def _store_slot(row, tag, k0, k1, counts, tag0, key00, key01, word0, tag1, key10, key11, word1):
    """(slot, lo, hi): the row of the bucket ``row`` to write the position (k0, k1, ``tag``) with the counters
    ``counts`` to, and the bounds known for it (as `_probe`'s). A row made for its key and counters is
    narrowed; else, beside one row of its key made for other counters, the other row is taken (keeping that
    entry) when it is stale or holds no more cards left, of two such rows the one whose widened bounds say
    less; else `_replaced_row`."""
    hit0, hit1 = _holds(tag, k0, k1, tag0, key00, key01), _holds(tag, k0, k1, tag1, key10, key11)
    if not (hit0 or hit1):
        return _replaced_row(row, tag, tag0, word0, tag1, word1), 0, FIELD_MAX
    lo0, hi0 = _bounds_for(word0, counts) if hit0 else (0, FIELD_MAX)
    lo1, hi1 = _bounds_for(word1, counts) if hit1 else (0, FIELD_MAX)
    if hit0 and _word_field(word0, COUNTS) == counts:
        return row, lo0, hi0
    if hit1 and _word_field(word1, COUNTS) == counts:
        return row + 1, lo1, hi1
    lo, hi = max(lo0, lo1), min(hi0, hi1)
    if hit0 and hit1:
        return (row if hi0 - lo0 >= hi1 - lo1 else row + 1), lo, hi
    mine_word, other, other_tag, other_word = (word0, row + 1, tag1, word1) if hit0 else (word1, row, tag0, word0)
    if other_tag < tag - tag % 4 + 1 or _word_field(other_word, CARDS) <= _word_field(mine_word, CARDS):
        return other, lo, hi
    return 2 * row + 1 - other, lo, hi


PLY_K, PLY_COUNT, PLY_LEADER, PLY_ALPHA, PLY_BETA, PLY_ALPHA0, PLY_BETA0, PLY_BEST, PLY_FACE, PLY_MOVES, \
    PLY_CARD, PLY_FIRST, PLY_KILLER, PLY_OWN, PLY_SLOT, PLY_GAINED, PLY_WIN, PLY_WINNER, PLY_TOP, PLY_TRICK, \
    PLY_BEATERS = range(21)
"""Columns of the search stack: trick, cards played in it, leader, window, window on entry, best value
and its face, the candidates not yet tried (a mask), the card played, the table's best lead and the
killer lead (faces, -1: none) and whether the side to play holds the trick (`_next_move`), table row
(-1: none), bidder's points of the move made; the trick so far (count > 0): the slot and card holding
it, the highest card of the suit led, its cards (a mask), and the cards that beat its winner
(`_beaters`)."""
PLY_FIELDS = 21
DEPTH = SEATS * TRICKS + 1
"""Rows of the search stack: one per card still to play, plus the end of the hand."""


@njit
def _search(hands, tricks, plies, keys, data, leads, params, k, count, leader, alpha, beta):
    """The bidder's points from trick ``k`` (0-14), ``count`` cards of it played, on.

    hands (3,) uint64 (restored on return); tricks (15, 3) int64 with the ``count`` cards of the
    current trick at row k (read once: the stack keeps the trick from there on); plies (46, PLY_FIELDS)
    int64 scratch (the search stack);
    keys, data: the transposition table; leads (2**b,) uint64: the shape-lead table (`_shape_entry`);
    params (N_PARAMS,) int64: trump, rule, bidder, nodes (incremented), stamp. Fail-soft alpha-beta: a
    result <= alpha is an upper bound, >= beta a lower bound, in between exact.

    One loop over the stack: enter node d (a leaf, a bound or a table hit gives its value at once,
    else its candidates are noted as a mask), play its next move and enter the child, or take the move
    back and fold the child's value in. The three steps are written out here rather than as helpers:
    an inlined helper with array arguments costs a pair of reference-count updates per array per
    call, which numba does not prune once the helper has a branch or a loop (about a quarter of the
    compiled search's time when they were helpers; same nodes, 1.17-1.5 times faster without).
    """
    plies[0, PLY_K], plies[0, PLY_COUNT], plies[0, PLY_LEADER] = k, count, leader
    plies[0, PLY_ALPHA], plies[0, PLY_BETA] = alpha, beta
    trump, rule, bidder = params[TRUMP], params[RULE], params[BIDDER]
    if count:  # the trick so far, kept up card by card from here on
        win, top, played = 0, tricks[k, 0], _ONE << np.uint64(tricks[k, 0])
        for i in range(1, count):
            card = tricks[k, i]
            if (_beaters(tricks[k, win], trump) >> np.uint64(card)) & _ONE:
                win = i
            if (_above(top) >> np.uint64(card)) & _ONE:
                top = card
            played |= _ONE << np.uint64(card)
        plies[0, PLY_WIN], plies[0, PLY_WINNER], plies[0, PLY_TOP] = win, tricks[k, win], top
        plies[0, PLY_TRICK] = np.int64(played)
    tag_base = 1 + 4 * params[STAMP]
    words = np.empty((DEPTH, 4), dtype=np.uint64)
    digits = np.zeros((DEPTH, N_SUITS + 1), dtype=np.uint64)  # per trick start: digits of suits 0-3, 1 if read
    shapes = np.zeros(DEPTH, dtype=np.uint64)
    shape_slots = np.uint64(leads.size - 1)
    n_rows = keys.shape[0]
    table_start = np.int64(keys.ctypes.data)
    trick = np.empty(SEATS, dtype=np.int64)  # the current trick, for the shared rule kernels
    killers = np.full((TRICKS, SEATS), -1, dtype=np.int64)  # face of the last lead that cut off, per trick and leader
    d, value, entering = 0, -1, True
    while True:
        if entering:  # enter node d: a leaf, a bound or a table hit settles it (value >= 0), else -1
            entering = False
            k, count, leader = plies[d, PLY_K], plies[d, PLY_COUNT], plies[d, PLY_LEADER]
            alpha, beta = plies[d, PLY_ALPHA], plies[d, PLY_BETA]
            value = -1
            if k == TRICKS:
                value = 0
            else:
                params[NODES] += 1
                seat = _seat(leader + count)
                slot, first_face, second_face = -1, -1, -1
                plies[d, PLY_ALPHA0], plies[d, PLY_BETA0] = alpha, beta
                if count == 0 and k == TRICKS - 1:  # the last trick plays itself
                    for i in range(SEATS):
                        trick[i] = lowest_card(hands[_seat(leader + i)])
                    value = 0
                    if _seat(leader + winning_slot(trick, SEATS, trump)) == bidder:
                        value = COUNTER_POINTS * popcount((hands[0] | hands[1] | hands[2]) & COUNTERS) + \
                            LAST_TRICK_BONUS
                elif count == 0:  # a trick start: the bounds, then the table
                    h0, h1, h2 = hands[0], hands[1], hands[2]
                    digits[d, N_SUITS] = 0
                    lo, hi = _sure_bounds(hands, trump, bidder, leader)
                    k0, k1, order, tag, row = _NONE, _NONE, 0, 0, 0
                    if lo < beta and hi > alpha:  # the table may be read: start loading its row
                        # the suits' digits (`_suit_digits`): those of the trick start SEATS plies up (it was
                        # searched, so it read them), the suits of the last trick's cards read again
                        suits = (1 << N_SUITS) - 1
                        if d >= SEATS and digits[d - SEATS, N_SUITS]:
                            suits = 0
                            for i in range(1, SEATS + 1):
                                suits |= 1 << (plies[d - i, PLY_CARD] // CARDS_PER_SUIT)
                            for i in range(N_SUITS):
                                digits[d, i] = digits[d - SEATS, i]
                        for i in range(N_SUITS):
                            if (suits >> i) & 1:
                                digits[d, i] = _suit_digits(h0, h1, h2, i)
                        digits[d, N_SUITS] = 1
                        k0, k1, order = _ordered_key(digits[d, trump], digits[d, (trump + 1) % N_SUITS],
                                                     digits[d, (trump + 2) % N_SUITS],
                                                     digits[d, (trump + 3) % N_SUITS], trump)
                        tag = tag_base + leader
                        row = table_slot(k0, k1, tag, n_rows) & ~1
                        prefetch(table_start + ROW_BYTES * row)
                    quick = _quick_points(hands[leader], hands[_seat(leader + 1)], hands[_seat(leader + 2)],
                                          trump)
                    if leader == bidder:
                        lo = max(lo, quick)
                    else:
                        hi = min(hi, COUNTER_POINTS * popcount((h0 | h1 | h2) & COUNTERS) + LAST_TRICK_BONUS - quick)
                    if hi <= alpha:
                        value = hi
                    elif lo >= beta:
                        value = lo
                    else:
                        counts = _suit_counters(h0 | h1 | h2, order)
                        words[d, 0], words[d, 1], words[d, 2], words[d, 3] = k0, k1, order, counts
                        found, lo_t, hi_t, move = _probe(tag, k0, k1, counts, data[row, KEY_TAG], keys[row, 0],
                                                         keys[row, 1], data[row, KEY_FIELDS], data[row + 1, KEY_TAG],
                                                         keys[row + 1, 0], keys[row + 1, 1], data[row + 1, KEY_FIELDS])
                        slot = row  # the bucket: the result is stored on the way back
                        if found:
                            lo, hi = max(lo, lo_t), min(hi, hi_t)
                            if lo >= beta or lo == hi:
                                value = lo
                            elif hi <= alpha:
                                value = hi
                            else:
                                plies[d, PLY_ALPHA], plies[d, PLY_BETA] = max(alpha, lo), min(beta, hi)
                                first_face = _face_at(hands, move - 1, order)
                if value < 0 and count == 0 and k <= TRICKS - SHAPE_MIN_TRICKS:
                    shapes[d] = _shape(hands, leader)
                    shape_face = _shape_lead(leads[np.int64(shapes[d] & shape_slots)], shapes[d], hands[leader])
                    if shape_face >= 0 and shape_face != first_face:  # the shape lead first, the table's second
                        first_face, second_face = shape_face, first_face
                    if first_face < 0 and k <= TRICKS - GUESS_MIN_TRICKS:
                        first_face = _lead_guess(hands[leader], hands[_seat(leader + 1)], hands[_seat(leader + 2)],
                                                 _seat(bidder + SEATS - leader), trump, rule)
                if value < 0:  # to search: write the moves in order
                    outside = hands[_seat(seat + 1)] | hands[_seat(seat + 2)]
                    own_side_wins = seat == bidder  # at a lead: the bidder leads (`_next_move`)
                    beaters = _NONE
                    if count:
                        winner = plies[d, PLY_WINNER]
                        outside |= np.uint64(plies[d, PLY_TRICK])
                        legal = _legal(hands[seat], plies[d, PLY_TOP], winner, trump, rule)
                        own_side_wins = (_seat(leader + plies[d, PLY_WIN]) == bidder) == (seat == bidder)
                        beaters = _beaters(winner, trump)
                        plies[d, PLY_BEATERS] = np.int64(beaters)
                    else:
                        legal = hands[seat]
                    legal = _representatives(legal, outside)
                    plies[d, PLY_MOVES] = np.int64(legal)
                    plies[d, PLY_FIRST] = first_face
                    plies[d, PLY_KILLER] = second_face if second_face >= 0 else (killers[k, seat] if count == 0 else -1)
                    plies[d, PLY_OWN] = own_side_wins
                    plies[d, PLY_SLOT] = slot
                    plies[d, PLY_BEST] = -1 if seat == bidder else 1 << 20
                    plies[d, PLY_FACE] = -1
        if value < 0:  # node d has moves left to try, unless cut off
            if plies[d, PLY_MOVES] and plies[d, PLY_ALPHA] < plies[d, PLY_BETA]:
                # play the next move and write the child (position and window)
                k, count, leader = plies[d, PLY_K], plies[d, PLY_COUNT], plies[d, PLY_LEADER]
                card = _next_move(np.uint64(plies[d, PLY_MOVES]), plies[d, PLY_FIRST], plies[d, PLY_KILLER], count,
                                  trump, plies[d, PLY_OWN], np.uint64(plies[d, PLY_BEATERS]))
                bit = _ONE << np.uint64(card)
                plies[d, PLY_MOVES] &= ~np.int64(bit)
                plies[d, PLY_CARD] = card
                hands[_seat(leader + count)] &= ~bit
                gained = 0
                if count == 0:
                    plies[d + 1, PLY_WIN], plies[d + 1, PLY_WINNER], plies[d + 1, PLY_TOP] = 0, card, card
                    plies[d + 1, PLY_TRICK] = np.int64(bit)
                    plies[d + 1, PLY_K], plies[d + 1, PLY_COUNT], plies[d + 1, PLY_LEADER] = k, 1, leader
                elif count < SEATS - 1:
                    beats = (np.uint64(plies[d, PLY_BEATERS]) >> np.uint64(card)) & _ONE
                    plies[d + 1, PLY_WIN] = count if beats else plies[d, PLY_WIN]
                    plies[d + 1, PLY_WINNER] = card if beats else plies[d, PLY_WINNER]
                    top = plies[d, PLY_TOP]
                    plies[d + 1, PLY_TOP] = card if (_above(top) >> np.uint64(card)) & _ONE else top
                    plies[d + 1, PLY_TRICK] = plies[d, PLY_TRICK] | np.int64(bit)
                    plies[d + 1, PLY_K], plies[d + 1, PLY_COUNT], plies[d + 1, PLY_LEADER] = k, count + 1, leader
                else:
                    beats = (np.uint64(plies[d, PLY_BEATERS]) >> np.uint64(card)) & _ONE
                    winner = _seat(leader + (count if beats else plies[d, PLY_WIN]))
                    if winner == bidder:
                        taken = np.uint64(plies[d, PLY_TRICK]) | bit
                        gained = COUNTER_POINTS * popcount(taken & COUNTERS) + \
                            (LAST_TRICK_BONUS if k == TRICKS - 1 else 0)
                    plies[d + 1, PLY_K], plies[d + 1, PLY_COUNT], plies[d + 1, PLY_LEADER] = k + 1, 0, winner
                plies[d, PLY_GAINED] = gained
                plies[d + 1, PLY_ALPHA] = plies[d, PLY_ALPHA] - gained
                plies[d + 1, PLY_BETA] = plies[d, PLY_BETA] - gained
                d += 1
                entering = True
                continue
            value = plies[d, PLY_BEST]
            slot = plies[d, PLY_SLOT]
            if plies[d, PLY_COUNT] == 0 and plies[d, PLY_ALPHA] >= plies[d, PLY_BETA] and plies[d, PLY_FACE] >= 0 \
                    and plies[d, PLY_K] <= TRICKS - SHAPE_MIN_TRICKS:
                leads[np.int64(shapes[d] & shape_slots)] = _shape_entry(shapes[d], plies[d, PLY_FACE],
                                                                         hands[plies[d, PLY_LEADER]])
            if slot >= 0:
                k0, k1 = words[d, 0], words[d, 1]
                move = -1 if plies[d, PLY_FACE] < 0 else \
                    _relative_index(hands, plies[d, PLY_FACE], np.int64(words[d, 2]))
                cards = popcount(hands[0] | hands[1] | hands[2])
                tag = tag_base + plies[d, PLY_LEADER]
                row = table_slot(k0, k1, tag, n_rows) & ~1
                counts = np.int64(words[d, 3])
                slot, lo, hi = _store_slot(row, tag, k0, k1, counts, data[row, KEY_TAG], keys[row, 0], keys[row, 1],
                                           data[row, KEY_FIELDS], data[row + 1, KEY_TAG], keys[row + 1, 0],
                                           keys[row + 1, 1], data[row + 1, KEY_FIELDS])
                keys[slot, 0], keys[slot, 1] = k0, k1
                data[slot, KEY_TAG] = tag
                data[slot, KEY_FIELDS] = _entry_word(lo, hi, value, plies[d, PLY_ALPHA0], plies[d, PLY_BETA0], move,
                                                     cards, counts)
        if d == 0:
            return value
        # take back the parent's last move and fold the value into its best and window
        d -= 1
        card = plies[d, PLY_CARD]
        seat = _seat(plies[d, PLY_LEADER] + plies[d, PLY_COUNT])
        hands[seat] |= _ONE << np.uint64(card)
        value += plies[d, PLY_GAINED]
        if seat == bidder:
            if value > plies[d, PLY_BEST]:
                plies[d, PLY_BEST], plies[d, PLY_FACE] = value, card // 2
            plies[d, PLY_ALPHA] = max(plies[d, PLY_ALPHA], value)
        else:
            if value < plies[d, PLY_BEST]:
                plies[d, PLY_BEST], plies[d, PLY_FACE] = value, card // 2
            plies[d, PLY_BETA] = min(plies[d, PLY_BETA], value)
        if plies[d, PLY_COUNT] == 0 and plies[d, PLY_ALPHA] >= plies[d, PLY_BETA]:
            killers[plies[d, PLY_K], seat] = card // 2
        value = -1


@njit_inline
def _shape_table(tricks):
    """A fresh shape-lead table for a search of ``tricks`` tricks (`SHAPE_BITS`)."""
    return np.zeros(1 << min(SHAPE_BITS, 3 + tricks), dtype=np.uint64)


@njit_inline
def _stack(hands, trick, count):
    """(trick number k, tricks (15, 3) with the current trick's ``count`` cards at row k, plies,
    shape-lead table): the scratch of a search from a position (`_search`)."""
    tricks = np.zeros((TRICKS, SEATS), dtype=np.int64)
    k = TRICKS - (popcount(hands[0] | hands[1] | hands[2]) + count) // SEATS
    tricks[k, :count] = trick[:count]
    plies = np.zeros((DEPTH, PLY_FIELDS), dtype=np.int64)
    return k, tricks, plies, _shape_table(TRICKS - k)


@njit
def _reaches_position(hands, trick, count, leader, params, keys, data, target):
    """Does the bidder take at least ``target`` points from the position (as `_solve`; from the current
    trick on)? One null-window search."""
    if target <= 0:
        return True
    if count == 0 and not hands[0] | hands[1] | hands[2]:  # every card played: nothing more to take
        return False
    k, tricks, plies, leads = _stack(hands, trick, count)
    return _search(hands, tricks, plies, keys, data, leads, params, k, count, leader, target - 1,
                   target) >= target


@njit
def _greedy_points(hands, trump, leader, bidder, rule):
    """The bidder's points from a trick start on when all three play the greedy policy
    (`simcore.games.pinochle3_play`: lead the highest card, take the trick as cheaply as possible,
    else throw the cheapest card): the first guess of `_solve`."""
    h = hands.copy()
    trick = np.empty(SEATS, dtype=np.int64)
    n, points = popcount(h[leader]), 0
    for k in range(n):
        taken = _NONE
        for count in range(SEATS):
            seat = _seat(leader + count)
            card = _greedy(legal_cards(h[seat], trick, count, trump, rule), trick, count, trump)
            h[seat] &= ~(_ONE << np.uint64(card))
            taken |= _ONE << np.uint64(card)
            trick[count] = card
        leader = _seat(leader + winning_slot(trick, SEATS, trump))
        if leader == bidder:
            points += COUNTER_POINTS * popcount(taken & COUNTERS) + (LAST_TRICK_BONUS if k == n - 1 else 0)
    return points


@njit
def _solve(hands, trick, count, leader, params, keys, data, lo, hi):
    """Exact bidder points (from the current trick on) between lo and hi by null-window searches
    (MTD(f): test the first guess, then step to each fail-soft bound returned). The first guess at a
    trick start is the greedy play's points (`_greedy_points`), else the upper bound."""
    k, tricks, plies, leads = _stack(hands, trick, count)
    mid = hi
    if count == 0 and lo < hi:
        guess = _greedy_points(hands, params[TRUMP], leader, params[BIDDER], params[RULE])
        mid = min(hi, max(lo + COUNTER_POINTS, guess))
    while lo < hi:
        value = _search(hands, tricks, plies, keys, data, leads, params, k, count, leader, mid - 1, mid)
        if value >= mid:
            lo = value
            mid = lo + COUNTER_POINTS
        else:
            hi = value
            mid = hi
    return lo


@njit
def _solve_many(hands, trumps, leaders, bidders, rule, keys, data, stamp, out, nodes):
    """Exact bidder points of many full deals: hands (n, 3) uint64 -> out (n,) int64, nodes (n,) int64;
    deal i uses table stamp ``stamp + i``."""
    params = np.zeros(N_PARAMS, dtype=np.int64)
    trick = np.zeros(SEATS, dtype=np.int64)
    for i in range(hands.shape[0]):
        params[:] = 0
        params[TRUMP], params[RULE], params[BIDDER], params[STAMP] = trumps[i], rule, bidders[i], stamp + i
        h = hands[i].copy()
        lo, hi = _sure_bounds(h, trumps[i], bidders[i], leaders[i])
        out[i] = _solve(h, trick, 0, leaders[i], params, keys, data, lo, hi)
        nodes[i] = params[NODES]


@njit
def _reaches_many(hands, trumps, leaders, bidders, targets, rule, keys, data, stamp, out):
    """out (n,) bool: can the bidder take at least targets[i] trick points (one null-window search)?"""
    params = np.zeros(N_PARAMS, dtype=np.int64)
    trick = np.zeros(SEATS, dtype=np.int64)
    for i in range(hands.shape[0]):
        params[:] = 0
        params[TRUMP], params[RULE], params[BIDDER], params[STAMP] = trumps[i], rule, bidders[i], stamp + i
        out[i] = _reaches_position(hands[i].copy(), trick, 0, leaders[i], params, keys, data, targets[i])


# --- public API ---------------------------------------------------------------------------------
def _deals(hands, trumps, leaders, bidders):
    """Checked arrays (CardsimError otherwise): hands (n, 3) uint64 masks (or (3,) for one position) of equal card
    counts, at most 15, and no card twice; trumps, leaders, bidders (n,) int64 suits 0-3 and seats 0-2."""
    one = len(checks.shape_of(hands)) == 1
    hands = checks.hand_masks(hands, "hands", DECK.n_cards, SEATS, range(TRICKS + 1), rows=not one)
    hands = hands[None] if one else hands
    n = hands.shape[0]
    trumps = checks.column(trumps, n, "trump (a suit index 0-3, S H D C)", N_SUITS)
    leaders = checks.column(leaders, n, "the leader (a seat 0-2)", SEATS)
    return hands, trumps, leaders, checks.column(bidders, n, "the bidder (a seat 0-2)", SEATS)


def table_for(hands) -> Table:
    """A fresh table sized (`table_bits`) for the largest of the positions ``hands`` (n, 3) uint64."""
    return Table(table_bits(int(np.bitwise_count(hands[:, 0]).max())))


def checked_table(table) -> Table | None:
    """``table`` when it is None (the solver makes one) or a `Table`; CardsimError otherwise."""
    if table is None or isinstance(table, Table):
        return table
    raise CardsimError(f"table must be a pinochle3_solve.Table (or None for a new one), got {layout_text(table)}")


def solve(hands, trumps, leaders, bidders, rule: str = "old", table: Table | None = None,
          with_nodes: bool = False):
    """The bidder's trick points under perfect play by all three (counters taken plus the last trick).

    hands: (n, 3) uint64 masks (or (3,) for one position) of equal size, every trick still to be
    played; trumps, leaders, bidders: (n,) or scalars (suit 0-3, seats 0-2). Returns (n,) int64
    points (and (n,) int64 nodes searched with ``with_nodes``).
    """
    with_nodes = checks.flag(with_nodes, "with_nodes")
    out, nodes = _solved(*_deals(hands, trumps, leaders, bidders), play_rule(rule), table)
    return (out, nodes) if with_nodes else out


def _solved(hands, trumps, leaders, bidders, rule: int, table: Table | None) -> tuple[np.ndarray, np.ndarray]:
    """`solve`'s ((n,) int64 points, (n,) int64 nodes) of checked arrays (`_deals`); rule a `play_rule` code."""
    table = checked_table(table) or table_for(hands)
    out, nodes = np.empty(hands.shape[0], dtype=np.int64), np.empty(hands.shape[0], dtype=np.int64)
    _solve_many(hands, trumps, leaders, bidders, rule, table.keys, table.data, table.stamps(hands.shape[0]), out, nodes)
    return out, nodes


def reaches(hands, trumps, leaders, bidders, targets, rule: str = "old", table: Table | None = None) -> np.ndarray:
    """(n,) bool: does perfect play give the bidder at least ``targets`` (n,) trick points?"""
    hands, trumps, leaders, bidders = _deals(hands, trumps, leaders, bidders)
    targets = checks.column(targets, hands.shape[0], "targets (trick points)", None)
    table = checked_table(table) or table_for(hands)
    out = np.empty(hands.shape[0], dtype=np.bool_)
    _reaches_many(hands, trumps, leaders, bidders, targets, play_rule(rule), table.keys, table.data,
                  table.stamps(hands.shape[0]), out)
    return out


def optimal_line(hands, trump: int, leader: int, bidder: int, rule: str = "old",
                 table: Table | None = None) -> tuple[int, list[tuple[int, int]]]:
    """(value, [(seat, card), ...]): one line of perfect play of a position at a trick start.

    Every card played keeps the bidder's value: at each turn the first legal card, in card order, that
    does. No card gives the bidder more than the value, nor a defender less, so one null-window
    search per card tried tells (`_reaches_position`: the bidder's card keeps it when the rest reaches
    the value still owed, a defender's when the rest does not reach one point more): the same line as
    solving every card exactly, 2.3-3.3 times faster (0.9-2.7 times a solve of the deal, eight full deals).
    """
    if np.ndim(hands) != 1:
        raise CardsimError(f"hands must be the {SEATS} hands of one position, got shape {np.shape(hands)}")
    hands, trumps, leaders, bidders = _deals(hands, trump, leader, bidder)
    trump, leader, bidder = int(trumps[0]), int(leaders[0]), int(bidders[0])
    table = checked_table(table) or table_for(hands)
    code = play_rule(rule)
    params = np.zeros(N_PARAMS, dtype=np.int64)
    params[TRUMP], params[RULE], params[BIDDER] = trump, code, bidder
    params[STAMP] = table.stamps(1)
    h = hands[0].copy()
    trick = np.zeros(SEATS, dtype=np.int64)
    value = int(_solve(h.copy(), trick, 0, leader, params, table.keys, table.data, 0, 260))
    line, banked = [], 0
    while h.any():
        count = len(line) % SEATS
        seat = (leader + count) % SEATS
        for card in _cards(legal_cards(h[seat], trick, count, trump, code)):
            h2 = h.copy()
            h2[seat] &= ~(np.uint64(1) << np.uint64(card))
            trick[count] = card
            gained, nxt = _after(trick, count, leader, h2, trump, bidder)
            owed = value - banked - gained  # what the rest must give for this card to keep the value
            reached = _reaches_position(h2, trick, (count + 1) % SEATS, nxt, params, table.keys, table.data,
                                        owed if seat == bidder else owed + 1)
            if reached == (seat == bidder):
                break
        else:
            raise AssertionError("optimal_line lost the solved value")
        h = h2
        line.append((seat, card))
        if count == SEATS - 1:
            banked += gained
            leader = nxt
    return value, line


def _cards(mask) -> list[int]:
    return [c for c in range(DECK.n_cards) if int(mask) >> c & 1]


def _after(trick, count, leader, hands, trump, bidder) -> tuple[int, int]:
    """(bidder's points from a completed trick, next leader); (0, leader) while the trick is open."""
    if count < SEATS - 1:
        return 0, leader
    winner = (leader + int(winning_slot(trick, SEATS, trump))) % SEATS
    last = not hands.any()
    points = COUNTER_POINTS * sum(int(COUNTERS) >> int(c) & 1 for c in trick) + (LAST_TRICK_BONUS if last else 0)
    return (points if winner == bidder else 0), winner


def policy_then_solve(hands, trump: int, bidder: int, dd_tricks: int, policy: str = "greedy", rule: str = "old",
                      u=None, table: Table | None = None) -> int:
    """Partially solved play (a fallback where a full solve is too slow): the bidder's trick points
    when the first ``15 - dd_tricks`` tricks are played by ``policy`` (every seat) and the last
    ``dd_tricks`` perfectly. The bidder leads trick 1 (R5.1); hands (3,) uint64 of 15 cards; u
    (45,) uniforms for the random policy. Discards are not included. The arguments are checked (CardsimError);
    `trusted_policy_then_solve` skips that.
    """
    dd_tricks = checks.whole(dd_tricks, "the solved ending (dd_tricks, tricks)", 0, TRICKS)
    codes, hands, trumps, bidders, u = checked_deals(policy, hands, trump, bidder, u, one_deal=True)
    return trusted_policy_then_solve(hands[0], int(trumps[0]), int(bidders[0]), dd_tricks, codes, play_rule(rule),
                                     u[0], table)


def trusted_policy_then_solve(hands, trump: int, bidder: int, dd_tricks: int, codes, rule: int, u,
                              table: Table | None = None) -> int:
    """`policy_then_solve` without its checks, for the engine's own deals: hands (3,) uint64 (not changed), codes
    (3,) int64 policy codes, rule a `play_rule` code, u (45,) float64."""
    line = trusted_play_line(codes, hands, trump, bidder, rule, u)[:SEATS * (TRICKS - dd_tricks)]
    hands = hands.copy()
    points, leader = 0, bidder
    trick = np.zeros(SEATS, dtype=np.int64)
    for i, (seat, card) in enumerate(line):
        hands[seat] &= ~(np.uint64(1) << np.uint64(card))
        trick[i % SEATS] = card
        if i % SEATS == SEATS - 1:
            gained, leader = _after(trick, SEATS - 1, leader, hands, trump, bidder)
            points += gained
    if dd_tricks == 0:
        return points
    one = np.array([trump, leader, bidder], dtype=np.int64)[:, None]
    return points + int(_solved(hands[None], one[0], one[1], one[2], rule, table)[0][0])
