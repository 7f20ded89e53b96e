#!/usr/bin/env python3
"""The warpcheck binary honours .clang-tidy as clang-tidy finds it: Checks
(unless --checks names the checks) and CheckOptions of each file's nearest
.clang-tidy and those it inherits; --verify-config says, by source and name,
a .clang-tidy that cannot be read, a cuda check or option that does not
exist (with the nearest that does) and a value a check refuses; a run with
such a problem says it, reports it as no finding, and exits 2. A .clang-tidy
chooses no program (its ExtraArgs are not applied by the binary).

Runs as one ctest; prints 'N passed, M failed' and exits non-zero on failure.
"""
import json
import os
import sys
import textwrap

from testsupport import STRIDED_UNIT, Results, door_arguments, run, scratch_dir

RESULTS = Results()
check = RESULTS.check

# 32 sectors per request (12.5% efficiency) at 3:12, and a bank conflict.
BANKS = textwrap.dedent("""\
    __global__ void transpose(float *out) {
      __shared__ float tile[32][32];
      tile[threadIdx.y][threadIdx.x] = out[threadIdx.x];
      __syncthreads();
      out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
    }
    int main() { transpose<<<1, dim3(32, 32)>>>(nullptr); }
    """)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def report(wc, cwd, files, extra=()):
    """(exit code, the JSON report or None, stderr)."""
    rc, out, err = run([wc, "--no-cuda", "--format=json"] + list(extra) + list(files), cwd=cwd)
    try:
        return rc, json.loads(out), err
    except ValueError:
        return rc, None, out + err


def checks_of(doc):
    return sorted({f["check"] for f in doc["findings"]}) if doc else None


def test_checks_and_options(wc, tmp):
    write(os.path.join(tmp, "a.cu"), STRIDED_UNIT)
    write(os.path.join(tmp, "banks.cu"), BANKS)
    rc, doc, err = report(wc, tmp, ["a.cu", "banks.cu"])
    both = checks_of(doc)
    check("no .clang-tidy: every cuda check (uncoalesced and bank conflict findings)",
          rc == 0 and both == ["cuda-shared-bank-conflict", "cuda-uncoalesced-global-access"],
          str(both) + err)
    write(os.path.join(tmp, ".clang-tidy"), "Checks: '-*,cuda-shared-bank-conflict'\n")
    rc, doc, err = report(wc, tmp, ["a.cu", "banks.cu"])
    check(".clang-tidy Checks: only the checks it enables report",
          rc == 0 and checks_of(doc) == ["cuda-shared-bank-conflict"], str(checks_of(doc)) + err)
    rc, doc, err = report(wc, tmp, ["a.cu", "banks.cu"],
                          ["--checks=cuda-uncoalesced-global-access"])
    check("--checks replaces the .clang-tidy's Checks (exactly the checks it names)",
          rc == 0 and checks_of(doc) == ["cuda-uncoalesced-global-access"], str(checks_of(doc)))
    write(os.path.join(tmp, ".clang-tidy"), "Checks: 'bugprone-*,readability-*'\n")
    rc, doc, err = report(wc, tmp, ["a.cu", "banks.cu"])
    check(".clang-tidy Checks naming other modules only: the default cuda-* stays",
          rc == 0 and checks_of(doc) == both, str(checks_of(doc)) + err)

    # CheckOptions, per folder: the nearest .clang-tidy, and those it
    # inherits.
    write(os.path.join(tmp, ".clang-tidy"), "Checks: '-*,cuda-uncoalesced-global-access'\n")
    write(os.path.join(tmp, "lax", ".clang-tidy"),
          "InheritParentConfig: true\nCheckOptions:\n"
          "  cuda-uncoalesced-global-access.MinEfficiency: 10\n")
    write(os.path.join(tmp, "lax", "a.cu"), STRIDED_UNIT)
    write(os.path.join(tmp, "own", ".clang-tidy"), "CheckOptions:\n"
          "  cuda-uncoalesced-global-access.MinEfficiency: 10\n")
    write(os.path.join(tmp, "own", "banks.cu"), BANKS)
    rc, doc, err = report(wc, tmp, ["a.cu", "lax/a.cu", "own/banks.cu"])
    files = sorted(os.path.relpath(f["file"], tmp) for f in doc["findings"]) if doc else None
    check(".clang-tidy CheckOptions per folder: MinEfficiency 10 keeps 12.5% in lax/ quiet; "
          "own/ (not inheriting) has every check", rc == 0 and files is not None and
          "a.cu" in files and "lax/a.cu" not in files and
          any(f["check"] == "cuda-shared-bank-conflict" and f["file"].endswith("own/banks.cu")
              for f in doc["findings"]), str(files) + err)
    rc, doc, err = report(wc, tmp, ["lax/a.cu"],
                          ["--config=cuda-uncoalesced-global-access.MinEfficiency=50"])
    check("--config wins over the .clang-tidy's CheckOptions",
          rc == 0 and checks_of(doc) == ["cuda-uncoalesced-global-access"], err)


