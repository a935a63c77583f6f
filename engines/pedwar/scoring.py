"""Pedwar scoring: the exact best split of a collection into Straights, Straight Flushes and
Four of a Kinds (with Wilds), plus Goal points.

Exact search, with these without-loss-of-generality facts:
- a number holds at most one Four of a Kind, and it takes every numbered card of that number
  (swapping a card into the Four of a Kind for the Wild that stood in its place never loses);
- a colour holds at most one Straight Flush (two runs of one colour that touch or overlap merge
  into one longer run, and two runs apart would need 9 numbers);
- Straights ignore colours, so what is left for them is a count per number plus a number of Wilds.
The search enumerates the Four of a Kind numbers and each colour's Straight Flush interval with
branch and bound (a numbered card is worth at most 1 more than the Straight point it would get
otherwise), and solves the Straights exactly with a memoised sweep over the numbers whose state is
the open runs by length (1, 2, 3, 4 or more) and the Wilds left; the oldest run closes first and a
run never closes at a number where another opens (the two would merge).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from data.editions import pedwar as edition
from i18n import message_of, msg, said

COLOURS = edition.COLOURS
_COL = {c: i for i, c in enumerate(COLOURS)}
_P4K = edition.FOUR_OF_A_KIND_POINTS
_PSF = edition.STRAIGHT_FLUSH_POINTS
_PST = edition.STRAIGHT_POINTS
assert edition.MIN_RUN == 4 and len(edition.NUMBERS) == 8  # the sweep below is written for these
_NEG = -1000
_WIN4 = tuple(0b1111 << a for a in range(5))
#: Straight Flush intervals (first, last, bit mask over numbers 0..7), at least 4 long.
_INTERVALS = tuple((a, b, ((1 << (b - a + 1)) - 1) << a) for a in range(5) for b in range(a + 3, 8))


def parse_collection(cards: list[str] | tuple[str, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Colour bit masks of the numbered cards per number (index 0 = number 1) and Wilds per colour."""
    pres = [0] * 8
    wild = [0, 0, 0, 0]
    for code in cards:
        if not isinstance(code, str) or len(code) != 2 or code[0] not in _COL:
            raise ValueError(f"not a Pedwar Object card: {code!r}")
        c = _COL[code[0]]
        rank = code[1]
        if rank == edition.WILD:
            wild[c] += 1
        elif rank in "12345678":
            bit = 1 << c
            if pres[int(rank) - 1] & bit:
                raise ValueError(f"{code} appears twice")
            pres[int(rank) - 1] |= bit
        else:
            raise ValueError(f"not a Pedwar Object card: {code!r}")
    return tuple(pres), tuple(wild)


@lru_cache(maxsize=1 << 15)
def _st(v: int, n1: int, n2: int, n3: int, n4: int, wleft: int, r: tuple[int, ...]) -> int:
    """Most numbered cards Straights can use from number v on.

    ``r`` = free numbered cards per number from v; n1..n3 open runs of that length, n4 open runs
    of 4 or more; ``wleft`` Wilds left. -1000 when the open runs cannot all reach 4.
    """
    if not r:
        return 0 if not (n1 or n2 or n3) else _NEG
    rv = r[0]
    short = n1 + n2 + n3
    opened = short + n4
    cap = rv + wleft
    hi = cap if v <= 4 else min(opened, cap)
    best = _NEG
    rest = r[1:]
    for k in range(short, hi + 1):
        a, b, c, d = _step(k, opened, n1, n2, n3, n4)
        if (b and v > 5) or (c and v > 6):
            break
        wild = k - rv if k > rv else 0
        val = (k if k < rv else rv) + _st(v + 1, a, b, c, d, wleft - wild, rest)
        if val > best:
            best = val
    return best


def _step(k: int, opened: int, n1: int, n2: int, n3: int, n4: int) -> tuple[int, int, int, int]:
    """Open runs after covering the next number with k runs (closing the oldest or opening new ones)."""
    if k <= opened:
        return 0, n1, n2, n3 + n4 - (opened - k)
    return k - opened, n1, n2, n3 + n4


def _straights_ub(r: tuple[int, ...], w: int) -> int:
    """Cheap upper bound: cards at numbers that lie in no 4-window the Wilds could complete score 0."""
    z = 0
    for v in range(8):
        if not r[v]:
            z |= 1 << v
    cover = 0
    for win in _WIN4:
        if (z & win).bit_count() <= w:
            cover |= win
    return sum(r[v] for v in range(8) if cover >> v & 1)


Plan = tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...], int]


