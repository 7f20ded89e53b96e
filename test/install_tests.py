#!/usr/bin/env python3
"""`cmake --install` into a clean prefix gives a warpcheck that works from
there alone: <prefix>/bin/warpcheck finds its bundled declarations under
<prefix>/share/warpcheck/include (not the source tree's), analyses a unit
with and without a CUDA toolkit, and clang-tidy loads
<prefix>/lib/libwarpcheck.so and reports the same finding. The same of the
Debian package cpack builds, unpacked.

Runs as one ctest; prints 'N passed, M failed' and exits non-zero on failure.
"""
import argparse
import glob
import json
import os
import shutil
import sys

from testsupport import STRIDED_UNIT, Results, run, scratch_dir, toolkit_nvcc

RESULTS = Results()
check = RESULTS.check


def check_tree(prefix, what, clang_tidy, tmp):
    """The binary, the plugin and the bundled declarations of an install
    tree under prefix work from there alone."""
    wc = os.path.join(prefix, "bin", "warpcheck")
    plugin = os.path.join(prefix, "lib", "libwarpcheck.so")
    bundled = os.path.join(prefix, "share", "warpcheck", "include")
    check("%s holds bin/warpcheck, lib/libwarpcheck.so, the bundled headers and the CUDA 13 "
          "shim" % what,
          os.access(wc, os.X_OK) and os.path.isfile(plugin) and os.path.isfile(
              os.path.join(bundled, "cuda-minimal", "warpcheck_cuda_minimal.h")) and
          os.path.isfile(os.path.join(bundled, "cuda-shim", "texture_fetch_functions.h")))

    work = os.path.join(tmp, "work-" + os.path.basename(prefix))
    os.makedirs(work)
    with open(os.path.join(work, "a.cu"), "w") as f:
        f.write(STRIDED_UNIT)
    rc, args_out, err = run([wc, "--no-cuda", "--print-clang-args", "a.cu"], cwd=work)
    includes = [a for a in args_out.splitlines() if "warpcheck" in a and "include" in a]
    check("%s: the binary parses with its own bundled declarations" % what,
          rc == 0 and includes and all(a.startswith(bundled) for a in includes),
          "\n".join(includes) + err)
    for options, toolkit in ((["--no-cuda"], "bundled declarations"), ([], "the CUDA toolkit")):
        if not options and not toolkit_nvcc(wc):
            print("SKIP %s with a toolkit: none found" % what)
            continue
        rc, out, err = run([wc, "--format=json"] + options + ["a.cu"], cwd=work)
        try:
            doc = json.loads(out)
        except ValueError:
            doc = None
        finding = doc["findings"][0] if doc and doc["findings"] else {}
        check("%s (%s): the finding at 3:12, 32 sectors per request" % (what, toolkit),
              rc == 0 and finding.get("line") == 3 and finding.get("column") == 12 and
              "32 sectors per warp request" in finding.get("message", ""), err[-800:])

    clang_args = [a for a in args_out.splitlines() if a]
    rc, out, err = run([clang_tidy, "-load", plugin, "-checks=-*,cuda-*", "a.cu", "--"] +
                       clang_args, cwd=work)
    check("%s: clang-tidy loads the plugin and reports the same finding" % what,
          "a.cu:3:12: warning: global load 'in[i * 32]' touches 32 sectors per warp request"
          in out and "[cuda-uncoalesced-global-access]" in out, out[-800:] + err[-800:])
    check_readme_config(prefix, what, clang_tidy, wc, work)


def readme_clang_tidy():
    """The `.clang-tidy` README.md shows for an installed warpcheck, as
    written there."""
    readme = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "README.md")
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    start = text.index("A `.clang-tidy` for a CUDA project")
    block = text.index("```yaml\n", start) + len("```yaml\n")
    return text[block:text.index("```", block)]


