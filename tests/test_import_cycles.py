"""No two modules of the app import each other, directly or round a loop: each concern's home can be
read, tested and moved on its own, and no import order decides whether a module has its names yet.

The graph is read from the source (`ast`), so a cycle fails here before it fails at some import. An
import inside a function counts too: it only postpones the cycle to the first call (issue 28 found
`research/record` ↔ `research/result` that way). Importing `a.b.c` runs the packages `a` and `a.b`
first, so those count as imported as well; `if TYPE_CHECKING:` imports never run and do not count.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("finsearch", "ui")


def modules() -> dict[str, tuple[Path, bool]]:
    """Every module by its dotted name, with its file and whether it is a package's `__init__`."""
    found = {}
    for top in PACKAGES:
        for path in (ROOT / top).rglob("*.py"):
            if "__pycache__" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            package = parts[-1] == "__init__"
            found[".".join(parts[:-1] if package else parts)] = (path, package)
    return found


def _absolute(name: str, package: bool, level: int, module: str | None) -> str:
    """The dotted name a (possibly relative) `from … import` in module `name` starts from."""
    if not level:
        return module or ""
    base = name.split(".") if package else name.split(".")[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return getattr(test, "id", None) == "TYPE_CHECKING" or getattr(test, "attr", None) == "TYPE_CHECKING"


def imports(name: str, path: Path, package: bool, known: dict) -> set[str]:
    """The app's modules that `name` imports anywhere in its file, the packages they sit in included,
    but never `name` itself or a package it sits in (those are already being imported)."""
    named: set[str] = set()
    pending: list[ast.AST] = [ast.parse(path.read_text("utf-8"))]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.If) and _type_checking(node):
            pending.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            named.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(name, package, node.level, node.module)
            named.add(base)
            named.update(f"{base}.{alias.name}" for alias in node.names)   # `from pkg import module`
        pending.extend(ast.iter_child_nodes(node))
    out = set()
    for target in named:
        parts = target.split(".")
        for end in range(1, len(parts) + 1):
            module = ".".join(parts[:end])
            if module in known and module != name and not name.startswith(module + "."):
                out.add(module)
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def import_graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, package, known) for name, (path, package) in known.items()}


def test_no_module_of_the_app_imports_itself_round_a_loop():
    graph = import_graph()
    found = cycles(graph)
    assert not found, "import cycles (each line: modules that import each other, directly or round a loop):\n" + \
        "\n".join(" ↔ ".join(component) for component in found)


def test_the_reader_sees_a_function_level_cycle_and_not_a_type_checking_one(tmp_path):
    """The check itself: the shapes it must catch and the one it must let be."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "a.py").write_text("from . import b\n")
    (tmp_path / "pkg" / "b.py").write_text("def later():\n    from .a import x\n")
    (tmp_path / "pkg" / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import x\n")
    (tmp_path / "pkg" / "d.py").write_text("from pkg.c import y\n")
    known = {"pkg": (tmp_path / "pkg" / "__init__.py", True)}
    known |= {f"pkg.{m}": (tmp_path / "pkg" / f"{m}.py", False) for m in "abcd"}
    graph = {name: imports(name, path, package, known) for name, (path, package) in known.items()}
    assert graph["pkg.a"] == {"pkg.b"} and graph["pkg.b"] == {"pkg.a"}
    assert graph["pkg.c"] == set() and graph["pkg.d"] == {"pkg.c"}
    assert cycles(graph) == [["pkg.a", "pkg.b"]]
