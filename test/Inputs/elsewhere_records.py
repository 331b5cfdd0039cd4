"""apply-best-flushed.mlir: makes 'another machine' of a database export.

    elsewhere_records.py EXPORT.jsonl OUT.jsonl BEST

BEST holds the configuration apply-best gave this machine, as the attribute
prints it ("dltune.config = #dltune.config<k = v, ...>"). Every line of
EXPORT gets the device fingerprint cpu-elsewhere (name and JSON changed to
match, timing hot); its ok records all get one of this machine's other
configurations and a time of 0.001 ms.
"""
import json, re, sys

src, out, best = sys.argv[1:4]
chosen = dict(re.findall(r"(\w+) = (\w+)", open(best).read()))
lines = [json.loads(l) for l in open(src) if l.strip()]
configs = [l["record"]["config"] for l in lines
           if "record" in l and l["record"].get("status") == "ok"]
others = [c for c in configs if dict(kv.split("=") for kv in c.split(",")) != chosen]
assert others, "the test needs a second configuration"
with open(out, "w") as f:
    for l in lines:
        if "device" not in l:
            continue
        l["device"] = {"fingerprint": "cpu-elsewhere", "name": "another machine",
                       "json": json.dumps({"target": "cpu", "cpu_model": "another machine"})}
        if "record" in l:
            if l["record"].get("status") != "ok":
                continue
            l["record"].update(config=others[0], time_ms=0.001, min_ms=0.001, max_ms=0.001)
        f.write(json.dumps(l) + "\n")
