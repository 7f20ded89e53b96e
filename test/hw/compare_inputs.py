#!/usr/bin/env python3
"""Compares warpcheck's predictions with what the H200 measured.

For every test input with a record file test/hw/inputs/<input>.json (made by
test/hw/scripts/measure_inputs.sh + inputs_to_records.py on the GPU), runs
`warpcheck --format=json` on the input and, for every access the tool calls
exact, requires the predicted sectors per request (global) or wavefronts
per request (shared) to equal the measured average within 0.05. Measured
accesses the tool did not report, and exact predictions with no
measurement, are failures too, unless test/hw/inputs/<input>.exceptions.json
names them with the reason (e.g. the compiler removed or merged them;
function, line, space, op; the sectors an array of structs reads past L1
of a launch are excused by line 0, space "global", op "l2_reads").
--records and --inputs may name other folders: test/hw/generated and
test/inputs/generated hold the generated programs (kernel_generator.py).
Atomics are attributed by ncu to the CUDA header that implements them, so
they are compared per kernel launch (all atomic requests of the launch).

With --listings (test/hw/sass: `nvdisasm -gi` listings of the inputs'
cubins, compiled as the measured programs were), warpcheck is given each
input's listing (--sass-listing) and costs the instructions the compiler
emitted: each one it reads is compared where the listing puts it, and per
opcode against the record's SASS rows (totals when every warp was
simulated, else the cost over the ideal). Exceptions marked
"only_without_listing" (a merge, a move, a hoist the listing shows) are
not excused then, those marked "only_with_listing" (what the model
predicts without one, the reconciliation does not follow) only then. An
exception whose line is predicted as measured fails the comparison: it is
to be removed. So does one that no compared row asks for (its line is no
longer measured or reported in that mode).

Assumed predictions (a value the source does not give, a default block)
are not pass or fail: each is printed ASSUMED-AGREES or ASSUMED-DIFFERS
against its record (cost over the ideal) and counted in one informational
line, so that how often they hold is seen.

Prints one line per comparison and 'N passed, M failed'.
"""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from testsupport import Results, run, scratch_dir, warpcheck_binary  # noqa: E402

TOLERANCE = 0.05
# The assumption kinds (docs/json-format.md) that only say which launch
# shape was simulated: the block shape from the kernel, __launch_bounds__ or
# the default block, and a shape standing for launches that could not be
# evaluated. An access assuming nothing else is exact for that shape.
SHAPE_ONLY_ASSUMPTIONS = ("block_shape", "unevaluated_launch")
# The numbers of a run without command-line arguments (the parameters an
# option sets at their defaults): the inputs are measured run without
# arguments (scripts/measure_inputs.sh), so those numbers are compared as
# exact ones.
COMMAND_LINE_ASSUMPTIONS = ("command_line_default",)
# What the compiler is predicted to do without a listing
# (analysis/RegisterPromotion.h): a prediction, compared as one, so that
# the H200 holds the model to account.
MODEL_ASSUMPTIONS = ("kept_in_register", "split_copy")
# An unrolled loop's iterations predicted merged into wider instructions
# (analysis/UnrolledMerges.h): compared too, when the instructions are the
# model's ("merged_instruction" alone, from the source, says only that nvcc
# may merge: those numbers are known to be the separate instructions').
PREDICTED_MERGE = "merged_instruction"
# An input whose host code gives every warp-uniform value the kernels read
# from memory the value warpcheck states for it (4096, or the first of 256,
# 32, 8 that keeps the kernel's arithmetic defined and its __shared__
# indices inside their arrays; element e of a table (e + 1) times it) says
# so with this marker: its accesses that assume only
# those values are compared as exact ones.
STATED_VALUES_MARKER = "HW-STATED-VALUES"
STATED_VALUE_ASSUMPTIONS = ("memory_value", "truncated_sweep")


def base_name(name):
    """'templated<1>' -> 'templated<1>'; 'ns::k<float, 4>' -> 'k<float,4>';
    'k<33U>' (clang's spelling of an unsigned argument) -> 'k<33>' (ncu's)."""
    name = re.sub(r"\s+", "", name)
    name = re.sub(r"(?<=[<,])(-?\d+)[uUlL]+(?=[,>])", r"\1", name)
    return name.split("::")[-1]


