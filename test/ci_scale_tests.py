#!/usr/bin/env python3
"""Big audits and fast re-runs with the warpcheck binary: the results cache
(--cache-dir: a warm run reports byte for byte what the cold one did; an
edited header, other options, a new .clang-tidy invalidate; a damaged or
foreign entry is ignored with a note; concurrent runs share a folder), the
progress line (--progress, on a terminal only by default, never in the
report), and --shard K/N with warpcheck merge (the merged report is the
whole run's, byte for byte, in JSON and SARIF, with the same gates and exit
code; the split is balanced by size; parts of other runs are refused).

Runs as one ctest; prints 'N passed, M failed' and exits non-zero on failure.
"""
import glob
import json
import os
import pty
import re
import shutil
import subprocess
import sys
import textwrap

from testsupport import Results, door_arguments, run, scratch_dir

RESULTS = Results()
check = RESULTS.check

# The index of the load comes from the header: editing the header changes
# the finding's numbers (32 sectors per request, then 8: a stride of 2 floats).
HEADER = "#define STRIDE 32\n"
UNIT_A = textwrap.dedent("""\
    #include "stride.cuh"
    __global__ void strided(const float *in, float *out) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      out[i] = in[i * STRIDE];
    }
    int main() { strided<<<4, 128>>>(nullptr, nullptr); }
    """)
UNIT_B = textwrap.dedent("""\
    __global__ void spread(float *out) {
      out[threadIdx.x * 64] = 1.0f;
    }
    int main() { spread<<<1, 32>>>(nullptr); }
    """)
BROKEN = "__global__ void k(float *p) { p[threadIdx.x] = undeclared; }\n"


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def analyse(wc, tmp, files, out, extra=()):
    """(exit code, stderr) of a JSON run over files, the report in out."""
    rc, _, err = run([wc, "--no-cuda", "--format=json", "-o", out, "-j", "2"] + list(extra) +
                     list(files), cwd=tmp)
    return rc, err


def reuse_counts(err):
    """(reused, stored) as the results cache's note says, or None."""
    m = re.search(r"results cache '[^']*': (\d+) results? reused, (\d+) stored", err)
    return (int(m.group(1)), int(m.group(2))) if m else None


def entries(cache):
    return sorted(glob.glob(os.path.join(cache, "*.json")))


