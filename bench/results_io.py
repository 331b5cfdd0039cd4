"""Writing a benchmark's results: its rows as NAME.csv and its printed table
as NAME.txt under bench/results/<benchmark>/ (or another directory)."""
import csv, os


def write_results(directory, name, rows, lines):
    """Writes `rows` (dicts with the same keys) to NAME.csv and `lines` to
    NAME.txt, and prints the lines."""
    with open(os.path.join(directory, name + ".csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(directory, name + ".txt"), "w") as f:
        f.write(text + "\n")


RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")


def results_dir(benchmark):
    """bench/results/BENCHMARK, the folder of one benchmark's results
    (created when missing)."""
    path = os.path.join(RESULTS, benchmark)
    os.makedirs(path, exist_ok=True)
    return path