def _solve(pres: tuple[int, ...], wild: tuple[int, ...]) -> tuple[int, Plan | None]:
    """Best score (without Goal) and a plan: (4K number mask, SF interval mask per colour, r, wilds left)."""
    cm = [0, 0, 0, 0]
    for v in range(8):
        m = pres[v]
        for c in range(4):
            if m >> c & 1:
                cm[c] |= 1 << v
    cand4 = [v for v in range(8) if pres[v] and all(wild[c] for c in range(4) if not (pres[v] >> c) & 1)]
    fsets = []
    for bits in range(1 << len(cand4)):
        need = [0, 0, 0, 0]
        fmask = 0
        pts = 0
        for i, v in enumerate(cand4):
            if bits >> i & 1:
                m = pres[v]
                fmask |= 1 << v
                pts += _P4K * m.bit_count()
                for c in range(4):
                    if not (m >> c) & 1:
                        need[c] += 1
        if need[0] > wild[0] or need[1] > wild[1] or need[2] > wild[2] or need[3] > wild[3]:
            continue
        left = [cm[c] & ~fmask for c in range(4)]
        wl = [wild[c] - need[c] for c in range(4)]
        opts = []
        for c in range(4):
            lc = left[c]
            oc = []
            for a, b, im in _INTERVALS:
                have = (lc & im).bit_count()
                miss = b - a + 1 - have
                if have and miss <= wl[c]:
                    oc.append((have, miss, im))
            oc.sort(key=lambda o: -o[0])
            oc.append((0, 0, 0))
            opts.append(oc)
        bonus = [o[0][0] * (_PSF - _PST) for o in opts]
        nleft = sum(x.bit_count() for x in left)
        fsets.append((pts + _PST * nleft + sum(bonus), pts, fmask, left, wl, opts, bonus, nleft))
    fsets.sort(key=lambda f: -f[0])
    best, plan = 0, None
    for ub, pts, fmask, left, wl, opts, bonus, nleft in fsets:
        if ub <= best and plan is not None:
            break
        suffix = [sum(bonus[c:]) for c in range(5)]
        stack: list[tuple[Any, ...]] = [(0, pts, left, sum(wl), nleft, wl, ())]
        while stack:
            c, p, lf, wsum, nl, wr, chosen = stack.pop()
            if p + _PST * nl + suffix[c] <= best and plan is not None:
                continue
            if c == 4:
                r = tuple(((lf[0] >> v) & 1) + ((lf[1] >> v) & 1) + ((lf[2] >> v) & 1) + ((lf[3] >> v) & 1)
                          for v in range(8))
                if p + _PST * _straights_ub(r, wsum) <= best and plan is not None:
                    continue
                val = p + _PST * _st(0, 0, 0, 0, 0, wsum, r)
                if val > best or plan is None:
                    best, plan = val, (fmask, chosen, tuple(lf), r, wsum)
                continue
            for have, miss, im in reversed(opts[c]):
                if miss > wr[c]:
                    continue
                if have:
                    lf2 = lf[:]
                    lf2[c] = lf[c] & ~im
                    wr2 = wr[:]
                    wr2[c] -= miss
                    stack.append((c + 1, p + _PSF * have, lf2, wsum - miss, nl - have, wr2, (*chosen, im)))
                else:
                    stack.append((c + 1, p, lf, wsum, nl, wr, (*chosen, 0)))
    return best, plan


@lru_cache(maxsize=8192)
def _collections_score(key: tuple[str, ...]) -> int:
    return _solve(*parse_collection(key))[0]


def goal_points(cards: list[str] | tuple[str, ...], goal: int | None) -> int:
    """3 points per card listed on Goal ``goal`` that is in ``cards``."""
    if goal is None:
        return 0
    listed = edition.GOALS[goal]
    return edition.GOAL_POINTS * sum(1 for c in set(cards) if c in listed)


def score_collection(cards: list[str], goal: int | None) -> int:
    """The exact maximum score of ``cards`` (Object card codes) with Goal ``goal`` (1-8 or None)."""
    if goal is not None and (isinstance(goal, bool) or not isinstance(goal, int) or goal not in edition.GOALS):
        raise ValueError(f"no Goal {goal!r}")
    try:
        points = _collections_score(tuple(sorted(cards)))  # parse_collection refuses what is not a card code
    except TypeError:  # unorderable or unhashable items
        raise ValueError(f"not a list of Pedwar Object card codes: {cards!r}") from None
    return points + goal_points(cards, goal)


def _card(c: int, v: int) -> str:
    return f"{COLOURS[c]}{v + 1}"


