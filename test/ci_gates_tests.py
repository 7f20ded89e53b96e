#!/usr/bin/env python3
"""Gating pull requests with the warpcheck binary: fingerprints that survive
moved lines and re-indenting, --baseline / --write-baseline, --fail-on,
--line-filter and --diff, and SARIF that code scanning keeps (validated
against the SARIF 2.1.0 schema for every test input).

Runs as one ctest; prints 'N passed, M failed' and exits non-zero on failure.
"""
import glob
import json
import os
import re
import shutil
import sys
import textwrap

from testsupport import Results, door_arguments, run, scratch_dir

RESULTS = Results()
check = RESULTS.check

KERNEL = textwrap.dedent("""\
    __global__ void strided(const float *in, float *out) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      out[i] = in[i * 32];
    }
    """)
MAIN = textwrap.dedent("""\
    int main() {
      float *in, *out;
      cudaMalloc(&in, 1 << 20);
      cudaMalloc(&out, 1 << 20);
      strided<<<4, 128>>>(in, out);
      return 0;
    }
    """)
# A second kernel with a finding of its own.
NEW_KERNEL = textwrap.dedent("""\
    __global__ void spread(float *out) {
      out[threadIdx.x * 64] = 1.0f;
    }
    """)
NEW_MAIN = MAIN.replace("  return 0;", "  spread<<<1, 32>>>(out);\n  return 0;")


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def json_report(wc, argv, cwd):
    """(exit code, the JSON report or None, stderr)."""
    rc, out, err = run([wc, "--format=json"] + argv, cwd=cwd)
    try:
        return rc, json.loads(out), err
    except ValueError:
        return rc, None, out + err


def findings_of(doc):
    return [(f["check"], f["line"], f["fingerprint"]) for f in doc["findings"]] if doc else []


def schema_path(source):
    """The SARIF 2.1.0 schema beside the repository (its licence keeps it
    out of the repository): <repository root>/../shared/data."""
    return os.path.join(os.path.dirname(os.path.abspath(source)), "shared", "data",
                        "sarif-schema-2.1.0.json")


def test_fingerprints(wc, tmp):
    write(os.path.join(tmp, "a.cu"), KERNEL + MAIN)
    rc, doc, err = json_report(wc, ["a.cu"], tmp)
    before = findings_of(doc)
    check("fingerprint: a 64-digit hex SHA-256 in the JSON finding",
          rc == 0 and len(before) == 1 and re.fullmatch(r"[0-9a-f]{64}", before[0][2]), err)
    # Lines above moved, the finding's line re-indented, an unrelated edit.
    moved = "// a comment\n#include <cstdio>\n\n" + KERNEL.replace("  out[i] = in[i * 32];",
                                                                   "\t  out[i]   =  in[i * 32];")
    write(os.path.join(tmp, "a.cu"), moved + MAIN.replace("return 0;", "return 0; // done"))
    rc, doc, err = json_report(wc, ["a.cu"], tmp)
    after = findings_of(doc)
    check("fingerprint survives moved lines, re-indenting and unrelated edits",
          rc == 0 and len(after) == 1 and after[0][1] == before[0][1] + 3 and
          after[0][2] == before[0][2], "%s %s" % (before, after))
    write(os.path.join(tmp, "a.cu"), KERNEL.replace("in[i * 32]", "in[i * 16]") + MAIN)
    rc, doc, err = json_report(wc, ["a.cu"], tmp)
    changed = findings_of(doc)
    check("fingerprint changes with the finding's own line",
          len(changed) == 1 and changed[0][2] != before[0][2], "%s %s" % (before, changed))
    # Two findings of one check on one line differ.
    write(os.path.join(tmp, "a.cu"), KERNEL.replace("out[i] =", "out[i * 32] =") + MAIN)
    rc, doc, err = json_report(wc, ["a.cu"], tmp)
    both = findings_of(doc)
    check("two findings on one line have different fingerprints",
          len(both) == 2 and both[0][1] == both[1][1] and both[0][2] != both[1][2], str(both))
    # The same fingerprint in SARIF's partialFingerprints.
    rc, out, err = run([wc, "--format=sarif", "a.cu"], cwd=tmp)
    try:
        prints = sorted(r["partialFingerprints"]["warpcheckFingerprint/v1"]
                        for r in json.loads(out)["runs"][0]["results"])
    except (ValueError, KeyError) as e:
        prints = repr(e)
    check("SARIF partialFingerprints carry the JSON fingerprints",
          prints == sorted(p for _, _, p in both), str(prints))