def sass_opcode(text):
    """'@!P0  LDS.64 R8, [R2]' -> 'LDS.64'."""
    words = text.split()
    if words and words[0].startswith("@"):
        words = words[1:]
    return words[0] if words else ""


def predicted_items(kernel, stem, with_listing):
    """What warpcheck predicts of a launch, one item per access (as written)
    or, for an access costed with the compiled kernel's listing, per kind
    of instruction counted with it, at the line the listing puts it."""
    items = []
    for a in kernel["accesses"]:
        if os.path.basename(a["file"] or "") != stem + ".cu":
            continue
        metric = "sectors_per_request" if a["space"] == "global" else "wavefronts_per_request"
        if with_listing and a.get("instructions_from") == "listing" and a.get("instructions"):
            for i in a["instructions"]:
                if i["counted_with"] is None and i["requests_simulated"] > 0:
                    # Copies of one instruction the line table spreads over
                    # several lines (other_lines): how its requests divide
                    # among them is not predicted, their cost over the
                    # ideal is.
                    spread = bool(i.get("other_lines"))
                    for line in [i["line"]] + (i.get("other_lines") or []):
                        items.append({"access": a, "line": line, "space": a["space"], "op": a["op"],
                                      "requests": i["requests_simulated"], "value": i[metric],
                                      "ideal": i["ideal_" + metric], "opcode": i["opcode"],
                                      "spread": spread})
            continue
        if a.get("instructions_from") == "model" and not a["requests_simulated"]:
            continue  # every execution predicted merged into its partner's
        line = a["line"]
        if a.get("instructions_from") == "model":
            # Every request of one instruction the model puts on another
            # line (a branch's two loads as one after it, on the line of
            # the value's use): compared there.
            own = [i for i in a.get("instructions") or []
                   if i["counted_with"] is None and i["requests_simulated"] > 0]
            if len(own) == 1 and "moved" in (own[0].get("changes") or []) and \
                    own[0]["requests_simulated"] == a["requests_simulated"]:
                line = own[0]["line"]
        items.append({"access": a, "line": line, "space": a["space"], "op": a["op"],
                      "requests": a["requests_simulated"], "value": a[metric],
                      "ideal": a.get("ideal_" + metric), "opcode": None})
    return items


def compare_items(result, where, kernel, items, r, metric, total_key, measured):
    """Predicted items (predicted_items) of one line and kind against the
    H200's numbers r (a record, or its SASS rows of one opcode summed)."""
    if kernel["simulated_warps"] == kernel["total_warps"] and not any(x.get("spread") for x in items):
        # Every warp of the launch was simulated: compare totals, which
        # predicated-off instructions (counted by ncu's Instructions
        # Executed) cannot blur. Several accesses of one kind on a line add
        # up, as the line's SASS instructions do.
        predicted = sum(x["value"] * x["requests"] for x in items)
        ok = abs(predicted - r[total_key]) <= TOLERANCE * max(1, sum(x["requests"] for x in items))
        result(ok, "%s: predicted %g %s in total (%s per request), measured %g" % (
            where, predicted, total_key, "+".join(str(x["value"]) for x in items), r[total_key]))
        return
    if len(items) == 1 and measured is not None and abs(items[0]["value"] - measured) <= TOLERANCE \
            and not items[0].get("spread"):
        result(True, "%s: predicted %s, measured %s" % (where, items[0]["value"], measured))
        return
    # Several accesses on the line, or warps whose lanes are all predicated
    # off (counted as executed instructions, so they dilute the per-request
    # number): compare the cost over the ideal, which such warps do not
    # change.
    ideal_total = "ideal_" + total_key
    if r.get(ideal_total) and all(x["ideal"] for x in items):
        predicted = sum(x["value"] * x["requests"] for x in items) / \
            sum(x["ideal"] * x["requests"] for x in items)
        observed = r[total_key] / r[ideal_total]
        result(abs(predicted - observed) <= TOLERANCE,
               "%s: predicted %.4g x the ideal %s, measured %.4g x" % (
                   where, predicted, total_key, observed))
        return
    result(False, "%s: predicted %s, measured %s (no ideal to compare with)" % (
        where, "+".join(str(x["value"]) for x in items), measured))


