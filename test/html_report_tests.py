#!/usr/bin/env python3
"""The audit report (--format=html) as a browser shows it (issue "The audit
report"): the report of several test inputs, and of an input that is not
there, rendered by headless Chromium.

- By the DOM Chromium builds (--dump-dom): the table has one row per kernel
  entry of the JSON report of the same run, with its occupancy, registers
  and global efficiency (worst and traffic-weighted, recomputed here from
  the JSON accesses) and worst conflict degree; the three kinds of charts
  are there, each occupancy mark at the occupancy the JSON gives its
  launches, a roof per architecture and precision, a point per launch with
  an intensity; every finding of the JSON is there with its message, a
  snippet with the caret, its fix-it as a diff and a link to a launch of
  the kernel it names; the failed input is counted as not analysed.
- The layout: the page's own check (run only with #selfcheck in the URL)
  finds no element wider than the 1280-pixel window.
- Escaping: a file name and source holding </script><img ...> and &<>"'
  give a page whose parse (Python's html.parser, and Chromium's) has no
  <img>, one <script> (the report's own) and no event attribute, and shows
  the text as written.
- A screenshot of the first 2000 pixels is kept under the build folder
  (test-artifacts/html-report/report.png) and its path printed.

Exits 77 (ctest: skipped) only when no Chromium can be found.
"""
import argparse
import html.parser
import json
import re
import os
import shutil
import sys

from testsupport import Results, run, scratch_dir, warpcheck_binary, write_in

SKIPPED = 77
INPUTS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "inputs")
INPUTS = ["cuda-occupancy.cu", "roofline.cu", "cuda-shared-bank-conflict.cu",
          "cuda-uncoalesced-global-access.cu", "cuda-aos-layout.cu", "cuda-missed-data-reuse.cu"]
MISSING = "no-such-input.cu"
WIDTH = 1280

RESULTS = Results()
check = RESULTS.check

HOSTILE_TEXT = "</script><img src=x onerror=alert(1)>&<>\"'"
HOSTILE_NAME = "evil<img src=x onerror=alert(1)>&'\".cu"
HOSTILE_UNIT = """\
// The lines around the finding are in its snippet.
__global__ void strided(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; // <script>alert(2)</script> &amp; &lt;
  out[i] = in[i /*%s*/ * 32];
}
int main() {
  float *a = nullptr, *b = nullptr;
  strided<<<4, 128>>>(a, b);
  return 0;
}
""" % HOSTILE_TEXT

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.children = tag, dict(attrs), parent, []

    def text(self):
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def all(self, tag=None, cls=None):
        for c in self.children:
            if isinstance(c, Node):
                if (tag is None or c.tag == tag) and \
                        (cls is None or cls in c.attrs.get("class", "").split()):
                    yield c
                yield from c.all(tag, cls)

    def first(self, tag=None, cls=None):
        return next(self.all(tag, cls), None)