def test_cache(wc, tmp):
    write(os.path.join(tmp, "stride.cuh"), HEADER)
    write(os.path.join(tmp, "a.cu"), UNIT_A)
    write(os.path.join(tmp, "b.cu"), UNIT_B)
    cache = os.path.join(tmp, "cache")
    units = ["a.cu", "b.cu"]
    rc0, err0 = analyse(wc, tmp, units, "plain.json")
    rc1, err1 = analyse(wc, tmp, units, "cold.json", ["--cache-dir", cache])
    check("cache: a cold run stores both units (2 entries)",
          rc1 == rc0 == 0 and reuse_counts(err1) == (0, 2) and len(entries(cache)) == 2,
          "rc %s/%s %s" % (rc0, rc1, err1))
    check("cache: a cold run reports byte for byte what a run without the cache does",
          read(os.path.join(tmp, "cold.json")) == read(os.path.join(tmp, "plain.json")))
    rc2, err2 = analyse(wc, tmp, units, "warm.json", ["--cache-dir", cache])
    cold, warm = read(os.path.join(tmp, "cold.json")), read(os.path.join(tmp, "warm.json"))
    check("cache: a warm run reuses both units and analyses none",
          rc2 == 0 and reuse_counts(err2) == (2, 0), err2)
    check("cache: the warm run's JSON is byte-identical to the cold run's",
          cold == warm and b'"sectors_per_request": 32' in cold,
          "cold %d bytes, warm %d bytes" % (len(cold), len(warm)))
    # A single file runs in this process when cold; reused, its result
    # comes from the stored JSON: still the same report.
    single = os.path.join(tmp, "single-cache")
    analyse(wc, tmp, ["a.cu"], "single-cold.json", ["--cache-dir", single])
    rc, err = analyse(wc, tmp, ["a.cu"], "single-warm.json", ["--cache-dir", single])
    check("cache: a single file run in process, then reused, gives the same JSON",
          reuse_counts(err) == (1, 0) and read(os.path.join(tmp, "single-cold.json")) ==
          read(os.path.join(tmp, "single-warm.json")), err)

    # --cache: the folder under $XDG_CACHE_HOME; another warpcheck
    # executable (a copy: another modification time) misses every entry.
    xdg = os.path.join(tmp, "xdg")
    env = dict(os.environ, XDG_CACHE_HOME=xdg)
    run([wc, "--no-cuda", "--format=json", "-o", "xdg.json", "--cache"] + units, cwd=tmp, env=env)
    rc, _, err = run([wc, "--no-cuda", "--format=json", "-o", "xdg-warm.json", "--cache"] + units,
                     cwd=tmp, env=env)
    check("cache: --cache keeps its entries in $XDG_CACHE_HOME/warpcheck/results and reuses them",
          len(entries(os.path.join(xdg, "warpcheck", "results"))) == 2 and
          reuse_counts(err) == (2, 0), err)
    other = os.path.join(tmp, "other-build", "bin", "warpcheck")
    os.makedirs(os.path.dirname(other))
    shutil.copy(wc, other)
    rc, _, err = run([other, "--no-cuda", "--format=json", "-o", "other.json", "--cache"] + units,
                     cwd=tmp, env=env)
    check("cache: another warpcheck executable reuses nothing another one stored",
          rc == 0 and reuse_counts(err) == (0, 2), err)

    # An edited header invalidates the unit that includes it, only that one.
    write(os.path.join(tmp, "stride.cuh"), "#define STRIDE 2\n")
    rc, err = analyse(wc, tmp, units, "header.json", ["--cache-dir", cache])
    analyse(wc, tmp, units, "header-plain.json")
    edited = read(os.path.join(tmp, "header.json"))
    check("cache: an edited header re-analyses the unit including it (1 reused, 1 stored)",
          reuse_counts(err) == (1, 1), err)
    check("cache: after the header edit the report is the new one (8 sectors per request)",
          edited == read(os.path.join(tmp, "header-plain.json")) and
          b'"sectors_per_request": 8' in edited and edited != warm)

    # Options the result depends on are part of the key.
    rc, err = analyse(wc, tmp, units, "arch.json", ["--cache-dir", cache, "--arch=sm_80"])
    check("cache: another --arch reuses nothing", reuse_counts(err) == (0, 2), err)
    rc, err = analyse(wc, tmp, units, "opt.json",
                      ["--cache-dir", cache,
                       "--config=cuda-uncoalesced-global-access.MinEfficiency=10"])
    check("cache: another --config reuses nothing", reuse_counts(err) == (0, 2), err)
    write(os.path.join(tmp, ".clang-tidy"),
          "CheckOptions:\n  cuda-uncoalesced-global-access.MinEfficiency: '10'\n")
    rc, err = analyse(wc, tmp, units, "tidy.json", ["--cache-dir", cache])
    check("cache: a new .clang-tidy above the units reuses nothing",
          reuse_counts(err) == (0, 2), err)
    os.remove(os.path.join(tmp, ".clang-tidy"))
    rc, err = analyse(wc, tmp, units, "back.json", ["--cache-dir", cache])
    check("cache: without it again, the earlier entries are reused",
          reuse_counts(err) == (2, 0) and
          read(os.path.join(tmp, "back.json")) == read(os.path.join(tmp, "header.json")), err)

    # Damaged and foreign entries: a note, the unit analysed again, the
    # entry replaced; never a crash, never a different report.
    damaged = entries(cache)
    for path in damaged:
        write(path, '{"format": "warpcheck-results-cache", "ver')
    rc, err = analyse(wc, tmp, units, "damaged.json", ["--cache-dir", cache])
    check("cache: damaged entries are ignored with a note naming the entry",
          rc == 0 and reuse_counts(err) is not None and reuse_counts(err)[0] == 0 and
          "ignored (not JSON" in err and "is analysed again" in err, err)
    check("cache: a run over damaged entries reports what a plain run does",
          read(os.path.join(tmp, "damaged.json")) == read(os.path.join(tmp, "header-plain.json")))
    # One of the two entries the last run rewrote (the other runs' entries
    # are still damaged).
    foreign = max(entries(cache), key=os.path.getmtime)
    doc = json.loads(read(foreign))
    doc["key"] = "0" * 64
    write(foreign, json.dumps(doc))
    rc, err = analyse(wc, tmp, units, "foreign.json", ["--cache-dir", cache])
    check("cache: an entry holding another key is ignored with a note",
          "holds the entry of another key" in err and
          read(os.path.join(tmp, "foreign.json")) == read(os.path.join(tmp, "header-plain.json")),
          err)
    rc, err = analyse(wc, tmp, units, "again.json", ["--cache-dir", cache])
    check("cache: ignored entries were replaced (all reused next time)",
          reuse_counts(err) == (2, 0), err)

    # A unit with a compiler error is never stored (the error may be a
    # header missing now and there later).
    write(os.path.join(tmp, "broken.cu"), BROKEN)
    errors = os.path.join(tmp, "errors-cache")
    analyse(wc, tmp, ["broken.cu", "b.cu"], "e1.json", ["--cache-dir", errors])
    rc, err = analyse(wc, tmp, ["broken.cu", "b.cu"], "e2.json", ["--cache-dir", errors])
    check("cache: a unit with compiler errors is not stored, the clean one is",
          rc == 3 and reuse_counts(err) == (1, 0) and len(entries(errors)) == 1, err)

    # --cache-limit: past the limit, the least recently used entries go
    # (a reused entry counts as used) down to 3/4 of the limit. The two
    # entries are padded to 600 KiB each (their JSON stays valid); with c.cu's
    # new entry the folder is over 1 MiB, and taking out the oldest, b.cu's,
    # brings it under 768 KiB.
    limited = os.path.join(tmp, "limited-cache")
    analyse(wc, tmp, ["a.cu"], "l1.json", ["--cache-dir", limited])
    analyse(wc, tmp, ["b.cu"], "l2.json", ["--cache-dir", limited])
    for path in entries(limited):
        doc = json.loads(read(path))
        doc["padding"] = "x" * (600 << 10)
        write(path, json.dumps(doc))
        os.utime(path, (1000, 1000))
    rc, err = analyse(wc, tmp, ["a.cu"], "l3.json", ["--cache-dir", limited])
    used = [p for p in entries(limited) if os.path.getmtime(p) > 1000]
    check("cache: a reused entry is marked used (its modification time)",
          reuse_counts(err) == (1, 0) and len(used) == 1, err)
    write(os.path.join(tmp, "c.cu"), UNIT_B.replace("spread", "spreadc"))
    rc, err = analyse(wc, tmp, ["c.cu"], "l4.json", ["--cache-dir", limited,
                                                    "--cache-limit=1"])
    left = entries(limited)
    check("cache: --cache-limit=1 removes the least recently used entry (b.cu's), keeping "
          "the one just reused, down to 768 KiB",
          reuse_counts(err) == (0, 1) and "1 least recently used removed (over 1 MiB)" in err and
          len(left) == 2 and used and used[0] in left and
          sum(os.path.getsize(p) for p in left) <= 768 << 10, "%s %s" % (left, err))
    rc, _, err = run([wc, "--no-cuda", "--cache-limit=0", "a.cu"], cwd=tmp)
    check("cache: --cache-limit=0 is a usage error (2)",
          rc == 2 and "--cache-limit needs a positive number" in err, err)

    rc, _, err = run([wc, "--no-cuda", "--cache-dir", os.path.join(tmp, "a.cu"), "b.cu"],
                     cwd=tmp)
    check("cache: --cache-dir naming a file is a usage error (2)",
          rc == 2 and "is not a folder" in err, err)


