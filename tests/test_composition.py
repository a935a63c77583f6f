"""Composition in one place: no code wires or rewires another object after it is built.

bot.py's ``compose`` builds the object graph, each service getting its collaborators in its constructor.
So outside a constructor (``__init__``, ``__post_init__``, ``__new__``) and ``compose``, no function assigns
(or deletes, or ``setattr``s) an attribute of an object it did not make itself, and none at all, constructors
included, writes into another module's globals (a process-wide object set up at run time):

- ``self.x = …`` and ``cls.x = …`` are an object's own state: allowed;
- ``self.collaborator.x = …``, ``parameter.x = …``, ``alias.x = …`` (a name taken from another object),
  ``module.x = …`` and ``GLOBAL_OBJECT.x = …`` reach into another object (or another module's globals):
  each is a finding, whatever the attribute;
- an object the function made itself (a name it bound to a constructor's or factory's result, a literal,
  a comprehension, or an item of one of those) may be filled in before it is handed on: building a value
  is not wiring.

Every module of the application is parsed with ``ast`` (the modules of tests/test_layers.py) except
``engines/``, whose contract is rules functions over the game-state record they are given (``apply``
changes the state it is passed): no service lives there, and its state records are the engines' own data.
The checker itself is tested on small made-up sources below.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

import pytest

from tests.test_layers import ROOT, imports, modules

#: Functions that build an object or the graph: they may hand a collaborator what it needs.
CONSTRUCTORS = {"__init__", "__post_init__", "__new__", "compose"}
#: Packages outside the check, with why (see the module's docstring).
UNCHECKED_PACKAGES = {"engines"}
#: (module, function) -> why it may write into an object it did not make. Keep it short; each must still
#: be needed (test_the_allowances_are_still_needed).
ALLOWED: dict[tuple[str, str], str] = {
    ("sandbox", "move_to"): "SimCord 3.2.1's browser preview has no call to show another channel: the offline "
                            "sandbox moves its pages as the preview's own navigation does (a test double, "
                            "not the bot's graph)",
    ("data.migrate", "_check"): "fills in the Report dataclass that copy_to_postgres built and hands back",
}
#: Calls that return an object that already exists rather than a new one.
NOT_MADE = {"getattr", "vars", "globals", "locals", "super", "type"}
#: Builtins that pass their argument's items through (``for x in sorted(made)``, ``next(m for m in made)``).
PASS_THROUGH = {"tuple", "list", "sorted", "reversed", "enumerate", "zip", "set", "frozenset", "filter", "next",
                "iter"}


def _root(node: ast.expr) -> tuple[ast.expr, int]:
    """The expression an attribute/subscript chain starts from, and how many steps the chain has."""
    depth = 0
    while isinstance(node, ast.Attribute | ast.Subscript | ast.Starred | ast.Await):
        node = node.value
        depth += 1
    return node, depth


class _Function:
    """One function's (and its nested functions') names bound to objects it made."""

    def __init__(self, func: ast.AST, imported: set[str], outer: set[str]) -> None:
        self.imported = imported
        self.made: set[str] = set(outer)
        # Names bound more than once count as made only if every binding makes the object (to a fixed point).
        changed = True
        while changed:
            changed = False
            for node in _own_nodes(func) if isinstance(func, ast.Module) else ast.walk(func):
                for name in self._made_names(node):
                    if name not in self.made:
                        self.made.add(name)
                        changed = True

    def makes(self, value: ast.expr) -> bool:
        """Whether ``value`` evaluates to an object made here (or an item of one)."""
        if isinstance(value, ast.Await):
            return self.makes(value.value)
        if isinstance(value, ast.GeneratorExp):  # its items: those of the collections it runs over
            return all(self.items_made(generator.iter) for generator in value.generators)
        if isinstance(value, ast.List | ast.Tuple | ast.Dict | ast.Set | ast.ListComp | ast.DictComp
                      | ast.SetComp | ast.Constant | ast.JoinedStr | ast.BinOp):
            return True
        if isinstance(value, ast.Call):
            func = value.func
            if isinstance(func, ast.Name):
                if func.id in PASS_THROUGH:
                    return bool(value.args) and self.items_made(value.args[0])
                return func.id not in NOT_MADE
            if isinstance(func, ast.Attribute):
                root, _ = _root(func)
                # A module's factory (``discord.Embed()``), a class method of the class itself (``cls(…)``),
                # or a method of an object made here (``made.copy()``).
                return isinstance(root, ast.Name) and (root.id in self.imported or root.id == "cls"
                                                       or root.id in self.made)
            return False
        root, _ = _root(value)
        return isinstance(root, ast.Name) and root.id in self.made and root.id not in ("self", "cls")

    def items_made(self, collection: ast.expr) -> bool:
        """Whether the items of ``collection`` are objects made here (what a loop over it binds)."""
        if isinstance(collection, ast.List | ast.Tuple | ast.Set):
            return all(self.makes(item) for item in collection.elts)
        if isinstance(collection, ast.ListComp | ast.SetComp | ast.GeneratorExp):
            return all(self.items_made(generator.iter) for generator in collection.generators)
        if isinstance(collection, ast.Call) and isinstance(collection.func, ast.Name) \
                and collection.func.id in PASS_THROUGH:
            return bool(collection.args) and self.items_made(collection.args[0])
        return self.makes(collection)

    def _made_names(self, node: ast.AST) -> Iterator[str]:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Tuple | ast.List) and isinstance(node.value, ast.Tuple | ast.List) \
                        and len(target.elts) == len(node.value.elts):
                    for item, value in zip(target.elts, node.value.elts, strict=True):  # a, b = x, y
                        if self.makes(value):
                            yield from _names(item)
                elif isinstance(target, ast.Tuple | ast.List):
                    if self.items_made(node.value):
                        yield from _names(target)
                elif self.makes(node.value):
                    yield from _names(target)
        elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension) and self.items_made(node.iter):
            yield from _names(node.target)
        elif isinstance(node, ast.NamedExpr) and self.makes(node.value):
            yield node.target.id


def _names(target: ast.expr) -> Iterator[str]:
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, ast.Tuple | ast.List):
        for item in target.elts:
            yield from _names(item)


def _written(node: ast.AST) -> Iterator[ast.expr]:
    """The objects whose attributes ``node`` writes (as ``obj.x = …``, ``del obj.x``, ``setattr(obj, …)``)."""
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.AugAssign | ast.AnnAssign):
        targets = [node.target]
    elif isinstance(node, ast.Delete):
        targets = node.targets
    elif isinstance(node, ast.Call):
        func = node.func
        named = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if named in ("setattr", "delattr", "__setattr__", "__delattr__") and node.args:
            yield node.args[0]
        return
    for target in targets:
        for part in ast.walk(target):
            if isinstance(part, ast.Attribute) and isinstance(part.ctx, ast.Store | ast.Del):
                yield part.value


def _imported(tree: ast.Module) -> set[str]:
    """The names the module's top-level imports bind."""
    return {i.bound for i in imports(tree, nested=False)}