def test_baseline(wc, tmp):
    write(os.path.join(tmp, "b.cu"), KERNEL + MAIN)
    base = os.path.join(tmp, "base.json")
    rc, doc, err = json_report(wc, ["--write-baseline", base, "b.cu"], tmp)
    try:
        written = json.load(open(base))
        ok = (written["warpcheck_baseline"] == 1 and len(written["findings"]) == 1 and
              written["findings"][0]["fingerprint"] == doc["findings"][0]["fingerprint"] and
              written["findings"][0]["check"] == "cuda-uncoalesced-global-access")
    except (OSError, ValueError, KeyError, TypeError) as e:
        ok, err = False, err + repr(e)
    check("--write-baseline writes the findings' fingerprints", rc == 0 and ok, err)
    # Earlier reports of every kind serve as the baseline.
    rc, out, _ = run([wc, "--format=sarif", "-o", "base.sarif", "b.cu"], cwd=tmp)
    rc, out, _ = run([wc, "--format=json", "-o", "report.json", "b.cu"], cwd=tmp)
    # The pull request moves the old finding down and adds one.
    write(os.path.join(tmp, "b.cu"), NEW_KERNEL + KERNEL + NEW_MAIN)
    for name in ("base.json", "base.sarif", "report.json"):
        rc, doc, err = json_report(wc, ["--baseline=" + name, "--fail-on=warning", "b.cu"], tmp)
        got = findings_of(doc)
        check("--baseline %s: only the new finding, and it fails the run" % name,
              rc == 1 and len(got) == 1 and got[0][1] == 2 and
              doc["summary"]["suppressed_by_baseline"] == 1 and doc["summary"]["findings"] == 1 and
              "1 finding suppressed by the baseline" in doc["summary"]["text"], str(got) + err)
    rc, out, err = run([wc, "--baseline=base.json", "--fail-on=warning", "b.cu"], cwd=tmp)
    check("--baseline in text: the new finding only, the summary counts the old one",
          rc == 1 and out.count("warning:") == 1 and "b.cu:2:" in out and
          "1 finding suppressed by the baseline" in err, out + err)
    write(os.path.join(tmp, "b.cu"), KERNEL + MAIN)
    rc, doc, err = json_report(wc, ["--baseline=base.json", "--fail-on=warning", "b.cu"], tmp)
    check("--baseline holding every finding: exit 0 under --fail-on=warning",
          rc == 0 and doc and doc["findings"] == [], err)
    # A bad baseline is an error naming it, never ignored.
    write(os.path.join(tmp, "notjson.json"), "{ nope")
    write(os.path.join(tmp, "other.json"), '{"something": 1}')
    write(os.path.join(tmp, "old.json"), '{"version": 1, "findings": [{"check": "x"}]}')
    for name, why in (("missing.json", "cannot be read"), ("notjson.json", "not JSON"),
                      ("other.json", "neither"), ("old.json", "has no fingerprint")):
        rc, out, err = run([wc, "--baseline", name, "b.cu"], cwd=tmp)
        check("bad --baseline %s: exit 2, named, %r" % (name, why),
              rc == 2 and "baseline '%s'" % name in err and why in err and out == "", out + err)