def test_global_options(wc, tmp):
    """The global Arch and DefaultBlock of a .clang-tidy reach the checks and
    the JSON report's kernels alike; --arch and --default-block win."""
    write(os.path.join(tmp, "k.cu"), "__global__ void k(float *p) { p[threadIdx.x * 2] = 0; }\n")
    write(os.path.join(tmp, ".clang-tidy"),
          "CheckOptions:\n  Arch: sm_80\n  DefaultBlock: '64,1,1'\n")

    def kernel(extra=()):
        rc, doc, err = report(wc, tmp, ["k.cu"], extra)
        k = doc["kernels"][0] if doc and doc["kernels"] else None
        return (k["launch"]["block"], k["occupancy"]["arch"],
                k["occupancy"]["active_warps_per_sm"]) if k else err

    # sm_80: 64 warps per SM at most; 32 blocks of 2 warps fill them.
    check(".clang-tidy Arch sm_80 and DefaultBlock 64: the report models sm_80, block 64",
          kernel() == ([64, 1, 1], "sm_80", 64), str(kernel()))
    check("--arch and --default-block win over the .clang-tidy's",
          kernel(["--arch=sm_90", "--default-block=32"]) == ([32, 1, 1], "sm_90", 32),
          str(kernel(["--arch=sm_90", "--default-block=32"])))


def test_verify_config(wc, tmp):
    write(os.path.join(tmp, "a.cu"), STRIDED_UNIT)
    rc, out, err = run([wc, "--verify-config"], cwd=tmp)
    check("--verify-config without a .clang-tidy: clang-tidy's words, exit 0",
          rc == 0 and out.strip() == "No config errors detected.", out + err)
    project = os.path.join(tmp, "project")
    write(os.path.join(project, ".clang-tidy"), textwrap.dedent("""\
        Checks: 'cuda-uncoalesced-global-acess,readability-*'
        CheckOptions:
          cuda-occupancy.Zzz: 1
          cuda-occupancy.MinOcupancy: 50
          cuda-shared-bank-conflict.ReportDataDependent: maybe
          cuda-uncoalesced-global-access.ReportMisaligned: often
          readability-identifier-naming.VariableCase: camelBack
          Arch: sm_99
        """))
    write(os.path.join(project, "a.cu"), STRIDED_UNIT)
    rc, out, err = run([wc, "--no-cuda", "--verify-config", "a.cu"], cwd=project)
    config = os.path.join(project, ".clang-tidy")
    check("--verify-config: a misspelled check, by file, with the nearest one",
          "%s: unknown check 'cuda-uncoalesced-global-acess'; did you mean "
          "'cuda-uncoalesced-global-access'" % config in err, err)
    check("--verify-config: a misspelled option, with the nearest one of its check",
          "unknown check option 'cuda-occupancy.MinOcupancy'; did you mean "
          "'cuda-occupancy.MinOccupancy'" in err, err)
    check("--verify-config: an option no check has, with no guess",
          "unknown check option 'cuda-occupancy.Zzz'\n" in err + "\n", err)
    check("--verify-config: a global value the checks refuse (Arch sm_99), by source",
          "%s: cuda-uncoalesced-global-access: unknown Arch 'sm_99'" % config in err, err)
    for option, value, default in (("cuda-shared-bank-conflict.ReportDataDependent", "maybe", "false"),
                                   ("cuda-uncoalesced-global-access.ReportMisaligned", "often", "true")):
        check("--verify-config: a value a boolean option refuses (%s), by name" % option,
              "invalid configuration value '%s' for option '%s'; expected true or false, "
              "using the default %s" % (value, option, default) in err, err)
    check("--verify-config: other modules' checks and options are clang-tidy's (not said)",
          "readability" not in err, err)
    check("--verify-config with problems: exit code 1, no 'No config errors'",
          rc == 1 and "No config errors" not in out, "rc %s %s" % (rc, out))

    broken = os.path.join(tmp, "broken")
    write(os.path.join(broken, ".clang-tidy"), "Checks: [oops\n")
    write(os.path.join(broken, "a.cu"), STRIDED_UNIT)
    rc, out, err = run([wc, "--no-cuda", "--verify-config", "a.cu"], cwd=broken)
    check("--verify-config: a .clang-tidy that cannot be parsed, by file and line",
          rc == 1 and "%s: cannot be read as a clang-tidy configuration (line 1, column 14"
          % os.path.join(broken, ".clang-tidy") in err, err)


