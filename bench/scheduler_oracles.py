#!/usr/bin/env python3
"""How much could a scheduler gain from knowing how its tasks' searches go? (issue 10)

scheduler_bounds.py gives the clairvoyant bound: an allocation chosen with
every task's future measurements in view. No scheduler sees the future, so
that bound says little about what is reachable. This script replays, over
the same recorded per-task sequences (a task's measurements do not depend on
the scheduler: scheduler_bounds.py), schedulers that know more than DynaTune
but never the future of the run they schedule:

  dynatune        this repository's DynaTune (gap reward, probes; the C++
                  scheduler's defaults), re-implemented here; the script
                  checks that it reproduces the C++ run's measurements to 5%
                  seed by seed (results/schedulers/schedulers*.csv);
  mean-curve      knows every task's mean learning curve (best latency after
                  n measurements, averaged over the other seeds) before the
                  run and gives each slot to the task with the largest
                  expected weighted reduction per measurement over the next
                  1-4 slots: a learning-curve model without error, open loop;
  same|best       reads the expected reduction of a task's next 1-4 slots
                  from the other seeds' runs of the same task, at the same
                  measurement count, weighted by a Gaussian kernel
                  (--bandwidth, in log latency) on how close their best was
                  to this run's: the same curves, conditioned on the run;
  same|spread     the same, the kernel on the spread log(median / best)
                  (--spread-bandwidth) instead of the best latency;
  kin|spread      the same, with runs of the other recorded spaces of the
                  same kernel (the kernel on sibling devices; every other
                  space when there is none) instead of the task's own: what
                  a tuning database of earlier runs could give;
  bound           the clairvoyant bound (scheduler_bounds.py's `fewest`).

The oracles use full slots of --slot measurements (dynatune's probes are
half a slot). Prints, per model, the median measurements to 5% of the best
reachable latency for each, beside what the issue's targets need
(min(sequential / 2, gradient / 1.2), medians from results/schedulers/schedulers*.csv),
and the number of models on which each meets both; writes
results/scheduler_oracles/scheduler_oracles<suffix>.csv (one row per model and seed).

Usage: python3 bench/scheduler_oracles.py [--drawn 12 [--draw-seed 2026]]
           [--models a,b] [--per-task 600] [--cache DIR] [--build build]
--cache keeps the recorded sequences (JSON) so that a second run only
replays; kin|spread draws on every recording in the cache directory when
the run starts (so record every set first, then replay, for it to see
every sibling space: the committed results were made that way).
"""
import argparse, bisect, csv, json, math, os, statistics, sys, tempfile
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from schedulers import MODELS, draw_models, drawn_suffix  # noqa: E402
from scheduler_bounds import record_sequences, fewest, write_rows  # noqa: E402

LOOKAHEAD = 4  # slots over which the oracles average a reduction


class Task:
    """One task's replay state: its recorded sequence and what was measured."""

    def __init__(self, weight, untuned, seq):
        self.weight, self.untuned, self.seq = weight, untuned, seq
        self.pos, self.best, self.slots = 0, math.inf, 0
        self.valid = []

    def current(self):
        return min(self.untuned, self.best)

    def alive(self):
        return self.pos < len(self.seq)


def replay(info, seq, choose, best_reachable, budget, slot):
    """Measurements until the model is within 5% of its best reachable
    latency (inf if not within the budget), and whether a task ran past its
    recorded sequence first (then the count returned is what was spent
    until then, a lower bound)."""
    tasks = [Task(w, u, s) for (w, u), s in zip(info, seq)]
    target = 1.05 * best_reachable
    trials, slots_done = 0, 0
    while trials < budget:
        if not all(t.alive() for t in tasks):
            return trials, True
        latency = sum(t.weight * t.current() for t in tasks)
        i, n = choose(tasks, latency, slots_done, slot)
        t = tasks[i]
        for _ in range(min(n, budget - trials)):
            if not t.alive():
                return trials, True
            ms = t.seq[t.pos][0]
            t.pos += 1
            trials += 1
            if ms < math.inf:
                t.valid.append(ms)
                t.best = min(t.best, ms)
            if sum(x.weight * x.current() for x in tasks) <= target:
                return trials, False
        t.slots += 1
        slots_done += 1
    return math.inf, False


