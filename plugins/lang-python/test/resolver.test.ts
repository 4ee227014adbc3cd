// Phase B on small projects: what the native resolver proves, and what it refuses to guess.
import { describe, expect, it } from 'vitest';
import { analyzeProject, calls } from './helpers/analyze-project.js';

describe('imports', () => {
  it('follows absolute, relative, aliased, star and package re-exports to the definition', async () => {
    const r = await analyzeProject({
      'shop/__init__.py': 'from .cart import Cart\n__all__ = ["Cart"]\n',
      'shop/cart.py':
        'from .pricing import total as price_total\n\nclass Cart:\n    def checkout(self):\n        return price_total(self)\n',
      'shop/pricing.py': 'def total(cart):\n    return 0\n\ndef _hidden():\n    pass\n',
      'shop/util/__init__.py': '',
      'shop/util/fmt.py': 'def money(x):\n    return x\n',
      'app.py': [
        'import shop',
        'import shop.util.fmt as fmt',
        'from shop import *',
        'from shop.pricing import *',
        '',
        'def main():',
        '    shop.Cart().checkout()',
        '    fmt.money(1)',
        '    Cart()',
        '    total(None)',
        '    _hidden()',
        '',
      ].join('\n'),
    });
    expect(r.failed).toEqual([]);
    expect(calls(r)).toEqual([
      'app.py:main -calls-> shop/cart.py:Cart',
      'app.py:main -calls-> shop/cart.py:Cart.checkout',
      'app.py:main -calls-> shop/pricing.py:total',
      'app.py:main -calls-> shop/util/fmt.py:money',
      'shop/cart.py:Cart.checkout -calls-> shop/pricing.py:total',
    ]);
    expect(r.edges).toContain('app.py: -imports-> shop/__init__.py:');
    expect(r.edges).toContain('app.py: -imports-> shop/util/fmt.py:');
    // `from shop import Cart` re-exported through __init__: the importer depends on cart.py too.
    expect(r.edges).toContain('shop/__init__.py: -imports-> shop/cart.py:');
  });

  it('finds src/ layouts, namespace packages, try/except ImportError and TYPE_CHECKING imports', async () => {
    const r = await analyzeProject({
      'pyproject.toml': '[tool.setuptools.packages.find]\nwhere = ["src"]\n',
      'src/lib/__init__.py': '',
      'src/lib/core.py': 'class Engine:\n    def run(self):\n        pass\n',
      'ns/plugins/extra.py': 'def hook():\n    pass\n',
      'tests/test_core.py': [
        'from typing import TYPE_CHECKING',
        'try:',
        '    from lib.core import Engine',
        'except ImportError:',
        '    Engine = None',
        'if TYPE_CHECKING:',
        '    from ns.plugins.extra import hook',
        '',
        'def test_run(e: "Engine"):',
        '    e.run()',
        '    hook()',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'tests/test_core.py:test_run -calls-> ns/plugins/extra.py:hook',
      'tests/test_core.py:test_run -calls-> src/lib/core.py:Engine.run',
    ]);
  });

  it('prefers the importing file’s own root when two packages share a name', async () => {
    const r = await analyzeProject({
      'one/pkg/__init__.py': '',
      'one/pkg/api.py': 'def call():\n    pass\n',
      'one/main.py': 'from pkg.api import call\n\ndef go():\n    call()\n',
      'two/pkg/__init__.py': '',
      'two/pkg/api.py': 'def call():\n    pass\n',
      'two/main.py': 'from pkg.api import call\n\ndef go():\n    call()\n',
    });
    expect(calls(r)).toEqual(['one/main.py:go -calls-> one/pkg/api.py:call', 'two/main.py:go -calls-> two/pkg/api.py:call']);
  });
});

describe('classes', () => {
  it('looks methods up through the C3 MRO, super(), classmethods, staticmethods and properties', async () => {
    const r = await analyzeProject({
      'm/__init__.py': '',
      'm/base.py': [
        'class Base:',
        '    def save(self):',
        '        return self.validate()',
        '    def validate(self):',
        '        pass',
        '    @classmethod',
        '    def create(cls):',
        '        return cls()',
        '    @staticmethod',
        '    def helper():',
        '        pass',
        '    @property',
        '    def store(self) -> "Store":',
        '        return Store()',
        '',
        'class Store:',
        '    def put(self):',
        '        pass',
        '',
      ].join('\n'),
      'm/mixins.py':
        'class Left:\n    def who(self):\n        pass\n\nclass Right:\n    def who(self):\n        pass\n    def only_right(self):\n        pass\n',
      'm/model.py': [
        'from .base import Base',
        'from . import mixins',
        '',
        'class Model(mixins.Left, mixins.Right, Base):',
        '    def save(self):',
        '        super().save()',
        '        self.who()',
        '        self.only_right()',
        '        Model.helper()',
        '        self.store.put()',
        '        return Model.create()',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'm/base.py:Base.save -calls-> m/base.py:Base.validate',
      'm/base.py:Base.store -calls-> m/base.py:Store',
      'm/model.py:Model.save -calls-> m/base.py:Base.create',
      'm/model.py:Model.save -calls-> m/base.py:Base.helper',
      'm/model.py:Model.save -calls-> m/base.py:Base.save',
      'm/model.py:Model.save -calls-> m/base.py:Store.put',
      'm/model.py:Model.save -calls-> m/mixins.py:Left.who',
      'm/model.py:Model.save -calls-> m/mixins.py:Right.only_right',
    ]);
    expect(r.edges).toContain('m/model.py:Model -inherits-> m/base.py:Base');
    expect(r.edges).toContain('m/model.py:Model -inherits-> m/mixins.py:Left');
  });

  it('types instance attributes, annotations, returns, with, for and dataclass fields', async () => {
    const r = await analyzeProject({
      'a.py': [
        'from dataclasses import dataclass',
        'from typing import Dict, List, Optional',
        '',
        'class Conn:',
        '    def __enter__(self):',
        '        return self',
        '    def send(self):',
        '        pass',
        '',
        'class Pool:',
        '    def __init__(self):',
        '        self.conns: List[Conn] = []',
        '        self.by_name: Dict[str, Conn] = {}',
        '        self.last = None',
        '    def get(self) -> Optional[Conn]:',
        '        return None',
        '    def make(self):',
        '        return Conn()',
        '',
        '@dataclass',
        'class Job:',
        '    pool: Pool',
        '',
        'def run(job: Job, pools: "list[Pool]"):',
        '    job.pool.get().send()',
        '    with job.pool.make() as c:',
        '        c.send()',
        '    for conn in job.pool.conns:',
        '        conn.send()',
        '    job.pool.by_name["x"].send()',
        '    for p in pools:',
        '        p.make()',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'a.py:Pool.make -calls-> a.py:Conn',
      'a.py:run -calls-> a.py:Conn.send',
      'a.py:run -calls-> a.py:Pool.get',
      'a.py:run -calls-> a.py:Pool.make',
    ]);
    expect(r.edges).toContain('a.py:run -types-> a.py:Job');
    expect(r.edges).toContain('a.py:run -types-> a.py:Pool');
  });
});

describe('narrowing', () => {
  it('narrows a name by isinstance in an if block and after an assert, until it is reassigned', async () => {
    const r = await analyzeProject({
      'n.py': [
        'import copy',
        '',
        'class Shape:',
        '    def clone(self):',
        '        return copy.copy(self)',
        '',
        'class Circle(Shape):',
        '    def radius(self):',
        '        pass',
        '',
        'class Square(Shape):',
        '    def side(self):',
        '        pass',
        '',
        'def measure(s: Shape, t):',
        '    if isinstance(s, Circle):',
        '        s.radius()',
        '    elif isinstance(s, (Square,)):',
        '        s.side()',
        '    assert isinstance(t, Square)',
        '    t.side()',
        '    t = s',
        '    t.radius()',
        '    Circle().clone().radius()',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'n.py:measure -calls-> n.py:Circle',
      'n.py:measure -calls-> n.py:Circle.radius',
      'n.py:measure -calls-> n.py:Shape.clone',
      'n.py:measure -calls-> n.py:Square.side',
    ]);
  });
});

describe('never guessing', () => {
  it('leaves calls on untyped values, library calls and unimported names without an edge', async () => {
    const r = await analyzeProject({
      'lib.py': 'def process(x):\n    pass\n\nclass Reader:\n    def read(self):\n        pass\n',
      'use.py': [
        'import os',
        '',
        'def handle(obj, items):',
        '    obj.read()',
        '    process(items)',
        '    os.path.join("a", "b")',
        '    items.append(1)',
        '',
      ].join('\n'),
    });
    // `process` is not imported in use.py; `obj` has no known type: no edge, even though names match.
    expect(calls(r)).toEqual([]);
    expect(r.logs.join('\n')).toMatch(/4 call sites: 0 resolved in the repository, \d outside it, \d unknown/);
  });

  it('keeps the first definition of a name redefined in branches, as one symbol', async () => {
    const r = await analyzeProject({
      'plat.py':
        'import sys\nif sys.platform == "win32":\n    def term():\n        pass\nelse:\n    def term():\n        pass\n\ndef use():\n    term()\n',
    });
    expect(calls(r)).toEqual(['plat.py:use -calls-> plat.py:term']);
  });

  it('names the first member type of a union that has the member called', async () => {
    const r = await analyzeProject({
      'u.py': [
        'class Debug:',
        '    def execute(self):',
        '        pass',
        'class Plain:',
        '    def execute(self):',
        '        pass',
        '    def close(self):',
        '        pass',
        '',
        'def make(debug):',
        '    if debug:',
        '        return Debug()',
        '    return Plain()',
        '',
        'def run(debug):',
        '    c = make(debug)',
        '    c.execute()',
        '    c.close()',
        '',
      ].join('\n'),
    });
    expect(calls(r)).toEqual([
      'u.py:make -calls-> u.py:Debug',
      'u.py:make -calls-> u.py:Plain',
      'u.py:run -calls-> u.py:Debug.execute',
      'u.py:run -calls-> u.py:Plain.close',
      'u.py:run -calls-> u.py:make',
    ]);
  });
});

describe('Phase A', () => {
  it('names definitions by module path, with skeletons, decorators and refs as written', async () => {
    const r = await analyzeProject({
      'pkg/__init__.py': '',
      'pkg/mod.py': [
        '"""Module doc."""',
        'LIMIT = 3',
        'handler = lambda e: print(e)',
        '',
        'class Shape(object):',
        '    """A shape."""',
        '    sides: int = 0',
        '',
        '    @property',
        '    def area(self) -> float:',
        '        """The area."""',
        '        return helper(self.sides)',
        '',
        '    @area.setter',
        '    def area(self, v):',
        '        pass',
        '',
        'def outer():',
        '    def inner():',
        '        pass',
        '    return inner()',
        '',
      ].join('\n'),
    });
    const nodes = r.nodes.get('pkg/mod.py')!;
    const byName = (sig: string) => nodes.find((n) => n.vname.signature === sig);
    expect(nodes.map((n) => `${n.kind} ${n.qualifiedName}`)).toEqual([
      'file pkg/mod.py',
      'module pkg.mod',
      'constant pkg.mod.LIMIT',
      'function pkg.mod.handler',
      'class pkg.mod.Shape',
      'field pkg.mod.Shape.sides',
      'property pkg.mod.Shape.area',
      'property pkg.mod.Shape.area',
      'function pkg.mod.outer',
      'function pkg.mod.outer.inner',
    ]);
    expect(byName('Shape.area@setter')).toBeDefined();
    expect(byName('Shape.area')!.skeleton).toBe('@property\n    def area(self) -> float:\n        """The area."""');
    expect(byName('Shape')!.range).toEqual({ startLine: 5, startCol: 0, endLine: 16, endCol: 12 });
    expect(r.refs.get('pkg/mod.py')).toEqual(
      expect.arrayContaining(['calls print', 'calls helper', 'calls inner', 'inherits object', 'types float']),
    );
    expect(calls(r)).toEqual(['pkg/mod.py:outer -calls-> pkg/mod.py:outer.inner']);
  });
});
