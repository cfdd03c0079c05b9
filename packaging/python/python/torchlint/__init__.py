"""torchlint, a static linter for PyTorch code.

The wheel installs the torchlint binary as a script; find_torchlint_bin()
returns its path, and `python -m torchlint` runs it.
"""

import os
import sys
import sysconfig

from ._version import __version__

__all__ = ["__version__", "find_torchlint_bin"]


def _user_scheme() -> str:
    if sys.version_info >= (3, 10):
        return sysconfig.get_preferred_scheme("user")
    if os.name == "nt":
        return "nt_user"
    if sys.platform == "darwin" and getattr(sys, "_framework", None):
        return "osx_framework_user"
    return "posix_user"


def find_torchlint_bin() -> str:
    """Return the path of the torchlint binary installed with this package."""
    exe = "torchlint" + (sysconfig.get_config_var("EXE") or "")
    candidates = [
        # A virtual environment or a system-wide install.
        sysconfig.get_path("scripts"),
        # pip install --user.
        sysconfig.get_path("scripts", scheme=_user_scheme()),
        # pip install --target DIR puts the scripts in DIR/bin.
        os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bin"),
    ]
    for folder in candidates:
        path = os.path.join(folder, exe)
        if os.path.isfile(path):
            return path
    raise FileNotFoundError(f"{exe} is not in any of {candidates}")