def listing_for(listings, stem, inputs, scratch):
    """The input's listing with its folder of inputs put in, or None."""
    path = os.path.join(listings, stem + ".nvdisasm.txt")
    if not os.path.exists(path):
        return None
    out = os.path.join(scratch, stem + ".nvdisasm.txt")
    with open(path) as f, open(out, "w") as g:
        g.write(f.read().replace("@INPUTS@", os.path.abspath(inputs)))
    return out


class Excuses(dict):
    """An input's exceptions by (function, line, space, op), remembering
    which ones a compared row asked for."""

    def __init__(self, entries):
        super().__init__(entries)
        self.asked = set()

    def __contains__(self, key):
        self.asked.add(key)
        return dict.__contains__(self, key)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--records", required=True)
    ap.add_argument("--inputs", required=True)
    ap.add_argument("--listings", help="folder of the inputs' nvdisasm -gi listings (test/hw/sass)")
    args = ap.parse_args()
    warpcheck = warpcheck_binary(args.build)
    results = Results()
    assumed = []
    with scratch_dir() as scratch:
        compare(args, warpcheck, results, scratch, assumed)
    # Not pass or fail: an assumed number rests on a value the source does
    # not give (the sweep's, a default block), which the measured program
    # may not have taken. How often it is what the H200 measured anyway.
    agree = sum(1 for ok in assumed if ok)
    print("assumed predictions with a measurement: %d, %d of them as measured "
          "(cost over the ideal; informational)" % (len(assumed), agree))
    return results.summary()


def assumed_against_record(tally, where, items, r, total_key):
    """An assumed prediction against its record, cost over the ideal (the
    simulated launch's request counts need not be the program's): printed
    ASSUMED-AGREES or ASSUMED-DIFFERS and tallied; unknown numbers are not."""
    ideal_total = "ideal_" + total_key
    if not r.get(ideal_total) or any(x["value"] is None or not x["ideal"] or not x["requests"]
                                     for x in items):
        return
    predicted = sum(x["value"] * x["requests"] for x in items) / \
        sum(x["ideal"] * x["requests"] for x in items)
    observed = r[total_key] / r[ideal_total]
    ok = abs(predicted - observed) <= TOLERANCE * max(1.0, observed)
    tally.append(ok)
    print("%s %s: assumed %.4g x the ideal %s, measured %.4g x" % (
        "ASSUMED-AGREES" if ok else "ASSUMED-DIFFERS", where, predicted, total_key, observed))