def dynatune(tasks, latency, slots_done, slot, c=2.0, probe_share=0.5):
    """lib/Tuning/TaskScheduler/DynaTuneScheduler.cpp with its default options."""
    alive = [i for i, t in enumerate(tasks) if t.alive()]
    untried = None
    for i in alive:
        t = tasks[i]
        if (t.slots == 0 or t.pos < 3) and (
                untried is None or t.weight * t.untuned > tasks[untried].weight * tasks[untried].untuned):
            untried = i
    if untried is not None:
        # std::round (halves away from zero), and a probe of a slot or more is a slot
        n = max(math.floor(probe_share * slot + 0.5), 3 - tasks[untried].pos, 1)
        return untried, min(n, slot)
    best_u, best = -math.inf, None
    for i in alive:
        t = tasks[i]
        gap = spread_of(t)
        reward = t.weight * t.current() * gap / max(1, t.slots) * 100 / latency if gap > 0 else 0.0
        u = reward + math.sqrt(c * math.log(slots_done + 1) / t.slots)
        if u > best_u:
            best_u, best = u, i
    return best, slot


class Run:
    """One recorded run of a task: its best latency and its spread,
    log(median / best) of its valid measurements (0 with fewer than two),
    after n = 0, 1, ... measurements."""

    def __init__(self, untuned, seq, max_n):
        self.best, self.spread = [untuned], [0.0]
        b, valid = untuned, []
        for ms, _ in seq[:max_n]:
            if ms < math.inf:
                b = min(b, ms)
                bisect.insort(valid, ms)
            self.best.append(b)
            self.spread.append(log_spread(valid))

    def at(self, values, n):
        return values[min(n, len(values) - 1)]