class Tree(html.parser.HTMLParser):
    """The element tree of a page, and every start tag and attribute seen."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.root = self.node = Node("#root", [], None)
        self.tags = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, attrs))
        n = Node(tag, attrs, self.node)
        self.node.children.append(n)
        if tag not in VOID:
            self.node = n

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, attrs))
        self.node.children.append(Node(tag, attrs, self.node))

    def handle_endtag(self, tag):
        n = self.node
        while n is not self.root and n.tag != tag:
            n = n.parent
        if n is not self.root:
            self.node = n.parent

    def handle_data(self, data):
        self.node.children.append(data)


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


def chromium(browser, *args, height=2000):
    # --no-sandbox: CI containers run as root, where Chromium's sandbox
    # refuses to start; the page is our own report of our own inputs.
    return run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--window-size=%d,%d" % (WIDTH, height)] + list(args), timeout=180)


def dom_of(browser, page):
    rc, out, err = chromium(browser, "--dump-dom", "file://" + page + "#selfcheck")
    return Tree(out) if rc == 0 and "<body" in out else None, err


def percent(v):
    return "–" if v is None else "%.1f%%" % (v * 100)


def expected_row(k):
    """What the table says of a JSON kernel: occupancy, registers, global
    efficiency worst and weighted, worst conflict degree."""
    globals_ = [a for a in k.get("accesses", []) if a["space"] == "global" and
                a.get("efficiency") is not None]
    worst = min((a["efficiency"] for a in globals_), default=None)
    needed = sum(a["ideal_sectors_per_request"] * a["requests_simulated"] for a in globals_
                 if a.get("sectors_per_request") is not None and a["requests_simulated"] > 0)
    moved = sum(a["sectors_per_request"] * a["requests_simulated"] for a in globals_
                if a.get("sectors_per_request") is not None and a["requests_simulated"] > 0)
    weighted = round(needed / moved, 4) if moved else None
    degrees = [a["conflict_degree"] for a in k.get("accesses", [])
               if a["space"] == "shared" and a.get("conflict_degree") is not None]
    occ = k.get("occupancy")
    return {"occupancy": percent(occ["theoretical"]) if occ else "–",
            "registers": "%d (%s)" % (k["registers"], k["registers_source"]) if occ else "–",
            "worst": percent(worst), "weighted": percent(weighted),
            "conflict": "%d-way" % max(degrees) if degrees else "–"}


def launch_numbers(text):
    return [int(t[1:]) for t in text.split() if t.startswith("#") and t[1:].isdigit()]


def check_report(wc, browser, artifacts):
    rc, out, err = run([wc, "--format=json"] + INPUTS + [MISSING], cwd=INPUTS_DIR, timeout=600)
    doc = json.loads(out) if out.strip().startswith("{") else {}
    check("json report of the inputs (exit 3: one input is missing)",
          rc == 3 and doc.get("kernels"), err[-1500:])
    if not doc.get("kernels"):
        return
    page = os.path.join(artifacts, "report.html")
    with open(page, "w") as f:
        rc, out, err = run([wc, "--format=html"] + INPUTS + [MISSING], cwd=INPUTS_DIR, timeout=600)
        f.write(out)
    check("html report of the same inputs, exit 3", rc == 3 and out.startswith("<!DOCTYPE html>"),
          err[-1500:])
    static = Tree(out)
    # A sampled launch says how many of its blocks were simulated, from the
    # JSON report's simulated_blocks and total_blocks.
    sampled = sorted((k["simulated_warps"], k["total_warps"], k["simulated_blocks"],
                      k["total_blocks"]) for k in doc["kernels"]
                     if k.get("status", "analysed") == "analysed" and
                     k["simulated_warps"] < k["total_warps"] and k.get("total_blocks"))
    said = sorted(tuple(int(n.replace(",", "")) for n in m) for m in re.findall(
        r"([\d,]+) of ([\d,]+) warps simulated, in ([\d,]+) of ([\d,]+) blocks", out))
    check("every sampled launch says its blocks simulated of the launch's (%d)" % len(sampled),
          sampled and said == sampled, "json %s, html %s" % (sampled[:5], said[:5]))
    check("self-contained: no external resource (src, href other than #, link, @import)",
          not any(t in ("link", "iframe", "object", "img") for t, _ in static.tags) and
          all(not v or v.startswith("#") for t, a in static.tags for k, v in a
              if k in ("src", "href")) and "@import" not in out and "url(http" not in out,
          str([(t, a) for t, a in static.tags if t in ("link", "img")])[:500])
    shot = os.path.join(artifacts, "report.png")
    if os.path.exists(shot):
        os.remove(shot)
    rc, _, err = chromium(browser, "--screenshot=" + shot, "file://" + page)
    ok = rc == 0 and os.path.exists(shot) and os.path.getsize(shot) > 20000
    if ok:
        with open(shot, "rb") as f:
            ok = f.read(8) == b"\x89PNG\r\n\x1a\n"
    check("screenshot of the report at %d px: %s" % (WIDTH, shot), ok, err[-1500:])
    print("screenshot: " + shot)

    dom, err = dom_of(browser, page)
    check("chromium builds the page's DOM", dom is not None, err[-1500:])
    if dom is None:
        return
    body = dom.root.first("body")
    check("no element wider than the %d px window (the page's #selfcheck)" % WIDTH,
          body.attrs.get("data-selfcheck-overflow") == "0",
          "overflow: %s; %s" % (body.attrs.get("data-selfcheck-overflow"),
                                body.attrs.get("data-selfcheck-wide")))
    check("no chart label covers another, as Chromium draws them (the page's #selfcheck)",
          body.attrs.get("data-selfcheck-label-overlaps") == "0",
          "%s covered: %s" % (body.attrs.get("data-selfcheck-label-overlaps"),
                              body.attrs.get("data-selfcheck-labels")))

    # The whole page too, the launches' details folded as it opens.
    full = os.path.join(artifacts, "report-full.png")
    height = int(body.attrs.get("data-selfcheck-folded-height", "0") or 0)
    rc, _, err = chromium(browser, "--screenshot=" + full, "file://" + page,
                          height=min(max(height, 2000), 16000))
    check("screenshot of the whole page: %s" % full, rc == 0 and os.path.exists(full), err[-800:])
    print("screenshot of the whole page: " + full)

    s = doc["summary"]
    tiles = {t.attrs["data-count"]: t.text() for t in dom.root.all("div", "tile")}
    check("verdict: inputs, kernels, launch shapes and findings as the JSON counts them; the "
          "missing input not analysed",
          tiles.get("inputs", "").startswith("%d input" % s["inputs"]) and
          "%d analysed, " % s["inputs_analysed"] in tiles.get("inputs", "") and
          "%d not analysed" % s["inputs_not_analysed"] in tiles.get("inputs", "") and
          s["inputs_not_analysed"] == 1 and
          tiles.get("kernels", "").startswith(str(s["kernels_analysed"])) and
          tiles.get("launches", "").startswith(str(s["launch_shapes"])) and
          tiles.get("findings", "").startswith(str(s["findings"])), json.dumps(tiles))
    inputs = next((t for t in dom.root.all("table") if t.attrs.get("id") == "inputs"), None)
    check("inputs with errors: the missing input and why",
          inputs is not None and MISSING in inputs.text() and "not analysed" in inputs.text(),
          inputs.text() if inputs else "no table#inputs")
    # The inputs' only error is the missing one, said in that table: no
    # table of compiler errors repeats it.
    check("inputs with errors: a missing input is said once (no table of compiler errors)",
          not any(t.attrs.get("id") == "errors" for t in dom.root.all("table")) and
          len(doc["errors"]) == 1 and doc["errors"][0].get("line") is None,
          json.dumps(doc["errors"])[:600])

    table = next((t for t in dom.root.all("table") if t.attrs.get("id") == "launches"), None)
    rows = list(table.first("tbody").all("tr")) if table else []
    kernels = doc["kernels"]
    check("table: one row per kernel entry (%d)" % len(kernels), len(rows) == len(kernels),
          "%d rows" % len(rows))
    bad = []
    for n, (row, k) in enumerate(zip(rows, kernels), 1):
        tds = [c for c in row.children if isinstance(c, Node)]
        cells = [c.text().strip() for c in tds]
        want = expected_row(k)
        got = {"occupancy": cells[6], "registers": cells[4], "worst": cells[8],
               "weighted": cells[9], "conflict": cells[10]}
        name = tds[1].first("code").text() if len(tds) > 1 and tds[1].first("code") else None
        if cells[0] != str(n) or name != k["name"] or got != want:
            bad.append((n, k["name"], cells[:2], got, want))
    check("table: each row's kernel, registers, occupancy, global efficiency (worst, "
          "weighted) and worst conflict as the JSON's accesses give them", rows and not bad,
          json.dumps(bad[:3], ensure_ascii=False))

    eff = dom.root.first("svg", "chart-efficiency")
    with_global = [k for k in kernels if expected_row(k)["worst"] != "–"]
    check("efficiency chart: a bar row per launch with a global access (%d)" % len(with_global),
          eff is not None and len(list(eff.all("rect", "worst"))) == len(with_global),
          "no chart" if eff is None else str(len(list(eff.all("rect", "worst")))))

    occ = list(dom.root.all("svg", "chart-occupancy"))
    curves = [c.first("polyline", "curve") for c in occ]
    marks = [m for c in occ for m in c.all("g", "mark")]
    wrong, marked = [], []
    for m in marks:
        for n in launch_numbers(m.attrs.get("data-launches", "")):
            marked.append(n)
            t = kernels[n - 1]["occupancy"]["theoretical"]
            if abs(float(m.attrs["data-occupancy"]) - t) > 1e-4:
                wrong.append((n, m.attrs["data-occupancy"], t))
    with_occupancy = [n for n, k in enumerate(kernels, 1) if k.get("occupancy")]
    check("occupancy charts: a curve of 32 block sizes per configuration, every launch marked "
          "once, at the occupancy the JSON gives it",
          occ and all(c is not None and len(c.attrs["points"].split()) == 32 for c in curves) and
          sorted(marked) == with_occupancy and not wrong,
          "%d charts; marked %s; want %s; wrong %s" % (len(occ), sorted(marked), with_occupancy,
                                                      wrong))

    roof = dom.root.first("svg", "chart-roofline")
    roofs = {(e["arch"], e["part"], e["precision"]) for k in kernels for e in k.get("roofline", [])}
    with_intensity = sorted(n for n, k in enumerate(kernels, 1)
                            if k.get("intensity") and k["intensity"] > 0 and k.get("roofline"))
    points = sorted(n for p in (roof.all("g", "point") if roof else [])
                    for n in launch_numbers(p.attrs.get("data-launches", "")))
    check("roofline: a roof per architecture and precision (%d), a point per launch with an "
          "intensity (%d)" % (len(roofs), len(with_intensity)),
          roof is not None and len(list(roof.all("polyline", "roof"))) == len(roofs) and
          points == with_intensity, "points %s, want %s" % (points, with_intensity))

    shown = {}
    for f in dom.root.all("div", "finding"):
        key = (f.attrs.get("data-check"), int(f.attrs.get("data-line", 0)),
               int(f.attrs.get("data-column", 0)), f.first("span", "message").text())
        shown.setdefault(key, []).append(f)
    missing, bad = [], []
    for jf in doc["findings"]:
        key = (jf["check"], jf["line"], jf["column"], jf["message"])
        found = shown.get(key)
        if not found:
            missing.append(key)
            continue
        f = found[0]
        snippet = f.first("pre", "snippet")
        hit = snippet.first("span", "hit") if snippet else None
        links = [a.text() for p in f.all("p", "applies") for a in p.all("a")]
        named = jf["message"].split("kernel '")[1].split("'")[0] if "kernel '" in jf["message"] \
            else None
        if not f.attrs.get("data-file", "").endswith(os.path.basename(jf["file"])) or \
                hit is None or not hit.text().startswith(" %5d | " % jf["line"]) or \
                snippet.first("span", "caret") is None or \
                (jf.get("fixes") and f.first("pre", "diff") is None) or not links or \
                (named and not any(l.split(" ", 1)[1].startswith(named + " ") for l in links)):
            bad.append((key, links, hit.text() if hit else None))
    check("every finding of the JSON (%d) is in the page" % len(doc["findings"]),
          not missing and len(doc["findings"]) > 0, json.dumps(missing[:3]))
    check("each with its snippet (the line, the caret), its fix-it as a diff, and a link to a "
          "launch of the kernel it names", not bad, json.dumps(bad[:3], ensure_ascii=False))
    check("the page shows no finding the JSON does not have",
          sum(len(v) for v in shown.values()) == len(doc["findings"]),
          "%d shown" % sum(len(v) for v in shown.values()))


def check_hostile(wc, browser, artifacts, tmp):
    write_in(tmp, HOSTILE_NAME, HOSTILE_UNIT)
    rc, out, err = run([wc, "--format=html", HOSTILE_NAME], cwd=tmp, timeout=300)
    check("hostile file name and source: reported (exit 0)", rc == 0 and "<!DOCTYPE" in out,
          err[-1500:])
    tree = Tree(out)
    tags = [t for t, _ in tree.tags]
    events = [(t, k) for t, a in tree.tags for k, _ in a if k.lower().startswith("on")]
    check("hostile: the parse has no <img>, one <script> (the report's own), no event attribute",
          "img" not in tags and tags.count("script") == 1 and not events,
          "tags %s, events %s" % (sorted(set(tags)), events))
    scripts = [n for n in tree.root.all("script")]
    text = tree.root.text()
    check("hostile: the file name, the source and the message show their text as written",
          HOSTILE_NAME + ":4:12" in text and "/*" + HOSTILE_TEXT + "*/" in text and
          "<script>alert(2)</script> &amp; &lt;" in text and
          scripts and HOSTILE_TEXT not in scripts[0].text(), text[:300])
    page = os.path.join(artifacts, "hostile.html")
    with open(page, "w") as f:
        f.write(out)
    dom, err = dom_of(browser, page)
    check("hostile: Chromium's DOM has no <img> and one <script>, and nothing overflows",
          dom is not None and dom.root.first("img") is None and
          len(list(dom.root.all("script"))) == 1 and
          dom.root.first("body").attrs.get("data-selfcheck-overflow") == "0",
          err[-800:] if dom is None else str(dom.root.first("body").attrs))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    args = ap.parse_args()
    browser = find_chromium()
    if not browser:
        print("SKIP: no Chromium (chromium, chromium-browser, google-chrome) on PATH; "
              "scripts/setup.sh --tests installs Debian's chromium")
        return SKIPPED
    wc = warpcheck_binary(args.build)
    artifacts = os.path.join(os.path.abspath(args.build), "test-artifacts", "html-report")
    os.makedirs(artifacts, exist_ok=True)
    check_report(wc, browser, artifacts)
    with scratch_dir("warpcheck-html-report-") as tmp:
        check_hostile(wc, browser, artifacts, tmp)
    return RESULTS.summary()


if __name__ == "__main__":
    sys.exit(main())