def test_fail_on(wc, tmp):
    write(os.path.join(tmp, "f.cu"), KERNEL + MAIN)
    for argv, want in (([], 0), (["--fail-on=warning"], 1), (["--fail-on=error"], 0),
                       (["--warnings-as-errors=cuda-*"], 1),
                       (["--warnings-as-errors=cuda-*", "--fail-on=never"], 0),
                       (["--fail-on=never", "--fail-on=warning"], 1)):
        rc, out, err = run([wc] + argv + ["f.cu"], cwd=tmp)
        check("exit code %d for %s" % (want, " ".join(argv) or "no option"),
              rc == want and "f.cu:3:" in out, out + err)
    rc, out, err = run([wc, "--fail-on=sometimes", "f.cu"], cwd=tmp)
    check("--fail-on=sometimes: exit 2, named", rc == 2 and "sometimes" in err, err)
    for option in ("--baseline=", "--write-baseline=", "--diff=", "--line-filter=",
                   "--source-root="):
        rc, out, err = run([wc, option, "f.cu"], cwd=tmp)
        check("%s with no value: exit 2, never a gate silently off" % option,
              rc == 2 and "'%s' needs a value" % option[:-1] in err, out + err)
    rc, out, err = run([wc, "--source-root=nowhere", "f.cu"], cwd=tmp)
    check("--source-root that is not a folder: exit 2, named",
          rc == 2 and "--source-root 'nowhere'" in err, out + err)
    rc, out, err = run([wc, "--help"])
    codes = out.split("EXIT CODES:")[-1]
    check("--help: --fail-on among the options and the exit codes",
          "--fail-on=warning|error|never" in out and "--fail-on=warning" in codes and
          "--baseline" in codes, out)


def test_line_filter(wc, tmp):
    write(os.path.join(tmp, "l.cu"), NEW_KERNEL + KERNEL + NEW_MAIN)
    rc, doc, err = json_report(wc, ["--line-filter=[{\"name\":\"l.cu\",\"lines\":[[1,3]]}]",
                                    "l.cu"], tmp)
    got = findings_of(doc)
    check("--line-filter keeps the findings on its lines",
          rc == 0 and [line for _, line, _ in got] == [2] and
          doc["summary"]["outside_line_filter"] == 1, str(got) + err)
    rc, doc, err = json_report(wc, ['--line-filter=[{"name":"l.cu"}]', "l.cu"], tmp)
    check("--line-filter without lines keeps the whole file",
          rc == 0 and len(findings_of(doc)) == 2, err)
    rc, doc, err = json_report(wc, ['--line-filter=[{"name":"other.cu"}]', "l.cu"], tmp)
    check("--line-filter: a file not listed keeps nothing",
          rc == 0 and findings_of(doc) == [] and doc["summary"]["outside_line_filter"] == 2, err)
    for bad in ('{"name":"l.cu"}', '[{"lines":[[1,2]]}]', '[{"name":"l.cu","lines":[[3,1]]}]',
                '[{"name":"l.cu"'):
        rc, out, err = run([wc, "--line-filter=" + bad, "l.cu"], cwd=tmp)
        check("malformed --line-filter %s: exit 2" % bad,
              rc == 2 and "malformed --line-filter" in err, out + err)


def test_diff(wc, tmp):
    git = shutil.which("git")
    if not check("git is on PATH (for --diff)", git):
        return
    repo = os.path.join(tmp, "repo")
    os.makedirs(os.path.join(repo, "src"))
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com",
               GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
    src = os.path.join(repo, "src", "d.cu")
    write(src, KERNEL + MAIN)
    for argv in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "base"]):
        rc, out, err = run([git] + argv, cwd=repo, env=env)
    write(src, NEW_KERNEL + KERNEL + NEW_MAIN)
    rc, doc, err = json_report(wc, ["--diff=HEAD", "--fail-on=warning", "d.cu"],
                               os.path.join(repo, "src"))
    got = findings_of(doc)
    check("--diff HEAD: only the finding on an added line, run from a subfolder",
          rc == 1 and [line for _, line, _ in got] == [2] and
          doc["summary"]["outside_line_filter"] == 1, str(got) + err)
    rc, doc, err = json_report(wc, ["--diff=HEAD", "--line-filter=[{\"name\":\"d.cu\",\"lines\":[[3,9]]}]",
                                    "src/d.cu"], repo)
    check("--diff and --line-filter together: both must keep a finding",
          rc == 0 and findings_of(doc) == [], err)
    rc, out, err = run([wc, "--diff=no-such-revision", "src/d.cu"], cwd=repo, env=env)
    check("--diff of an unknown revision: exit 2 with git's message",
          rc == 2 and "--diff" in err and "no-such-revision" in err, out + err)
    rc, out, err = run([wc, "--diff=--output=" + os.path.join(tmp, "pwned"), "src/d.cu"], cwd=repo)
    check("--diff never passes an option to git",
          rc == 2 and "is not a revision" in err and not os.path.exists(os.path.join(tmp, "pwned")),
          out + err)
    rc, out, err = run([wc, "--diff=HEAD", "src/d.cu"], cwd=repo,
                       env=dict(env, PATH=os.path.join(tmp, "empty-path")))
    check("--diff without git on PATH: exit 2, said", rc == 2 and "git is not on PATH" in err,
          out + err)
    outside = os.path.join(tmp, "outside")
    os.makedirs(outside)
    write(os.path.join(outside, "o.cu"), KERNEL + MAIN)
    rc, out, err = run([wc, "--diff=HEAD", "o.cu"], cwd=outside, env=env)
    check("--diff on a file outside any repository: exit 2, named",
          rc == 2 and "--diff" in err and outside in err, out + err)


