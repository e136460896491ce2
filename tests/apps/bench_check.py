#!/usr/bin/env python3
"""`cardgames bench` on a small position file: two runs give identical node counts and signature,
the text and JSON outputs agree, and the printed reductions are maxn expansions / expansions.
Times are never checked.  usage: bench_check.py CARDGAMES POSITIONS"""
import json
import subprocess
import sys

binary, positions = sys.argv[1], sys.argv[2]


def run(fmt):
    p = subprocess.run([binary, "bench", "--positions", positions, "--format", fmt],
                       capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        sys.exit(f"bench --format {fmt} failed ({p.returncode}):\n{p.stdout}\n{p.stderr}")
    return p.stdout


def counts(out):
    rows = [json.loads(l) for l in out.splitlines() if l.strip()]
    per = {(r["position"], r["config"]): (r["expansions"], r["nodes"], r["best"]) for r in rows if "position" in r}
    groups = {(r["group"], r["config"]): r for r in rows if "positions" in r}
    final = rows[-1]
    return per, groups, final


a_per, a_groups, a_final = counts(run("json"))
b_per, b_groups, b_final = counts(run("json"))
fail = []
if a_per != b_per:
    diff = [k for k in a_per if a_per[k] != b_per.get(k)]
    fail.append(f"node counts differ between runs: {diff[:5]}")
if a_final["signature"] != b_final["signature"]:
    fail.append(f"signature differs: {a_final['signature']} vs {b_final['signature']}")
if a_final["mismatches"] != 0:
    fail.append(f"{a_final['mismatches']} results disagree with plain max^n")
if a_final["signature"] != sum(v[0] for (pos, cfg), v in a_per.items() if cfg == "speculative+tt"):
    fail.append("signature is not the sum of speculative+tt expansions")
if not any(cfg == "speculative" for (_, cfg) in a_groups):
    fail.append("no speculative row")
for (group, cfg), r in a_groups.items():
    if cfg == "maxn" or "reduction" not in r:
        continue
    want = r["maxn_expansions"] / r["expansions"]
    if abs(r["reduction"] - want) > 1e-9:
        fail.append(f"{group} {cfg}: reduction {r['reduction']} != {want}")
    if r["maxn_expansions"] != a_groups[(group, "maxn")]["expansions"]:
        fail.append(f"{group} {cfg}: maxn_expansions is not the maxn row")

# The text table: the same totals, the reduction printed to two decimals, the same signature.
text = run("text")
sig_lines = [l for l in text.splitlines() if l.startswith("bench signature: ")]
if not sig_lines or int(sig_lines[-1].split(": ")[1]) != a_final["signature"]:
    fail.append(f"text signature line {sig_lines} != {a_final['signature']}")
spec_rows = [l.split() for l in text.splitlines() if l.strip().startswith("speculative ")]
spec_groups = [r for (g, c), r in a_groups.items() if c == "speculative"]
if len(spec_rows) != len(spec_groups):
    fail.append(f"{len(spec_rows)} speculative text rows, {len(spec_groups)} groups")
for row, r in zip(spec_rows, spec_groups):
    if int(row[1]) != r["expansions"] or row[-1] != f"{r['maxn_expansions'] / r['expansions']:.2f}":
        fail.append(f"text row {row} does not match {r}")

if fail:
    sys.exit("\n".join(fail))
print(f"ok: {len(a_per)} searches, signature {a_final['signature']}")
