"""Lists Rust files over 800 lines and functions over 120 lines under the given directories
(default: crates/celltrain/src), the limits the project keeps. Exit status 1 if any."""
import re
import sys
from pathlib import Path

FN = re.compile(r"^(\s*)(pub(\([a-z]+\))? )?(const )?(unsafe )?fn \w+")


def long_items(path: Path):
    lines = path.read_text().split("\n")
    if len(lines) > 800:
        yield f"{path}: {len(lines)} lines"
    for i, line in enumerate(lines):
        m = FN.match(line)
        if not m or line.rstrip().endswith(";"):
            continue
        indent = m.group(1)
        for j in range(i + 1, len(lines)):
            if lines[j] == indent + "}":
                if j - i + 1 > 120:
                    yield f"{path}:{i + 1}: {line.strip()[:60]} is {j - i + 1} lines"
                break


def main() -> int:
    roots = [Path(a) for a in sys.argv[1:]] or [Path("crates/celltrain/src")]
    found = [item for root in roots for p in sorted(root.rglob("*.rs")) for item in long_items(p)]
    print("\n".join(found) or "none")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
