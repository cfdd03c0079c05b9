#!/usr/bin/env python3
"""Build a torchlint wheel for each binary GoReleaser built.

    python3 packaging/python/build_wheels.py [--dist dist] [--out dist/wheels] [--version V]

reads GoReleaser's dist/artifacts.json and dist/metadata.json and, for every
binary of a platform that has a wheel tag, builds
torchlint-VERSION-py3-none-PLATFORM.whl with `python -m build --wheel
--no-isolation` (so the `build` and `hatchling` packages must be installed
for this Python: Debian's python3-build and python3-hatchling).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

from packaging.version import Version

HERE = os.path.dirname(os.path.abspath(__file__))

# The wheel platform tags of each GoReleaser target. The Linux binaries are
# static, so one wheel serves glibc (manylinux) and musl (musllinux)
# systems; the darwin ones need macOS 12, as Go does.
PLATFORMS = {
    ("linux", "amd64"): "manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_1_x86_64",
    ("linux", "arm64"): "manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_1_aarch64",
    ("windows", "amd64"): "win_amd64",
    ("darwin", "amd64"): "macosx_12_0_x86_64",
    ("darwin", "arm64"): "macosx_12_0_arm64",
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dist", default="dist", help="GoReleaser's output folder")
    parser.add_argument("--out", default=None, help="where to write the wheels (default: DIST/wheels)")
    parser.add_argument("--version", default=None, help="the package version (default: GoReleaser's)")
    args = parser.parse_args()
    out = os.path.abspath(args.out or os.path.join(args.dist, "wheels"))
    version = args.version
    if version is None:
        with open(os.path.join(args.dist, "metadata.json"), encoding="utf-8") as f:
            version = json.load(f)["version"]
    # PEP 440's normal form: GoReleaser's snapshot 0.0.1-dev is 0.0.1.dev0.
    version = str(Version(version))
    with open(os.path.join(args.dist, "artifacts.json"), encoding="utf-8") as f:
        artifacts = json.load(f)
    binaries = [a for a in artifacts if a.get("type") == "Binary"]
    if not binaries:
        print("build_wheels.py: no binaries in artifacts.json", file=sys.stderr)
        return 1
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "torchlint")
        shutil.copytree(HERE, src, ignore=shutil.ignore_patterns("__pycache__", "build_wheels.py"))
        shutil.copy(os.path.join(HERE, "..", "..", "LICENSE"), os.path.join(src, "LICENSE"))
        with open(os.path.join(src, "python", "torchlint", "_version.py"), "w", encoding="utf-8") as f:
            f.write(f'__version__ = "{version}"\n')
        for a in binaries:
            platform = PLATFORMS.get((a["goos"], a["goarch"]))
            if platform is None:
                print(f"build_wheels.py: no wheel tag for {a['goos']}/{a['goarch']}; skipped", file=sys.stderr)
                continue
            env = dict(os.environ, TORCHLINT_BINARY=os.path.abspath(a["path"]), TORCHLINT_PLATFORM=platform)
            subprocess.run(
                # --skip-dependency-check: Debian's hatchling declares a
                # dependency on `editables`, which Debian does not package
                # and which only editable installs use.
                [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--skip-dependency-check", "--outdir", out, src],
                env=env,
                check=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