def test_sarif(wc, source, tmp):
    """Every test input's SARIF against the schema, and what code scanning
    needs: rules with full descriptions, help from the docs page, helpUri;
    one fingerprinted result per place; %SRCROOT% from --source-root."""
    schema_file = schema_path(source)
    if not check("the SARIF 2.1.0 schema is at " + schema_file, os.path.isfile(schema_file)):
        return
    try:
        import jsonschema
    except ImportError:
        check("python3-jsonschema is installed (scripts/setup.sh installs it)", False)
        return
    schema = json.load(open(schema_file))
    validator = jsonschema.Draft4Validator(schema)
    inputs = sorted(glob.glob(os.path.join(os.path.abspath(source), "test", "inputs", "*.cu")))
    total_results = 0
    check("there are test inputs", len(inputs) >= 10, str(len(inputs)))
    root = os.path.join(os.path.abspath(source), "test", "inputs")
    for path in inputs:
        name = os.path.basename(path)
        rc, out, err = run([wc, "--format=sarif", "--source-root=" + root, "--no-cuda", path],
                           cwd=tmp)
        try:
            log = json.loads(out)
            errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
            problems = ["%s: %s" % (list(e.path), e.message) for e in errors[:3]]
            run_ = log["runs"][0]
            rules = run_["tool"]["driver"]["rules"]
            for rule in rules:
                if rule["id"].startswith("cuda-"):
                    page = open(os.path.join(source, "docs", "checks", rule["id"] + ".rst")).read()
                    if not (rule["fullDescription"]["text"] and
                            rule["fullDescription"]["text"].split()[0] in page and
                            rule["help"]["text"].strip().splitlines()[0] in page and
                            "```" in rule["help"]["markdown"] and
                            rule["help"]["markdown"].startswith("# " + rule["id"]) and
                            rule["helpUri"].endswith("/" + rule["id"] + ".rst")):
                        problems.append("rule %s lacks its docs" % rule["id"])
            places = set()
            total_results += len(run_["results"])
            # Only the inputs with errors on purpose may end with exit code 3.
            if rc != 0 and "CHECK-STATUS" not in open(path).read():
                problems.append("exit code %s" % rc)
            for r in run_["results"]:
                loc = r["locations"][0]["physicalLocation"]
                place = (r["ruleId"], loc["artifactLocation"]["uri"], loc["region"]["startLine"],
                         loc["region"].get("startColumn"))
                if place in places:
                    problems.append("two results at %s" % (place,))
                places.add(place)
                if not re.fullmatch(r"[0-9a-f]{64}",
                                    r["partialFingerprints"]["warpcheckFingerprint/v1"]):
                    problems.append("a result without a fingerprint")
                if loc["artifactLocation"] != {"uri": name, "uriBaseId": "%SRCROOT%"}:
                    problems.append("uri %s" % loc["artifactLocation"])
            base = run_["originalUriBaseIds"]["%SRCROOT%"]["uri"]
            if base != "file://" + root + "/":
                problems.append("%SRCROOT% is " + base)
        except (ValueError, KeyError, IndexError, OSError) as e:
            problems = [repr(e)]
        check("sarif of %s: valid against the schema, rules documented, one fingerprinted "
              "result per place, relative to --source-root" % name,
              rc in (0, 3) and not problems, "; ".join(problems) + err[-500:])
    check("the test inputs' SARIF logs hold results", total_results >= 20, str(total_results))
    # Several launches, one finding at one place: one result listing them.
    write(os.path.join(tmp, "m.cu"), KERNEL + MAIN.replace(
        "strided<<<4, 128>>>(in, out);", "strided<<<4, 128>>>(in, out);\n  strided<<<4, 64>>>(in, out);"))
    rc, doc, err = json_report(wc, ["m.cu"], tmp)
    at_load = [f for f in (doc or {}).get("findings", []) if f["line"] == 3 and f["column"] == 12]
    rc, out, err = run([wc, "--format=sarif", "m.cu"], cwd=tmp)
    try:
        results = [r for r in json.loads(out)["runs"][0]["results"]
                   if r["locations"][0]["physicalLocation"]["region"] == {"startLine": 3, "startColumn": 12}]
        ok = (len(at_load) == 2 and len(results) == 1 and
              sorted(results[0]["properties"]["launches"]) ==
              ["the launch at m.cu:10", "the launch at m.cu:9"] and
              "Also: " in results[0]["message"]["text"])
        detail = json.dumps(results)[:2000]
    except (ValueError, KeyError, IndexError) as e:
        ok, detail = False, repr(e) + out[-1000:]
    check("two launches with a finding at one place: two JSON findings, one SARIF result "
          "listing both launches", ok, detail + err)


