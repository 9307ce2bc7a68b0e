"""The checks of a card's handlers, declarations and statements (the checker's walk over a program).

`ItemChecks` adds to the expression checks (rulekit.language.checks_exprs) everything above an
expression: which handlers and declarations a card kind may have, what each statement needs (a
player, a trigger's `it`, a number …), how many steps an effect runs, and the values the names it
makes hold along each path (for the range checks). rulekit.language.checker runs it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rulekit import registry
from rulekit.diagnostics.codes import R
from rulekit.language import ast
from rulekit.language import resolve as rs
from rulekit.language.checks_exprs import (
    _KIND_ARTICLE,
    CARD,
    CELL,
    NUM,
    ExprChecks,
    a_word,
    span,
    unknown_word,
    zh,
)
from rulekit.language.diagnostics import nearest
from rulekit.language.ranges import ANY, LARGEST_AMOUNT, Range, hull, show

# The cell states `it` may be in, per trigger, for "this verb can never act on it".
_TRIGGER_STATES: dict[str, tuple[str, ...]] = {
    "reveal": ("healthy", "mild"),
    "reveal mild": ("mild",),
    "reveal healthy": ("healthy",),
    "death": ("healthy", "mild", "severe"),
}
_IT_WORDS = {CELL: "a cell", CARD: "a card"}
_KIND_PLURAL = {"advisor": "advisors", "policy": "policies", "event": "events", "combo": "combos"}
_KIND_RUNS = {
    "advisor": "advisors run `on setup:` once, or last all game with `when …:`, `on PHASE start:` and declarations",
    "policy": "policies run `on play:` when played, or last with `when …:`, `on PHASE start:` and declarations",
    "event": "events run `on resolve:` when drawn",
    "combo": "combos run `on resolve:` when their `when:` condition holds",
}
# Blocks that run once or not at all: a name they change holds either value after them. A name
# changed in a loop (`repeat`, `each player`, `player with`) is unknown from the loop's first run on.
_MAYBE = (ast.May, ast.MayPay, ast.MayDiscard, ast.ChoosePlayer, ast.ChooseCell)


class ItemChecks(ExprChecks, walks=("statements", "expressions", "declarations")):
    """The checks of one program's handlers, declarations and statements."""

    # -- program -------------------------------------------------------------------
    def program(self, program: ast.Program) -> None:
        if self.items(program):
            self.never_runs(program)

    def items(self, program: ast.Program) -> bool:
        if self.kind not in registry.CARD_KINDS:
            self.report(R.HANDLER_NOT_FOR_KIND, program.pos, f"unknown card kind '{self.kind}'")
            return False
        self.res = rs.resolve_program(program, counters=self.counters, params=self.params, assumed=self.assumed)
        # An event that leaves a mark (`mark`) may have phase handlers: they run for the players carrying it.
        self.marking = self.kind == "event" and program.find(ast.Mark) is not None
        seen: dict[tuple[str, str, str | None], ast.Handler] = {}
        for item in program.items:
            if isinstance(item, ast.Handler):
                self.duplicate_handler(item, seen)
                self.handler_item(item)
            else:
                self.declaration(item)
        return True

    def duplicate_handler(self, h: ast.Handler, seen: dict[tuple[str, str, str | None], ast.Handler]) -> None:
        if h.condition is not None:
            return                      # `once when becomes COND:`: one handler per condition, as many as needed
        key = (h.form, h.event, h.edge)
        first = seen.setdefault(key, h)
        if first is not h:
            self.report(R.DUPLICATE_HANDLER, span(h.pos, h.event_pos),
                        f"this card already has this handler on line {first.pos.line}",
                        hint="merge the two blocks into one")

    def never_runs(self, program: ast.Program) -> None:
        if self.kind in ("event", "combo"):
            if not any(h.form == "on" and h.event == "resolve" for h in program.handlers):
                self.report(R.NEVER_RUNS, program.pos, f"{_KIND_ARTICLE[self.kind]} without `on resolve:` never does anything",
                            hint=_KIND_RUNS[self.kind])
        elif not program.items:
            self.report(R.NEVER_RUNS, program.pos, "this effect has no handler or declaration, so it never does anything",
                        hint=_KIND_RUNS[self.kind])

    # -- handlers ----------------------------------------------------------------
    def handler_item(self, h: ast.Handler) -> None:
        head = span(h.pos, h.event_pos)
        if h.form == "on":
            self.on_handler(h, head)
        else:
            self.trigger_handler(h, head)
        self.handler = h
        # A marking event's phase handlers run for each player carrying its mark: that player is the subject.
        self.subject = self.kind != "event" or (self.marking and h.form == "on" and h.event != "resolve")
        self.steps, self.too_long = 0, None
        self.block(h.body)
        self.effect_steps(head)
        self.handler = None
        self.subject = True

    def on_handler(self, h: ast.Handler, head: ast.Pos) -> None:
        if h.event in registry.ON_HANDLERS:
            if h.edge is not None:
                self.report(R.UNKNOWN_HANDLER, h.edge_pos, f"`on {h.event}` takes no '{h.edge}'", hint=f"write `on {h.event}:`")
            kinds = registry.ON_HANDLERS[h.event]
            if self.kind not in kinds:
                only = " and ".join(_KIND_PLURAL[k] for k in kinds)
                self.report(R.HANDLER_NOT_FOR_KIND, head,
                            f"{_KIND_ARTICLE[self.kind]} cannot have `on {h.event}` (only {only} do)",
                            hint=_KIND_RUNS[self.kind])
            return
        if h.event in registry.PHASES:
            self.phase_edge(h, head)
            if not self.marking:
                self.lasting_only(head, f"`on {h.event} {h.edge or 'start'}`")
            return
        if f"{h.event} {h.edge}" == registry.GAME_END.name:
            if not self.marking:
                self.lasting_only(head, "`on game end`")
            return
        table = {**{k: registry.Word(k, "", "") for k in registry.ON_HANDLERS}, **registry.PHASES,
                 "game": registry.GAME_END}
        if h.event == "game":
            self.report(R.UNKNOWN_HANDLER, h.edge_pos if h.edge else h.event_pos,
                        f"there is no `on game {h.edge}`: the game's handler is `on game end`" if h.edge
                        else "`on game` needs 'end': the game's handler is `on game end`",
                        hint="as the game starts, an advisor runs `on setup:`; every round starts with `on round start:`, "
                             "and the game ends with `on game end:`")
            return
        msg, _ = unknown_word(h.event, table, "handler")
        self.report(R.UNKNOWN_HANDLER, h.event_pos, msg,
                    hint="write `on play`, `on setup`, `on resolve`, `on game end`, or `on PHASE start` / "
                                   f"`on PHASE end` with PHASE one of: {' '.join(registry.PHASES)}")

    def phase_edge(self, h: ast.Handler, head: ast.Pos) -> None:
        if h.edge in ("start", "end"):
            return
        if h.edge is None:
            self.report(R.UNKNOWN_HANDLER, head, f"`on {h.event}` needs 'start' or 'end'",
                        hint=f"write `on {h.event} start:` or `on {h.event} end:`")
            return
        guess = nearest(h.edge, ["start", "end"])
        extra = f" — did you mean '{guess}'?" if guess else ""
        self.report(R.UNKNOWN_HANDLER, h.edge_pos, f"unknown phase moment '{h.edge}'{extra}",
                    hint=f"write `on {h.event} start:` or `on {h.event} end:`")

    def other_trigger(self, h: ast.Handler, head: ast.Pos, form: str) -> None:
        """`when other …` (5.35): a moment of another player a card in play can hear, never a reaction's."""
        own = h.event.split(" ", 1)[1]
        heard = ", ".join(f"`{w}`" for w in registry.OTHER_TRIGGERS)
        if h.event in registry.TRIGGERS:
            if h.form == "react":
                self.report(R.OTHER_MOMENT, head, f"`react {h.event}`: a card in hand reacts only to its owner's own "
                                                  "moments", hint=f"write `when {h.event}:` on a card in play, or "
                                                                  f"`react {own}:` for your own")
            return
        if own in registry.TRIGGERS:
            self.report(R.OTHER_MOMENT, h.event_pos, f"`{form} {h.event}`: a card hears another player's unsold "
                        f"offer, cure and play, not their {own}", hint=f"write `{form} {own}:` for your own; "
                                                                       f"another player's: {heard}")
            return
        msg, hint = unknown_word(h.event, registry.TRIGGERS, "trigger")
        self.report(R.UNKNOWN_TRIGGER, h.event_pos, msg, hint=hint)

    def lasting_only(self, pos: ast.Pos, what: str) -> None:
        if self.kind not in registry.LASTING_KINDS:
            hint = _KIND_RUNS[self.kind]
            if self.kind == "event" and what.startswith("`on "):
                hint = ("an event's `on PHASE start|end` runs only for the players carrying its mark: leave one with "
                        "`mark` inside `each player:` in `on resolve:` (docs/language.md 4, `mark`)")
            self.report(R.HANDLER_NOT_FOR_KIND, pos, f"{_KIND_ARTICLE[self.kind]} cannot have {what}: only advisors and policies "
                                                     "stay in play to use it", hint=hint)

    def becomes_handler(self, h: ast.Handler, head: ast.Pos) -> None:
        """`once when becomes COND:` — a true/false condition that reads the game (RK274 when it reads nothing
        that changes); `when becomes` without `once` is RK273."""
        assert h.condition is not None
        self.lasting_only(head, "`once when becomes`")
        if h.form != "once":
            self.report(R.BECOMES_NEEDS_ONCE, head, "`when becomes` needs `once`: the block runs the first time the "
                        "condition holds, and never again", hint="write `once when becomes …:`")
        self.handler = h
        before, self.reads = self.reads, set()
        found = len(self.diags)
        self.truth(h.condition, "`once when becomes`")
        read, self.reads = self.reads, before | self.reads
        if not read and len(self.diags) == found:
            self.report(R.BECOMES_NEVER_CHANGES, h.condition.pos, "this condition reads nothing of the game, so it "
                        "never changes: the block runs as soon as the card is in play, or never",
                        hint="compare a track, a board count, `round` or `hand`, such as `once when becomes healthy == 0:`")

    def trigger_handler(self, h: ast.Handler, head: ast.Pos) -> None:
        if h.condition is not None:
            self.becomes_handler(h, head)
            return
        words = {"when": "when", "once": "once when", "react": "react"}
        moments = registry.REACT_MOMENTS if h.form == "react" else {}
        if h.event.startswith("other "):
            self.other_trigger(h, head, words[h.form])
        elif h.event not in registry.TRIGGERS and h.event not in moments:
            msg, hint = unknown_word(h.event, {**registry.TRIGGERS, **moments}, "trigger")
            if h.form != "react" and h.event in registry.REACT_MOMENTS:
                msg = f"`{words[h.form]} {h.event}` is not a trigger: a phase's start and end are handled by `on`"
                hint = f"write `on {h.event}:` (or `react {h.event}:` for a card played from hand at that moment)"
            self.report(R.UNKNOWN_TRIGGER, h.event_pos, msg, hint=hint)
        if h.form == "react":
            if self.kind not in registry.REACT_KINDS:
                self.report(R.HANDLER_NOT_FOR_KIND, head, f"{_KIND_ARTICLE[self.kind]} cannot have `react`: only policies "
                            "in hand can be played as a reaction", hint=_KIND_RUNS[self.kind])
            return
        self.lasting_only(head, f"`{words[h.form]} {h.event}`")

    # -- declarations ----------------------------------------------------------------
    def declaration(self, d: ast.Item) -> None:
        self.lasting_only(d.pos, f"`{d.which if isinstance(d, ast.Limit) else type(d).__name__.lower()}`")
        self.decl(d)

    def d_Skip(self, d: ast.Skip) -> None:
        if d.step not in registry.SKIPPABLE:
            msg, hint = unknown_word(d.step, registry.SKIPPABLE, "spread step")
            if d.step == "discovery":
                msg = "`skip discovery` is not allowed: without discovery a board could never be fully revealed"
            self.report(R.UNKNOWN_SKIP, d.step_pos, msg, hint=hint)
        self.while_cond(d)

    def d_Shield(self, d: ast.Shield) -> None:
        for target, pos in d.targets:
            if target not in registry.SHIELDABLE:
                msg, hint = unknown_word(target, registry.SHIELDABLE, "shield target")
                self.report(R.UNKNOWN_SHIELD, pos, msg, hint=hint)
        for source, pos in d.sources:
            if source not in registry.SHIELD_SOURCES:
                msg, hint = unknown_word(source, registry.SHIELD_SOURCES, "shield source")
                if source in ("policies", "advisors", "cards", "others", "opponents"):
                    msg = (f"`from {source}` is not a source a shield knows: other players' cards are "
                           "`from players`")
                self.report(R.UNKNOWN_SHIELD_SOURCE, pos, msg,
                            hint="write `from events`, `from combos` or `from players` (other players' cards), "
                                 "or several: `from events, combos`; without `from` the shield stops all three")
        self.while_cond(d)

    def d_Seal(self, d: ast.Seal) -> None:
        if d.target not in registry.SEALABLE:
            msg, hint = unknown_word(d.target, registry.SEALABLE, "seal target")
            self.report(R.UNKNOWN_SEAL, d.target_pos, msg, hint=hint)
        if d.direction not in registry.SEAL_DIRECTIONS:
            msg, _ = unknown_word(d.direction, registry.SEAL_DIRECTIONS, "border direction")
            self.report(R.UNKNOWN_SEAL_DIRECTION, d.direction_pos, msg,
                        hint="write `seal border` (or `seal border in`) to keep others' contagion out, "
                             "`seal border out` to keep mine in, `seal border both` for both")
        self.while_cond(d)

    def d_Limit(self, d: ast.Limit) -> None:
        if d.track not in registry.TRACKS:
            if d.track in registry.SETTABLE or d.track in registry.HAND_WORDS:
                msg = (f"`{d.which} {d.track}`: only a track can have a {d.which}, and {d.track} is not one "
                       f"(tracks: {', '.join(registry.TRACKS)})")
            else:
                msg, _ = unknown_word(d.track, registry.TRACKS, "track")
            self.report(R.LIMIT_NOT_A_TRACK, d.track_pos, msg,
                        hint=f"`{d.which} TRACK N` holds one of {', '.join(registry.TRACKS)}; to keep money, "
                             "write `shield money`")
        self.while_cond(d)

    def while_cond(self, d: ast.Modify | ast.Shield | ast.Seal | ast.Skip | ast.Limit) -> None:
        """`… while COND`: a true/false condition, within one condition's step budget."""
        if d.cond is None:
            return
        self.steps, self.too_long = 0, None
        self.truth(d.cond, "`while`")
        self.effect_steps(d.pos)

    def d_Modify(self, d: ast.Modify) -> None:
        if d.quantity not in registry.QUANTITIES:
            msg, _ = unknown_word(d.quantity, registry.QUANTITIES, "quantity")
            hint = "quantities: " + ", ".join(registry.QUANTITIES)
            if d.quantity in registry.SETTABLE:
                hint = f"'{d.quantity}' is a track: change it with `{d.quantity} += …` inside a handler"
            self.report(R.UNKNOWN_QUANTITY, d.quantity_pos, msg, hint=hint)
        self.steps, self.too_long = 0, None
        self.number(d.expr, "the amount of `modify`")
        self.effect_steps(d.pos)
        self.while_cond(d)

    # -- statements ----------------------------------------------------------------
    def block(self, body: Sequence[ast.Stmt]) -> None:
        for stmt in body:
            self.stmt(stmt)

    def stmt(self, s: ast.Stmt) -> None:
        """A statement; the values of names it changes in its blocks follow the paths it can take."""
        self.steps += 1
        changed = self.changed(ast.bodies(s))
        if not changed or isinstance(s, (ast.If, ast.Me, ast.TheyChoose)):
            super().stmt(s)             # an `if` joins its branches itself; `me:` runs its block once
            return
        before = self.values_of(changed)
        if isinstance(s, ast.After):
            super().stmt(s)             # the block runs rounds later, on copies of the values of now
            self.set_values(before)
        elif isinstance(s, _MAYBE):
            super().stmt(s)
            after = self.values_of(changed)
            self.set_values({n: hull((before[n], after[n])) for n in changed})
        else:                           # a loop (or any other block): it may run again and again
            self.set_values(dict.fromkeys(changed, ANY))
            super().stmt(s)
            self.set_values(dict.fromkeys(changed, ANY))

    # -- what names hold ---------------------------------------------------------------
    def changed(self, bodies: Sequence[Sequence[ast.Stmt]]) -> list[rs.Binding]:
        """The names in reach that these blocks change (`n += 1`), in a fixed order. A name made inside
        them has no values yet: only the names in reach have."""
        found: dict[rs.Binding, None] = {}
        for body in bodies:
            for st in body:
                for change in [st] if isinstance(st, ast.TrackChange) else st.find_all(ast.TrackChange):
                    binding = self.res.meaning[change].binding
                    if binding is not None and binding in self.ranges:
                        found[binding] = None
        return sorted(found, key=lambda b: b.name)

    def values_of(self, names: Sequence[rs.Binding]) -> dict[rs.Binding, Range]:
        return {b: self.ranges[b] for b in names}

    def set_values(self, values: Mapping[rs.Binding, Range]) -> None:
        self.ranges.update(values)

    def needs_subject(self, s: ast.Node, what: str) -> None:
        if not self.subject:
            self.report(R.NO_PLAYER, s.pos, f"{what} needs a player, but an event has no player here",
                        hint="put it inside `each player:` or `player with …:`")

    def s_TrackChange(self, s: ast.TrackChange) -> None:
        meaning = self.res.meaning[s]
        if meaning.kind == rs.LOCAL:            # a name of the effect's own: `helped += 1`
            binding = meaning.binding
            t = self.types.get(binding) if binding is not None else None
            if t not in (NUM, None):
                self.report(R.NEEDS_NUMBER, s.track_pos, f"'{s.track}' holds {self.describe(t)}, not a number")
            self.number(s.expr, f"the value of `{s.track} {s.op}`")
            if binding is not None:
                self.ranges[binding] = self.changed_to(s, self.ranges.get(binding, ANY)) if t == NUM else ANY
            return
        if meaning.kind == rs.PARAM:
            self.report(R.PARAM_CHANGED, s.track_pos, f"'{s.track}' is a parameter of this card (`params:`): the effect "
                                                      "reads it, but cannot change it",
                        hint=f"copy it into a name of the effect's own (`let n = {s.track}`), or make it a number "
                                     f"the card keeps and changes: `counters: {{{s.track}: {self.params[s.track]}}}`")
            self.number(s.expr, f"the value of `{s.track} {s.op}`")
            return
        if meaning.kind == rs.COUNTER:
            self.number(s.expr, f"the value of `{s.track} {s.op}`")
            return                              # a number the card keeps: `uses_left -= 1`
        self.track_name(s.track, s.track_pos)
        self.needs_subject(s, f"`{s.track} {s.op} …`")
        self.number(s.expr, f"the value of `{s.track} {s.op}`")
        self.track_amount(s)

    def changed_to(self, s: ast.TrackChange, now: Range) -> Range:
        """The values a name of the effect's own holds after `NAME += …`, `-=` or `=`."""
        amount = self.range(s.expr)
        return amount if s.op == "=" else self.ranger().binop(s.op[0], now, amount, s)

    def track_amount(self, s: ast.TrackChange) -> None:
        """RK235: a change larger than the whole track (going below policy's floor overthrows, so it counts)."""
        track = registry.SETTABLE.get(s.track)
        v = self.const(s.expr)
        if track is None or v is None or track.lo is None or track.hi is None:
            return
        lo, hi = track.lo, track.hi
        if s.op == "=":
            beyond = not lo <= v <= hi and not (s.track == "policy" and v < lo)
        else:
            down = (s.op == "-=") == (v > 0)
            beyond = abs(v) > hi - lo and not (s.track == "policy" and down)
        if beyond:
            self.report(R.AMOUNT_OUT_OF_REACH, s.expr.pos,
                        f"{s.track} only goes from {lo:,} to {hi:,}, so `{s.track} {s.op} {v:,}` cannot take effect as written",
                        hint=f"write the change the card means, within {lo:,} to {hi:,}")

    def track_name(self, track: str, pos: ast.Pos) -> None:
        if track in registry.SETTABLE:
            return
        hint = None
        if track in registry.COUNTS:
            msg = f"'{track}' is a board count, not a track"
            hint = "change the board with a verb, such as `cure 1 mild` or `infect 1 healthy`"
        elif track in registry.QUANTITIES:
            msg = f"'{track}' is a quantity, not a track"
            hint = f"write a declaration: `modify {track} by …`"
        else:
            msg, hint = unknown_word(track, registry.SETTABLE, "track")
            if "did you mean" not in msg and self.kind in registry.LASTING_KINDS:
                hint = (hint or "") + ("; " if hint else "") + \
                    f"a number the card keeps needs `counters: {{{track}: 0}}` beside `effect:`"
        self.report(R.UNKNOWN_TRACK, pos, msg, hint=hint)

    def s_Let(self, s: ast.Let) -> None:
        t = self.value(s.expr)
        self.define(s, s.name, t, s.name_pos, self.range(s.expr) if t == NUM else ANY)

    def s_If(self, s: ast.If) -> None:
        before, longest, conditions = self.steps, 0, 0
        changed = self.changed(ast.bodies(s))
        start = self.values_of(changed)
        ends = [] if s.orelse is not None else [start]      # without `else`, no branch may run
        for cond, body in s.branches:
            mark = self.steps
            self.truth(cond, "`if`")
            conditions += self.steps - mark
            self.steps = before
            self.set_values(start)
            self.block(body)
            ends.append(self.values_of(changed))
            longest = max(longest, self.steps - before)
        if s.orelse is not None:
            self.steps = before
            self.set_values(start)
            self.block(s.orelse)
            ends.append(self.values_of(changed))
            longest = max(longest, self.steps - before)
        self.steps = before + conditions + longest      # the conditions, and one branch
        self.set_values({n: hull([end[n] for end in ends]) for n in changed})

    def s_EachPlayer(self, s: ast.EachPlayer) -> None:
        if s.other and not self.subject:
            self.report(R.NO_PLAYER, s.pos, "`each other player` needs a player to be 'other' than, and an event has none here",
                        hint="write `each player:`")
        outer, self.subject = self.subject, True
        if s.where is not None:
            self.truth(s.where, "`where`")
        self.player_block(s.body)
        self.subject = outer

    def player_block(self, body: Sequence[ast.Stmt]) -> None:
        self.players += 1
        self.block(body)
        self.players -= 1

    def s_Me(self, s: ast.Me) -> None:
        if self.kind == "event":
            self.report(R.NO_PLAYER, s.pos, "`me:` means the card's owner, and an event has none",
                        hint="an event reaches players through `each player:` or `player with …:`")
        outer, self.subject = self.subject, True
        self.player_block(s.body)
        self.subject = outer

    def s_SeatPlayer(self, s: ast.SeatPlayer) -> None:
        """`player after me:` / `player before me:` / `first player:` (5.34): a word it takes, and an owner to be after."""
        ring = s.which in ("after", "before")
        if s.form == "ring" and not ring:
            hint = (f"write `{s.which} player:`" if s.which in registry.SEATS
                    else "write `player after me:` or `player before me:`")
            if s.which in registry.SEATS:
                msg = f"the {s.which} player is written `{s.which} player:`, not `player {s.which} me:`"
            else:
                msg, _ = unknown_word(s.which, {k: registry.SEATS[k] for k in ("after", "before")}, "place in turn order")
            self.report(R.SEAT_WORD, s.which_pos, msg, hint=hint)
        elif s.form == "first" and s.which == "that":
            h = self.handler
            if h is None or h.event not in registry.OTHER_TRIGGERS or h.form == "react":
                self.report(R.OTHER_MOMENT, s.which_pos, "`that player:` is the player whose moment a `when other …` "
                            "hears, and this is no such handler",
                            hint="write it under `when other unsold:`, `when other cure:` or `when other play:`")
            elif self.in_after:
                self.report(R.OTHER_MOMENT, s.which_pos, "`that player:` inside `after` comes rounds later, when the "
                            "moment is over", hint="put `that player:` directly in the handler")
        elif s.form == "first" and s.which != "first":
            if s.which in registry.SEATS:
                msg, hint = f"the player {s.which} me is written `player {s.which} me:`", f"write `player {s.which} me:`"
            else:
                msg, _ = unknown_word(s.which, {k: registry.SEATS[k] for k in ("first", "that")}, "place in turn order")
                hint = "write `first player:`, `player after me:`, `player before me:` or (in `when other …`) `that player:`"
            self.report(R.SEAT_WORD, s.which_pos, msg, hint=hint)
        elif ring and self.kind == "event":
            self.report(R.SEAT_WORD, s.pos, f"`player {s.which} me:` needs the card's owner, and an event has none",
                        hint="an event can name `first player:`, or reach players through `each player:`")
        outer, self.subject = self.subject, True
        self.player_block(s.body)
        self.subject = outer

    def s_TheyChoose(self, s: ast.TheyChoose) -> None:
        """`they choose:` — only inside another player's block of a card with an owner does it change who decides."""
        if self.kind == "event":
            self.report(R.THEY_CHOOSE, s.pos, "`they choose:` changes nothing in an event: an event has no owner, "
                        "so each player already makes the choices in their own block",
                        hint="remove `they choose:` and keep its block")
        elif not self.players:
            self.report(R.THEY_CHOOSE, s.pos, "`they choose:` changes nothing here: outside a player block the "
                        "subject is the card's owner, who makes the choices anyway",
                        hint="put it inside `choose other player:`, `each other player:` or `player with …:`")
        self.block(s.body)

    def s_ChoosePlayer(self, s: ast.ChoosePlayer) -> None:
        self.needs_subject(s, "`choose player`")
        outer, self.subject = self.subject, True
        mark = self.steps
        if s.where is not None:
            self.truth(s.where, "`where`")
        self.per_player(s.pos, mark)
        self.player_block(s.body)
        self.subject = outer

    def s_Tag(self, s: ast.Tag) -> None:
        """`tag it TAG` / `untag it TAG`: a tag of the registry, on a cell `it`."""
        if s.verb not in registry.TAG_VERBS:
            guess = nearest(s.verb, list(registry.TAG_VERBS))
            msg = (f"unknown verb '{s.verb}' — did you mean '{guess}'?" if guess else
                   f"`{s.verb} it {s.tag}`: only `tag it` and `untag it` take a word after `it`")
            self.report(R.CELL_TAG, s.verb_pos, msg, hint="write `tag it sheltered` or `untag it sheltered`; other "
                                                        "verbs take `it` alone (`cure it`)")
            return
        if s.tag not in registry.CELL_TAGS:
            msg, hint = unknown_word(s.tag, registry.CELL_TAGS, "tag")
            self.report(R.CELL_TAG, s.tag_pos, msg, hint=hint)
        it_type = self.it_type(s.pos)
        if it_type is not None and it_type != CELL:
            self.report(R.CELL_TAG, s.pos, f"`{s.verb} it` needs `it` to be a cell, but here it is a card",
                        hint="`it` is a cell in `choose cell:`, `when reveal…`, `when death…` and `when cure`")

    def s_ChooseCell(self, s: ast.ChooseCell) -> None:
        if s.word != "cell":
            guess = nearest(s.word, ["cell"])
            msg = (f"`choose {s.word}:` — did you mean `choose cell`?" if guess else
                   f"`choose {s.word}:` chooses nothing the language knows")
            self.report(R.CHOOSE_CELL, s.word_pos, msg,
                        hint="write `choose cell:` or `choose cell with mild:` (a cell), `choose player:` (a player), "
                             "or `choose NAME from 1 to 3` (a number)")
        elif s.kind is not None and s.kind not in registry.KINDS:
            msg, hint = unknown_word(s.kind, registry.KINDS, "kind of resident")
            self.report(R.CHOOSE_CELL, s.kind_pos, msg.replace("unknown kind", "`choose cell with`: unknown kind"),
                        hint=hint)
        self.needs_subject(s, "`choose cell`")
        # Reported once: the block's statements act on the chosen cell's board, so they are not named again.
        outer, self.subject = self.subject, True
        self.chosen.append((self.afters, s.kind if s.kind in registry.KINDS else None, s.pos))
        self.block(s.body)
        self.chosen.pop()
        self.subject = outer

    def s_Transfer(self, s: ast.Transfer) -> None:
        if not self.players:
            self.report(R.TRANSFER_OUTSIDE_PLAYER_BLOCK, s.verb_pos,
                        f"`{s.direction}` moves things between two players, and here there is only one",
                        hint="put it inside `choose other player:`, `each other player:` or `player with …:`")
        if s.what not in registry.SETTABLE and s.what not in registry.HAND_WORDS and s.what not in registry.KINDS:
            table = {**registry.SETTABLE, "cards": registry.Word("cards", "手牌", "hand cards"), **registry.KINDS}
            msg, _ = unknown_word(s.what, table, f"thing to {s.direction}")
            self.report(R.TRANSFER_OR_UNIT_WORD, s.what_pos, msg, hint="a track, money, cards, or a kind of resident")
        if s.amount.mode in ("any", "up_to"):
            self.report(R.TRANSFER_OR_UNIT_WORD, s.amount.pos, f"`{s.direction}` already moves up to its amount",
                        hint=f"write `{s.direction} 2 {s.what}` or `{s.direction} all {s.what}`")
        if s.amount.expr is not None:
            self.number(s.amount.expr, f"the amount of `{s.direction}`")
        if s.as_name is not None:
            self.define(s, s.as_name, NUM, s.as_pos, (0, None))

    def s_Discard(self, s: ast.Discard) -> None:
        self.needs_subject(s, "`discard`")
        if s.amount.expr is not None:
            self.number(s.amount.expr, "the number of cards to discard")
        if s.as_name is not None:
            self.define(s, s.as_name, NUM, s.as_pos, (0, None))

    def s_MayDiscard(self, s: ast.MayDiscard) -> None:
        if s.verb != "discard":
            msg, _ = unknown_word(s.verb, {"discard": registry.STATEMENTS["discard"]}, "cost after `may`")
            self.report(R.UNKNOWN_VERB, s.verb_pos, msg, hint="write `may pay N:` or `may discard N cards:`")
        elif s.what not in registry.HAND_WORDS:
            self.report(R.TRANSFER_OR_UNIT_WORD, s.what_pos, f"`may discard` takes cards, not '{s.what}'",
                        hint="write `may discard 2 cards:`")
        self.needs_subject(s, "`may discard`")
        self.number(s.amount, "the number of cards to discard")
        self.block(s.body)

    def s_After(self, s: ast.After) -> None:
        self.needs_subject(s, "`after`")
        if s.unit not in ("rounds", "round"):
            self.report(R.TRANSFER_OR_UNIT_WORD, s.unit_pos, f"`after {show(s.count)} {s.unit}`: the time is counted in rounds",
                        hint=f"write `after {show(s.count)} rounds:`")
        self.number(s.count, "`after`")
        n = self.const(s.count)
        if n is not None and n < 1:
            self.report(R.EMPTY_CHOICE, s.count.pos, f"`after {n} rounds` never comes: the block runs at the start of a "
                                                     "later round", hint="write `after 1 rounds:` or more")
        outer, self.in_after = self.in_after, True
        self.afters += 1
        self.block(s.body)
        self.afters -= 1
        self.in_after = outer

    def s_PlayerWith(self, s: ast.PlayerWith) -> None:
        if s.which not in registry.SUPERLATIVES:
            guess = nearest(s.which, sorted(registry.SUPERLATIVES))
            extra = f" — did you mean '{guess}'{zh(registry.SUPERLATIVES, guess)}?" if guess else ""
            self.report(R.UNKNOWN_SUPERLATIVE, s.which_pos, f"unknown word '{s.which}' after `player with`{extra}",
                        hint="write `player with highest …`, `lowest`, `most` or `fewest`")
        outer, self.subject = self.subject, True
        mark = self.steps
        self.number(s.expr, f"`player with {s.which}`")
        self.per_player(s.pos, mark)
        self.player_block(s.body)
        self.subject = outer

    def s_Repeat(self, s: ast.Repeat) -> None:
        self.number(s.count, "`repeat`")
        n = self.const(s.count)
        if n is not None and n > registry.MAX_REPEAT:
            self.report(R.REPEAT_TOO_MANY, s.count.pos, f"`repeat {n:,}` is more than the limit of {registry.MAX_REPEAT}",
                        hint="a card repeating this often would stall the game; use a smaller number")
        before = self.steps
        self.block(s.body)
        # A count known from the text multiplies the block; any other count is taken as once.
        times = min(n, registry.MAX_REPEAT) if n is not None and n > 0 else 1
        self.steps = before + (self.steps - before) * times
        self.counted(s.pos, before - 1)

    def s_Choose(self, s: ast.Choose) -> None:
        self.needs_subject(s, f"`choose {s.name}`")
        self.number(s.lo, "the start of `choose`")
        self.number(s.hi, "the end of `choose`")
        lo, hi = self.const(s.lo), self.const(s.hi)
        if lo is not None and hi is not None and lo > hi:
            self.report(R.EMPTY_CHOICE, span(s.lo.pos, s.hi.pos), f"`choose {s.name} from {lo} to {hi}` leaves nothing to choose",
                        hint="the first number must not be larger than the second")
        for end in (s.lo, s.hi):
            v = self.const(end)
            if v is not None and abs(v) > LARGEST_AMOUNT:
                self.report(R.AMOUNT_OUT_OF_REACH, end.pos, f"`choose {s.name}` reaches {v:,}, but nothing in the game goes "
                            f"beyond {LARGEST_AMOUNT:,} (money's ceiling)",
                            hint="choose within what the card needs, such as `from 0 to money`")
        self.define(s, s.name, NUM, s.name_pos, (self.range(s.lo)[0], self.range(s.hi)[1]))

    def payable(self, amount: ast.Expr, what: str) -> None:
        v, most = self.const(amount), registry.MONEY.hi
        if v is not None and most is not None and v > most:
            self.report(R.AMOUNT_OUT_OF_REACH, amount.pos, f"{what} {v:,}: money never goes above {most:,}, "
                        "so this can never be paid in full", hint=f"use an amount of at most {most:,}")

    def s_May(self, s: ast.May) -> None:
        self.needs_subject(s, "`may`")
        self.block(s.body)

    def s_MayPay(self, s: ast.MayPay) -> None:
        self.needs_subject(s, "`may pay`")
        self.number(s.amount, "`may pay`")
        self.payable(s.amount, "`may pay`")
        self.block(s.body)

    def s_Spend(self, s: ast.Spend) -> None:
        self.needs_subject(s, "`spend`")
        self.number(s.amount, "`spend`")
        self.payable(s.amount, "`spend`")

    def s_Pay(self, s: ast.Pay) -> None:
        self.needs_subject(s, "`pay`")
        self.number(s.amount, "`pay`")
        self.payable(s.amount, "`pay`")
        if s.as_name is not None:
            self.define(s, s.as_name, NUM, s.as_pos, (0, self.range(s.amount)[1]))

    def s_VerbStmt(self, s: ast.VerbStmt) -> None:
        if s.near is not None and (s.verb not in registry.VERBS or s.verb == "move"):
            self.next_to(s)
            return
        if s.verb in registry.EVENT_VERBS or (s.verb == "arrange" and s.kind == registry.EVENTS_WORD):
            self.event_deck(s)
            return
        self.needs_subject(s, f"`{s.verb}`")
        if s.amount.expr is not None:
            self.number(s.amount.expr, f"the amount of `{s.verb}`")
        if s.verb in registry.VERBS:
            self.board_kind(s)
        elif s.verb in registry.TILE_VERBS:
            if s.kind != "tiles":
                self.report(R.VERB_WRONG_KIND, s.kind_pos, f"`{s.verb}` works on tiles, not '{s.kind}'",
                            hint=f"write `{s.verb} N tiles`")
            if s.verb == "arrange" and s.amount.mode != "n":
                self.report(R.VERB_WRONG_KIND, s.amount.pos, "`arrange` needs a number of tiles",
                            hint="write `arrange N tiles`, e.g. `arrange 10 tiles`")
        elif s.verb == "discard":
            self.report(R.VERB_WRONG_KIND, s.kind_pos, f"`discard` takes cards from the hand, not '{s.kind}'",
                        hint="write `discard 1 cards`, or `discard it` for the card of an `unsold` trigger")
        else:
            self.unknown_verb(s.verb, s.verb_pos)
        if s.near is not None:
            self.next_to(s)
        if s.as_name is not None:
            self.define(s, s.as_name, NUM, s.as_pos, (0, None))

    def event_deck(self, s: ast.VerbStmt) -> None:
        """`arrange N events`, `foresee N events` (the subject looks at the next N), `reshuffle AMOUNT events`."""
        verb, amount = s.verb, s.amount
        if s.kind != registry.EVENTS_WORD:
            self.report(R.VERB_WRONG_KIND, s.kind_pos, f"`{verb}` works on the event deck, not '{s.kind}'",
                        hint=f"write `{verb} 2 events`")
        if verb == "reshuffle":
            if amount.mode not in ("n", "all"):
                self.report(R.VERB_WRONG_KIND, amount.pos, "`reshuffle` takes a number of past events, or `all`",
                            hint="write `reshuffle 2 events` or `reshuffle all events`")
            elif amount.expr is not None:
                self.number(amount.expr, "the amount of `reshuffle`")
        else:
            self.needs_subject(s, f"`{verb} … events`")
            if amount.mode != "n" or amount.expr is None:
                self.report(R.VERB_WRONG_KIND, amount.pos, f"`{verb}` needs a number of events",
                            hint=f"write `{verb} 3 events`")
            else:
                self.number(amount.expr, f"the amount of `{verb}`")
                self.within(amount.expr, 0, registry.MAX_FORESEE, "the events one look may see",
                            f"{verb} {{}} events", R.FORESEE_LIMIT)
        if s.as_name is not None:
            self.define(s, s.as_name, NUM, s.as_pos, (0, None))

    def next_to(self, s: ast.VerbStmt) -> None:
        """`VERB AMOUNT KIND next to KIND2` / `… next to it`: a board verb, and a kind or a cell `it`."""
        if s.verb not in registry.VERBS or s.verb == "move":
            self.report(R.NEXT_TO, s.next_pos, f"`next to` picks residents for a board verb, not for `{s.verb}`",
                        hint="`next to` goes with " + ", ".join(v for v in registry.VERBS if v != "move"))
            return
        self.near(s.near, s.near_pos)

    def board_kind(self, s: ast.VerbStmt) -> None:
        verb = registry.VERBS[s.verb]
        if s.kind in verb.kinds:
            return
        takes = ", ".join(verb.kinds)
        if s.kind == "tiles":
            self.report(R.VERB_WRONG_KIND, s.kind_pos, f"`{s.verb}` works on residents, not tiles",
                        hint=f"`{s.verb}` takes: {takes}; to reveal tiles write `reveal N tiles`")
        elif s.kind in registry.KINDS:
            self.report(R.VERB_WRONG_KIND, s.kind_pos, f"`{s.verb}` cannot take '{s.kind}': {s.verb} is {verb.doc}",
                        hint=f"`{s.verb}` takes: {takes}")
        else:
            msg, hint = unknown_word(s.kind, registry.KINDS, "kind of resident")
            self.report(R.UNKNOWN_KIND, s.kind_pos, msg, hint=hint)

    def unknown_verb(self, verb: str, pos: ast.Pos) -> None:
        table = {**registry.VERBS, **registry.TILE_VERBS, **registry.IT_ONLY_VERBS, **registry.TRANSFERS,
                 **registry.EVENT_VERBS}
        msg, hint = unknown_word(verb, table, "verb")
        self.report(R.UNKNOWN_VERB, pos, msg, hint=hint)

    def s_VerbIt(self, s: ast.VerbIt) -> None:
        self.needs_subject(s, f"`{s.verb} it`")
        if s.verb not in registry.IT_VERBS:
            if s.verb in registry.TILE_VERBS:
                self.report(R.VERB_WRONG_KIND, s.verb_pos, f"`{s.verb}` takes a number of tiles, not `it`",
                            hint=f"write `{s.verb} N tiles`")
            elif s.verb in registry.TRANSFERS:
                card = self.handler is not None and self.handler.event == "unsold"
                self.report(R.VERB_WRONG_KIND, s.verb_pos, f"`{s.verb}` moves an amount between players, not `it`" +
                            (": the card `it` is still in your hand" if card else ""),
                            hint=f"write `{s.verb} 1 card` (or `{s.verb} 2 money`) inside a player block such as "
                                 "`choose other player:`" + ("; to let the card go, write `discard it`" if card else ""))
            elif s.verb in registry.VERBS:
                self.report(R.VERB_WRONG_KIND, s.verb_pos, f"`{s.verb}` takes an amount and a kind of resident, not `it`",
                            hint=f"write `{s.verb} 1 mild`: the subject picks which resident and where it goes")
            else:
                self.unknown_verb(s.verb, s.verb_pos)
            return
        it_type = self.it_type(s.pos)
        if it_type is None:
            return
        h = self.handler
        if s.verb == "discard" and h is not None and h.event in registry.OTHER_TRIGGERS:
            self.report(R.OTHER_MOMENT, s.pos, f"`discard it` in `when {h.event}`: the card is in another player's hand, "
                        "and you can discard only your own", hint="act on the player whose card it is with `that player:` (5.35)")
            return
        takes = registry.IT_VERBS[s.verb]
        if it_type not in takes:
            trig = self.handler.event if self.handler else ""
            where = "`choose cell`" if self.chosen and self.chosen[-1][0] == self.afters else f"{a_word(trig)} handler"
            self.report(R.IT_WRONG_TYPE, s.pos,
                        f"`{s.verb}` takes {_IT_WORDS[takes[0]]}, but `it` in {where} is {_IT_WORDS[it_type]}")
            return
        self.it_never_changes(s)

    def it_never_changes(self, s: ast.VerbIt) -> None:
        """RK230, while what `it` holds is known: once a verb has acted on `it` earlier in its block (`treat it`
        then `cure it`), its resident may be another state, and nothing is said."""
        if self.chosen and self.chosen[-1][0] == self.afters:
            kind = self.chosen[-1][1]
            states = registry.KIND_STATES[kind] if kind is not None else None
            scope: object = ("cell", self.chosen[-1][2])
        else:
            states = _TRIGGER_STATES.get(self.handler.event if self.handler else "")
            scope = ("handler", self.handler.pos if self.handler else None)
        acted = scope in self.it_acted
        self.it_acted.add(scope)
        if acted:
            return
        verb = registry.VERBS.get(s.verb)
        if not states or verb is None:
            return
        covers = {st for k in verb.kinds for st in registry.KIND_STATES[k]}
        if not covers & set(states):
            hint = ("its resident is still alive while its death is decided: write `prevent` to keep it alive"
                    if s.verb == "revive" and self.handler is not None and self.handler.event.startswith("death") else None)
            self.report(R.IT_NEVER_CHANGES, s.pos, f"`{s.verb} it` never does anything here: `it` is a {'/'.join(states)} cell, "
                                                   f"and {s.verb} is {verb.doc}", hint=hint)

    def s_Draw(self, s: ast.Draw) -> None:
        self.needs_subject(s, "`draw`")
        self.number(s.count, "the number of cards to draw")
        self.number(s.stage, "the stage to draw from")
        self.stage_number(s.stage, "draw … from stage {}")
        n = self.const(s.count)
        if n is not None and n > 0:
            self.steps += n               # a step for each card drawn
            self.counted(s.pos, self.steps - n - 1)
        if s.keep is None:
            return
        self.number(s.keep, "`keep`")
        keep = self.const(s.keep)
        if n is not None and keep is not None and keep > n:
            self.report(R.KEEP_MORE_THAN_DRAWN, s.keep.pos,
                        f"`keep {keep}` is more than the {n} card{'s' if n != 1 else ''} drawn", hint=f"keep at most {n}")

    def s_Draft(self, s: ast.Draft) -> None:
        """`draft N from stage K`: a number of cards, a stage; once for the table, so not inside a player block."""
        self.number(s.count, "the number of cards to lay out")
        self.number(s.stage, "the stage to draft from")
        self.stage_number(s.stage, "draft … from stage {}")
        n = self.const(s.count)
        if n is not None and n > 0:
            self.steps += n               # a step for each card laid out
            self.counted(s.pos, self.steps - n - 1)
        if self.players:
            self.report(R.DRAFT_IN_PLAYER_BLOCK, s.pos, "`draft` inside a player block lays out cards once for each "
                        "player the block visits, and each time every player takes one",
                        hint="write `draft` outside the block: one draft lets every player take a card in turn order")

    def s_Unlock(self, s: ast.Unlock) -> None:
        self.needs_subject(s, "`unlock`")
        self.number(s.stage, "`unlock stage`")
        self.stage_number(s.stage, "unlock stage {}")

    def s_Mark(self, s: ast.Mark) -> None:
        if self.kind != "event":
            self.report(R.MARK_MISUSED, s.pos, f"`mark` leaves an event's mark on players, and this is "
                        f"{_KIND_ARTICLE[self.kind]}", hint="a policy or advisor that lasts is already in play: give it "
                        "`on PHASE start:` handlers or declarations; or keep a number on it with `counters:`")
            return
        if self.handler is not None and not (self.handler.form == "on" and self.handler.event == "resolve"):
            self.report(R.MARK_MISUSED, s.pos, "`mark` goes in the event's `on resolve:`, when the event happens",
                        hint="its `on PHASE start|end` handlers run for the players who carry the mark already")
            return
        self.needs_subject(s, "`mark`")
        if s.amount is not None:
            self.number(s.amount, "`mark`")
            n = self.const(s.amount)
            if n is not None and n < 1:
                self.report(R.MARK_MISUSED, s.amount.pos, f"`mark {n}` leaves no mark: the number of stacks is 1 or more",
                            hint="write `mark` for one stack, `mark 2` for two")

    def s_Prevent(self, s: ast.Prevent) -> None:
        if self.in_after:
            self.report(R.IT_OR_PREVENT_IN_AFTER, s.pos, "`prevent` inside `after` comes rounds too late: what it would "
                        "cancel has already happened", hint="put `prevent` directly in the handler")
            return
        h = self.handler
        if h is not None and h.form != "on" and h.event not in registry.TRIGGERS:
            return          # the unknown trigger is reported already
        trig = registry.TRIGGERS.get(h.event) if h and h.form != "on" else None
        if trig is None or not trig.preventable:
            self.report(R.PREVENT_OUTSIDE_HANDLER, s.pos, "`prevent` only works in a `death`, `overthrown` or `event` handler",
                        hint="write it under `when death:`, `once when overthrown:` or `when event:`")

    # -- names made ---------------------------------------------------------------------
    def define(self, s: ast.Node, name: str, t: str | None, pos: ast.Pos, values: Range = ANY) -> None:
        """A `let`, `choose` or `as`: the type and values of the name it makes, or why it makes none."""
        binding = self.res.binding(s)
        if binding is not None:
            self.types[binding] = t
            self.ranges[binding] = values
            return
        refusal = self.res.refused.get(s)
        if refusal is None:
            return
        if refusal.reason == rs.RESERVED_WORD:
            self.report(R.RESERVED_NAME, pos, f"'{name}' cannot be a name: it is {rs.RESERVED[name]}",
                        hint="choose another name, such as 'n' or 'paid'")
        elif refusal.reason == rs.COUNTER_NAME:
            self.report(R.NAME_DEFINED_TWICE, pos, f"'{name}' is already a number this card keeps (`counters:`)",
                        hint="change it with `" + name + " += …`, or use another name")
        elif refusal.reason == rs.PARAM_NAME:
            self.report(R.NAME_DEFINED_TWICE, pos, f"'{name}' is already a parameter of this card (`params:`)",
                        hint=f"read `{name}` as it is, or use another name")
        elif refusal.first is not None:
            first = refusal.first
            self.report(R.NAME_DEFINED_TWICE, pos, f"'{name}' is already defined by `{first.form}` on line "
                        f"{first.pos.line}", hint="use another name")