def log_spread(ascending):
    """log(median / best) of sorted latencies, the upper median as in
    DynaTuneScheduler.cpp; 0 with fewer than two."""
    if len(ascending) < 2 or ascending[0] <= 0:
        return 0.0
    return math.log(ascending[len(ascending) // 2] / ascending[0])


def spread_of(task):
    return log_spread(sorted(task.valid))


def mean_curve_oracle(info, runs, seed):
    """Greedy on the other seeds' mean curves, known before the run."""
    curves = []
    for k, (w, _) in enumerate(info):
        others = [r.best for s, r in runs[k].items() if s != seed]
        length = min(len(o) for o in others)
        curves.append([w * sum(o[n] for o in others) / len(others) for n in range(length)])

    def choose(tasks, latency, slots_done, slot):
        def value(i):
            c, n = curves[i], tasks[i].pos
            return max((c[min(n, len(c) - 1)] - c[min(n + j * slot, len(c) - 1)]) / (j * slot)
                       for j in range(1, LOOKAHEAD + 1))
        return max((i for i, t in enumerate(tasks) if t.alive()), key=value), slot
    return choose


def conditional_oracle(info, neighbours, state, bandwidth):
    """The expected reduction of a task's next 1-4 slots is read from other
    runs (neighbours(i): a list of Run) at the same measurement count, each
    weighted by a Gaussian kernel on the distance between its state and the
    run's own: state "best" compares log best latencies (meaningful only
    between runs of the same space), "spread" compares spreads (scale-free).
    Their relative reduction 1 - best(n + j slot) / best(n) is applied to
    the task's current latency."""

    def choose(tasks, latency, slots_done, slot):
        def value(i):
            t, n = tasks[i], tasks[i].pos
            mine = math.log(t.current()) if state == "best" else spread_of(t)
            num, den = [0.0] * (LOOKAHEAD + 1), 0.0
            for r in neighbours(i):
                here = r.at(r.best, n)
                theirs = math.log(here) if state == "best" else r.at(r.spread, n)
                kw = math.exp(-0.5 * ((mine - theirs) / bandwidth) ** 2) + 1e-12
                den += kw
                for j in range(1, LOOKAHEAD + 1):
                    num[j] += kw * (1 - r.at(r.best, n + j * slot) / here)
            return max(t.weight * t.current() * num[j] / den / (j * slot)
                       for j in range(1, LOOKAHEAD + 1))
        return max((i for i, t in enumerate(tasks) if t.alive()), key=value), slot
    return choose


def read_cache(path):
    """A recording written by load_or_record: (JSON fields, sequences by
    seed with failed measurements as inf)."""
    d = json.load(open(path))
    seqs = {int(s): [[(math.inf if ms is None else ms, sec) for ms, sec in t] for t in v]
            for s, v in d["seqs"].items()}
    return d, seqs


def kin_pool(cache, max_n):
    """Runs of every recorded space in the cache directory, by space (each
    space once, from the first file that holds it)."""
    pool = {}
    for name in sorted(os.listdir(cache)):
        if not name.endswith(".json"):
            continue
        d, seqs = read_cache(os.path.join(cache, name))
        for k, ((path, _), (_, untuned)) in enumerate(zip(d["tasks"], d["info"])):
            if path not in pool:
                pool[path] = [Run(untuned, seq[k], max_n) for seq in seqs.values()]
    return pool


def kin_of(path, pool):
    """Runs of the other spaces of the same kernel (another device), or of
    every other space when the kernel was recorded on one device only."""
    kernel = os.path.dirname(path)
    kin = [r for p, runs in pool.items() if p != path and os.path.dirname(p) == kernel
           for r in runs]
    return kin or [r for p, runs in pool.items() if p != path for r in runs]


def load_or_record(dltune, name, tasks, args, tmp):
    path = os.path.join(args.cache, f"{name}{args.cache_suffix}.json") if args.cache else None
    if path and os.path.exists(path):
        d, seqs = read_cache(path)
        if d.get("per_task") != args.per_task:
            sys.exit(f"{path} holds {d.get('per_task')} measurements per task, not --per-task "
                     f"{args.per_task}")
        return d["best"], d["info"], seqs
    best, info, seqs = record_sequences(dltune, name, tasks, args.per_task, args.seeds, args.slot, tmp)
    if path:
        os.makedirs(args.cache, exist_ok=True)
        json.dump({"best": best, "info": info, "tasks": tasks, "per_task": args.per_task,
                   "seqs": {str(s): [[[None if ms == math.inf else ms, sec] for ms, sec in t]
                                     for t in v] for s, v in seqs.items()}}, open(path, "w"))
    return best, info, seqs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(os.path.dirname(HERE), "build"))
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--per-task", type=int, default=600, help="measurements recorded per task")
    ap.add_argument("--trials-per-task", type=int, default=300, help="the model budget per task")
    ap.add_argument("--slot", type=int, default=32)
    ap.add_argument("--models", default=None)
    ap.add_argument("--drawn", type=int, default=0)
    ap.add_argument("--draw-seed", type=int, default=2026)
    ap.add_argument("--bandwidth", type=float, default=0.05, help="same|best's kernel (log latency)")
    ap.add_argument("--spread-bandwidth", type=float, default=0.1,
                    help="the kernel of same|spread and kin|spread")
    ap.add_argument("--cache", default=None, help="directory for the recorded sequences")
    args = ap.parse_args()
    models = draw_models(args.drawn, args.draw_seed) if args.drawn else MODELS
    suffix = drawn_suffix(args.draw_seed) if args.drawn else ""
    args.cache_suffix = f"_s{args.draw_seed}" if args.drawn else ""
    dltune = os.path.join(args.build, "bin", "dltune")
    results = os.path.join(HERE, "results")
    measured = defaultdict(dict)  # (model, scheduler) -> seed -> trials to 5%
    with open(os.path.join(results, "schedulers", f"schedulers{suffix}.csv")) as f:
        for r in csv.DictReader(f):
            measured[(r["model"], r["scheduler"])][int(r["seed"])] = float(r["trials_to_5pct"])
    med = statistics.median
    names = ["dynatune", "mean-curve", "same|best", "same|spread", "kin|spread", "bound"]
    print(f"median measurements to 5% of the best reachable model latency, {args.seeds} seeds, "
          f"slots of {args.slot}, budget {args.trials_per_task} per task; kernels: best "
          f"{args.bandwidth}, spread {args.spread_bandwidth}; 'needed': "
          f"min(sequential / 2, gradient / 1.2)")
    print(f"{'model':8} {'needed':>7} {'C++ dynatune':>12} " + " ".join(f"{n:>12}" for n in names)
          + "  python dynatune = C++; replays past the recording")
    rows = []
    within = defaultdict(int)  # column -> models where its median is what the targets need
    count = 0
    pool = None
    with tempfile.TemporaryDirectory() as tmp:
        for model in (args.models or ",".join(models)).split(","):
            best, info, seqs = load_or_record(dltune, model, models[model], args, tmp)
            if pool is None:  # after the first recording, so the cache holds something
                pool = kin_pool(args.cache, args.per_task) if args.cache else {}
            paths = [path for path, _ in models[model]]
            kin = [kin_of(path, pool) for path in paths]
            budget = args.trials_per_task * len(info)
            runs = [{s: Run(info[k][1], seq[k], args.per_task) for s, seq in seqs.items()}
                    for k in range(len(info))]
            got = defaultdict(list)
            lower = defaultdict(list)  # past the recording at its lower bound
            same = past = 0
            cxx = measured.get((model, "dynatune"), {})
            for seed in sorted(seqs):
                seq = seqs[seed]
                others = [[r for s, r in runs[k].items() if s != seed] for k in range(len(info))]
                choosers = {"dynatune": dynatune,
                            "mean-curve": mean_curve_oracle(info, runs, seed),
                            "same|best": conditional_oracle(info, lambda i: others[i], "best",
                                                            args.bandwidth),
                            "same|spread": conditional_oracle(info, lambda i: others[i], "spread",
                                                              args.spread_bandwidth)}
                if pool:
                    choosers["kin|spread"] = conditional_oracle(info, lambda i: kin[i], "spread",
                                                                args.spread_bandwidth)
                r, truncated = {}, {}
                for n, choose in choosers.items():
                    trials, truncated[n] = replay(info, seq, choose, best, budget, args.slot)
                    r[n] = math.inf if truncated[n] else trials
                    lower[n].append(trials)
                    past += truncated[n]
                r["bound"] = fewest(info, seq, 1.05 * best, lambda n, s: 1.0)
                lower["bound"].append(r["bound"])
                same += seed in cxx and cxx[seed] == r["dynatune"]
                for n in names:
                    got[n].append(r.get(n, math.nan))
                rows.append([model, seed] + [r.get(n, math.nan) for n in names]
                            + [" ".join(n for n in truncated if truncated[n])])
            seq_m = med(measured[(model, "sequential")].values())
            grad_m = med(measured[(model, "gradient")].values())
            needed = min(seq_m / 2, grad_m / 1.2)
            count += 1
            for n in names:
                within[n] += med(got[n]) <= needed

            def cell(n):
                # '?': the median would differ if the replays past the recording
                # had reached 5% right there; then it is not known
                return f"{med(got[n]):12.0f}" if med(got[n]) == med(lower[n]) else f"{med(got[n]):11.0f}?"
            print(f"{model:8} {needed:7.0f} {med(cxx.values()) if cxx else math.nan:12.0f} "
                  + " ".join(cell(n) for n in names) + f"  {same} of {len(seqs)} seeds; {past}",
                  flush=True)
    print("'?': the median depends on replays that ran past the recording (raise --per-task)")
    print(f"{'met on':8} {'':7} {'':12} " + " ".join(f"{within[n]} of {count}".rjust(12) for n in names)
          + "  models (median <= needed: both targets)")
    write_rows(os.path.join(results, "scheduler_oracles", f"scheduler_oracles{suffix}.csv"),
               ["model", "seed"] + [f"{n}_trials_to_5pct" for n in names]
               + ["past_recording (inf in these columns: ran past the recorded sequence)"], rows)

if __name__ == "__main__":
    main()
