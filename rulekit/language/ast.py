"""The effect language's syntax tree: frozen dataclasses, each with its source position."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from typing import TypeVar

N = TypeVar("N", bound="Node")


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

    def iter_child_nodes(self) -> Iterator[Node]:
        """The nodes directly inside this one, in the order of the text (as Jinja's nodes have it):
        an `if`'s conditions and blocks, a statement's expressions, a handler's statements."""
        for name in _node_fields(type(self)):
            yield from _nodes_in(getattr(self, name))

    def find_all(self, node_type: type[N] | tuple[type[N], ...]) -> Iterator[N]:
        """Every node of that type (or types) inside this one, at any depth, in the order of the text."""
        stack = list(self.iter_child_nodes())[::-1]
        while stack:
            node = stack.pop()
            if isinstance(node, node_type):
                yield node
            stack.extend(list(node.iter_child_nodes())[::-1])

    def find(self, node_type: type[N] | tuple[type[N], ...]) -> N | None:
        """The first node of that type inside this one, or None."""
        return next(self.find_all(node_type), None)


_FIELDS: dict[type, tuple[str, ...]] = {}


def _node_fields(cls: type[Node]) -> tuple[str, ...]:
    """The fields of a node type that may hold nodes (all but its own position), looked up once a type."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in fields(cls) if f.name != "pos")
    return names


def _nodes_in(value: object) -> Iterator[Node]:
    if isinstance(value, Node):
        yield value
    elif isinstance(value, tuple):
        for v in value:
            yield from _nodes_in(v)


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
    operand: Expr


@dataclass(frozen=True)
class Not(Node):
    operand: Expr


@dataclass(frozen=True)
class BinOp(Node):
    op: str                 # + - * //
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Compare(Node):
    op: str                 # == != < <= > >=
    left: Expr
    right: Expr


@dataclass(frozen=True)
class BoolOp(Node):
    op: str                 # and or
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Call(Node):
    func: str               # min max abs roll, the predicates, and highest/lowest (the argument read for every player)
    args: tuple[Expr, ...]
    # `roll(N, rerolls K)`: args are (N, K) and the second was written after `rerolls` (out of repr, so the
    # printed trees of every effect written before it are unchanged).
    rerolls: bool = field(default=False, repr=False)


@dataclass(frozen=True)
class CountOf(Node):
    """`count(player where COND)`, `count(other player where COND)` or `count(played where COND)`."""

    what: str               # 'player' | 'other player' | 'played' (or an unknown word, for the checker)
    where: Expr | None
    what_pos: Pos
    # `count(KIND next to NEAR)`: what is a kind of resident, NEAR a kind or 'it' (out of repr, as VerbStmt's)
    near: str | None = field(default=None, repr=False)
    near_pos: Pos = field(default=NOPOS, repr=False)


Expr = Num | Str | Name | It | Neg | Not | BinOp | Compare | BoolOp | Call | CountOf


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
    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]
    orelse: tuple[Stmt, ...] | None


@dataclass(frozen=True)
class EachPlayer(Node):
    other: bool
    where: Expr | None
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class PlayerWith(Node):
    which: str              # highest lowest most fewest
    expr: Expr
    body: tuple[Stmt, ...]
    which_pos: Pos


@dataclass(frozen=True)
class Repeat(Node):
    count: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Choose(Node):
    name: str
    lo: Expr
    hi: Expr
    name_pos: Pos = NOPOS


@dataclass(frozen=True)
class May(Node):
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class MayPay(Node):
    amount: Expr
    body: tuple[Stmt, ...]


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
    # `VERB AMOUNT KIND next to NEAR`: NEAR a kind, or 'it' (the trigger's cell); out of repr, so the
    # printed trees of every effect written before it are unchanged.
    near: str | None = field(default=None, repr=False)
    near_pos: Pos = field(default=NOPOS, repr=False)
    next_pos: Pos = field(default=NOPOS, repr=False)


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


@dataclass(frozen=True)
class Mark(Node):
    """`mark [N]` — an event leaves N stacks (1 without N) of its mark on the subject, for the rest of the game."""

    amount: Expr | None


@dataclass(frozen=True)
class ChoosePlayer(Node):
    """`choose [other] player [where COND]:` — the subject picks one player still in, who is the block's subject."""

    other: bool
    where: Expr | None
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Transfer(Node):
    """`take AMOUNT WHAT` / `give AMOUNT WHAT` inside a player block: between the block's player and the
    enclosing subject. WHAT is a track, `money` or `cards`."""

    direction: str          # 'take' | 'give'
    amount: Amount
    what: str
    as_name: str | None
    verb_pos: Pos
    what_pos: Pos
    as_pos: Pos = NOPOS


@dataclass(frozen=True)
class Discard(Node):
    """`discard AMOUNT cards [as NAME]`: the subject picks which; NAME = how many were discarded."""

    amount: Amount
    as_name: str | None
    what_pos: Pos
    as_pos: Pos = NOPOS


@dataclass(frozen=True)
class MayDiscard(Node):
    """`may discard AMOUNT cards:` — a cost like `may pay`: with that many cards, the subject may discard
    them (its choice which) and resolve the block."""

    amount: Expr
    body: tuple[Stmt, ...]
    what_pos: Pos
    verb: str = "discard"   # the checker names any other verb written here
    verb_pos: Pos = NOPOS
    what: str = "cards"


@dataclass(frozen=True)
class After(Node):
    """`after N rounds:` — the block runs at the start of the round N rounds from now, for the same subject."""

    count: Expr
    body: tuple[Stmt, ...]
    unit_pos: Pos
    unit: str = "rounds"    # `rounds` or `round`; the checker names any other word


@dataclass(frozen=True)
class Tag(Node):
    """`tag it TAG` / `untag it TAG`: put a tag (registry.CELL_TAGS) on the cell `it`, or take it off."""

    verb: str               # 'tag' | 'untag'; the checker names any other word written here
    tag: str
    verb_pos: Pos
    tag_pos: Pos


@dataclass(frozen=True)
class ChooseCell(Node):
    """`choose cell [with KIND]:` — the subject picks one cell of its board (one holding a KIND), which is `it`
    in the block; no such cell: the block is skipped."""

    word: str               # `cell`; the checker names any other word written here
    kind: str | None
    body: tuple[Stmt, ...]
    word_pos: Pos
    kind_pos: Pos = NOPOS


def cell_hint(body: tuple[Stmt, ...]) -> str:
    """The verb a `choose cell` block first does to `it` (or `next to it`), for the question's text: the bots read
    what a cell is chosen for from its first word. 'choose' when the block does no verb to it."""
    for s in body:
        if isinstance(s, VerbIt | Tag) or (isinstance(s, VerbStmt) and s.near == "it"):
            return s.verb
        if isinstance(s, ChooseCell):
            continue            # an inner `it` is another cell
        for inner in bodies(s):
            found = cell_hint(inner)
            if found != "choose":
                return found
    return "choose"


@dataclass(frozen=True)
class Me(Node):
    """`me:` — the card's owner is the subject of the block again (inside another player's block)."""

    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class SeatPlayer(Node):
    """`player after me:`, `player before me:`, `first player:` — one player by their place in this round's
    turn order (docs/language.md 5.34): the one after or before the card's owner round the ring, or the first."""

    which: str              # 'after' | 'before' | 'first' (any other word: the checker names it)
    body: tuple[Stmt, ...]
    which_pos: Pos
    form: str               # 'ring' (`player WORD me:`) | 'first' (`WORD player:`), as written


@dataclass(frozen=True)
class Draft(Node):
    """`draft N from stage K` — N cards of the stage's deck laid out face up; the players take one each in turn
    order, from the subject on (an event's: from the round's first player); the rest go to the discard pile."""

    count: Expr
    stage: Expr


@dataclass(frozen=True)
class TheyChoose(Node):
    """`they choose:` — inside another player's block, that player (the subject) makes the block's choices on
    the board (which residents, how many, `choose NAME from`), which are otherwise the card's owner's."""

    body: tuple[Stmt, ...]


Stmt = (TrackChange | Let | If | EachPlayer | PlayerWith | Repeat | Choose | May | MayPay
        | Spend | Pay | VerbStmt | VerbIt | Draw | Unlock | Prevent | Mark
        | ChoosePlayer | Transfer | Discard | MayDiscard | After | Me | SeatPlayer | ChooseCell | TheyChoose | Draft
        | Tag)


def bodies(s: Stmt) -> tuple[tuple[Stmt, ...], ...]:
    """The blocks a statement holds: an `if`'s branches and `else`, or the one block of a block statement."""
    if isinstance(s, If):
        return tuple(body for _, body in s.branches) + ((s.orelse,) if s.orelse is not None else ())
    body = getattr(s, "body", None)
    return (body,) if body is not None else ()



# ---- handlers and declarations -----------------------------------------------

@dataclass(frozen=True)
class Handler(Node):
    form: str               # 'on' | 'when' | 'once' | 'react'
    event: str              # on: play/setup/resolve or a phase; when/once/react: a trigger
    edge: str | None        # on PHASE start/end: 'start' | 'end'
    body: tuple[Stmt, ...]
    event_pos: Pos
    edge_pos: Pos = NOPOS
    # `once when becomes COND:` (event 'becomes'): the condition; out of repr, so the printed trees of every
    # effect written before it are unchanged.
    condition: Expr | None = field(default=None, repr=False)


@dataclass(frozen=True)
class Modify(Node):
    quantity: str
    expr: Expr
    floor: int | None       # `min N`
    quantity_pos: Pos
    cond: Expr | None = None    # `while COND`: the declaration holds only while COND is true


@dataclass(frozen=True)
class Shield(Node):
    targets: tuple[tuple[str, Pos], ...]
    sources: tuple[tuple[str, Pos], ...] = ()    # `from events, combos, players`; none: every source
    cond: Expr | None = None


@dataclass(frozen=True)
class Seal(Node):
    target: str
    target_pos: Pos
    direction: str = "in"       # `seal border [in|out|both]`
    direction_pos: Pos = NOPOS
    cond: Expr | None = None


@dataclass(frozen=True)
class Skip(Node):
    """`skip STEP` — that spread step does nothing on the owner's board while the card is active."""

    step: str
    step_pos: Pos
    cond: Expr | None = None


@dataclass(frozen=True)
class Limit(Node):
    """`floor TRACK N` / `ceiling TRACK N` — no change takes the owner's track past N (while the card is active)."""

    which: str              # 'floor' | 'ceiling'
    track: str
    track_pos: Pos
    value: int
    cond: Expr | None = None


Item = Handler | Modify | Shield | Seal | Skip | Limit


@dataclass(frozen=True)
class Program(Node):
    items: tuple[Item, ...]

    @property
    def handlers(self) -> tuple[Handler, ...]:
        return tuple(i for i in self.items if isinstance(i, Handler))

