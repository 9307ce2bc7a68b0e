"""The one vocabulary of the game: every word the language, the checker, the engine and the docs know.

Each entry carries its Chinese name and a one-line explanation, so the checker's messages,
the interpreter and `docs/language.md` are all fed from here and cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Word:
    """One word of the vocabulary."""

    name: str
    zh: str
    doc: str


@dataclass(frozen=True)
class Track(Word):
    lo: int | None
    hi: int | None
    start: int


@dataclass(frozen=True)
class Verb(Word):
    kinds: tuple[str, ...]     # the kinds of resident it can take
    target: str                # the state a cell ends in ('empty' for remove)


@dataclass(frozen=True)
class Trigger(Word):
    binds: str | None          # the type of `it` in its handler: 'cell', 'card' or None
    preventable: bool = False


@dataclass(frozen=True)
class Quantity(Word):
    default: str               # how the base value is found, in words (as code: rulekit/core/quantities.py)
    signed: bool = False       # may go below 0 (the 0 floor of rules.md 3.5 does not apply)


@dataclass(frozen=True)
class CellTag(Word):
    infects: bool              # its resident infects its healthy neighbours in the contagion step
    worsens: bool              # its mild case worsens, its severe case dies, in the spread


@dataclass(frozen=True)
class Predicate(Word):
    arg: str                   # 'card', 'event' or 'number'


def _index(*words):
    return {w.name: w for w in words}


TRACKS: dict[str, Track] = _index(
    Track("medical", "医疗", "medical capacity; treatment spends it", 0, 15, 5),
    Track("disease", "疾病", "the plague's threat; drives contagion, deaths and worsening", 0, 20, 10),
    Track("policy", "政策", "the government's standing; below -10 the player is overthrown", -10, 10, 0),
    Track("score", "计分", "victory points", -9999, 9999, 0),
    Track("economy", "经济", "income per round", 0, 10, 0),
)

MONEY = Track("money", "金钱", "money in the bank (银行); never below 0", 0, 9999, 0)
# Everything a track statement (`TRACK += EXPR`) may change.
SETTABLE: dict[str, Track] = {**TRACKS, "money": MONEY}

# Every parameter of the rules (docs/rules.md, where each rules.yaml key is explained) with its default: the one
# copy, read by the loader (content/rules.yaml merged over it) and by the core's typed Rules.
DEFAULT_RULES: dict[str, Any] = {
    "players": 4,
    "tiles": {"infected_per_player": 5, "shuffle": "global"},
    "hand_limit": None,
    "setup": {"reveal": "corner_diagonal"},
    "first_player": "rotate",
    "unlock": {"stage2": "infected > 12", "stage3": "severe + dead > 12 and unlocked(2)"},
    "treatment": {"mild_cost": 2, "severe_cost": 3},
    "discovery": {"per_round": 2},
    "exchange": {"auction": "sealed"},
    "combos": {"repeat": "once"},
    "max_rounds": 14,
    "actions": {"max_per_phase": 50},
    "out_players_can_win": False,
    # Not params of rules.md, but content/rules.yaml may restate them: the registry's ranges.
    "tracks": {t.name: {"min": t.lo, "max": t.hi, "start": t.start} for t in TRACKS.values()},
    "money": {"start": MONEY.start},
}
ADVISORS_DEALT = 2          # the advisor draft: each player is dealt 2 advisors and keeps 1

# Board counts, on the subject's board.
COUNTS: dict[str, Word] = _index(
    Word("healthy", "健康人", "revealed healthy residents"),
    Word("mild", "轻症", "mild cases"),
    Word("severe", "重症", "severe cases"),
    Word("dead", "死者", "dead residents"),
    Word("infected", "感染者", "mild + severe"),
    Word("alive", "活人", "healthy + mild + severe"),
    Word("resident", "居民", "alive + dead"),
    Word("tiles", "地块", "face-down tiles left"),
)

# Other names an expression can read.
VALUES: dict[str, Word] = _index(
    Word("revealed", "已翻开", "true when the subject's board has no face-down tile"),
    Word("hand", "手牌", "cards in the subject's hand"),
    Word("round", "回合", "the round number"),
    Word("players", "玩家数", "players still in the game"),
    Word("uses", "执行次数", "times this policy has been executed (policies only)"),
    Word("turn", "顺位", "the subject's place in this round's turn order among the players still in (1 = first player)"),
    Word("marks", "标记层数", "the subject's stacks of this event's mark (events that `mark` only)"),
)

# `player after me:`, `player before me:`, `first player:` — one player by place in this round's turn order
# (the players still in, from the round's first player round the ring; docs/language.md 5.34).
SEATS: dict[str, Word] = _index(
    Word("after", "下家", "player after me: — the next player still in after the card's owner, round the ring"),
    Word("before", "上家", "player before me: — the player still in just before the card's owner, round the ring"),
    Word("first", "先手玩家", "first player: — the first player still in of this round's turn order"),
    Word("that", "那名玩家", "that player: — in `when other …`, the player whose moment it is (5.35)"),
)

# Kinds of resident a board verb takes (`VERB AMOUNT KIND`).
KINDS: dict[str, Word] = _index(
    Word("healthy", "健康人", "a healthy resident"),
    Word("mild", "轻症", "a mild case"),
    Word("severe", "重症", "a severe case"),
    Word("dead", "死者", "a dead resident"),
    Word("infected", "感染者", "a mild or severe case"),
    Word("alive", "活人", "a healthy, mild or severe resident"),
    Word("resident", "居民", "any resident, alive or dead"),
)

# Which cell states each kind covers.
KIND_STATES: dict[str, tuple[str, ...]] = {
    "healthy": ("healthy",),
    "mild": ("mild",),
    "severe": ("severe",),
    "dead": ("dead",),
    "infected": ("mild", "severe"),
    "alive": ("healthy", "mild", "severe"),
    "resident": ("healthy", "mild", "severe", "dead"),
}

VERBS: dict[str, Verb] = _index(
    Verb("cure", "治愈", "mild → healthy (scores +1 like treatment)", ("mild",), "healthy"),
    Verb("treat", "治疗", "severe → mild", ("severe",), "mild"),
    Verb("infect", "感染", "healthy → mild", ("healthy",), "mild"),
    Verb("worsen", "恶化", "mild → severe", ("mild",), "severe"),
    Verb("kill", "杀死", "a living resident → dead (scores -1)",
         ("healthy", "mild", "severe", "infected", "alive"), "dead"),
    Verb("remove", "移除", "take a resident off the board; the cell becomes empty (not a death)",
         ("healthy", "mild", "severe", "dead", "infected", "alive", "resident"), "empty"),
    Verb("revive", "复活", "a dead resident → healthy (scores nothing: the death's -1 stays)", ("dead",), "healthy"),
    Verb("move", "迁移", "move a resident to an empty cell of the same board (the subject picks which and where)",
         ("healthy", "mild", "severe", "dead", "infected", "alive", "resident"), "moved"),
)

# Tags kept on a cell (`tag it TAG`), each with a fixed meaning the spread phase respects. A tag stays
# while its cell's resident stays as it is: any change of the cell (cured, treated, worsened, dead, moved away,
# removed) takes it off, and so does `untag it TAG`. A cell holds at most one tag; only a living resident
# takes one.
CELL_TAGS: dict[str, CellTag] = _index(
    CellTag("sheltered", "庇护", "infects no neighbour in the contagion step, and in the spread neither worsens (a mild "
                              "case) nor dies (a severe one)", infects=False, worsens=False),
)
# The statements that put a tag on the cell `it` and take it off.
TAG_VERBS = ("tag", "untag")

# Verbs of the form `VERB AMOUNT tiles`.
TILE_VERBS: dict[str, Word] = _index(
    Word("reveal", "翻开", "reveal face-down tiles of my board, each next to a revealed cell"),
    Word("arrange", "布置", "look at the fronts of N random tiles of mine and place them (规划专家); `arrange N events`: "
                           "look at the next N events and put them back in the order I choose"),
)

# Statements on the event deck, `VERB AMOUNT events` (`arrange N events` is the tile verb's other form).
EVENT_VERBS: dict[str, Word] = _index(
    Word("foresee", "预见", "foresee N events: look at the next N events of the deck (only I see them), leaving their order"),
    Word("reshuffle", "洗回", "reshuffle AMOUNT events: the AMOUNT most recent past events go back into the event deck, "
                             "and the deck is shuffled"),
)
EVENTS_WORD = "events"        # the `KIND` of an event-deck statement

# Verbs that only take `it`.
IT_ONLY_VERBS: dict[str, Word] = _index(
    Word("discard", "弃置", "discard it — put the card `it` (an unsold offer) on its stage's discard pile"),
)

# Verbs of the form `VERB it`, with the type of `it` they take (`move it` needs a place to go: not one).
IT_VERBS: dict[str, tuple[str, ...]] = {
    **{name: ("cell",) for name in VERBS if name != "move"},
    "discard": ("card",),
}

# `take AMOUNT WHAT` and `give AMOUNT WHAT`, inside a player block: between that player and the
# enclosing subject. WHAT is a track, money, cards, or a kind of resident (moved to an empty cell, keeping its state).
TRANSFERS: dict[str, Word] = _index(
    Word("take", "拿取", "move up to AMOUNT from the block's player to the enclosing subject (cards: at random; "
                         "residents: to empty cells, the card's owner picks)"),
    Word("give", "给予", "move up to AMOUNT from the enclosing subject to the block's player (cards: the giver picks; "
                         "residents: to empty cells, the card's owner picks)"),
)
HAND_WORDS = ("cards", "card")        # `discard 2 cards`, `take 1 card`

TRIGGERS: dict[str, Trigger] = _index(
    Trigger("reveal", "翻开", "a tile of mine is revealed; `it` is that cell", "cell"),
    Trigger("reveal mild", "翻开轻症", "a tile of mine is revealed as mild; `it` is that cell", "cell"),
    Trigger("reveal healthy", "翻开健康人", "a tile of mine is revealed as healthy; `it` is that cell", "cell"),
    Trigger("death", "死亡", "a resident of mine is about to die; `it` is that cell", "cell", True),
    Trigger("death healthy", "健康人死亡", "a healthy resident of mine is about to die; `it` is that cell", "cell", True),
    Trigger("death mild", "轻症死亡", "a mild case of mine is about to die; `it` is that cell", "cell", True),
    Trigger("death severe", "重症死亡", "a severe case of mine is about to die; `it` is that cell", "cell", True),
    Trigger("cure", "治愈", "a mild resident of mine became healthy (treatment or an effect); `it` is that cell", "cell"),
    Trigger("event", "事件", "an event is about to resolve; `it` is the event; `prevent` makes it skip me", "card", True),
    Trigger("play", "打出", "I play a policy from my hand (also as a reaction), before it enters my tableau; `it` is that card",
            "card"),
    Trigger("overthrown", "被推翻", "I am about to be overthrown", None, True),
    Trigger("unsold", "流拍", "my exchange offer got no bid; `it` is that card", "card"),
    Trigger("other unsold", "他人流拍", "another player's exchange offer got no bid; `it` is that card (in their hand)",
            "card"),
    Trigger("other cure", "他人治愈", "a mild resident of another player became healthy; `it` is that cell (on their "
                                     "board)", "cell"),
    Trigger("other play", "他人打出", "another player plays a policy from their hand, before it enters their tableau; "
                                     "`it` is that card", "card"),
)
# `when other …`: the moments of another player a card can hear (docs/language.md 5.35), after that player's own
# handlers and reactions, in this round's turn order; `that player:` is the player whose moment it is.
OTHER_TRIGGERS = tuple(w for w in TRIGGERS if w.startswith("other "))

PHASES: dict[str, Word] = _index(
    Word("round", "回合", "the whole round (start: before income; end: after the event phase)"),
    Word("income", "获得资金", "phase 1, income"),
    Word("reserve", "储备政策", "phase 2, drawing policies"),
    Word("actions", "执行行动", "phase 3, actions"),
    Word("treatment", "治疗疾病", "phase 4, treatment"),
    Word("spread", "瘟疫传播", "phase 5, the plague spreads"),
    Word("exchange", "公务交流", "phase 6, the auction"),
    Word("event", "全局事件", "phase 7, the global event"),
)
PHASE_ORDER = ("income", "reserve", "actions", "treatment", "spread", "exchange", "event")
SPREAD_STEPS = ("discovery", "contagion", "dead_contagion", "deaths", "worsening")
# `on game end:` — once, when the game is over, before final scoring.
GAME_END = Word("game end", "游戏结束", "the game is over; runs before final scoring, for each player still in")
# `react PHASE start:` / `react PHASE end:` — moments a card in hand may be played at.
REACT_MOMENTS: dict[str, Word] = {f"{p} {edge}": Word(f"{p} {edge}", f"{w.zh}{'开始' if edge == 'start' else '结束'}",
                                                       f"the {edge} of {w.doc}")
                                  for p, w in PHASES.items() for edge in ("start", "end")}

# `skip STEP`: the spread steps a card may switch off on its owner's board.
SKIPPABLE: dict[str, Word] = _index(
    Word("contagion", "传染", "step 1: my infected residents infect no one"),
    Word("dead_contagion", "死者传染", "step 2: my dead infect no one"),
    Word("deaths", "死亡", "step 3: no severe case of mine dies"),
    Word("worsening", "恶化", "step 4: no mild case of mine worsens"),
)

QUANTITIES: dict[str, Quantity] = _index(
    Quantity("new_mild", "新增轻症", "healthy residents infected in the contagion step", "floor(disease / 3)"),
    Quantity("new_severe", "新增重症", "mild cases that worsen in the worsening step", "floor(disease / 4)"),
    Quantity("new_dead", "新增死亡", "severe cases that die in the deaths step", "floor(disease / 4)"),
    Quantity("discovery", "发现", "tiles revealed in the discovery step", "discovery.per_round (2)"),
    Quantity("income", "收入", "money gained in the income phase", "economy + floor(healthy / 2)"),
    Quantity("mild_cost", "轻症治疗成本", "medical spent to treat one mild case", "treatment.mild_cost (2)"),
    Quantity("severe_cost", "重症治疗成本", "medical spent to treat one severe case", "treatment.severe_cost (3)"),
    Quantity("final_penalty", "终局罚分",
             "at final scoring a negative policy score v counts min(0, v - final_penalty)", "0", signed=True),
    Quantity("bury_cost", "埋葬费用", "money paid to bury one dead (action)", "1"),
    Quantity("relocate_cost", "迁移费用", "money paid to move one resident (action)", "1"),
    Quantity("price", "价格", "money paid to play a policy or execute it again", "the card's price (never below 0)"),
)

PREDICATES: dict[str, Predicate] = _index(
    Predicate("played", "已打出", "the policy is in the subject's tableau and not switched off", "card"),
    Predicate("event", "当前事件", "the current event (outside the event phase: the last one drawn)", "event"),
    Predicate("happened", "已发生", "the event is the current one or in the history", "event"),
    Predicate("unlocked", "已解锁", "the subject has unlocked stage K", "number"),
    Predicate("advisor", "顾问是", "the subject's advisor is this one (its name or id)", "advisor"),
    Predicate("tableau", "已实施区有", "the policy is in the subject's tableau, switched on or off", "card"),
    Predicate("switched_off", "已关闭", "the policy is in the subject's tableau and switched off", "card"),
    Predicate("caused_by", "起因", "in a trigger: what made the moment happen is this card (its name or id), or a cause: "
                                 "event, combo, mine, others, card", "cause"),
)
# `caused_by(WORD)` (5.37): the kinds of cause a trigger's moment may have. A moment the game's own steps made
# (treatment, the spread, discovery, an action, the auction) has no cause: every one of these is false.
CAUSES: dict[str, Word] = _index(
    Word("event", "事件", "an event: its `on resolve`, or the event `when event` hears"),
    Word("combo", "连击", "a combo's `on resolve`"),
    Word("mine", "我的牌", "a card of the card owner's: their advisor or a policy of theirs"),
    Word("others", "别人的牌", "another player's card: their advisor or a policy of theirs"),
    Word("card", "任何牌", "any card at all (not the game's own steps)"),
)

# Aggregates: read their expression for every player still in.
AGGREGATES: dict[str, Word] = _index(
    Word("highest", "最高值", "highest(EXPR): the largest value of EXPR among the players still in"),
    Word("lowest", "最低值", "lowest(EXPR): the smallest value of EXPR among the players still in"),
)
# `count(…)`: how many players, or how many of the subject's played cards, satisfy a condition.
COUNTABLE: dict[str, Word] = _index(
    Word("player", "玩家", "count(player where COND): players still in for whom COND holds"),
    Word("other player", "其他玩家", "count(other player where COND): the same, without the subject"),
    Word("played", "已打出", "count(played where COND): the subject's played cards (not switched off) for which COND holds"),
    Word("tableau", "已实施区", "count(tableau where COND): the subject's cards in the tableau, switched on or off, for which "
                               "COND holds"),
)
# What `count(played where …)` can read of each card.
CARD_VALUES: dict[str, Word] = _index(
    Word("stage", "阶段", "the card's stage (1, 2 or 3)"),
    Word("price", "价格", "the card's price (the first, for a repeatable card)"),
)

FUNCTIONS: dict[str, Word] = _index(
    Word("min", "最小值", "the smaller of two numbers"),
    Word("max", "最大值", "the larger of two numbers"),
    Word("abs", "绝对值", "a number without its sign"),
    Word("roll", "掷骰", "roll(N): a die of N sides, 1 to N, drawn from the game's generator and shown to every "
                       "player; roll(N, rerolls K): the subject sees it and may roll again, up to K times"),
)

# `player with WHICH EXPR`: every tied player is visited.
SUPERLATIVES: dict[str, Word] = _index(
    Word("highest", "最高", "the largest value"),
    Word("lowest", "最低", "the smallest value"),
    Word("most", "最多", "the largest value"),
    Word("fewest", "最少", "the smallest value"),
)

SHIELDABLE: dict[str, Word] = _index(
    Word("hand", "手牌", "hand cards cannot be lost to others' cards, events or combos"),
    Word("money", "金钱", "money cannot be lost to others' cards, events or combos"),
    *(Word(t.name, t.zh, f"{t.name} cannot be lowered by others' cards, events or combos") for t in TRACKS.values()),
)

SEALABLE: dict[str, Word] = _index(
    Word("border", "边境", "contagion from other players' boards cannot infect my residents"),
)

# `shield TARGETS from SOURCE, …`: whose changes a shield stops (without `from`: all three).
SHIELD_SOURCES: dict[str, Word] = _index(
    Word("events", "事件", "the effects of global events"),
    Word("combos", "连击", "the effects of combos"),
    Word("players", "其他玩家", "the effects of other players' cards (their policies and advisors)"),
)
# The kind of card a moment's effect comes from -> the shield source it counts as (others' cards: "players").
SOURCE_OF_KIND = {"event": "events", "combo": "combos"}

# `seal border [DIRECTION]`: which way contagion is stopped at the owner's border (without a word: in).
SEAL_DIRECTIONS: dict[str, Word] = _index(
    Word("in", "入境", "other players' infected and dead cannot infect my residents (the same as `seal border`)"),
    Word("out", "出境", "my infected and dead cannot infect other players' residents"),
    Word("both", "双向", "neither: contagion crosses my border in no direction"),
)

# `floor TRACK N` / `ceiling TRACK N`: a bound the owner's track is held to at every change.
TRACK_LIMITS: dict[str, Word] = _index(
    Word("floor", "下限", "floor TRACK N — no change takes the owner's TRACK below N (a lower value stays where it is)"),
    Word("ceiling", "上限", "ceiling TRACK N — no change takes the owner's TRACK above N (a higher value stays where it is)"),
)

CARD_KINDS: dict[str, Word] = _index(
    Word("advisor", "顾问", "chosen at setup; its effect applies all game"),
    Word("policy", "政策", "drawn, played into the tableau"),
    Word("event", "全局事件", "drawn in the event phase"),
    Word("combo", "连击", "fires in the event phase when its `when:` condition holds"),
)

# The one-word handlers (`on play:` ...) and the card kinds that may have them.
ON_HANDLERS: dict[str, tuple[str, ...]] = {
    "play": ("policy",),
    "setup": ("advisor",),
    "resolve": ("event", "combo"),
}
# Card kinds that may have phase handlers, triggers (`when`/`once when`) and declarations.
LASTING_KINDS = ("advisor", "policy")
REACT_KINDS = ("policy",)

# Keywords of the grammar: reserved, so never a `let`/`choose`/`as` name.
KEYWORDS = (
    "on", "when", "once", "react", "modify", "by", "min", "shield", "seal", "let", "choose",
    "from", "to", "spend", "pay", "as", "draw", "stage", "keep", "unlock", "prevent", "if",
    "elif", "else", "each", "other", "player", "where", "with", "repeat", "may", "all", "any",
    "up", "it", "and", "or", "not", "after", "skip", "count", "me", "next", "while", "floor", "ceiling",
    "rerolls", "they", "mark", "draft", "becomes",
)

# Statement words in the grammar, with a line each for the docs.
STATEMENTS: dict[str, Word] = _index(
    Word("let", "定义", "let NAME = EXPR — name a value for the rest of the block"),
    Word("if", "如果", "if COND: … elif COND: … else: …"),
    Word("each player", "每名玩家", "each [other] player [where COND]: — every player still in, in turn order"),
    Word("player with", "…最…的玩家", "player with highest|lowest|most|fewest EXPR: — every tied player"),
    Word("repeat", "重复", "repeat EXPR: — the block EXPR times"),
    Word("choose", "选择", "choose NAME from EXPR to EXPR — the subject picks a whole number"),
    Word("may", "可以", "may: — the subject may resolve the block"),
    Word("may pay", "可以支付", "may pay EXPR: — if affordable, the subject may pay and resolve the block"),
    Word("spend", "花费", "spend EXPR — a payment the subject chose; must be affordable"),
    Word("pay", "支付", "pay EXPR [as NAME] — a forced loss; NAME = the unpaid part"),
    Word("draw", "抽牌", "draw N from stage K [keep M] — the rest go to that stage's discard pile"),
    Word("unlock", "解锁", "unlock stage K — stages up to K"),
    Word("prevent", "阻止", "cancel what is about to happen (death, overthrown and event handlers)"),
    Word("choose player", "选择玩家", "choose [other] player [where COND]: — the subject picks one player still in"),
    Word("take", "拿取", "take AMOUNT WHAT [as NAME] — from the block's player to the enclosing subject"),
    Word("give", "给予", "give AMOUNT WHAT [as NAME] — from the enclosing subject to the block's player"),
    Word("discard", "弃牌", "discard AMOUNT cards [as NAME] — the subject picks which; NAME = how many"),
    Word("may discard", "可以弃牌", "may discard AMOUNT cards: — with that many cards, the subject may discard them "
                                    "and resolve the block"),
    Word("after", "之后", "after N rounds: — the block runs at the start of the round N rounds from now"),
    Word("me", "我", "me: — the card's owner is the subject of the block again (inside another player's block)"),
    Word("mark", "标记", "mark [N] — (events) leave N stacks (default 1) of this event's mark on the subject for the rest "
                         "of the game; the event's `on PHASE start|end` handlers then run for every player who carries it"),
    Word("while", "只要", "DECLARATION while COND — a `modify`, `shield`, `seal`, `skip`, `floor` or `ceiling` that "
                         "holds only while COND is true, read each time the game consults it"),
    Word("player after me", "下家", "player after me: — the player still in just after the card's owner in this "
                                   "round's turn order, round the ring (5.34)"),
    Word("player before me", "上家", "player before me: — the player still in just before the card's owner in this "
                                    "round's turn order, round the ring (5.34)"),
    Word("first player", "先手玩家", "first player: — the first player still in of this round's turn order (5.34)"),
    Word("that player", "那名玩家", "that player: — in `when other …`, the player whose moment it is (5.35)"),
    Word("choose cell", "选择格子", "choose cell [with KIND]: — the card's owner picks one cell of the subject's board "
                                   "(holding a KIND), which is `it` in the block; none: the block is skipped"),
    Word("draft", "轮抽", "draft N from stage K — N cards laid out face up; every player takes one in turn order, "
                          "from the subject on; the rest go to that stage's discard pile"),
    Word("they choose", "由他们选", "they choose: — inside another player's block, that player makes the block's choices "
                                  "on the board (which residents, how many, choose NAME from), by default the owner's"),
    Word("tag", "标签", "tag it TAG / untag it TAG — put a tag on the cell `it` (a living resident), "
                       "or take it off; count(TAG) counts the subject's tagged cells"),
    Word("next to", "相邻", "VERB AMOUNT KIND next to KIND2 — only the subject's residents orthogonally next to a KIND2 "
                           "(on any board); `next to it` — next to the trigger's cell; count(KIND next to KIND2|it) counts them"),
)


@dataclass(frozen=True)
class Limit(Word):
    value: int


# Limits that keep a broken or hostile card — or command line — from hanging a game or exhausting
# memory. The parser and checker report what a card's text shows will cross them; the interpreter
# stops a game that crosses one at run time, naming the card, its line, the round and the seed; the
# commands refuse a seed or a --games beyond them before anything runs.
LIMITS: dict[str, Limit] = _index(
    Limit("nesting", "嵌套层数", "blocks, brackets or operators inside one another in one effect", 32),
    Limit("repeat", "重复次数", "the count of one `repeat`", 100),
    Limit("trigger_depth", "连锁深度", "effects setting each other off in a row (a trigger whose effect fires a trigger …)", 16),
    Limit("number", "数值上限", "the size of any number an effect computes, of either sign", 1_000_000_000),
    Limit("effect_steps", "单次效果步数", "statements one handler (or one modifier, one condition) may run, its loops "
          "included, and one step for each player or card a count(…), highest(…) or lowest(…) reads", 10_000),
    Limit("game_steps", "整局步数", "statements (and reads, as above) all the effects of one game may run together",
          200_000),
    Limit("effect_questions", "整局效果提问数", "questions the effects of one game may ask the players", 5_000),
    Limit("file_size", "文件大小", "bytes in one content or scenario file, and characters of text in it once its "
          "YAML aliases (`*name`) are written out", 1_000_000),
    Limit("yaml_values", "文件值数", "values (cards, fields, list items) in one content or scenario file, its YAML "
          "aliases written out", 20_000),
    # Every game seed a batch derives is below 2**48 (about 2.8e14), so each one can be typed back in.
    Limit("seed", "种子上限", "the largest seed a command or a file takes (0 is the smallest): at most 15 digits",
          999_999_999_999_999),
    Limit("games", "批次局数", "games in one playtest batch (--games)", 1_000_000),
    Limit("die", "骰子面数", "the sides of one `roll(N)`: N is 1 to this", 100),
    Limit("rerolls", "重掷次数", "the rerolls one `roll(N, rerolls K)` may allow: K is 0 to this", 10),
    Limit("marks", "标记层数上限", "stacks of one event's mark on one player (`mark`): more are not added", 9),
    Limit("foresee", "预见事件数", "the events one `foresee N events` or `arrange N events` may look at: N is 0 to this", 10),
)
MAX_NESTING = LIMITS["nesting"].value
MAX_REPEAT = LIMITS["repeat"].value
MAX_TRIGGER_DEPTH = LIMITS["trigger_depth"].value
MAX_NUMBER = LIMITS["number"].value
MAX_DIE = LIMITS["die"].value
MAX_REROLLS = LIMITS["rerolls"].value
MAX_FORESEE = LIMITS["foresee"].value


def all_words() -> dict[str, list[str]]:
    """Every registry word by section, for the docs and the docs test."""
    return {
        "tracks": [*TRACKS, "money"],
        "counts": list(COUNTS),
        "values": list(VALUES),
        "kinds": list(KINDS),
        "tags": list(CELL_TAGS),
        "verbs": [*VERBS, *TILE_VERBS, *IT_ONLY_VERBS, *EVENT_VERBS],
        "triggers": list(TRIGGERS),
        "phases": list(PHASES),
        "quantities": list(QUANTITIES),
        "predicates": list(PREDICATES),
        "functions": list(FUNCTIONS),
        "superlatives": list(SUPERLATIVES),
        "shieldable": list(SHIELDABLE),
        "sealable": list(SEALABLE),
        "shield sources": list(SHIELD_SOURCES),
        "seal directions": list(SEAL_DIRECTIONS),
        "track limits": list(TRACK_LIMITS),
        "skippable": list(SKIPPABLE),
        "aggregates": list(AGGREGATES),
        "countable": list(COUNTABLE),
        "card values": list(CARD_VALUES),
        "transfers": list(TRANSFERS),
        "card kinds": list(CARD_KINDS),
        "statements": list(STATEMENTS),
    }