def test_concurrent(wc, tmp):
    """Two runs at once on one cache folder: each reports as a plain run
    does, and no half-written entry or temporary file is left."""
    files = []
    for n in range(6):
        name = "u%d.cu" % n
        write(os.path.join(tmp, name), UNIT_B.replace("spread", "spread%d" % n))
        files.append(name)
    cache = os.path.join(tmp, "cache")
    base = [wc, "--no-cuda", "--format=json", "-j", "3", "--cache-dir", cache] + files
    procs = [subprocess.Popen(base + ["-o", "run%d.json" % n], cwd=tmp,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for n in range(2)]
    codes = [p.wait(timeout=600) for p in procs]
    for p in procs:
        p.stdout.close()
        p.stderr.close()
    analyse(wc, tmp, files, "plain.json")
    plain = read(os.path.join(tmp, "plain.json"))
    check("cache: two concurrent runs on one folder both report as a plain run",
          codes == [0, 0] and all(read(os.path.join(tmp, "run%d.json" % n)) == plain
                                  for n in range(2)), str(codes))
    check("cache: no temporary file is left, one entry per unit",
          not glob.glob(os.path.join(cache, "*.tmp-*")) and len(entries(cache)) == 6,
          str(os.listdir(cache)))
    rc, err = analyse(wc, tmp, files, "warm.json", ["--cache-dir", cache])
    check("cache: after the concurrent runs every unit is reused",
          reuse_counts(err) == (6, 0) and read(os.path.join(tmp, "warm.json")) == plain, err)


def read_terminal(master):
    """All a pseudo-terminal's side shows until the program on the other
    side has closed it (Linux then says EIO)."""
    tty = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        tty += chunk
    return tty


def test_progress(wc, tmp):
    write(os.path.join(tmp, "a.cu"), UNIT_A.replace('#include "stride.cuh"', "#define STRIDE 32"))
    write(os.path.join(tmp, "b.cu"), UNIT_B)
    plain_rc, plain, plain_err = run([wc, "--no-cuda", "--format=json", "a.cu", "b.cu"], cwd=tmp)
    check("progress: none by default when standard error is not a terminal",
          plain_rc == 0 and "[1/2]" not in plain_err and "[2/2]" not in plain_err, plain_err)
    rc, out, err = run([wc, "--no-cuda", "--format=json", "--progress", "a.cu", "b.cu"], cwd=tmp)
    lines = [l for l in err.splitlines() if l.startswith("[")]
    check("progress: --progress off a terminal says each unit on a line of its own",
          rc == 0 and len(lines) == 2 and lines[0].startswith("[1/2] ") and
          lines[1].startswith("[2/2] ") and "\r" not in err, err)
    check("progress: never in the report (the same JSON with and without it)", out == plain)
    rc, out, err = run([wc, "--no-cuda", "--format=json", "--progress", "--no-progress",
                        "a.cu", "b.cu"], cwd=tmp)
    check("progress: --no-progress wins when it comes last", "[1/2]" not in err, err)

    # On a terminal: one line rewritten in place, cleared at the end.
    master, slave = pty.openpty()
    proc = subprocess.Popen([wc, "--no-cuda", "--format=json", "a.cu", "b.cu"], cwd=tmp,
                            stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    tty = read_terminal(master)
    out = proc.stdout.read()
    proc.stdout.close()
    proc.wait(timeout=600)
    os.close(master)
    text = tty.decode("utf-8", "replace")
    check("progress: on a terminal, by default, one line rewritten ([1/2], [2/2]) then cleared",
          "\r[1/2] " in text and "\r[2/2] " in text and "\r\x1b[K" in text and
          out.decode() == plain, repr(text[:400]))


# A kernel launched only from another unit: its unit's findings wait for the
# second analysis, which has that launch's shape (CrossUnitLaunches.h).
REMOTE_KERNEL = "__global__ void remote(float *out) {\n  out[threadIdx.x * 32] = 1.0f;\n}\n"
REMOTE_LAUNCH = ("__global__ void remote(float *out);\n"
                 "int main() { remote<<<1, 64>>>(nullptr); }\n")
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def on_terminal(cmd, cwd):
    """(exit code, what a terminal shows) of cmd with its standard output
    and standard error on one pseudo-terminal."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=slave, stderr=slave,
                            stdin=subprocess.DEVNULL)
    os.close(slave)
    tty = read_terminal(master)
    proc.wait(timeout=600)
    os.close(master)
    return proc.returncode, tty.decode("utf-8", "replace")


def warning_lines(text):
    """The 'file:line:col: warning: ...' lines, escapes and rewritten
    progress lines taken apart."""
    parts = re.split(r"[\r\n]", ANSI.sub("", text))
    return [p for p in parts if re.match(r"^\S+:\d+:\d+: warning: ", p)]


def test_streaming(wc, tmp):
    write(os.path.join(tmp, "a.cu"), UNIT_A.replace('#include "stride.cuh"', "#define STRIDE 32"))
    write(os.path.join(tmp, "b.cu"), UNIT_B)
    write(os.path.join(tmp, "c.cu"), REMOTE_KERNEL)
    write(os.path.join(tmp, "d.cu"), REMOTE_LAUNCH)
    cmd = [wc, "--no-cuda", "-j1", "a.cu", "b.cu", "c.cu", "d.cu"]
    piped_rc, piped, _ = run(cmd, cwd=tmp)
    want = warning_lines(piped)
    check("streaming: the piped report has the three units' findings",
          piped_rc == 0 and len(want) == 3 and
          any(re.search(r"(^|/)c\.cu:2:", w) and "block (64, 1, 1)" in w for w in want), piped)
    rc, text = on_terminal(cmd, tmp)
    got = warning_lines(text)
    check("streaming: on a terminal, every finding once, as the piped report has them",
          rc == piped_rc and sorted(got) == sorted(want), repr(text[-1500:]))
    plain = ANSI.sub("", text)
    first_a = plain.find("a.cu:4:")
    check("streaming: a unit's findings are printed when it finishes, before the next one is",
          0 <= first_a < plain.find("[2/4]"), repr(plain[:800]))
    # c.cu's kernel is launched from d.cu only: its finding waits for the
    # launch's shape and comes after the last unit.
    at_c = plain.find("c.cu:2:")
    check("streaming: a unit waiting for another unit's launch is printed after the last unit,"
          " with that launch's shape",
          at_c > plain.find("[4/4]") >= 0 and
          "block (64, 1, 1)" in plain[at_c:plain.find("\n", at_c)], repr(plain[-1200:]))
    # A kernel in a header both units launch: one finding in the run (the
    # other launch a note), printed once as units finish.
    write(os.path.join(tmp, "gather.cuh"), SHARED_HEADER)
    write(os.path.join(tmp, "l1.cu"), launcher(10))
    write(os.path.join(tmp, "l2.cu"), launcher(20))
    rc, text = on_terminal([wc, "--no-cuda", "-j1", "l1.cu", "l2.cu"], tmp)
    got = warning_lines(text)
    check("streaming: a header's finding two units report is printed once",
          rc == 0 and len(got) == 1 and "gather.cuh:3:" in got[0], repr(text[-1500:]))
    run(cmd[:1] + ["--write-baseline=base.json"] + cmd[1:], cwd=tmp)
    rc, text = on_terminal(cmd[:1] + ["--baseline=base.json"] + cmd[1:], tmp)
    check("streaming: the gates hold for what is printed as units finish (a baseline with"
          " every finding: none)", rc == 0 and not warning_lines(text) and
          "0 findings" in ANSI.sub("", text), repr(text[-600:]))
    rc, text = on_terminal([wc, "--no-cuda", "--format=json", "-j1", "a.cu", "b.cu"], tmp)
    check("streaming: never in JSON (the report is printed once, at the end)",
          rc == 0 and '"name": "strided"' in text and not warning_lines(text), repr(text[:400]))


# A kernel in a header, launched by two units: its finding is reported once,
# with a note naming the other unit's launch, whichever parts the units are in.
SHARED_HEADER = textwrap.dedent("""\
    __global__ void gather(const float *in, float *out) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      out[i] = in[i * 16];
    }
    """)


def launcher(padding):
    return ('#include "gather.cuh"\n' + "// " + "x" * padding + "\n" +
            "int main() { gather<<<2, 64>>>(nullptr, nullptr); }\n")


def shard_notes(err):
    m = re.search(r"shard (\d+)/(\d+): (\d+) of (\d+) inputs", err)
    return tuple(int(g) for g in m.groups()) if m else None


def test_shards(wc, tmp):
    write(os.path.join(tmp, "gather.cuh"), SHARED_HEADER)
    write(os.path.join(tmp, "l1.cu"), launcher(3000))
    write(os.path.join(tmp, "l2.cu"), launcher(2000))
    write(os.path.join(tmp, "a.cu"), UNIT_A.replace('#include "stride.cuh"', "#define STRIDE 32"))
    write(os.path.join(tmp, "b.cu"), UNIT_B)
    write(os.path.join(tmp, "broken.cu"), BROKEN)
    units = ["l1.cu", "l2.cu", "a.cu", "b.cu", "broken.cu", "missing.cu"]
    base = [wc, "--no-cuda"]
    whole_rc, whole, err = run(base + ["--format=json", "--write-baseline=whole-baseline.json"] +
                               units, cwd=tmp)
    check("shard: the whole run has the shared header's finding with the other launch's note",
          whole_rc == 3 and "the same for the launch at" in whole, err)
    for n in (2, 3):
        parts, counts = [], []
        for k in range(1, n + 1):
            part = "part-%d-of-%d.json" % (k, n)
            rc, _, err = run(base + ["--shard=%d/%d" % (k, n), "-o", part] + units, cwd=tmp)
            counts.append(shard_notes(err))
            check("shard %d/%d: written, exit code 0 (merge decides)" % (k, n), rc == 0, err)
            parts.append(part)
        check("shard N=%d: every input in exactly one part" % n,
              all(c and c[3] == 6 for c in counts) and sum(c[2] for c in counts) == 6,
              str(counts))
        rc, merged, err = run([wc, "merge", "--write-baseline=merged-baseline.json"] + parts,
                              cwd=tmp)
        check("merge N=%d: the JSON report is the whole run's, byte for byte, same exit code" % n,
              rc == whole_rc and merged == whole, err)
        check("merge N=%d: --write-baseline writes the whole run's baseline" % n,
              read(os.path.join(tmp, "merged-baseline.json")) ==
              read(os.path.join(tmp, "whole-baseline.json")))
    _, whole_sarif, _ = run(base + ["--format=sarif"] + units, cwd=tmp)
    rc, merged_sarif, err = run([wc, "merge", "--format=sarif"] + parts, cwd=tmp)
    check("merge: the SARIF log is the whole run's", merged_sarif == whole_sarif, err)
    gated = ["--baseline=whole-baseline.json", "--fail-on=warning"]
    whole_rc, whole_text, _ = run(base + ["--format=text"] + gated + units[:4], cwd=tmp)
    for k in (1, 2):
        run(base + ["--shard=%d/2" % k, "-o", "clean-%d.json" % k] + units[:4], cwd=tmp)
    rc, merged_text, err = run([wc, "merge", "--format=text"] + gated +
                               ["clean-1.json", "clean-2.json"], cwd=tmp)
    check("merge: the gates (--baseline, --fail-on) as in a whole run: nothing new, exit 0",
          rc == whole_rc == 0 and merged_text == whole_text, err)

    # The split: largest first, each to the part with the fewest bytes.
    sizes = {"big.cu": 8000, "s1.cu": 1500, "s2.cu": 1500, "s3.cu": 1500, "s4.cu": 1500}
    for name, size in sizes.items():
        body = UNIT_B.replace("spread", name[:-3])
        write(os.path.join(tmp, name), body + "// " + "y" * (size - len(body) - 4) + "\n")
    ones = [shard_notes(run(base + ["--shard=%d/2" % k, "-o", "bal-%d.json" % k] +
                            sorted(sizes), cwd=tmp)[2]) for k in (1, 2)]
    check("shard: balanced by size (8000 bytes alone; four of 1500 in the other part)",
          ones == [(1, 2, 1, 5), (2, 2, 4, 5)], str(ones))
    run(base + ["--shard=1/2", "-o", "bal-1-again.json"] + sorted(sizes), cwd=tmp)
    check("shard: the same part twice is the same file",
          read(os.path.join(tmp, "bal-1.json")) == read(os.path.join(tmp, "bal-1-again.json")))

    refused = [
        ("a part missing", [wc, "merge", "part-1-of-3.json", "part-2-of-3.json"],
         "shard 3/3 missing"),
        ("a part twice", [wc, "merge", "part-1-of-2.json", "part-1-of-2.json",
                          "part-2-of-2.json"], "again"),
        ("parts of different runs", [wc, "merge", "part-1-of-2.json", "bal-2.json"],
         "another run"),
        ("a report that is not a part", [wc, "merge", "whole-baseline.json"],
         "not a part written by warpcheck --shard"),
        ("an option of the analysis", [wc, "merge", "--arch=sm_80", "bal-1.json", "bal-2.json"],
         "--arch is an option of the parts' runs"),
        ("no parts", [wc, "merge"], "needs the parts' files"),
        ("--shard with --format=sarif", base + ["--shard=1/2", "--format=sarif", "a.cu"],
         "give --format=sarif to warpcheck merge"),
        ("--shard with --baseline", base + ["--shard=1/2", "--baseline=whole-baseline.json",
                                            "a.cu"], "--baseline is an option of warpcheck merge"),
        ("--shard=3/2", base + ["--shard=3/2", "a.cu"], "1 <= K <= N"),
        ("merge -o naming a part", [wc, "merge", "-o", "bal-1.json", "bal-1.json", "bal-2.json"],
         "refused"),
    ]
    for what, cmd, says in refused:
        rc, _, err = run(cmd, cwd=tmp)
        check("merge/shard: %s is a usage error (2) saying why" % what, rc == 2 and says in err,
              "rc %s: %s" % (rc, err))


def main():
    args, wc, _ = door_arguments()
    with scratch_dir("warpcheck-scale-") as tmp:
        for name, test in (("cache", test_cache), ("concurrent", test_concurrent),
                           ("progress", test_progress), ("streaming", test_streaming),
                           ("shards", test_shards)):
            os.makedirs(os.path.join(tmp, name))
            test(wc, os.path.join(tmp, name))
    return RESULTS.summary()


if __name__ == "__main__":
    sys.exit(main())