def findings(source: str, module: str) -> list[str]:
    """Every write into an object that the writing function did not make, outside the constructors."""
    tree = ast.parse(source)
    imported = _imported(tree)
    found: list[str] = []

    def visit(func: ast.FunctionDef | ast.AsyncFunctionDef, outer: set[str]) -> None:
        scope = _Function(func, imported, outer)
        for node in _own_nodes(func):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(node, scope.made)
                continue
            for obj in _written(node):
                root, depth = _root(obj)
                if func.name in CONSTRUCTORS and not (isinstance(root, ast.Name) and root.id in imported):
                    continue  # a constructor hands what it builds what it needs; never another module's globals
                if isinstance(root, ast.Name) and root.id in ("self", "cls") and depth == 0:
                    continue  # the object's own state
                if isinstance(root, ast.Name) and root.id in scope.made and root.id not in ("self", "cls"):
                    continue  # an object this function made, being filled in
                if not isinstance(root, ast.Name) and scope.makes(root):
                    continue
                found.append(f"{module}.{func.name} (line {node.lineno}) writes into {ast.unparse(obj)}")

    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _is_outermost(tree, node):
            visit(node, set())
    # What runs at import, outside any function: it may build its own module's objects, no other's.
    top = _Function(tree, imported, set())
    for node in _own_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for obj in _written(node):
            root, _ = _root(obj)
            if not top.makes(root):
                found.append(f"{module}.<module> (line {node.lineno}) writes into {ast.unparse(obj)}")
    return found


def _own_nodes(func: ast.AST) -> Iterator[ast.AST]:
    """The nodes of ``func``'s body (or a module's), not descending into functions (yielded, not walked)."""
    stack = list(ast.iter_child_nodes(func))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            stack.extend(ast.iter_child_nodes(node))


def _is_outermost(tree: ast.Module, target: ast.AST) -> bool:
    """A function not nested in another function (methods of module-level classes included)."""
    def search(node: ast.AST, in_function: bool) -> bool | None:
        for child in ast.iter_child_nodes(node):
            if child is target:
                return not in_function
            inner = search(child, in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef))
            if inner is not None:
                return inner
        return None
    return bool(search(tree, False))