def _straight_ks(r: tuple[int, ...], w: int) -> list[int]:
    """The run counts per number of one best Straight cover (follows ``_st``)."""
    ks = []
    n1 = n2 = n3 = n4 = 0
    for v in range(8):
        target = _st(v, n1, n2, n3, n4, w, r[v:])
        rv = r[v]
        short = n1 + n2 + n3
        opened = short + n4
        for k in range(short, rv + w + 1):
            a, b, c, d = _step(k, opened, n1, n2, n3, n4)
            wild = k - rv if k > rv else 0
            if (a and v > 4) or wild > w:
                continue
            if min(k, rv) + _st(v + 1, a, b, c, d, w - wild, r[v + 1:]) == target:
                ks.append(k)
                n1, n2, n3, n4, w = a, b, c, d, w - wild
                break
        else:  # pragma: no cover - _st guarantees a move
            raise AssertionError("no Straight move found")
    return ks


def best_collections(cards: list[str] | tuple[str, ...]) -> list[dict[str, Any]]:
    """One best split as {"kind", "label", "cards", "points"} dicts; the points add up to the best score.

    kind is ``four``, ``straight_flush`` or ``straight``; Wilds appear under their own code.
    """
    pres, wild = parse_collection(cards)
    best, plan = _solve(pres, wild)
    if plan is None or best == 0:
        return []
    fmask, chosen, left, r, wsum = plan
    pool = [[f"{COLOURS[c]}{edition.WILD}"] * wild[c] for c in range(4)]
    out: list[dict[str, Any]] = []
    for v in range(8):
        if fmask >> v & 1:
            m = pres[v]
            quad = [_card(c, v) if (m >> c) & 1 else pool[c].pop() for c in range(4)]
            out.append({"kind": "four", "cards": quad, "points": _P4K * m.bit_count(),
                        "label": said("Four of a Kind {value}s", value=v + 1)})
    for c, im in enumerate(chosen):
        if not im:
            continue
        run = []
        nums = 0
        vs = [v for v in range(8) if im >> v & 1]
        for v in vs:
            if (pres[v] >> c) & 1 and not (fmask >> v & 1):
                run.append(_card(c, v))
                nums += 1
            else:
                run.append(pool[c].pop())
        label = said("Straight Flush {first}–{last}", first=_card(c, vs[0]), last=_card(c, vs[-1]))
        out.append({"kind": "straight_flush", "cards": run, "points": _PSF * nums, "label": label})
    if sum(r):
        ks = _straight_ks(r, wsum)
        runs: list[tuple[int, list[str]]] = []  # open runs, oldest first
        closed: list[tuple[int, list[str]]] = []
        for v, k in enumerate(ks):
            while len(runs) > k:
                closed.append(runs.pop(0))
            while len(runs) < k:
                runs.append((v, []))
            free = [_card(c, v) for c in range(4) if (left[c] >> v) & 1]
            for _start, run in runs:
                run.append(free.pop(0) if free else "")
        closed.extend(runs)
        spare = [w for c in range(4) for w in pool[c]]
        for start, run in closed:
            nums = sum(1 for x in run if x)
            filled = [x if x else spare.pop() for x in run]
            out.append({"kind": "straight", "cards": filled, "points": _PST * nums,
                        "label": said("Straight {first}–{last}", first=start + 1, last=start + len(run))})
    if sum(o["points"] for o in out) != best:  # pragma: no cover - internal consistency
        raise AssertionError("breakdown does not add up")
    order = {"four": 0, "straight_flush": 1, "straight": 2}
    out = [o for o in out if o["points"]]
    out.sort(key=lambda o: (order[o["kind"]], o["label"]))
    return out


def collection_line(item: dict[str, Any]) -> str:
    """ "Straight Flush R3–R7: 10"; the cards are listed when a Wild is used or for other kinds."""
    wilds = any(x[1] == edition.WILD for x in item["cards"])
    detail = f" ({' '.join(item['cards'])})" if wilds or item["kind"] != "straight_flush" else ""
    return said("{collection}{cards}: {points}", collection=message_of(item["label"]), cards=detail,
                points=item["points"])


def score_breakdown(cards: list[str], goal: int | None) -> list[str]:
    """Readable lines naming each collection used, e.g. "Straight Flush R3–R7: 10", then the Goal line."""
    lines = [collection_line(o) for o in best_collections(cards)]
    if goal is not None:
        held = [c for c in edition.GOALS[goal] if c in cards]
        lines.append(said("Goal {goal} ({cards}): {points}", goal=goal, cards=" ".join(held) if held
                          else msg("none held"), points=goal_points(cards, goal)))
    return lines
