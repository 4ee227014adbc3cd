/**
 * A warm-up for a fresh plugin process: one small module of ordinary Python read and emitted the
 * way Phase A reads and emits a file (its interface included), run while the host is still
 * working out which files to send (after `initialize` is answered). The first file of a session otherwise pays for
 * compiling the reader's and the emitter's code on the way: an incremental run after a
 * one-file commit has one file, and pays all of it. What the warm-up produces is thrown away.
 */
import { FileGraphBuilder } from '@travsr/sdk';
import { moduleInterface } from '../resolve/module-interface.js';
import { emitDefinitions, emitRefs } from './emit-definitions.js';
import type { PythonSyntax } from './python-syntax.js';

/** Ordinary Python: imports, a decorated class with methods and attributes, functions, comprehensions, lambdas, calls. */
export const WARM_UP_SAMPLE = `"""A module."""
from __future__ import annotations

import os
import re as regex
from collections import OrderedDict, defaultdict
from typing import Any, Optional

from .base import Base, helper
from ..utils import text as text_utils

__all__ = ["Record", "load", "VERSION"]

VERSION = (1, 2, 0)
DEFAULTS: dict[str, Any] = {"name": None, "size": 0}
PATTERN = regex.compile(r"^[a-z_]+$")


def cached(func):
    store = {}

    def wrapper(*args, **kwargs):
        key = (args, tuple(sorted(kwargs.items())))
        if key not in store:
            store[key] = func(*args, **kwargs)
        return store[key]

    return wrapper


class Record(Base):
    """A record."""

    kind = "record"
    fields: list[str] = []

    def __init__(self, name: str, size: int = 0, *, parent: Optional["Record"] = None) -> None:
        super().__init__(name)
        self.name = name
        self.size = size
        self.parent = parent
        self._children = OrderedDict()

    @property
    def path(self) -> str:
        return os.path.join(self.parent.path, self.name) if self.parent else self.name

    @classmethod
    def from_dict(cls, data: dict) -> "Record":
        return cls(data["name"], int(data.get("size", 0)))

    @staticmethod
    def valid(name: str) -> bool:
        return bool(PATTERN.match(name))

    def add(self, child: "Record") -> "Record":
        if not self.valid(child.name):
            raise ValueError(f"bad name {child.name!r}")
        self._children[child.name] = child
        return helper(child, owner=self)

    def walk(self):
        yield self
        for child in self._children.values():
            yield from child.walk()

    def __repr__(self):
        return "Record(%r)" % (self.name,)


@cached
def load(path, encoding="utf-8"):
    groups = defaultdict(list)
    with open(path, encoding=encoding) as handle:
        for number, line in enumerate(handle):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, _, size = line.partition("=")
            groups[name].append(Record(name, int(size or 0)))
    sizes = {name: sum(r.size for r in records) for name, records in groups.items()}
    largest = max(sizes, key=lambda n: sizes[n], default=None)
    try:
        return [text_utils.slugify(n) for n in sorted(sizes) if n != largest]
    except (KeyError, AttributeError) as error:
        raise RuntimeError("cannot load") from error
    finally:
        groups.clear()


async def fetch_all(client, urls):
    results = []
    async with client.session() as session:
        for url in urls:
            results.append(await session.get(url))
    return results


if __name__ == "__main__":
    print(load(os.environ.get("RECORDS", "records.txt")))
`;

/** Reads and emits {@link WARM_UP_SAMPLE} once; never throws (a warm-up that fails only warmed less). */
export function warmUp(syntax: PythonSyntax): void {
  try {
    const ir = syntax.read('warm_up.py', WARM_UP_SAMPLE);
    const graph = new FileGraphBuilder({ corpus: 'warm-up', path: 'warm_up.py', language: 'python', provenance: 'phase-a' });
    emitRefs(ir, graph, emitDefinitions(ir, graph, 'warm_up'));
    graph.interface(moduleInterface(ir));
    graph.build();
  } catch {
    // Nothing to report: the session's real files are read the same way, and fail there if at all.
  }
}
