"""The effect language's syntax tree: frozen dataclasses, each with its source position."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pos:
    """Where a node stands in its file: 1-based line and column, end exclusive."""

    line: int
    col: int
    end_line: int
    end_col: int


NOPOS = Pos(0, 0, 0, 0)


@dataclass(frozen=True)
class Node:
    pos: Pos


# ---- expressions -------------------------------------------------------------

@dataclass(frozen=True)
class Num(Node):
    value: int


@dataclass(frozen=True)
class Str(Node):
    value: str


@dataclass(frozen=True)
class Name(Node):
    name: str


@dataclass(frozen=True)
class It(Node):
    pass


@dataclass(frozen=True)
class Neg(Node):
    operand: "Expr"


@dataclass(frozen=True)
class Not(Node):
    operand: "Expr"


@dataclass(frozen=True)
class BinOp(Node):
    op: str                 # + - * //
    left: "Expr"
    right: "Expr"


@dataclass(frozen=True)
class Compare(Node):
    op: str                 # == != < <= > >=
    left: "Expr"
    right: "Expr"


@dataclass(frozen=True)
class BoolOp(Node):
    op: str                 # and or
    left: "Expr"
    right: "Expr"


@dataclass(frozen=True)
class Call(Node):
    func: str
    args: tuple["Expr", ...]


Expr = Num | Str | Name | It | Neg | Not | BinOp | Compare | BoolOp | Call


# ---- statements --------------------------------------------------------------

@dataclass(frozen=True)
class Amount(Node):
    mode: str               # 'n' | 'all' | 'any' | 'up_to'
    expr: Expr | None


@dataclass(frozen=True)
class TrackChange(Node):
    track: str
    op: str                 # += -= =
    expr: Expr
    track_pos: Pos


@dataclass(frozen=True)
class Let(Node):
    name: str
    expr: Expr
    name_pos: Pos = NOPOS


@dataclass(frozen=True)
class If(Node):
    branches: tuple[tuple[Expr, tuple["Stmt", ...]], ...]
    orelse: tuple["Stmt", ...] | None


@dataclass(frozen=True)
class EachPlayer(Node):
    other: bool
    where: Expr | None
    body: tuple["Stmt", ...]


@dataclass(frozen=True)
class PlayerWith(Node):
    which: str              # highest lowest most fewest
    expr: Expr
    body: tuple["Stmt", ...]
    which_pos: Pos


@dataclass(frozen=True)
class Repeat(Node):
    count: Expr
    body: tuple["Stmt", ...]


@dataclass(frozen=True)
class Choose(Node):
    name: str
    lo: Expr
    hi: Expr
    name_pos: Pos = NOPOS


@dataclass(frozen=True)
class May(Node):
    body: tuple["Stmt", ...]


@dataclass(frozen=True)
class MayPay(Node):
    amount: Expr
    body: tuple["Stmt", ...]


@dataclass(frozen=True)
class Spend(Node):
    amount: Expr


@dataclass(frozen=True)
class Pay(Node):
    amount: Expr
    as_name: str | None
    as_pos: Pos = NOPOS


@dataclass(frozen=True)
class VerbStmt(Node):
    verb: str               # a board verb, or a tile verb (reveal, arrange) with kind 'tiles'
    amount: Amount
    kind: str
    as_name: str | None
    verb_pos: Pos
    kind_pos: Pos
    as_pos: Pos = NOPOS


@dataclass(frozen=True)
class VerbIt(Node):
    verb: str
    verb_pos: Pos


@dataclass(frozen=True)
class Draw(Node):
    count: Expr
    stage: Expr
    keep: Expr | None


@dataclass(frozen=True)
class Unlock(Node):
    stage: Expr


@dataclass(frozen=True)
class Prevent(Node):
    pass


Stmt = (TrackChange | Let | If | EachPlayer | PlayerWith | Repeat | Choose | May | MayPay
        | Spend | Pay | VerbStmt | VerbIt | Draw | Unlock | Prevent)


# ---- handlers and declarations -----------------------------------------------

@dataclass(frozen=True)
class Handler(Node):
    form: str               # 'on' | 'when' | 'once' | 'react'
    event: str              # on: play/setup/resolve or a phase; when/once/react: a trigger
    edge: str | None        # on PHASE start/end: 'start' | 'end'
    body: tuple[Stmt, ...]
    event_pos: Pos
    edge_pos: Pos = NOPOS


@dataclass(frozen=True)
class Modify(Node):
    quantity: str
    expr: Expr
    floor: int | None       # `min N`
    quantity_pos: Pos


@dataclass(frozen=True)
class Shield(Node):
    targets: tuple[tuple[str, Pos], ...]


@dataclass(frozen=True)
class Seal(Node):
    target: str
    target_pos: Pos


Item = Handler | Modify | Shield | Seal


@dataclass(frozen=True)
class Program(Node):
    items: tuple[Item, ...]

    @property
    def handlers(self) -> tuple[Handler, ...]:
        return tuple(i for i in self.items if isinstance(i, Handler))

    @property
    def declarations(self) -> tuple[Item, ...]:
        return tuple(i for i in self.items if not isinstance(i, Handler))
