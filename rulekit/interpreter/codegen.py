"""AST -> Python source, compiled once per content: each handler a function over the runtime (rt) and its frame (f).

`let`, `choose` and `as` names become Python locals; the subject of a player block is a local seat
variable; names the game provides become typed runtime reads, chosen by what the resolver's table
(Checked.meaning) says each name is, not looked up by string at run time. Each generated line
remembers the effect line it came from, so a failure names the card's own line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rulekit import registry
from rulekit.interpreter.runtime import num
from rulekit.language import ast
from rulekit.language import resolve as rs
from rulekit.language.checker import Checked
from rulekit.language.visitor import Visitor

_COMPARE = {"==", "!=", "<", "<=", ">", ">="}
_READS = {"hand": "rt.hand_size({s})", "revealed": "rt.revealed({s})", "round": "rt.round()",
          "players": "rt.players_in()", "turn": "rt.turn({s})", "uses": "(E.uses if E is not None else 0)",
          "marks": "rt.marks(f, {s})"}


class CardLike(Protocol):
    """What the generator reads of a card: its id (the module's name) and the numbers it names."""

    @property
    def id(self) -> str: ...
    @property
    def line(self) -> int: ...


@dataclass(frozen=True)
class CardCode:
    """One card's generated module: its source, the effect line of each source line, the compiled functions."""

    source: str
    lines: tuple[int, ...]          # effect line of generated line k+1
    filename: str
    functions: dict[str, Callable[..., Any]]


class _Gen(Visitor, walks=("statements", "expressions")):
    """Writes one card's functions; tracks the Python name of every `let`/`choose`/`as` name in reach."""

    def __init__(self, card: CardLike, checked: Checked | None) -> None:
        self.card = card
        self.checked = checked          # what the resolver found: the meaning of every name
        self.params: dict[str, int] = dict(getattr(card, "params", ()))
        self.out: list[tuple[int, str, int]] = []      # (indent, text, effect line)
        self.scopes: list[dict[rs.Binding, str]] = []  # the Python local of each name in reach
        self.subjects: list[str] = []                  # the subject of each player block we are in
        self.cards: list[str] = []                     # the card each `count(played where …)` is reading
        self.later: list[tuple[str, Sequence[ast.Stmt], list[tuple[rs.Binding, str]], int]] = []   # `after` blocks to write
        self.n = 0

    def fresh(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def emit(self, indent: int, text: str, line: int) -> None:
        self.out.append((indent, text, line))

    # ---- functions -----------------------------------------------------------------------------
    def meaning(self, node: ast.Node) -> rs.Meaning:
        assert self.checked is not None, "only a checked program has names"
        return self.checked.of(node)

    def handler(self, name: str, body: Sequence[ast.Stmt], line: int) -> None:
        self.emit(0, f"def {name}(rt, f):", line)
        self.emit(1, "S0 = f.owner", line)
        self.emit(1, "O = f.owner", line)
        self.emit(1, "E = f.entry", line)
        self.subjects = ["S0"]
        self.block(body, 1, "S0", line)
        self.write_later()

    def write_later(self) -> None:
        """Each `after N rounds:` block as a function of its own, run by the core when its round comes:
        (rt, frame, values) — values holds its subject and the names it can read, as they were."""
        while self.later:
            name, body, visible, line = self.later.pop(0)
            self.emit(0, f"def {name}(rt, f, V):", line)
            self.emit(1, "S0 = V['S']", line)
            self.emit(1, "O = f.owner", line)
            self.emit(1, "E = f.entry", line)
            scope: dict[rs.Binding, str] = {}
            for source, var in visible:
                self.emit(1, f"{var} = V[{var!r}]", line)
                scope[source] = var
            self.scopes = [scope]
            self.subjects = ["S0"]
            self.block(body, 1, "S0", line)
            self.scopes = []

    def expression(self, name: str, expr: ast.Expr, line: int) -> None:
        """A modifier's amount or a condition: a function of (rt, subject seat, tableau entry)."""
        self.emit(0, f"def {name}(rt, S0, E):", line)
        self.emit(1, "f = None", line)
        self.emit(1, "O = S0", line)
        self.scopes.append({})
        self.emit(1, f"return {self.expr(expr, 'S0')}", line)
        self.scopes.pop()

    # ---- statements --------------------------------------------------------------------------------
    def block(self, stmts: Sequence[ast.Stmt], indent: int, s: str, line: int) -> None:
        """A block; `line` is the statement holding it (the handler's for its body), which its count is charged to."""
        self.scopes.append({})
        self.emit(indent, f"rt.tick({len(stmts)})", line)
        for st in stmts:
            self.stmt(st, indent, s)
        self.scopes.pop()

    def bind(self, st: ast.Node) -> str:
        """The Python local of the name a `let`, `choose` or `as` makes."""
        binding = self.meaning(st).binding
        assert binding is not None, "the resolver binds every name a checked program makes"
        var = self.fresh("L")
        self.scopes[-1][binding] = var
        return var

    def local(self, meaning: rs.Meaning) -> str:
        """The Python local a name of the effect's own is, where it is read or changed."""
        for scope in reversed(self.scopes):
            if meaning.binding in scope:
                return scope[meaning.binding]
        raise AssertionError(f"the resolver resolved '{meaning.name}' to a name in reach")

    def s_TrackChange(self, st: ast.TrackChange, i: int, s: str) -> None:
        value = self.expr(st.expr, s)
        meaning = self.meaning(st)
        if meaning.kind == rs.LOCAL:
            var = self.local(meaning)
            new = value if st.op == "=" else f"num({var} {st.op[0]} {value})"
            self.emit(i, f"{var} = {new}", st.pos.line)
            return
        if meaning.kind == rs.COUNTER:
            self.emit(i, f"rt.change_counter(f, {st.track!r}, {st.op!r}, {value})", st.pos.line)
            return
        self.emit(i, f"rt.change(f, {s}, {st.track!r}, {st.op!r}, {value})", st.pos.line)

    def s_Let(self, st: ast.Let, i: int, s: str) -> None:
        value = self.expr(st.expr, s)
        self.emit(i, f"{self.bind(st)} = {value}", st.pos.line)

    def s_If(self, st: ast.If, i: int, s: str) -> None:
        for k, (cond, body) in enumerate(st.branches):
            # An `elif` is a line of its own: a failure in its condition names it.
            self.emit(i, f"{'if' if k == 0 else 'elif'} {self.expr(cond, s)}:", cond.pos.line if k else st.pos.line)
            self.block(body, i + 1, s, st.pos.line)
        if st.orelse is not None:
            self.emit(i, "else:", st.pos.line)
            self.block(st.orelse, i + 1, s, st.pos.line)

    def player_block(self, body: Sequence[ast.Stmt], i: int, sub: str, line: int) -> None:
        self.subjects.append(sub)
        self.block(body, i, sub, line)
        self.subjects.pop()

    def s_EachPlayer(self, st: ast.EachPlayer, i: int, s: str) -> None:
        sub = self.fresh("S")
        self.emit(i, f"for {sub} in rt.each_player(f, {s}, {st.other!r}):", st.pos.line)
        if st.where is not None:
            self.emit(i + 1, f"if {self.expr(st.where, sub)}:", st.pos.line)
            self.player_block(st.body, i + 2, sub, st.pos.line)
        else:
            self.player_block(st.body, i + 1, sub, st.pos.line)

    def s_PlayerWith(self, st: ast.PlayerWith, i: int, s: str) -> None:
        sub, key = self.fresh("S"), self.fresh("K")
        self.emit(i, f"def {key}({sub}):", st.pos.line)
        self.emit(i + 1, f"return {self.expr(st.expr, sub)}", st.pos.line)
        self.emit(i, f"for {sub} in rt.players_with(f, {st.which!r}, {key}):", st.pos.line)
        self.player_block(st.body, i + 1, sub, st.pos.line)

    def s_TheyChoose(self, st: ast.TheyChoose, i: int, s: str) -> None:
        self.emit(i, "with rt.they_choose(f):", st.pos.line)
        self.block(st.body, i + 1, s, st.pos.line)

    def s_Me(self, st: ast.Me, i: int, s: str) -> None:
        self.player_block(st.body, i, "O", st.pos.line)

    def s_SeatPlayer(self, st: ast.SeatPlayer, i: int, s: str) -> None:
        sub = self.fresh("S")
        self.emit(i, f"{sub} = rt.seat_player(f, {st.which!r})", st.pos.line)
        self.emit(i, f"if {sub} is not None:", st.pos.line)
        self.player_block(st.body, i + 1, sub, st.pos.line)

    def s_ChoosePlayer(self, st: ast.ChoosePlayer, i: int, s: str) -> None:
        sub = self.fresh("S")
        where = "None"
        if st.where is not None:
            where = self.fresh("W")
            self.emit(i, f"def {where}({sub}):", st.pos.line)
            self.emit(i + 1, f"return {self.expr(st.where, sub)}", st.pos.line)
        self.emit(i, f"{sub} = rt.choose_player(f, {s}, {st.other!r}, {where})", st.pos.line)
        self.emit(i, f"if {sub} is not None:", st.pos.line)
        self.player_block(st.body, i + 1, sub, st.pos.line)

    def s_ChooseCell(self, st: ast.ChooseCell, i: int, s: str) -> None:
        cell = self.fresh("C")
        self.emit(i, f"{cell} = rt.choose_cell(f, {s}, {st.kind!r}, {ast.cell_hint(st.body)!r})", st.pos.line)
        self.emit(i, f"if {cell} is not None:", st.pos.line)
        self.emit(i + 1, f"with rt.it_as(f, {cell}):", st.pos.line)
        self.block(st.body, i + 2, s, st.pos.line)

    def s_Transfer(self, st: ast.Transfer, i: int, s: str) -> None:
        block_player, enclosing = self.subjects[-1], self.subjects[-2]
        src, dst = (block_player, enclosing) if st.direction == "take" else (enclosing, block_player)
        n = self.expr(st.amount.expr, s) if st.amount.expr is not None else "None"
        call = f"rt.transfer(f, {st.direction!r}, {src}, {dst}, {st.what!r}, {st.amount.mode!r}, {n})"
        self.emit(i, f"{self.bind(st)} = {call}" if st.as_name else call, st.pos.line)

    def s_Discard(self, st: ast.Discard, i: int, s: str) -> None:
        n = self.expr(st.amount.expr, s) if st.amount.expr is not None else "None"
        call = f"rt.discard(f, {s}, {st.amount.mode!r}, {n})"
        self.emit(i, f"{self.bind(st)} = {call}" if st.as_name else call, st.pos.line)

    def s_MayDiscard(self, st: ast.MayDiscard, i: int, s: str) -> None:
        self.emit(i, f"if rt.may_discard(f, {s}, {self.expr(st.amount, s)}):", st.pos.line)
        self.block(st.body, i + 1, s, st.pos.line)

    def s_After(self, st: ast.After, i: int, s: str) -> None:
        name = after_name(st)
        visible = [(source, var) for scope in self.scopes for source, var in scope.items()]
        values = "{" + ", ".join(f"{var!r}: {var}" for _, var in visible) + "}"
        self.emit(i, f"rt.after(f, {s}, {self.expr(st.count, s)}, {name!r}, {values})", st.pos.line)
        self.later.append((name, st.body, visible, st.pos.line))

    def s_Repeat(self, st: ast.Repeat, i: int, s: str) -> None:
        self.emit(i, f"for _ in rt.repeat({self.expr(st.count, s)}):", st.pos.line)
        self.block(st.body, i + 1, s, st.pos.line)

    def s_Choose(self, st: ast.Choose, i: int, s: str) -> None:
        lo, hi = self.expr(st.lo, s), self.expr(st.hi, s)
        self.emit(i, f"{self.bind(st)} = rt.choose(f, {s}, {lo}, {hi})", st.pos.line)

    def s_May(self, st: ast.May, i: int, s: str) -> None:
        self.emit(i, f"if rt.may(f, {s}):", st.pos.line)
        self.block(st.body, i + 1, s, st.pos.line)

    def s_MayPay(self, st: ast.MayPay, i: int, s: str) -> None:
        self.emit(i, f"if rt.may_pay(f, {s}, {self.expr(st.amount, s)}):", st.pos.line)
        self.block(st.body, i + 1, s, st.pos.line)

    def s_Spend(self, st: ast.Spend, i: int, s: str) -> None:
        self.emit(i, f"rt.spend(f, {s}, {self.expr(st.amount, s)})", st.pos.line)

    def s_Pay(self, st: ast.Pay, i: int, s: str) -> None:
        call = f"rt.pay(f, {s}, {self.expr(st.amount, s)})"
        self.emit(i, f"{self.bind(st)} = {call}" if st.as_name else call, st.pos.line)

    def s_VerbStmt(self, st: ast.VerbStmt, i: int, s: str) -> None:
        n = self.expr(st.amount.expr, s) if st.amount.expr is not None else "None"
        mode = st.amount.mode
        if st.verb == "reveal":
            call = f"rt.reveal(f, {s}, {mode!r}, {n})"
        elif st.verb in ("arrange", "foresee") and st.kind == "events":
            call = f"rt.look_at_events(f, {s}, {n}, {st.verb == 'arrange'!r})"
        elif st.verb == "reshuffle":
            call = f"rt.reshuffle_events(f, {mode!r}, {n})"
        elif st.verb == "arrange":
            call = f"rt.arrange(f, {s}, {n})"
        elif st.verb == "move":
            call = f"rt.move(f, {s}, {mode!r}, {n}, {st.kind!r})"
        else:
            near = f", {st.near!r}" if st.near is not None else ""
            call = f"rt.board_verb(f, {s}, {st.verb!r}, {mode!r}, {n}, {st.kind!r}{near})"
        self.emit(i, f"{self.bind(st)} = {call}" if st.as_name else call, st.pos.line)

    def s_Tag(self, st: ast.Tag, i: int, s: str) -> None:
        self.emit(i, f"rt.tag(f, {st.verb!r}, {st.tag!r})", st.pos.line)

    def s_VerbIt(self, st: ast.VerbIt, i: int, s: str) -> None:
        self.emit(i, f"rt.verb_it(f, {s}, {st.verb!r})", st.pos.line)

    def s_Draw(self, st: ast.Draw, i: int, s: str) -> None:
        keep = self.expr(st.keep, s) if st.keep is not None else "None"
        self.emit(i, f"rt.draw(f, {s}, {self.expr(st.count, s)}, {self.expr(st.stage, s)}, {keep})", st.pos.line)

    def s_Draft(self, st: ast.Draft, i: int, s: str) -> None:
        self.emit(i, f"rt.draft(f, {s}, {self.expr(st.count, s)}, {self.expr(st.stage, s)})", st.pos.line)

    def s_Unlock(self, st: ast.Unlock, i: int, s: str) -> None:
        self.emit(i, f"rt.unlock(f, {s}, {self.expr(st.stage, s)})", st.pos.line)

    def s_Mark(self, st: ast.Mark, i: int, s: str) -> None:
        n = self.expr(st.amount, s) if st.amount is not None else "1"
        self.emit(i, f"rt.mark(f, {s}, {n})", st.pos.line)

    def s_Prevent(self, st: ast.Prevent, i: int, s: str) -> None:
        self.emit(i, "f.prevented = True", st.pos.line)

    # ---- expressions ------------------------------------------------------------------------------------
    def e_Num(self, e: ast.Num, s: str) -> str:
        return str(e.value)

    def e_Str(self, e: ast.Str, s: str) -> str:
        return repr(e.value)

    def e_It(self, e: ast.It, s: str) -> str:
        return "f.it"

    def e_Name(self, e: ast.Name, s: str) -> str:
        meaning = self.meaning(e)
        kind = meaning.kind
        if kind == rs.LOCAL:
            return self.local(meaning)
        if kind == rs.CARD:         # the card `count(played where …)` is reading
            card = self.cards[-1]
            return f"{card}.stage" if e.name == "stage" else f"({card}.price[0] if {card}.price else 0)"
        if kind == rs.COUNTER:
            return f"rt.counter(E, O, {e.name!r})"
        if kind == rs.PARAM:        # a number the card names (`params:`): compiled in as a constant
            return f"({self.params[e.name]})"
        if kind == rs.TRACK:
            return f"rt.track({s}, {e.name!r})"
        if kind == rs.COUNT:
            return f"rt.count({s}, {e.name!r})"
        return _READS[e.name].format(s=s)

    def e_Neg(self, e: ast.Neg, s: str) -> str:
        return f"(-{self.expr(e.operand, s)})"

    def e_Not(self, e: ast.Not, s: str) -> str:
        return f"(not {self.expr(e.operand, s)})"

    def e_BinOp(self, e: ast.BinOp, s: str) -> str:
        a, b = self.expr(e.left, s), self.expr(e.right, s)
        if e.op == "//":
            return f"({a} // {b})"
        return f"num({a} {e.op} {b})"

    def e_Compare(self, e: ast.Compare, s: str) -> str:
        assert e.op in _COMPARE
        return f"({self.expr(e.left, s)} {e.op} {self.expr(e.right, s)})"

    def e_BoolOp(self, e: ast.BoolOp, s: str) -> str:
        return f"({self.expr(e.left, s)} {e.op} {self.expr(e.right, s)})"

    def e_Call(self, e: ast.Call, s: str) -> str:
        f = e.func
        if f in registry.AGGREGATES:
            sub = self.fresh("S")
            return f"rt.{f}(f, lambda {sub}: {self.expr(e.args[0], sub)})"
        if f == "caused_by":
            arg = e.args[0]
            what, named = (arg.value, True) if isinstance(arg, ast.Str) else (getattr(arg, "name", ""), False)
            return f"rt.caused_by(f, {what!r}, {named!r})"
        args = [self.expr(a, s) for a in e.args]
        if f in ("min", "max", "abs"):
            return f"{f}({', '.join(args)})"
        if f == "played":
            return f"rt.played({s}, {args[0]})"
        if f == "event":
            return f"rt.event_is({args[0]})"
        if f == "happened":
            return f"rt.happened({args[0]})"
        if f == "unlocked":
            return f"rt.is_unlocked({s}, {args[0]})"
        if f == "roll":
            return f"rt.roll(f, {s}, {', '.join(args)})"
        if f == "advisor":
            return f"rt.has_advisor({s}, {args[0]})"
        if f == "tableau":
            return f"rt.in_tableau({s}, {args[0]})"
        if f == "switched_off":
            return f"rt.switched_off({s}, {args[0]})"
        raise ValueError(f"unknown function {f}")

    def e_CountOf(self, e: ast.CountOf, s: str) -> str:
        if e.near is not None:
            return f"rt.count_near(f, {s}, {e.what!r}, {e.near!r})"
        if e.what in registry.CELL_TAGS:
            return f"rt.count_tagged({s}, {e.what!r})"
        if e.what in ("played", "tableau"):
            card, source = self.fresh("C"), f"rt.{'played' if e.what == 'played' else 'tableau'}_cards({s})"
            if e.where is None:
                return f"len({source})"
            self.cards.append(card)
            cond = self.expr(e.where, s)
            self.cards.pop()
            return f"sum(1 for {card} in {source} if {cond})"
        sub = self.fresh("S")
        where = f"(lambda {sub}: {self.expr(e.where, sub)})" if e.where is not None else "None"
        return f"rt.count_players(f, {s}, {e.what == 'other player'!r}, {where})"

    # ---- the module ----------------------------------------------------------------------------------------
    def compile(self) -> CardCode:
        filename = f"<rulekit {self.card.id}>"
        text = [("    " * indent) + line for indent, line, _ in self.out]
        source = "\n".join(text) + "\n"
        namespace: dict[str, Any] = {"num": num, "__builtins__": {"min": min, "max": max, "abs": abs, "sum": sum, "len": len}}
        exec(compile(source, filename, "exec"), namespace)
        functions = {k: v for k, v in namespace.items() if callable(v) and k != "num"}
        return CardCode(source, tuple(line for _, _, line in self.out), filename, functions)


def after_name(st: ast.After) -> str:
    """The name an `after` block is kept under (the same in both evaluators): where it is written."""
    return f"after_{st.pos.line}_{st.pos.col}"


def generate(card: CardLike, checked: Checked | None, handlers: Sequence[ast.Handler],
             modifiers: Sequence[ast.Modify], conds: Sequence[ast.Expr] = ()) -> CardCode:
    """One card's module: handlers as h0, h1 …, modifier amounts as m0, m1 …, the `while` conditions of its
    declarations as w0, w1 …, its condition as c."""
    gen = _Gen(card, checked)
    for k, h in enumerate(handlers):
        gen.handler(f"h{k}", h.body, h.pos.line)
        if h.condition is not None:                 # `once when becomes COND:`
            gen.expression(f"b{k}", h.condition, h.pos.line)
    for k, m in enumerate(modifiers):
        gen.expression(f"m{k}", m.expr, m.pos.line)
    for k, cond in enumerate(conds):
        gen.expression(f"w{k}", cond, cond.pos.line)
    condition = checked.condition if checked is not None else None
    if condition is not None:
        gen.expression("c", condition, condition.pos.line or card.line)
    return gen.compile()