def test_problems_in_a_run(wc, tmp):
    write(os.path.join(tmp, "a.cu"), STRIDED_UNIT)
    write(os.path.join(tmp, "b.cu"), STRIDED_UNIT.replace("strided", "other"))
    _, plain, _ = report(wc, tmp, ["a.cu", "b.cu"])
    write(os.path.join(tmp, ".clang-tidy"), "CheckOptions:\n"
          "  cuda-uncoalesced-global-access.MinEfficiency: lots\n")
    rc, doc, err = report(wc, tmp, ["a.cu", "b.cu"])
    want = ("invalid configuration value 'lots' for option "
            "'cuda-uncoalesced-global-access.MinEfficiency'")
    check("a refused value in a run: an error naming the file and the option, said once",
          err.count(want) == 1 and "%s: %s" % (os.path.join(tmp, ".clang-tidy"), want) in err,
          err)
    check("a refused value in a run: exit code 2, the report still written with the default",
          rc == 2 and doc is not None and doc["findings"] == plain["findings"] and
          doc["summary"]["findings"] == 2, "rc %s %s" % (rc, err))
    check("a refused value is never a finding", doc is not None and
          all(f["check"] != "clang-tidy-config" for f in doc["findings"]))
    # Thresholds are percentages; a bad DefaultBlock is no block; a bare
    # option a few letters from the checks' own global options is a typo
    # (another module's option, or one far from ours, is not).
    write(os.path.join(tmp, ".clang-tidy"), "CheckOptions:\n"
          "  cuda-uncoalesced-global-access.MinEfficiency: 150\n"
          "  cuda-occupancy.MinOccupancy: 500\n"
          "  cuda-aos-layout.MinEfficiency: 101\n"
          "  DefaultBlock: 'abc'\n"
          "  Arhc: sm_80\n"
          "  StrictMode: true\n"
          "  Architecture: x86\n")
    rc, doc, err = report(wc, tmp, ["a.cu"])
    wants = ["cuda-uncoalesced-global-access: MinEfficiency 150 is not a percentage (0 to 100, "
             "or 101 to report every access)",
             "cuda-occupancy: MinOccupancy 500 is not a percentage (0 to 100, or 101 to report "
             "every launch)",
             "cuda-aos-layout: MinEfficiency 101 is not a percentage (0 to 100)",
             "malformed DefaultBlock 'abc'",
             "unknown option 'Arhc'; did you mean 'Arch'"]
    check("out-of-range thresholds, a malformed DefaultBlock and a misspelled global option: "
          "each an error naming the file, exit code 2, never a finding",
          rc == 2 and all(w in err for w in wants) and
          os.path.join(tmp, ".clang-tidy") in err and "StrictMode" not in err and
          "Architecture" not in err and doc is not None and
          all(f["check"] != "clang-tidy-config" for f in doc["findings"]),
          "rc %s %s" % (rc, err))
    os.remove(os.path.join(tmp, ".clang-tidy"))
    rc, doc, err = report(wc, tmp, ["a.cu"], ["--default-block=0,1"])
    check("--default-block=0,1: a usage error, exit code 2", rc == 2 and "default-block" in err,
          "rc %s %s" % (rc, err))
    rc, doc, err = report(wc, tmp, ["a.cu"], ["--config=cuda-uncoalesced-global-acess.MinEfficiency=5"])
    check("a misspelled --config option: said, exit code 2",
          rc == 2 and "the command line: unknown check option "
          "'cuda-uncoalesced-global-acess.MinEfficiency'; did you mean "
          "'cuda-uncoalesced-global-access.MinEfficiency'" in err, err)


def test_untrusted(wc, tmp):
    """A .clang-tidy's ExtraArgs (clang-tidy's own, for its compile command)
    are not applied by the binary: a plugin it names is never loaded."""
    write(os.path.join(tmp, ".clang-tidy"), textwrap.dedent("""\
        ExtraArgs: ['-fplugin=%s', '-Xclang', '-load', '-Xclang', '%s']
        CheckOptions:
          RegisterMode: ptxas
        """ % (os.path.join(tmp, "evil.so"), os.path.join(tmp, "evil.so"))))
    write(os.path.join(tmp, "a.cu"), STRIDED_UNIT)
    rc, doc, err = report(wc, tmp, ["a.cu"])
    check(".clang-tidy ExtraArgs naming a plugin: not applied, the unit analysed cleanly",
          rc == 0 and doc is not None and doc["inputs"][0]["status"] == "analysed" and
          "evil" not in err, err)


def main():
    args, wc, _ = door_arguments()
    with scratch_dir("warpcheck-config-") as tmp:
        for name, test in (("checks", test_checks_and_options), ("globals", test_global_options),
                           ("verify", test_verify_config),
                           ("problems", test_problems_in_a_run), ("untrusted", test_untrusted)):
            os.makedirs(os.path.join(tmp, name))
            test(wc, os.path.join(tmp, name))
    return RESULTS.summary()


if __name__ == "__main__":
    sys.exit(main())