def compare(args, warpcheck, results, scratch, assumed):

    def result(ok, text):
        results.check(text, ok)

    for rec_name in sorted(os.listdir(args.records)):
        if not rec_name.endswith(".json") or rec_name.endswith(".exceptions.json"):
            continue
        stem = rec_name[:-5]
        src = os.path.join(args.inputs, stem + ".cu")
        if not os.path.exists(src):
            result(False, "%s: record without input %s" % (rec_name, src))
            continue
        doc = json.load(open(os.path.join(args.records, rec_name)))
        with open(src, encoding="utf-8", errors="replace") as f:
            comparable_kinds = SHAPE_ONLY_ASSUMPTIONS + MODEL_ASSUMPTIONS + COMMAND_LINE_ASSUMPTIONS + (
                STATED_VALUE_ASSUMPTIONS if STATED_VALUES_MARKER in f.read() else ())
        listing = None
        if args.listings:
            listing = listing_for(args.listings, stem, args.inputs, scratch)
            if not listing:
                result(False, "%s: record without a listing in %s" % (rec_name, args.listings))
                continue
        exc_path = os.path.join(args.records, stem + ".exceptions.json")
        exceptions = json.load(open(exc_path)) if os.path.exists(exc_path) else []
        excused = Excuses({(base_name(e["function"]), e["line"], e["space"], e["op"]): e["reason"]
                           for e in exceptions if not (listing and e.get("only_without_listing")) and
                           not (not listing and e.get("only_with_listing"))})
        rc, out, err = run([warpcheck, "--format=json"] +
                           (["--sass-listing=" + listing] if listing else []) + [stem + ".cu"],
                           cwd=args.inputs)
        # 3: an input whose host code has errors on purpose (host-errors.cu)
        # still has its kernels analysed and reported.
        if rc not in (0, 1, 3) or not out.strip():
            result(False, "%s: warpcheck exited %s: %s" % (stem, rc, err[-2000:]))
            continue
        report = json.loads(out)
        # Launches per kernel. A measured launch is the one warpcheck
        # reports with its block and grid (warpcheck keeps one per distinct
        # shape; a program may launch a shape twice, or launch a shape
        # warpcheck could only assume, or not take a dispatch arm warpcheck
        # follows).
        launches = {}
        for k in report["kernels"]:
            if k.get("status", "analysed") == "analysed":
                launches.setdefault(base_name(k["name"]), []).append(k)
        shapes = {(base_name(km["function"]), km["launch"]): (km["metrics"].get("launch__block_size"),
                                                               km["metrics"].get("launch__grid_size"))
                  for km in doc.get("kernels", [])}

        def count(dims):
            n = 1
            for d in dims or []:
                n *= d
            return n

        def match(fn, launch):
            """The index of warpcheck's launch of fn that ncu's launch is."""
            block, grid = shapes.get((fn, launch), (None, None))
            for i, k in enumerate(launches.get(fn, [])):
                if block is None:
                    return launch if launch < len(launches[fn]) else None
                if count(k["launch"]["block"]) != block:
                    continue
                if k["launch"].get("grid") and grid is not None and count(k["launch"]["grid"]) != grid:
                    continue
                return i
            return None

        def match_shape(fn, kernel, km):
            """Whether ncu's launch km of fn has kernel's block and grid."""
            if base_name(km["function"]) != fn:
                return False
            block, grid = shapes.get((fn, km["launch"]), (None, None))
            return block == count(kernel["launch"]["block"]) and not (
                kernel["launch"].get("grid") and grid is not None and
                count(kernel["launch"]["grid"]) != grid)

        measured_blocks = {(base_name(km["function"]), km.get("launch", 0)): km.get("block")
                           for km in doc.get("kernels", [])}

        def shape_only(a, kernel, fn, launch):
            """An access assumed only for its launch's shape (inferred from the
            kernel, __launch_bounds__ or the default block), run on the H200
            with exactly that shape: its numbers are compared as exact ones."""
            if a["status"] != "assumed":
                return False
            kinds = comparable_kinds
            if a.get("instructions_from") == "model" and a.get("instructions"):
                kinds = kinds + (PREDICTED_MERGE,)
            if not all(kind in kinds for kind in a["assumption_kinds"]):
                return False
            block = kernel["launch"]["block"]
            return measured_blocks.get((fn, launch)) == "(%d, %d, %d)" % tuple(block)

        def same_shape_measurements(fn, kernel, access):
            """Per-request numbers the H200 measured on the access's line in
            the launches of fn whose block and grid are kernel's."""
            metric = "sectors_per_request" if access["space"] == "global" else "wavefronts_per_request"
            out = []
            for r in doc["records"]:
                if base_name(r["function"]) != fn or r["line"] != access["line"] or \
                        r["space"] != access["space"] or r["op"] != access["op"] or r.get(metric) is None:
                    continue
                block, grid = shapes.get((fn, r["launch"]), (None, None))
                if block != count(kernel["launch"]["block"]):
                    continue
                if kernel["launch"].get("grid") and grid is not None and count(kernel["launch"]["grid"]) != grid:
                    continue
                out.append(r[metric])
            return out

        measured_keys = set()
        for r in doc["records"]:
            fn, launch = base_name(r["function"]), r["launch"]
            key = (fn, r["line"], r["space"], r["op"])
            where = "%s:%d %s %s %s (launch %d)" % (stem, r["line"], r["function"], r["space"], r["op"], launch)
            if r["op"] == "atomic":
                continue  # compared per launch below
            index = match(fn, launch)
            if index is None and launches.get(fn) and all(
                    k["launch"]["source"] != "launch" for k in launches[fn]):
                print("SKIP %s: warpcheck could only assume the launch's shape (%s)" % (
                    where, launches[fn][0]["launch"]["description"]))
                continue
            if index is None:
                result(key in excused, where + ": measured, but warpcheck reports no such launch" +
                       (" (excused: %s)" % excused[key] if key in excused else ""))
                continue
            kernel = launches[fn][index]
            measured_keys.add((fn, index, r["line"], r["space"], r["op"]))
            items = [x for x in predicted_items(kernel, stem, listing)
                     if x["line"] == r["line"] and x["space"] == r["space"] and x["op"] == r["op"]]
            metric = "sectors_per_request" if r["space"] == "global" else "wavefronts_per_request"
            total_key = "sectors" if r["space"] == "global" else "wavefronts"
            measured = r.get(metric)
            if not items:
                result(key in excused, where + ": measured %s, warpcheck reports no access" % measured +
                       (" (excused: %s)" % excused[key] if key in excused else ""))
                continue
            if any(x["access"]["status"] != "exact" and not shape_only(x["access"], kernel, fn, launch)
                   for x in items):
                a = [x["access"] for x in items if x["access"]["status"] != "exact"][0]
                print("SKIP %s: warpcheck says %s (%s)" % (where, a["status"], "; ".join(a["assumptions"])))
                assumed_against_record(assumed, where, items, r, total_key)
                continue
            if key in excused:
                # An exception stays only while it is needed: a line the
                # model has come to predict is compared, and its exception
                # reported as one to remove.
                verdicts = []
                compare_items(lambda ok, text: verdicts.append(ok), where, kernel, items, r, metric,
                              total_key, measured)
                if all(verdicts):
                    result(False, "%s: predicted as measured, but excused in %s.exceptions.json: "
                           "remove the exception" % (where, stem))
                else:
                    print("EXCUSED %s: %s" % (where, excused[key]))
                continue
            compare_items(result, where, kernel, items, r, metric, total_key, measured)
            # Per kind of instruction, against the record's SASS rows.
            if listing and all(x["opcode"] for x in items):
                for opcode in sorted(set(x["opcode"] for x in items)):
                    rows = [row for row in r.get("sass_rows", []) if sass_opcode(row["sass"]) == opcode]
                    mine = [x for x in items if x["opcode"] == opcode]
                    if not rows:
                        result(False, "%s %s: predicted, but the H200 ran no such instruction on the line"
                               % (where, opcode))
                        continue
                    row = {total_key: sum(x[total_key] for x in rows),
                           "ideal_" + total_key: sum(x["ideal_" + total_key] for x in rows),
                           "instructions": sum(x["executed"] for x in rows)}
                    row[metric] = row[total_key] / row["instructions"] if row["instructions"] else None
                    compare_items(result, "%s %s" % (where, opcode), kernel, mine, row, metric,
                                  total_key, row[metric])

        # Exact predictions must have a measurement.
        for fn, ks in launches.items():
            for launch, k in enumerate(ks):
                for item in predicted_items(k, stem, listing):
                    a = dict(item["access"], line=item["line"])
                    # Compared as exact: an exact access, or one that
                    # assumes only what is compared as exact (its shape,
                    # the model's kept loads and merges).
                    if (a["status"] != "exact" and not shape_only(item["access"], k, fn, launch)) or \
                            a["op"] == "atomic":
                        continue
                    if (fn, launch, a["line"], a["space"], a["op"]) in measured_keys:
                        continue
                    # Launches of one shape that differ only in their
                    # arguments (a host loop's strides) cannot be told apart
                    # in ncu's list, which has no argument values: such a
                    # launch's exact prediction must be what the H200
                    # measured for one of the launches of its shape.
                    same = same_shape_measurements(fn, k, a)
                    metric = "sectors_per_request" if a["space"] == "global" else "wavefronts_per_request"
                    if same and any(abs(a[metric] - m) <= TOLERANCE for m in same):
                        result(True, "%s:%d %s %s %s (launch %d): predicted %s, measured %s by a "
                               "launch of its shape" % (stem, a["line"], fn, a["space"], a["op"], launch,
                                                        a[metric], a[metric]))
                        continue
                    # One way of a host branch on a run-time value (the
                    # launch's context says which) that the measured run did
                    # not take: no launch of its shape was measured.
                    way = [c for c in k["launch"].get("context", [])
                           if re.fullmatch(r"the (branch at .* (not )?taken|condition at .* (true|false))", c)]
                    if way and not any(match_shape(fn, k, km) for km in doc.get("kernels", [])):
                        print("SKIP %s:%d %s %s %s (launch %d): %s, a way the measured run did "
                              "not take" % (stem, a["line"], fn, a["space"], a["op"], launch, way[-1]))
                        continue
                    key = (fn, a["line"], a["space"], a["op"])
                    result(key in excused, "%s:%d %s %s %s (launch %d): exact prediction with no measurement%s"
                           % (stem, a["line"], fn, a["space"], a["op"], launch,
                              " (excused: %s)" % excused[key] if key in excused else ""))

        # Atomics, per launch: all atomic requests of the launch together.
        for km in doc.get("kernels", []):
            m = km["metrics"]
            req = (m.get("l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum") or 0) + \
                  (m.get("l1tex__t_requests_pipe_lsu_mem_global_op_red.sum") or 0)
            sec = (m.get("l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum") or 0) + \
                  (m.get("l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum") or 0)
            fn, launch = base_name(km["function"]), km["launch"]
            launch = match(fn, launch)
            if req == 0 or launch is None:
                continue
            atoms = [a for a in launches[fn][launch]["accesses"] if a["op"] == "atomic" and a["space"] == "global"]
            # Compared per launch: the line the listing puts an atomic on
            # (unmatched_instructions) does not matter here.
            if not atoms or any(a["status"] != "exact" and
                                set(a["assumption_kinds"]) != {"unmatched_instructions"} for a in atoms):
                print("SKIP %s %s: atomics not all exact" % (stem, fn))
                continue
            total_warps = launches[fn][launch]["total_warps"]
            simulated = launches[fn][launch]["simulated_warps"]
            if simulated != total_warps:
                print("SKIP %s %s: atomics compared only when every warp is simulated" % (stem, fn))
                continue
            pred_req = sum(a["requests_simulated"] for a in atoms)
            pred_sec = sum(a["sectors_per_request"] * a["requests_simulated"] for a in atoms)
            ok = pred_req == req and abs(pred_sec / pred_req - sec / req) <= TOLERANCE
            result(ok, "%s %s (launch %d) atomics: predicted %d requests, %.4f sectors each; measured %d, %.4f"
                   % (stem, fn, launch, pred_req, pred_sec / pred_req, req, sec / req))

        # Registers and theoretical occupancy, per launch, against ncu.
        for km in doc.get("kernels", []):
            m = km["metrics"]
            pct = m.get("sm__maximum_warps_per_active_cycle_pct")
            regs = m.get("launch__registers_per_thread")
            fn, launch = base_name(km["function"]), km["launch"]
            if pct is None:
                continue
            if match(fn, launch) is None:
                print("SKIP %s %s (launch %d): no launch of this shape in warpcheck's report"
                      % (stem, fn, launch))
                continue
            launch = match(fn, launch)
            k = launches[fn][launch]
            occ = k.get("occupancy")
            if not occ or k.get("registers_source") != "ptxas":
                print("SKIP %s %s (launch %d): occupancy not from ptxas registers" % (stem, fn, launch))
                continue
            # ncu reads max(ptxas registers, 16) (test/hw/occupancy_ncu.json).
            # Both round: the report to 4 decimals (0.53125 -> 0.5313), ncu
            # to 2 decimals of a percent (53.12).
            ok = regs is not None and max(k["registers"], 16) == regs and \
                abs(occ["theoretical"] * 100 - pct) <= 0.0101
            result(ok, "%s %s (launch %d): %s registers, %.4f occupancy; ncu %s registers, %s%%"
                   % (stem, fn, launch, k["registers"], occ["theoretical"], regs, pct))

        # Shared atomics, per launch, from their own metrics.
        for km in doc.get("kernels", []):
            m = km["metrics"]
            waves = m.get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum")
            insts = m.get("smsp__inst_executed_op_shared_atom.sum")
            fn, launch = base_name(km["function"]), km["launch"]
            launch = match(fn, launch) if waves else None
            if launch is None:
                continue
            k = launches[fn][launch]
            atoms = [a for a in k["accesses"] if a["op"] == "atomic" and a["space"] == "shared"]
            if not atoms or k["simulated_warps"] != k["total_warps"]:
                continue
            # A compare-and-swap loop's rounds depend on how the lanes race
            # (retry_loop): the launch's total is not a prediction.
            if any("retry_loop" in a.get("assumption_kinds", []) for a in atoms):
                print("SKIP %s %s (launch %d): shared atomics include compare-and-swap loops"
                      % (stem, fn, launch))
                continue
            # An atomic on a data-dependent address (a histogram's bin) has
            # no number: the launch's total is not a prediction.
            if any(a.get("wavefronts_per_request") is None for a in atoms):
                print("SKIP %s %s (launch %d): shared atomics on data-dependent addresses"
                      % (stem, fn, launch))
                continue
            predicted = sum(a["wavefronts_per_request"] * a["requests_simulated"] for a in atoms)
            ok = abs(predicted - waves) <= TOLERANCE * sum(a["requests_simulated"] for a in atoms)
            result(ok, "%s %s (launch %d) shared atomics: predicted %g wavefronts in %d requests; measured %g in %s instructions"
                   % (stem, fn, launch, predicted, sum(a["requests_simulated"] for a in atoms), waves, insts))

        # Arrays of structs: the bytes the loads move past L1 (each sector
        # once; the other fields' loads hit in L1), per launch, against the
        # sectors L1 read from L2 (lts__t_sectors_srcunit_tex_op_read, caches
        # flushed before the launch). Compared for launches whose global
        # loads all belong to cuda-aos-layout's groups (the lines of the
        # fields it lists), every warp simulated.
        for km in doc.get("kernels", []):
            l2_read = km["metrics"].get("lts__t_sectors_srcunit_tex_op_read.sum")
            fn, launch = base_name(km["function"]), km["launch"]
            launch = match(fn, launch) if l2_read is not None else None
            if launch is None:
                continue
            k = launches[fn][launch]
            groups = k.get("aos") or []
            if not groups or k["simulated_warps"] != k["total_warps"]:
                continue
            group_lines = {line for g in groups for line in g.get("lines", [g["line"]])}
            loads = [a for a in k["accesses"] if a["space"] == "global" and a["op"] == "load"]
            if any(a["line"] not in group_lines for a in loads):
                print("SKIP %s %s (launch %d) L2 reads: loads outside the array of structs"
                      % (stem, fn, launch))
                continue
            # Global atomics are performed in L2 (ATOM/RED): the sectors L1
            # reads from L2 leave their lanes out, and the elements they
            # touch are in L2 already when a load comes.
            if any(a["space"] == "global" and a["op"] == "atomic" for a in k["accesses"]):
                print("SKIP %s %s (launch %d) L2 reads: global atomics on the array of structs"
                      % (stem, fn, launch))
                continue
            predicted = sum(g["loads"]["dram_bytes"] for g in groups) * k["total_warps"] / 32
            key = (fn, 0, "global", "l2_reads")
            ok = abs(predicted - l2_read) <= TOLERANCE * max(predicted, 1)
            result(ok or key in excused,
                   "%s %s (launch %d) array of structs: predicted %g sectors read past L1, measured %g%s"
                   % (stem, fn, launch, predicted, l2_read,
                      " (excused: %s)" % excused[key] if not ok and key in excused else ""))

        # An exception that no compared row asks for excuses nothing: its
        # line is no longer measured, reported or mispredicted in this
        # mode. Left in, it would hide the next regression on that line.
        for key in sorted(excused, key=str):
            if key not in excused.asked:
                result(False, "%s: the exception for %s line %d (%s %s) excuses nothing %s: "
                       "remove it, or mark it %s" % (
                           stem, key[0], key[1], key[2], key[3],
                           "with a listing" if listing else "without a listing",
                           "only_without_listing" if listing else "only_with_listing"))


if __name__ == "__main__":
    sys.exit(main())
