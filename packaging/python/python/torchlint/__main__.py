"""`python -m torchlint ARGS` runs the installed torchlint binary."""

import os
import subprocess
import sys

from . import find_torchlint_bin


def main() -> None:
    torchlint = find_torchlint_bin()
    if sys.platform == "win32":
        sys.exit(subprocess.call([torchlint, *sys.argv[1:]]))
    os.execv(torchlint, [torchlint, *sys.argv[1:]])


if __name__ == "__main__":
    main()