def test_ci_docs(wc, source):
    """docs/ci.md's CI jobs (GitHub Actions, GitLab CI, the shard matrix):
    valid YAML, and every option they pass to warpcheck one its --help
    lists."""
    import yaml
    with open(os.path.join(source, "docs", "ci.md"), encoding="utf-8") as f:
        text = f.read()
    jobs = [b for b in re.findall(r"```yaml\n(.*?)```", text, re.S) if "bin/warpcheck" in b]
    _, help_text, _ = run([wc, "--help"])
    known = set(re.findall(r"--[a-z][a-z-]*", help_text))

    def strings(node):
        if isinstance(node, str):
            yield node
        elif isinstance(node, dict):
            for v in node.values():
                yield from strings(v)
        elif isinstance(node, list):
            for v in node:
                yield from strings(v)

    kinds = set()
    for block in jobs:
        name = "GitHub Actions" if "runs-on" in block else "GitLab CI"
        try:
            doc, error = yaml.safe_load(block), ""
        except yaml.YAMLError as e:
            doc, error = None, str(e)
        check("docs/ci.md, a %s job: valid YAML" % name, isinstance(doc, dict), error)
        if not isinstance(doc, dict):
            continue
        kinds.add(name)
        # Each warpcheck command, a shell line continued with a backslash
        # joined (a YAML plain scalar is folded already).
        commands = [line.split("bin/warpcheck", 1)[1]
                    for value in strings(doc)
                    for line in value.replace("\\\n", " ").splitlines() if "bin/warpcheck" in line]
        used = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", " ".join(commands)))
        check("docs/ci.md, a %s job: runs warpcheck with --cache, and every option it passes is "
              "in --help (%s)" % (name, " ".join(sorted(used))),
              commands and "--cache" in used and used <= known,
              "unknown: %s; %s" % (sorted(used - known), commands))
    check("docs/ci.md has GitHub Actions and GitLab CI jobs",
          kinds == {"GitHub Actions", "GitLab CI"}, str(kinds))


def main():
    args, wc, _ = door_arguments("--source")
    test_ci_docs(wc, args.source)
    with scratch_dir("warpcheck-gates-") as tmp:
        for name, test in (("fp", test_fingerprints), ("base", test_baseline),
                           ("fail", test_fail_on), ("lines", test_line_filter),
                           ("diff", test_diff)):
            os.makedirs(os.path.join(tmp, name))
            test(wc, os.path.join(tmp, name))
        os.makedirs(os.path.join(tmp, "sarif"))
        test_sarif(wc, args.source, os.path.join(tmp, "sarif"))
    return RESULTS.summary()


if __name__ == "__main__":
    sys.exit(main())
