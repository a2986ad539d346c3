#!/usr/bin/env python3
"""Reference values for the referee's SPRT (tests/referee_stats.rs reads the table this prints).

An independent implementation of the generalized log-likelihood ratio for trinomial (loss,
draw, win) and pentanomial (pair score 0, 1/2, 1, 3/2, 2) counts: empty categories count 1e-3;
p is the empirical distribution over the scores a_i = i/(k-1); under each hypothesis q is the
distribution of maximum likelihood given p among those whose expected score is that of the
hypothesis (logistic Elo: s = 1/(1+10^(-elo/400))) or whose t-value (mu - 1/2)/sigma is
nelo / (800/ln 10), times sqrt(2) for pairs (normalized Elo); LLR = N * sum p_i ln(q1_i/q0_i).

Both fits reduce to q_i = p_i / (1 + x d_i) with sum p_i d_i / (1 + x d_i) = 0, solved here by
bisection: d_i = a_i - s for the expected score, and for the t-value the fixed point of
d_i = a_i - 1/2 - t sigma (1 + ((a_i - mu)/sigma)^2) / 2 with mu, sigma those of q.

Run: python3 tests/data/sprt_reference.py > tests/data/sprt_reference.tsv
"""
import math

EPS = 1e-3


def solve(p, d):
    lo, hi = -1.0 / max(d), -1.0 / min(d)
    w = hi - lo
    lo, hi = lo + w * 1e-15, hi - w * 1e-15
    f = lambda x: sum(pi * di / (1.0 + x * di) for pi, di in zip(p, d))
    for _ in range(300):
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    x = (lo + hi) / 2
    q = [pi / (1.0 + x * di) for pi, di in zip(p, d)]
    t = sum(q)
    return [qi / t for qi in q]


def fit_mean(p, a, s):
    return solve(p, [ai - s for ai in a])


def fit_t(p, a, t):
    q = [1.0 / len(p)] * len(p)
    for _ in range(200):
        mu = sum(qi * ai for qi, ai in zip(q, a))
        sigma = math.sqrt(sum(qi * (ai - mu) ** 2 for qi, ai in zip(q, a)))
        d = [ai - 0.5 - t * sigma * (1 + ((ai - mu) / sigma) ** 2) / 2 for ai in a]
        q = solve(p, d)
    return q


def llr(counts, elo0, elo1, model):
    c = [x if x > 0 else EPS for x in counts]
    n = sum(c)
    p = [x / n for x in c]
    k = len(c)
    a = [i / (k - 1) for i in range(k)]
    if model == "logistic":
        score = lambda e: 1.0 / (1.0 + 10 ** (-e / 400.0))
        q0, q1 = fit_mean(p, a, score(elo0)), fit_mean(p, a, score(elo1))
    else:
        scale = math.sqrt(2) if k == 5 else 1.0
        t = lambda e: e / (800.0 / math.log(10)) * scale
        q0, q1 = fit_t(p, a, t(elo0)), fit_t(p, a, t(elo1))
    return n * sum(pi * math.log(b / aa) for pi, aa, b in zip(p, q0, q1))


CASES = [
    # The values given in issue 8 (logistic).
    ([0, 0, 0, 0, 1], 0, 10, "logistic"),
    ([2, 10, 30, 12, 4], 0, 10, "logistic"),
    ([10, 100, 300, 120, 15], 0, 10, "logistic"),
    ([10, 100, 300, 120, 15], -5, 5, "logistic"),
    # More pentanomial counts.
    ([0, 0, 1, 0, 0], 0, 10, "logistic"),
    ([0, 0, 2, 0, 37], 0, 20, "logistic"),
    ([37, 0, 2, 0, 0], 0, 20, "logistic"),
    ([120, 1100, 2900, 1150, 130], 0, 2, "logistic"),
    ([5, 40, 80, 50, 9], -3, 1, "logistic"),
    ([1, 0, 0, 0, 0], 0, 5, "logistic"),
    ([10, 100, 300, 120, 15], 0, 5, "normalized"),
    ([2, 10, 30, 12, 4], 0, 10, "normalized"),
    ([120, 1100, 2900, 1150, 130], 0, 2, "normalized"),
    ([0, 3, 10, 4, 1], -2, 3, "normalized"),
    # Trinomial counts: losses, draws, wins.
    ([4063, 8620, 4307], 0, 3, "logistic"),
    ([10, 20, 15], 0, 10, "logistic"),
    ([0, 0, 1], 0, 10, "logistic"),
    ([300, 400, 340], -5, 5, "logistic"),
    ([4063, 8620, 4307], 0, 3, "normalized"),
    ([10, 20, 15], 0, 10, "normalized"),
]

if __name__ == "__main__":
    print("# counts\telo0\telo1\tmodel\tllr (from tests/data/sprt_reference.py)")
    for counts, e0, e1, model in CASES:
        value = llr(counts, e0, e1, model)
        print("%s\t%s\t%s\t%s\t%.10f" % (",".join(map(str, counts)), e0, e1, model, value))
