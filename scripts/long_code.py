"""List long code: files over --max-file lines, functions over --max-lines lines and functions whose blocks
nest deeper than --max-depth (if/for/while/with/try/match, and nested defs, each count one level).

    python scripts/long_code.py synth --skip synth/families --skip synth/screens/browser.py

Prints one line per finding (path:line kind name value) and exits 1 if there is any."""
import argparse
import ast
import sys
from pathlib import Path

BLOCKS = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, ast.TryStar, ast.Match,
          ast.FunctionDef, ast.AsyncFunctionDef)
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def depth(node: ast.AST) -> int:
    """How many blocks nest inside `node` at the deepest point (an `elif` is no deeper than its `if`)."""
    deepest = 0
    for child in ast.iter_child_nodes(node):
        inner = depth(child)
        if isinstance(child, BLOCKS) and not _is_elif(node, child):
            inner += 1
        deepest = max(deepest, inner)
    return deepest


def _is_elif(parent: ast.AST, child: ast.AST) -> bool:
    return isinstance(parent, ast.If) and isinstance(child, ast.If) and parent.orelse == [child]


def findings(path: Path, max_lines: int, max_depth: int, max_file: int) -> list[str]:
    """The file's findings, one line each."""
    source = path.read_text(encoding="utf-8")
    out = []
    n = len(source.splitlines())
    if n > max_file:
        out.append(f"{path}:1 file {path.name} {n} lines")
    for node in ast.walk(ast.parse(source, str(path))):
        if not isinstance(node, FUNCTIONS):
            continue
        lines = node.end_lineno - node.lineno + 1
        if lines > max_lines:
            out.append(f"{path}:{node.lineno} function {node.name} {lines} lines")
        d = depth(node)
        if d > max_depth:
            out.append(f"{path}:{node.lineno} function {node.name} depth {d}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("roots", nargs="+", type=Path, help="folders or .py files to scan")
    parser.add_argument("--skip", action="append", default=[], type=Path, help="a folder or file to leave out")
    parser.add_argument("--max-lines", type=int, default=100)
    parser.add_argument("--max-depth", type=int, default=5)
    parser.add_argument("--max-file", type=int, default=500)
    args = parser.parse_args(argv)
    skip = [s.resolve() for s in args.skip]
    files = sorted(p for r in args.roots for p in ([r] if r.is_file() else r.rglob("*.py")))
    out = [f for p in files if not any(p.resolve().is_relative_to(s) for s in skip)
           for f in findings(p, args.max_lines, args.max_depth, args.max_file)]
    print("\n".join(out) if out else "nothing over the limits")
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main())
