"""Puts one platform's torchlint binary into the wheel as a script.

The binary and the wheel's platform tag come from the environment, set by
build_wheels.py: TORCHLINT_BINARY (the path of the binary) and
TORCHLINT_PLATFORM (a platform tag such as win_amd64). The wheel is tagged
py3-none-PLATFORM: it runs on any Python 3 and holds no extension module.
"""

import os

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CustomBuildHook(BuildHookInterface):
    def initialize(self, version, build_data):
        if self.target_name != "wheel":
            return
        binary = os.environ.get("TORCHLINT_BINARY")
        platform = os.environ.get("TORCHLINT_PLATFORM")
        if not binary or not platform:
            raise RuntimeError("set TORCHLINT_BINARY and TORCHLINT_PLATFORM (build_wheels.py does)")
        if not os.path.isfile(binary):
            raise RuntimeError(f"TORCHLINT_BINARY: no such file: {binary}")
        name = "torchlint.exe" if platform.startswith("win") else "torchlint"
        data = f"{self.build_config.builder.artifact_project_id}.data"
        build_data["force_include"][binary] = f"{data}/scripts/{name}"
        build_data["pure_python"] = False
        build_data["tag"] = f"py3-none-{platform}"
