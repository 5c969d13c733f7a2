"""The import graph of crumb/: no cycles, and the layers of docs/design.md hold (nothing imports upward).

Which imports count: every `import` and `from ... import` statement, wherever it is written: at module
level, inside a function, and under `if TYPE_CHECKING:`. A function-level import only defers a cycle to
the first call (the embedded Planner and steering imported each other that way), and a TYPE_CHECKING
import is a cycle for the type checker and for a reader (the poller and the Watcher were one).
`from pkg import name` is an edge to the module pkg.name when there is one, else to pkg.

What does not count: a submodule's implicit import of its parent package (Python runs the parent's
`__init__` first and completely, so that edge closes no cycle unless the `__init__` imports the submodule
itself, which is counted), and lookups by name through importlib (the harness registry, the CLI's
command modules): late binding by design, the way an entry point is.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: docs/design.md's layers, lowest first: a module may import modules of its own layer or lower ones
LAYERS: tuple[tuple[str, ...], ...] = (
    ("crumb", "crumb.protocol", "crumb.settings", "crumb.terminal", "crumb.procfs", "crumb.lazy"),  # "crumb" is the package's __init__ alone
    ("crumb.store", "crumb.config", "crumb.prompts", "crumb.genres"),
    ("crumb.reducer",),
    ("crumb.export",),  # reads the store, replays with the reducer; never runs an actor or QA
    ("crumb.actors", "crumb.qa"),
    ("crumb.dispatcher",),
    ("crumb.daemon",),
    ("crumb.cli", "crumb.studio", "crumb.batch", "crumb.report", "crumb.mcp", "crumb.integrate", "crumb.__main__"),
)
#: the embedded studio is run by the dispatcher (and previewed by `crumb plan`, checked by `crumb doctor`);
#: the daemon, the Studio and everything below the dispatcher reach it only through the dispatcher
EMBEDDED_STUDIO = "crumb.actors.embedded"
MAY_IMPORT_EMBEDDED_STUDIO = ("crumb.actors.embedded", "crumb.dispatcher", "crumb.cli")


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    where: str  # file:line of the import statement


def modules(root: Path, package: str = "crumb") -> dict[str, Path]:
    """Every module of the package under root, by dotted name (a package by its own name)."""
    out: dict[str, Path] = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def edges(root: Path, package: str = "crumb") -> list[Edge]:
    """Each import statement between two modules of the package (see the module docstring for which)."""
    known = modules(root, package)
    out: list[Edge] = []
    for name, path in known.items():
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            targets: list[str] = []
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    up = here.split(".")[: len(here.split(".")) - (node.level - 1)]
                    base = ".".join([*up, base] if base else up)
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
            for target in targets:
                while target and target not in known:
                    target = target.rpartition(".")[0]  # `import crumb.x.y` names crumb.x.y; a name in it is its module's
                if target and target != name:
                    out.append(Edge(name, target, f"{path.relative_to(root)}:{node.lineno}"))
    return out


def cycles(found: list[Edge]) -> list[list[Edge]]:
    """One cycle per strongly connected group of modules, as the edges that close it (Tarjan)."""
    graph: dict[str, dict[str, Edge]] = {}
    for e in found:
        graph.setdefault(e.source, {}).setdefault(e.target, e)
        graph.setdefault(e.target, {})
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    out = []
    for group in groups:  # a shortest way back to the group's first module, through the group
        start = min(group)
        paths: dict[str, list[Edge]] = {start: []}
        frontier = [start]
        loop: list[Edge] | None = None
        while frontier and loop is None:
            nxt = []
            for v in frontier:
                for w, e in sorted(graph[v].items()):
                    if w == start:
                        loop = [*paths[v], e]
                        break
                    if w in group and w not in paths:
                        paths[w] = [*paths[v], e]
                        nxt.append(w)
                if loop is not None:
                    break
            frontier = nxt
        assert loop is not None
        out.append(loop)
    return out


def describe(loop: list[Edge]) -> str:
    return " → ".join([loop[0].source, *(e.target for e in loop)]) + " (" + ", ".join(e.where for e in loop) + ")"


def layer(module: str) -> int | None:
    best: tuple[int, int] | None = None
    for rank, names in enumerate(LAYERS):
        for prefix in names:
            inside = module == prefix or (prefix != "crumb" and module.startswith(prefix + "."))
            if inside and (best is None or len(prefix) > best[1]):
                best = (rank, len(prefix))
    return best[0] if best else None


def upward(found: list[Edge]) -> list[str]:
    """Every import of a higher layer's module, and of the embedded studio from outside its users."""
    out = []
    for e in found:
        src, dst = layer(e.source), layer(e.target)
        if src is not None and dst is not None and dst > src:
            out.append(f"{e.where}: {e.source} (layer {src}) imports {e.target} (layer {dst})")
        inside = e.target == EMBEDDED_STUDIO or e.target.startswith(EMBEDDED_STUDIO + ".")
        allowed = any(e.source == p or e.source.startswith(p + ".") for p in MAY_IMPORT_EMBEDDED_STUDIO)
        if inside and not allowed:
            out.append(f"{e.where}: {e.source} imports the embedded studio ({e.target}); go through the dispatcher")
    return out


