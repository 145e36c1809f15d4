"""Plain-Python reference of the bet-weighted Giltspiel odds (spec Q7, `analysis.games.giltspiel.odds` with
opponents_bet / opponents_no_bet): deal by deal, the chance that the opponents do what was seen, by flipping their
bluff coin both ways, and the weighted share of every outcome."""

import naive
from simcore.games import giltspiel as g

OUTCOMES = ("win", "stand", "lose", "void")


def seen_by(codes: tuple[int, int], member: int, d_row, communication: str) -> float:
    """d = P(win) - P(lose) that opponent ``member`` (0 or 1) of a team with own codes ``codes`` reads off the table
    row ``d_row`` (indexed by the known code + 1; Auer: + the row's half when the partner holds one)."""
    own, partner = codes[member], codes[1 - member]
    if communication == "partner":
        return float(d_row[max(own, partner) + 1])
    if communication == "none":
        return float(d_row[own + 1])
    return float(d_row[own + 1 + (len(d_row) // 2 if partner >= 0 else 0)])


def team_bets(codes: tuple[int, int], d_row, policy, communication: str, bluffing: bool, value: int = 1) -> bool:
    """Does a team with own codes ``codes`` bet the figure from ``value``? A member bets when he holds an example and
    his d is above the policy's margin, or the team bluffs; the policy must propose value + 1."""
    if policy.max_value < value + 1:
        return False
    return any(codes[k] >= 0 and (bluffing or seen_by(codes, k, d_row, communication) > policy.bet_margin)
               for k in (0, 1))


def team_answer(codes: tuple[int, int], d_row, policy, communication: str, value: int) -> str:
    """The team's answer to a bet from ``value``: the strongest answer of its members holding an example (gut, hold,
    raise), each member by his own d (Spiel aus, from 7: hold above the hold margin; a raise up to max_value)."""
    answers = []
    for k in (0, 1):
        if codes[k] < 0:
            continue
        d = seen_by(codes, k, d_row, communication)
        if value == 7:
            answers.append("hold" if d > policy.hold_margin else "gut")
        elif d <= policy.hold_margin - value / (value + 1):
            answers.append("gut")
        else:
            answers.append("raise" if d > policy.raise_margin and value + 2 <= policy.max_value else "hold")
    return max(answers, key=("gut", "hold", "raise").index, default="gut")


def chain_happens(codes, d_row, policy, communication: str, seen: str, value: int, bluffing: bool,
                  how: str | None = None) -> bool:
    """Do the opponents (own codes ``codes``) do their part of the figure's bets from value 1 to what was ``seen``
    ("bet": they bet from ``value``; "held": they held or raised a bet of ours from it), bets alternating, each of
    their bets after the first a raise or a hold and then a bet, their bluff coin ``bluffing`` spent by a bet? ``how``
    their last bet came: "raise" (a raise of ours from ``value`` - 1), "after_hold" (not a raise) or None (either)."""
    if how == "raise" and value == 1:
        return False
    coin = bluffing
    theirs = {v for v in range(1, value + 1) if (value - v) % 2 == (0 if seen == "bet" else 1)}

    def bets_now(v):
        nonlocal coin
        wanted = team_bets(codes, d_row, policy, communication, False, v)
        bluff = coin and team_bets(codes, d_row, policy, communication, True, v)
        if wanted or bluff:
            coin = False
            return True
        return False

    for v in range(1, value + 1):
        if v in theirs and v == 1 and not bets_now(1):
            return False
        if v not in theirs:  # our bet from v, which they answer
            answer = team_answer(codes, d_row, policy, communication, v)
            if v == value:
                return answer != "gut"
            if v == value - 1 and how is not None and (answer == "raise") != (how == "raise"):
                return False
            if answer == "gut" or (answer == "hold" and not bets_now(v + 1)):
                return False
    return True


def likelihood(codes, d_row, policy, communication: str, seen: str | None, value: int = 1,
               how: str | None = None) -> float:
    """P(the team does what was seen, from ``value``, its last bet coming ``how``): its bluff coin comes up with
    probability policy.bluff."""
    if seen is None:
        return 1.0
    if seen == "no_bet":
        return 1.0 - sum(weight for bluffing, weight in ((False, 1 - policy.bluff), (True, policy.bluff))
                         if team_bets(codes, d_row, policy, communication, bluffing))
    return sum(weight for bluffing, weight in ((False, 1 - policy.bluff), (True, policy.bluff))
               if chain_happens(codes, d_row, policy, communication, seen, value, bluffing, how))


def hand_codes(mask, wild_cards=()) -> tuple[int, int]:
    """(Gleich code, Hanger code) of a hand mask by the plain-Python evaluators of tests/naive.py; ``wild_cards``: the
    Perlique of the deal's trump (§8), if any."""
    cards = naive.cards_of(int(mask))
    if any(c in wild_cards for c in cards):
        return naive.wild_figures(cards, wild_cards)
    return naive.best_gleich(cards), naive.best_hanger(cards)


def perlique_of(turnup_mask) -> tuple[int, ...]:
    """The trump's 7, Unter and Ober, the trump being the turn-up's suit (card = 8 suit + rank, ranks 7 8 9 10 U O
    K A)."""
    suit = naive.cards_of(int(turnup_mask))[0] // 8
    return tuple(8 * suit + rank for rank in (0, 4, 5))


def outcome(ours: int, theirs: int) -> str:
    if ours < 0 and theirs < 0:
        return "void"
    return "win" if ours > theirs else "lose" if ours < theirs else "stand"


def weighted_odds(slots, keep, seat: int, seen: dict, policy, communication: str, d, perlique: bool = False,
                  values: dict | None = None) -> dict:
    """{(figure, outcome): weighted share} and the total weight over the kept deals of ``slots`` (n, slots) uint64
    (hands in slots 0-3, the turn-up in slot 4); ``d``: (2, bins) d rows of the opponents' table; ``perlique``: the
    figures with the trump's Perlique wild; ``values``: the value of each figure's bet seen (default 1); ``seen``:
    figure -> "bet", "no_bet", "held", "raised" or "bet_after_hold" (a bet from its value that came as a raise, or
    after the opponents held)."""
    team = seat % 2
    sums, total = {}, 0.0
    for row, kept in zip(slots, keep):
        if not kept:
            continue
        wild_cards = perlique_of(row[4]) if perlique else ()
        codes = [hand_codes(row[s], wild_cards) for s in range(4)]
        weight = 1.0
        for f, figure in enumerate(g.FIGURES):
            opponents = (codes[1 - team][f], codes[3 - team][f])
            value, what = (values or {}).get(figure, 1), seen.get(figure)
            how = {"raised": "raise", "bet_after_hold": "after_hold"}.get(what)  # how their last bet came
            weight *= likelihood(opponents, d[f], policy, communication, "bet" if how else what, value, how)
        total += weight
        for f, figure in enumerate(g.FIGURES):
            ours = max(codes[team][f], codes[team + 2][f])
            key = (figure, outcome(ours, max(codes[1 - team][f], codes[3 - team][f])))
            sums[key] = sums.get(key, 0.0) + weight
    return ({key: value / total for key, value in sums.items()} if total else {}), total


def facing_by_class(slots, keep, seat: int, policy, communication: str, d, view: str, values,
                    how: str | None = None) -> dict:
    """{(figure, value, code, partner_example): (deals, total weight, weighted wins - losses, weighted wins)} over the
    kept deals of ``slots``: the class is the seat's own best code (``view`` "own"), its team's ("team"), or its own
    with whether its partner holds an example ("signal"; partner_example None for the other views), the weight the
    chance that the opponents bet the figure from ``value`` after the bets alternated from value 1, their last bet
    coming ``how`` (`likelihood`); every class, none included."""
    team, partner = seat % 2, (seat + 2) % 4
    sums = {}
    for row, kept in zip(slots, keep):
        if not kept:
            continue
        codes = [hand_codes(row[s]) for s in range(4)]
        for f, figure in enumerate(g.FIGURES):
            opponents = (codes[1 - team][f], codes[3 - team][f])
            ours = max(codes[seat][f], codes[partner][f])
            result = outcome(ours, max(opponents))
            score = (result == "win") - (result == "lose")
            code = ours if view == "team" else codes[seat][f]
            signal = codes[partner][f] >= 0 if view == "signal" else None
            for value in values:
                weight = likelihood(opponents, d[f], policy, communication, "bet", value, how)
                deals, total, scored, won = sums.get((figure, value, code, signal), (0, 0.0, 0.0, 0.0))
                sums[figure, value, code, signal] = (deals + 1, total + weight, scored + weight * score,
                                                     won + weight * (result == "win"))
    return sums
