"""apply-best-flushed.mlir: makes 'another machine' of a database export.

    elsewhere_records.py EXPORT.jsonl OUT.jsonl BEST

Every line of EXPORT gets the device fingerprint cpu-elsewhere (name and
JSON changed to match, timing hot); its ok records all get this machine's
slowest configuration and a time of 0.001 ms. BEST gets this machine's
fastest ok configuration as #dltune.config prints it (knobs sorted).
"""
import json, sys

src, out, best = sys.argv[1:4]
lines = [json.loads(l) for l in open(src) if l.strip()]
records = [l["record"] for l in lines if "record" in l and l["record"].get("status") == "ok"]
records.sort(key=lambda r: r["time_ms"])
fastest, slowest = records[0]["config"], records[-1]["config"]
assert fastest != slowest, "the test needs two configurations"
with open(out, "w") as f:
    for l in lines:
        if "device" not in l:
            continue
        l["device"] = {"fingerprint": "cpu-elsewhere", "name": "another machine",
                       "json": json.dumps({"target": "cpu", "cpu_model": "another machine"})}
        if "record" in l:
            if l["record"].get("status") != "ok":
                continue
            l["record"].update(config=slowest, time_ms=0.001, min_ms=0.001, max_ms=0.001)
        f.write(json.dumps(l) + "\n")
knobs = dict(kv.split("=") for kv in fastest.split(","))
with open(best, "w") as f:
    f.write(", ".join(f"{k} = {knobs[k]}" for k in sorted(knobs)))