def test_crumb_has_no_import_cycles() -> None:
    found = cycles(edges(ROOT))
    assert not found, "import cycles in crumb/:\n" + "\n".join(describe(c) for c in found)


def test_every_module_of_crumb_has_a_layer() -> None:
    homeless = sorted(m for m in modules(ROOT) if layer(m) is None)
    assert not homeless, f"modules in no layer of LAYERS (add their package to it and to docs/design.md): {homeless}"


def test_nothing_imports_upward() -> None:
    bad = upward(edges(ROOT))
    assert not bad, "imports against the layering of docs/design.md:\n" + "\n".join(bad)


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    return tmp_path


def test_the_walk_finds_a_cycle_hidden_in_a_function_or_under_type_checking(tmp_path: Path) -> None:
    """The checks above would pass on an empty graph too: this one shows the walk sees the imports
    that do not run at import time, and names the modules and lines of the cycle."""
    root = _package(tmp_path, {
        "crumb/__init__.py": "",
        "crumb/a.py": "def f():\n    from crumb.b import g\n    return g\n",
        "crumb/b.py": "from crumb import c\n\ndef g(): ...\n",
        "crumb/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from crumb.a import f\n",
        "crumb/d.py": "from . import a\nfrom .e import x\n",
        "crumb/e.py": "x = 1\n",
    })
    found = cycles(edges(root))
    assert [describe(c) for c in found] == [
        "crumb.a → crumb.b → crumb.c → crumb.a (crumb/a.py:2, crumb/b.py:1, crumb/c.py:3)"]
    assert Edge("crumb.d", "crumb.a", "crumb/d.py:1") in edges(root)  # relative imports resolve
    assert Edge("crumb.d", "crumb.e", "crumb/d.py:2") in edges(root)


def test_the_layer_check_names_an_upward_import(tmp_path: Path) -> None:
    root = _package(tmp_path, {
        "crumb/__init__.py": "",
        "crumb/store/__init__.py": "",
        "crumb/store/writer.py": "def w():\n    from crumb.daemon.daemon import Daemon\n",
        "crumb/daemon/__init__.py": "",
        "crumb/daemon/daemon.py": "from crumb.store import writer\nfrom crumb.actors.embedded.planner import plan\n",
        "crumb/actors/__init__.py": "",
        "crumb/actors/embedded/__init__.py": "",
        "crumb/actors/embedded/planner.py": "def plan(): ...\n",
    })
    assert upward(edges(root)) == [
        ("crumb/daemon/daemon.py:2: crumb.daemon.daemon imports the embedded studio (crumb.actors.embedded.planner); "
         "go through the dispatcher"),
        "crumb/store/writer.py:2: crumb.store.writer (layer 1) imports crumb.daemon.daemon (layer 6)",
    ]
