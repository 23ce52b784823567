"""The package's layout: rooms by job, imports that point one way (no cycle between modules or between rooms,
function-level imports included), few loose modules, no module or function too long to read, and the repository
clean by its own linter configuration (ruff, pyproject.toml)."""
import ast
import subprocess
import sys
from pathlib import Path

import pytest

import synth

ROOT = Path(synth.__file__).parent
# the rooms from the top down: a room may import only rooms below it (docs/architecture.md)
ORDER = ["cli", "export", "tools", "engine", "episodes", "grounding", "captcha", "families", "screens", "labels",
         "core"]
LOOSE = {"__init__", "__main__", "cli", "reward", "env", "rl"}
REPO = ROOT.parent
MAX_FILE, MAX_FUNCTION, MAX_DEPTH = 500, 100, 5     # lines of a module, lines of a function, blocks nested
# blocks that nest: an `elif` is no deeper than its `if`; a nested def counts one level
BLOCKS = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, ast.TryStar, ast.Match,
          ast.FunctionDef, ast.AsyncFunctionDef)


def modules() -> dict[str, Path]:
    found = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imports(path: Path, name: str, known: dict[str, Path]) -> set[str]:
    """The synth modules a module imports anywhere in it (a submodule import imports its packages too)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    targets = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            targets |= {f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names}
    found = set()
    for t in targets:
        while t and t not in known:
            t = t.rpartition(".")[0]
        while t:                                 # the packages of an imported module run their __init__ too
            if t != name and not name.startswith(t + "."):
                found.add(t)
            t = t.rpartition(".")[0]
    return found - {"synth"}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one member (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in list(graph):
        if v not in index:
            visit(v)
    return out


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(path, name, known) for name, path in known.items()}


def room(module: str) -> str:
    return module.split(".")[1] if module.count(".") >= 1 else module


def test_no_import_cycle_between_modules(graph):
    assert cycles(graph) == []


def test_rooms_import_only_rooms_below_them(graph):
    wrong = sorted({(room(a), room(b)) for a, targets in graph.items() for b in targets
                    if room(a) in ORDER and room(b) in ORDER and room(a) != room(b)
                    and ORDER.index(room(b)) < ORDER.index(room(a))})
    assert wrong == []


def test_few_loose_modules():
    loose = {p.stem for p in ROOT.glob("*.py")}
    assert loose <= LOOSE and len(loose) <= 6, loose


def depth(node: ast.AST) -> int:
    """How many blocks nest inside `node` at the deepest point."""
    deepest = 0
    for child in ast.iter_child_nodes(node):
        elif_ = isinstance(node, ast.If) and isinstance(child, ast.If) and node.orelse == [child]
        deepest = max(deepest, depth(child) + (isinstance(child, BLOCKS) and not elif_))
    return deepest


def long_code(source: str, name: str) -> list[str]:
    """What in one module's source is over the limits, one line each (name:line what)."""
    out = []
    lines = len(source.splitlines())
    if lines > MAX_FILE:
        out.append(f"{name}:1 module of {lines} lines")
    for node in ast.walk(ast.parse(source, name)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = node.end_lineno - node.lineno + 1
            if length > MAX_FUNCTION:
                out.append(f"{name}:{node.lineno} function {node.name} of {length} lines")
            if depth(node) > MAX_DEPTH:
                out.append(f"{name}:{node.lineno} function {node.name} nests {depth(node)} blocks deep")
    return out


def test_no_module_or_function_too_long():
    found = [line for path in sorted(ROOT.rglob("*.py"))
             for line in long_code(path.read_text(encoding="utf-8"), path.relative_to(REPO).as_posix())]
    assert found == [], "\n".join(found)


def test_the_limits_catch_long_code():
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_FUNCTION))                   # def line + 100: one too many
    nested = "".join("    " * (k + 1) + "if x:\n" for k in range(MAX_DEPTH + 1)) + "    " * (MAX_DEPTH + 2) + "pass\n"
    chain = "def h():\n    if a:\n        pass\n" + "    elif a:\n        pass\n" * (MAX_DEPTH + 2)   # elifs: depth 1
    source = "def f():\n" + body + "def g():\n" + nested + chain
    source += "\n" * (MAX_FILE + 1 - len(source.splitlines()))
    assert long_code(source, "synth/probe.py") == [
        f"synth/probe.py:1 module of {MAX_FILE + 1} lines", f"synth/probe.py:1 function f of {MAX_FUNCTION + 1} lines",
        f"synth/probe.py:{MAX_FUNCTION + 2} function g nests {MAX_DEPTH + 1} blocks deep"]


def test_the_repository_is_ruff_clean():
    """`ruff check` with the project's configuration (pyproject.toml) finds nothing anywhere in the repository."""
    r = subprocess.run([sys.executable, "-m", "ruff", "check", "--output-format", "concise", "--no-cache", "."],
                       cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
