"""The ``celltrain`` console script: the Rust command line, run in-process."""

import sys

from . import _celltrain


def main() -> None:
    sys.stdout.flush()
    code = _celltrain.main(["celltrain", *sys.argv[1:]])
    sys.exit(code)


if __name__ == "__main__":
    main()
