"""docs/ARCHITECTURE.md's map lists every module where it is, and nothing that is gone: a
newcomer finds any concern's home there, so a module added, moved or removed changes the map too."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAP = ROOT / "docs" / "ARCHITECTURE.md"
FOLDERS = ("finsearch", "ui", "pages")


def mapped() -> set[str]:
    section = MAP.read_text("utf-8").split("## The map", 1)[1].split("\n## ", 1)[0]
    found, folder = set(), None
    for line in section.splitlines():
        if heading := re.match(r"\*\*`([\w/]+)/`\*\*", line):
            folder = heading.group(1)
        elif (item := re.match(r"- `(\w+)`", line)) and folder:
            found.add(f"{folder}/{item.group(1)}")
    return found


def modules() -> set[str]:
    """Every module of the app, an `__init__` only when it says something (a docstring or code)."""
    out = set()
    for top in FOLDERS:
        for path in (ROOT / top).rglob("*.py"):
            if "__pycache__" in path.parts:
                continue
            if path.name == "__init__.py" and not path.read_text("utf-8").strip():
                continue
            out.add(str(path.relative_to(ROOT).with_suffix("")))
    return out


def test_the_map_lists_every_module_in_its_folder():
    missing = sorted(modules() - mapped())
    assert not missing, f"modules not in docs/ARCHITECTURE.md's map: {missing}"


def test_the_map_lists_nothing_that_is_gone():
    gone = sorted(mapped() - modules())
    assert not gone, f"docs/ARCHITECTURE.md's map lists modules that do not exist: {gone}"