def repository_findings() -> dict[tuple[str, str], list[str]]:
    """Findings of the application's modules, by (module, function)."""
    by_place: dict[tuple[str, str], list[str]] = {}
    for name, path in sorted(modules(ROOT).items()):
        if name.split(".")[0] in UNCHECKED_PACKAGES:
            continue
        for line in findings(path.read_text(encoding="utf-8"), name):
            function = line.removeprefix(name + ".").split(" ")[0]
            by_place.setdefault((name, function), []).append(line)
    return by_place


# ------------------------------------------------------------------ the repository


def test_no_code_outside_a_constructor_writes_into_another_object() -> None:
    bad = [line for place, lines in sorted(repository_findings().items()) if place not in ALLOWED
           for line in lines]
    assert not bad, "objects wired or rewired after they were built:\n" + "\n".join(bad)


def test_the_allowances_are_still_needed() -> None:
    """An allowance whose write is gone must leave the list, so it cannot hide a new one."""
    found = repository_findings()
    stale = sorted(f"{m}.{f}" for m, f in ALLOWED if (m, f) not in found)
    assert not stale, f"allowances no longer needed: {stale}"


# --------------------------------------------------------------- the checker itself


@pytest.mark.parametrize("source", [
    # Monkeypatching a service's method after it was built (what metrics hooks used to do).
    "def instrument(bot):\n    guard = bot.guard\n    guard.run = lambda: None\n",
    "def instrument(bot):\n    bot.tables.think = None\n",
    "def instrument(bot):\n    store, guard = bot.store, bot.guard\n    guard.run = None\n",
    "def each(bot):\n    for service in (bot.store, bot.guard):\n        service.recorder = None\n",
    # Setting a collaborator's attribute from outside (a setter wiring it late).
    "class Flow:\n    def wire(self, value):\n        self.notices.settings = value\n",
    # Another module's global, or an object held in one.
    "from cogs import web_links\ndef load(links):\n    web_links.LINKS = links\n",
    "from cogs.presenter import RENDER_POOL\ndef hook():\n    RENDER_POOL.draw = None\n",
    "import discord\ndef patch():\n    setattr(discord.InteractionResponse, 'defer', None)\n",
    # A parameter, and an object reached through an alias taken with getattr.
    "def start(links, url):\n    links.public_url = url\n",
    "def hook(bot):\n    poster = getattr(bot.flow, 'poster', bot.flow)\n    poster.post_table = None\n",
    # An item of a collection that was not made here.
    "def close(tables):\n    table = next(t for t in tables)\n    table.status = 'closed'\n",
    # A nested function reaching into its outer function's collaborator.
    "def outer(store):\n    def inner():\n        store.db.transaction = None\n    return inner\n",
    # An object fetched from a collaborator is not made here.
    "class Cog:\n    def rename(self):\n        channel = self.bot.get_channel(1)\n        channel.name = 'x'\n",
    "def drop(thing):\n    del thing.cache\n",
    # Even a constructor or compose never rewires another module's global object.
    "from cogs.pictures import RENDER_POOL\nasync def compose(store):\n    RENDER_POOL.after_draw = store.take\n",
    "import cogs.web_links\nclass Cog:\n    def __init__(self, links):\n        cogs.web_links.LINKS = links\n",
    # At import, another module's global.
    "import sandbox\nsandbox.serve = None\n",
])
def test_the_checker_finds_a_write_into_another_object(source: str) -> None:
    assert findings(source, "m"), source


@pytest.mark.parametrize("source", [
    "class A:\n    def set(self, v):\n        self.v = v\n",
    "class A:\n    def __init__(self, b):\n        b.owner = self\n        self.b = b\n",
    "async def compose(bot):\n    flow = make()\n    flow.extra = 1\n",
    "def build():\n    plan = Plan()\n    plan.drop += [1]\n    return plan\n",
    "import discord\ndef embed():\n    e = discord.Embed()\n    e.description = 'x'\n    return e\n",
    "def seats(table):\n    copies = [replace(s) for s in table.seats]\n    copies[0].timeouts += 1\n",
    "def settle():\n    matches = build()\n    def again():\n        for m in matches:\n            m.known = True\n"
    "    again()\n",
    "class S:\n    @classmethod\n    def load(cls, data):\n        s = cls.__new__(cls)\n        s.n = data\n"
    "        return s\n",
    "POOL = Pool()\nPOOL.lanes = 2\n",
])
def test_the_checker_lets_own_state_and_objects_being_built_through(source: str) -> None:
    assert not findings(source, "m"), findings(source, "m")
