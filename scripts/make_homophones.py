"""Write finsearch/data/homophones.json: for each character of the alias table's Chinese
names, the common characters that sound the same (toneless pinyin), which a pinyin input
method may put in its place ("腾迅" for 腾讯, "茅苔" for 茅台).

Run after adding Chinese names to the table (tests/test_chinese_typos.py says when):
    pip install pypinyin==0.55.0   # only for this script; FinSearch does not need it
    python scripts/make_homophones.py
"""

from __future__ import annotations

import json
from pathlib import Path

from pypinyin import lazy_pinyin

ROOT = Path(__file__).resolve().parents[1]


def common_characters() -> list[str]:
    """The 3,755 characters of GB 2312 level 1, the ones people type every day."""
    found = []
    for high in range(0xB0, 0xD8):
        for low in range(0xA1, 0xFF):
            try:
                found.append(bytes([high, low]).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    return found


def main() -> None:
    by_sound: dict[str, list[str]] = {}
    for ch in common_characters():
        by_sound.setdefault(lazy_pinyin(ch)[0], []).append(ch)
    entries = json.loads((ROOT / "finsearch/data/aliases.json").read_text("utf-8"))
    chars = sorted({c for e in entries for field in ("aliases", "nicknames") for name in e.get(field, ())
                    for c in name if "\u4e00" <= c <= "\u9fff"})
    homophones = {c: "".join(x for x in by_sound.get(lazy_pinyin(c)[0], ()) if x != c) for c in chars}
    out = {"about": "Characters that sound like each character of the alias table's Chinese names "
                    "(same toneless pinyin, pypinyin 0.55 lazy_pinyin, among GB 2312 level 1); "
                    "written by scripts/make_homophones.py.",
           "homophones": homophones}
    path = ROOT / "finsearch/data/homophones.json"
    path.write_text(json.dumps(out, ensure_ascii=False, indent=0) + "\n", "utf-8")
    print(f"{path}: {len(homophones)} characters")


if __name__ == "__main__":
    main()