def check_readme_config(prefix, what, clang_tidy, wc, work):
    """README's `.clang-tidy`, its /usr paths moved to the prefix, with the
    installed plugin and no other arguments: what an editor runs. With CUDA
    13 it needs the shim it names (clang 19 includes a header CUDA 13
    removed)."""
    config = readme_clang_tidy()
    check("README's .clang-tidy names the installed shim at a fixed path",
          "'/usr/share/warpcheck/include/cuda-shim'" in config and "<" not in config, config)
    nvcc = toolkit_nvcc(wc)
    if not nvcc:
        print("SKIP %s: README's .clang-tidy with a toolkit: none found" % what)
        return
    config = config.replace("/usr/share/warpcheck", os.path.join(prefix, "share", "warpcheck"))
    folder = os.path.join(work, "readme-config")
    os.makedirs(folder)
    with open(os.path.join(folder, ".clang-tidy"), "w") as f:
        f.write(config)
    shutil.copy(os.path.join(work, "a.cu"), folder)
    # clang finds the toolkit where nvcc is, as an editor's clang-tidy would
    # (/usr/local/cuda by default).
    cuda = os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
    extra = [] if cuda == "/usr/local/cuda" or os.path.realpath("/usr/local/cuda") == cuda \
        else ["--extra-arg=--cuda-path=" + cuda]
    rc, out, err = run([clang_tidy, "-load", os.path.join(prefix, "lib", "libwarpcheck.so")] +
                       extra + ["a.cu", "--"], cwd=folder)
    check("%s: README's .clang-tidy as written, the installed plugin, nothing else: exit 0 and "
          "the finding at 3:12 (CUDA at %s)" % (what, cuda),
          rc == 0 and "a.cu:3:12: warning: global load 'in[i * 32]'" in out and
          "error:" not in out + err, out[-800:] + err[-800:])


def check_debian_package(build, cmake, clang_tidy, tmp):
    """cpack builds the Debian package of the install tree: /usr/bin,
    /usr/lib and /usr/share/warpcheck, the LLVM 19 libraries as
    dependencies; unpacked, it works like the install."""
    cpack = os.path.join(os.path.dirname(cmake), "cpack") if os.path.dirname(cmake) else "cpack"
    if not shutil.which(cpack) or not shutil.which("dpkg-deb"):
        print("SKIP Debian package: no cpack or dpkg-deb")
        return
    out_dir = os.path.join(tmp, "package")
    rc, out, err = run([cpack, "--config", os.path.join(build, "CPackConfig.cmake"),
                        "-B", out_dir], cwd=tmp)
    debs = glob.glob(os.path.join(out_dir, "warpcheck_*.deb"))
    check("cpack writes warpcheck_<version>_<arch>.deb", rc == 0 and len(debs) == 1,
          out[-800:] + err[-800:])
    if len(debs) != 1:
        return
    rc, listing, err = run(["dpkg-deb", "--contents", debs[0]])
    paths = {line.split()[-1] for line in listing.splitlines() if line.split()}
    check("the package installs /usr/bin/warpcheck, /usr/lib/libwarpcheck.so and "
          "/usr/share/warpcheck/include (with the CUDA 13 shim)",
          {"./usr/bin/warpcheck", "./usr/lib/libwarpcheck.so",
           "./usr/share/warpcheck/include/cuda-minimal/warpcheck_cuda_minimal.h"} <= paths and
          any(p.startswith("./usr/share/warpcheck/include/cuda-shim/") for p in paths),
          listing[-1500:])
    rc, depends, err = run(["dpkg-deb", "--field", debs[0], "Depends"])
    check("the package depends on the LLVM 19 libraries and clang's resource headers",
          rc == 0 and all(p in depends for p in ("libllvm19", "libclang-cpp19",
                                                 "libclang-common-19-dev")), depends + err)
    root = os.path.join(tmp, "unpacked")
    rc, out, err = run(["dpkg-deb", "-x", debs[0], root])
    check("dpkg-deb unpacks the package", rc == 0, err)
    if rc == 0:
        check_tree(os.path.join(root, "usr"), "the unpacked package", clang_tidy, tmp)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--cmake", default="cmake")
    ap.add_argument("--clang-tidy", default="clang-tidy-19")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    with scratch_dir("warpcheck-install-") as tmp:
        prefix = os.path.join(tmp, "prefix")
        rc, out, err = run([args.cmake, "--install", build, "--prefix", prefix])
        check("cmake --install into a clean prefix", rc == 0, out[-800:] + err[-800:])
        check_tree(prefix, "the installed prefix", args.clang_tidy, tmp)
        check_debian_package(build, args.cmake, args.clang_tidy, tmp)
    return RESULTS.summary()


if __name__ == "__main__":
    sys.exit(main())
