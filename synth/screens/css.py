"""Design-system stylesheets cut down to the rules that synth's screens can match.

A system's CSS is 0.1-1.8 MB, and Chromium parses all of it on every page load; most of it styles
components no screen uses. `pruned(system)` keeps every rule except the selectors that name a class or id
that no screen can produce, so the kept CSS styles every page exactly as the whole file does
(tests/screens/test_screens.py compares the pixels). What a screen can produce is read from the sources: every word
in templates/screens/, templates/widgets/ and synth/screens/ is a possible class, and a word written
before an expression (`btn-{{ kind }}`, `"col-" ~ n`, f"van-{x}") keeps every class that starts with it.

Selectors inside functional pseudo-classes (`:not(.x)`, `:is(...)`, `:where(...)`) are not judged, so
such rules stay. The result is cached per machine under the user's cache folder, keyed by the stylesheet and
the sources."""
import hashlib
import os
import re
from functools import cache, lru_cache
from pathlib import Path

import tinycss2

from synth.core.paths import CACHE, TEMPLATES

_CACHE = CACHE / "css"
_SOURCES = (("screens", "**/*.j2"), ("widgets", "**/*.j2"))
_WORD = re.compile(r"[A-Za-z0-9_-]+")
# the start of a class name that an expression completes: every word ending in - or _ ("btn-{{ kind }}",
# "col-" ~ n, f"van-{x}"), with at least two letters or digits
_BLOCK_AT_RULES = {"media", "supports", "layer", "container", "document", "scope"}
VERSION = 1   # of the pruning rules: part of the cache key


def source_text() -> str:
    """Everything a screen's classes and ids can come from: its templates and the screens package."""
    files = [p for folder, pattern in _SOURCES for p in sorted((TEMPLATES / folder).glob(pattern))]
    files += sorted(Path(__file__).parent.rglob("*.py")) + sorted(Path(__file__).parent.rglob("*.json"))
    return "\n".join(p.read_text(encoding="utf-8") for p in files)


@lru_cache(maxsize=1)
def vocabulary() -> tuple[frozenset[str], tuple[str, ...]]:
    """(the words of the sources, the prefixes of classes made from a word and an expression)."""
    text = source_text()
    words = frozenset(_WORD.findall(text))
    prefixes = {w for w in words if w.endswith(("-", "_")) and len(re.sub(r"[-_]", "", w)) >= 2}
    return words, tuple(sorted(prefixes))


def _possible(name: str, words: frozenset[str], prefixes: tuple[str, ...]) -> bool:
    return name in words or name.startswith(prefixes)


def _names(selector: list) -> list[str]:
    """The class and id names a selector requires, outside functional pseudo-classes."""
    names = []
    for i, tok in enumerate(selector):
        if tok.type == "hash" and tok.is_identifier:
            names.append(tok.value)
        elif tok.type == "literal" and tok.value == "." and i + 1 < len(selector) and selector[i + 1].type == "ident":
            names.append(selector[i + 1].value)
    return names


def _split(prelude: list) -> list[list]:
    """A selector list's selectors (top-level commas)."""
    out, cur = [], []
    for tok in prelude:
        if tok.type == "literal" and tok.value == ",":
            out.append(cur)
            cur = []
        else:
            cur.append(tok)
    return out + [cur]


_VAR = re.compile(r"var\(\s*(--[A-Za-z0-9_-]+)")


def _kept(rules: list, words: frozenset[str], prefixes: tuple[str, ...]) -> list:
    """The rules that can match: ("rule", selectors, declarations or None for a block with nested rules,
    content), ("at", header, children) for a block at-rule, ("raw", text) for any other at-rule."""
    out = []
    for rule in rules:
        if rule.type == "qualified-rule":
            kept = [s for s in _split(rule.prelude) if all(_possible(n, words, prefixes) for n in _names(s))]
            if kept:
                items = tinycss2.parse_blocks_contents(rule.content, skip_comments=True, skip_whitespace=True)
                decls = None if any(i.type != "declaration" for i in items) else items
                out.append(("rule", ",".join(tinycss2.serialize(s).strip() for s in kept), decls, rule.content))
        elif rule.type == "at-rule" and rule.lower_at_keyword in _BLOCK_AT_RULES and rule.content is not None:
            children = _kept(tinycss2.parse_rule_list(rule.content, skip_comments=True, skip_whitespace=True),
                             words, prefixes)
            if children:
                out.append(("at", f"@{rule.at_keyword}{tinycss2.serialize(rule.prelude)}", children))
        elif rule.type == "at-rule":
            out.append(("raw", rule.serialize()))
    return out


def _live_variables(tree: list, sources: str) -> set[str]:
    """The custom properties that something uses: a value outside custom properties, the sources, or (in
    turn) the value of a custom property that is used."""
    uses: dict[str, set[str]] = {}
    live = set(_VAR.findall(sources))
    stack = [tree]
    while stack:
        for node in stack.pop():
            if node[0] == "at":
                stack.append(node[2])
            elif node[0] == "raw":
                live.update(_VAR.findall(node[1]))
            elif node[2] is None:
                live.update(_VAR.findall(tinycss2.serialize(node[3])))
            else:
                for d in node[2]:
                    found = _VAR.findall(tinycss2.serialize(d.value))
                    (uses.setdefault(d.name, set()).update(found) if d.name.startswith("--") else live.update(found))
    todo = list(live)
    while todo:
        for name in uses.get(todo.pop(), ()):
            if name not in live:
                live.add(name)
                todo.append(name)
    return live


def _serialize(tree: list, live: set[str]) -> str:
    out = []
    for node in tree:
        if node[0] == "at":
            inner = _serialize(node[2], live)
            if inner:
                out.append(f"{node[1]}{{{inner}}}")
        elif node[0] == "raw":
            out.append(node[1])
        elif node[2] is None:
            out.append(f"{node[1]}{{{tinycss2.serialize(node[3])}}}")
        else:
            decls = ";".join(d.serialize() for d in node[2] if not d.name.startswith("--") or d.name in live)
            if decls:
                out.append(f"{node[1]}{{{decls}}}")
    return "".join(out)


def prune(css: str, words: frozenset[str], prefixes: tuple[str, ...], sources: str = "") -> str:
    """`css` without the selectors that require a class or id outside `words` (and not starting with one
    of `prefixes`), without the rules left with no selector, and without the custom properties that nothing
    left (nor `sources`) uses."""
    tree = _kept(tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True), words, prefixes)
    return _serialize(tree, _live_variables(tree, sources))


@lru_cache(maxsize=1)
def _sources_digest() -> str:
    return hashlib.sha256(source_text().encode()).hexdigest()


@cache
def pruned(name: str, css: str) -> str:
    """`css` (system `name`'s whole stylesheet) pruned to what the screens can use; cached on disk."""
    key = hashlib.sha256(f"{VERSION}\0{_sources_digest()}\0{css}".encode()).hexdigest()[:24]
    path = _CACHE / f"{name}-{key}.css"
    if path.is_file():
        return path.read_text(encoding="utf-8")
    words, prefixes = vocabulary()
    text = prune(css, words, prefixes, source_text())
    _CACHE.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return text
