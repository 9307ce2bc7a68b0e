"""Every diagnostic rulekit reports, as one table: code -> rule (as ruff's codes.rs).

A row names the rule (a Python identifier: emitting code writes `R.EMPTY_CHOICE`, never the string
"RK223"), its code, severity and one-line title, and the modules whose checks report it. The
documentation of each rule (what it does, why it matters, an example and its fix) is the data module
rulekit.diagnostics.texts, keyed by these names; `rulekit rule CODE`, docs/lint-rules.md and the SARIF
rule list are made from the two. tests/test_diagnostics_table.py holds the table to the code: every
code any module reports has a row, every row is reported by exactly the modules it names, and every
RK row has its documentation.

This module imports nothing of rulekit, so every layer may import it.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

ERROR, WARNING, INFO = "error", "warning", "info"
SEVERITIES = (ERROR, WARNING, INFO)

# Where the checks are (the modules that report a rule).
LOADER = "rulekit.content.loader"
CHECKS = "rulekit.content.checks"
RULES_YAML = "rulekit.content.rules"
SCHEMA = "rulekit.content.schema"
YAMLPOS = "rulekit.content.yamlpos"
ITEM_CHECKS = "rulekit.language.checks_items"      # the checker: handlers, declarations, statements
EXPR_CHECKS = "rulekit.language.checks_exprs"      # the checker: expressions and names
PARSER = "rulekit.language.parser"
SCENARIO = "rulekit.scenarios.reader"
SCENARIO_SCHEMA = "rulekit.scenarios.schema"


class R(StrEnum):
    """A rule; the member is its code (a str: `R.EMPTY_CHOICE == "RK223"`), with severity, title and
    where its check is. Its kebab-case `slug` (empty-choice) is what code-scanning tools show."""

    severity: str
    summary: str                 # the one-line title (not `title`: a str has a method of that name)
    location: tuple[str, ...]

    def __new__(cls, code: str, severity: str, summary: str, location: tuple[str, ...]) -> R:
        rule = str.__new__(cls, code)
        rule._value_ = code
        rule.severity = severity
        rule.summary = summary
        rule.location = location
        return rule

    @property
    def code(self) -> str:
        return self.value

    @property
    def slug(self) -> str:
        return self.name.lower().replace("_", "-")

    # files and YAML
    YAML_SYNTAX = "RK001", ERROR, "YAML syntax error", (YAMLPOS,)
    NOT_UTF8 = "RK002", ERROR, "file is not UTF-8 text", (YAMLPOS,)
    DUPLICATE_KEY = "RK003", ERROR, "duplicate key in a mapping", (YAMLPOS,)
    EMPTY_FILE = "RK004", WARNING, "empty file", (CHECKS,)
    UNREADABLE_FILE = "RK005", ERROR, "a file or folder cannot be read", (LOADER, YAMLPOS)
    NOT_A_CARD = "RK006", ERROR, "a card file holds neither a card nor a list of cards", (CHECKS,)
    FILE_OUTSIDE_KIND_FOLDERS = "RK007", WARNING, "YAML file outside the known folders (ignored)", (LOADER,)
    NO_SUCH_PATH = "RK008", ERROR, "no such file or folder", (LOADER, RULES_YAML)
    NOT_A_CONTENT_FOLDER = "RK009", ERROR, "not a content folder: rules.yaml or the cards are missing", (LOADER,)
    # card metadata and rules.yaml (JSON Schemas)
    WRONG_VALUE = ("RK010", ERROR, "a field has a value of the wrong type or out of range",
                   (RULES_YAML, SCHEMA, SCENARIO, SCENARIO_SCHEMA))
    UNKNOWN_FIELD = "RK011", ERROR, "unknown field", (SCHEMA, SCENARIO_SCHEMA)
    MISSING_FIELD = "RK012", ERROR, "required field missing", (SCHEMA, SCENARIO_SCHEMA)
    WRONG_KIND = "RK013", ERROR, "the kind of a card cannot be told, or contradicts its folder", (CHECKS,)
    TBD_WITH_EFFECT = "RK014", WARNING, "a tbd card has an effect, which is ignored", (CHECKS,)
    DEFAULT_COPIES = "RK015", INFO, "a card leaves a field to its default", (CHECKS,)
    LINK_OUTSIDE = "RK016", ERROR, "a link (symlink) that leaves the content folder, loops or leads nowhere", (LOADER,)
    FILE_TOO_LARGE = "RK017", ERROR, "a file larger than rulekit reads, or made so by its aliases", (YAMLPOS,)
    HIDDEN_CHARACTER = "RK018", ERROR, "an invisible or control character in a card's name or text", (CHECKS,)
    # effect syntax (parser)
    EFFECT_SYNTAX = "RK101", ERROR, "effect syntax error", (PARSER,)
    EFFECT_INDENTATION = "RK102", ERROR, "effect indentation error", (PARSER,)
    EFFECT_TOO_DEEP = "RK103", ERROR, "effect nested or chained too deeply", (PARSER,)
    NUMBER_TOO_LARGE = "RK104", ERROR, "a whole number larger than the game can hold", (PARSER,)
    # effect meaning (the checker, rulekit.language.checker)
    UNKNOWN_TRACK = "RK201", ERROR, "unknown track", (ITEM_CHECKS,)
    UNKNOWN_VERB = "RK202", ERROR, "unknown verb", (ITEM_CHECKS,)
    UNKNOWN_KIND = "RK203", ERROR, "unknown kind of resident", (ITEM_CHECKS,)
    UNKNOWN_QUANTITY = "RK204", ERROR, "unknown quantity", (ITEM_CHECKS,)
    UNKNOWN_TRIGGER = "RK205", ERROR, "unknown trigger", (ITEM_CHECKS,)
    UNKNOWN_HANDLER = "RK206", ERROR, "unknown handler or phase", (ITEM_CHECKS,)
    UNKNOWN_SUPERLATIVE = "RK207", ERROR, "unknown word after `player with`", (ITEM_CHECKS,)
    UNKNOWN_SHIELD = "RK208", ERROR, "unknown shield target", (ITEM_CHECKS,)
    UNKNOWN_SEAL = "RK209", ERROR, "unknown seal target", (ITEM_CHECKS,)
    UNKNOWN_FUNCTION = "RK210", ERROR, "unknown function or predicate", (EXPR_CHECKS,)
    UNKNOWN_NAME = "RK211", ERROR, "unknown name in an expression", (EXPR_CHECKS,)
    NO_PLAYER = "RK212", ERROR, "statement or value needs a player, and there is none here", (EXPR_CHECKS, ITEM_CHECKS)
    IT_WITHOUT_TRIGGER = "RK213", ERROR, "`it` where no trigger gives it a meaning", (EXPR_CHECKS,)
    IT_WRONG_TYPE = "RK214", ERROR, "`it` of the wrong type for its verb", (ITEM_CHECKS,)
    PREVENT_OUTSIDE_HANDLER = "RK215", ERROR, "`prevent` outside a death or overthrown handler", (ITEM_CHECKS,)
    USES_OUTSIDE_POLICY = "RK216", ERROR, "`uses` outside a policy", (EXPR_CHECKS,)
    VERB_WRONG_KIND = "RK217", ERROR, "a verb with a kind it cannot take", (ITEM_CHECKS,)
    HANDLER_NOT_FOR_KIND = "RK218", ERROR, "a handler or declaration this card kind cannot have", (ITEM_CHECKS,)
    DUPLICATE_HANDLER = "RK219", WARNING, "the same handler twice in one card", (ITEM_CHECKS,)
    NO_SUCH_STAGE = "RK220", ERROR, "stage number not 1, 2 or 3", (EXPR_CHECKS,)
    KEEP_MORE_THAN_DRAWN = "RK221", ERROR, "`keep` more cards than drawn", (ITEM_CHECKS,)
    REPEAT_TOO_MANY = "RK222", ERROR, "`repeat` count above the limit", (ITEM_CHECKS,)
    EMPTY_CHOICE = "RK223", ERROR, "`choose` with an empty range", (ITEM_CHECKS,)
    UNKNOWN_CARD = "RK224", ERROR, "reference to a card or event that does not exist", (EXPR_CHECKS, SCENARIO)
    WRONG_ARGUMENTS = "RK225", ERROR, "wrong number or kind of arguments in a call", (EXPR_CHECKS,)
    NEEDS_CONDITION = "RK226", ERROR, "true/false value needed", (EXPR_CHECKS,)
    NEEDS_NUMBER = "RK227", ERROR, "number needed", (EXPR_CHECKS, ITEM_CHECKS)
    NAME_DEFINED_TWICE = "RK228", ERROR, "a name defined twice", (ITEM_CHECKS,)
    RESERVED_NAME = "RK229", ERROR, "a reserved word used as a name", (ITEM_CHECKS,)
    IT_NEVER_CHANGES = "RK230", WARNING, "a verb on `it` that can never change that cell", (ITEM_CHECKS,)
    NEVER_RUNS = "RK231", WARNING, "a card whose effect never runs", (ITEM_CHECKS,)
    DIVISION_BY_ZERO = "RK232", ERROR, "division by zero", (EXPR_CHECKS,)
    NUMBER_OVERFLOW = "RK233", WARNING, "a computed number beyond the number limit", (EXPR_CHECKS,)
    EFFECT_TOO_LONG = "RK234", WARNING, "loops or draws that run more steps than one effect may", (EXPR_CHECKS,)
    AMOUNT_OUT_OF_REACH = "RK235", WARNING, "an amount beyond what the game can ever hold", (ITEM_CHECKS,)
    DIVISION_BY_MAYBE_ZERO = "RK236", WARNING, "dividing by a value that can be 0", (EXPR_CHECKS,)
    TRANSFER_OUTSIDE_PLAYER_BLOCK = "RK237", ERROR, "`take` or `give` outside a player block", (ITEM_CHECKS,)
    IT_OR_PREVENT_IN_AFTER = "RK238", ERROR, "`it` or `prevent` inside an `after` block", (EXPR_CHECKS, ITEM_CHECKS)
    UNKNOWN_COUNT = "RK239", ERROR, "unknown word in `count(…)`", (EXPR_CHECKS,)
    CARD_VALUE_OUTSIDE_COUNT = "RK240", ERROR, "`stage` or `price` outside `count(played where …)`", (EXPR_CHECKS,)
    UNKNOWN_SKIP = "RK241", ERROR, "unknown spread step after `skip`", (ITEM_CHECKS,)
    COUNTER_NAME = "RK242", ERROR, "a number kept on a card (`counters:`) used where it cannot be", (CHECKS,)
    TRANSFER_OR_UNIT_WORD = ("RK243", ERROR, "something `take` or `give` cannot move, or a misspelt `cards`/`rounds`",
                             (ITEM_CHECKS,))
    BOTS_CANNOT_READ = "RK244", INFO, "a card the bots cannot value from its text", (CHECKS,)
    PARAM_CHANGED = "RK245", ERROR, "a card's parameter (`params:`) changed by its effect", (ITEM_CHECKS,)
    PARAM_NAME = ("RK246", ERROR, "a card's parameter (`params:`) named like a word the language uses, or like a counter",
                  (CHECKS,))
    PARAM_UNREAD = "RK247", WARNING, "a card's parameter (`params:`) its effect never reads", (CHECKS,)
    SELF_COMPARISON = "RK248", WARNING, "a value compared with itself: always true or always false", (EXPR_CHECKS,)
    NEXT_TO = "RK249", ERROR, "`next to` with a verb or a kind it cannot take", (EXPR_CHECKS, ITEM_CHECKS)
    CHOOSE_CELL = "RK250", ERROR, "`choose cell` misspelt, or with a kind of resident the language does not know", (ITEM_CHECKS,)
    CELL_TAG = "RK251", ERROR, "a tag the language does not know, or `tag it` where `it` is no cell", (ITEM_CHECKS,)
    ROLL_LIMIT = "RK255", ERROR, "a die (`roll(N)`) whose sides or rerolls can pass their limits", (EXPR_CHECKS,)
    ROLL_OUTSIDE_EFFECT = "RK256", ERROR, "a die (`roll(N)`) rolled where no effect runs", (EXPR_CHECKS,)
    FORESEE_LIMIT = ("RK257", ERROR, "a look at the event deck (`foresee`/`arrange N events`) whose N can pass its limit",
                     (ITEM_CHECKS,))
    SEAT_WORD = ("RK260", ERROR, "a player by turn order (`player after me:`, `first player:`) with a word it does not take",
                 (ITEM_CHECKS,))
    OTHER_MOMENT = ("RK261", ERROR, "another player's moment (`when other …`, `that player:`) where a card cannot hear it",
                    (ITEM_CHECKS,))
    CAUSE = "RK262", ERROR, "`caused_by` outside a trigger's handler, or with a cause it does not know", (EXPR_CHECKS,)
    UNKNOWN_SHIELD_SOURCE = "RK265", ERROR, "unknown source after `shield … from`", (ITEM_CHECKS,)
    UNKNOWN_SEAL_DIRECTION = "RK266", ERROR, "unknown direction after `seal border`", (ITEM_CHECKS,)
    LIMIT_NOT_A_TRACK = "RK267", ERROR, "`floor` or `ceiling` on something that is not a track", (ITEM_CHECKS,)
    MARK_MISUSED = "RK268", ERROR, "`mark` or `marks` outside an event that leaves a mark", (ITEM_CHECKS, EXPR_CHECKS)
    COUNTER_START = ("RK270", ERROR, "a counter's first value (`counters: {NAME: \"= EXPR\"}`) that reads a counter",
                     (CHECKS,))
    THEY_CHOOSE = "RK271", WARNING, "`they choose:` where it changes nothing", (ITEM_CHECKS,)
    DRAFT_IN_PLAYER_BLOCK = "RK272", WARNING, "`draft` inside a player block: a draft for each player", (ITEM_CHECKS,)
    BECOMES_NEEDS_ONCE = "RK273", ERROR, "`when becomes` without `once`", (ITEM_CHECKS,)
    BECOMES_NEVER_CHANGES = ("RK274", WARNING, "a `once when becomes` condition that reads nothing of the game",
                             (ITEM_CHECKS,))
    # whole content folder (loader)
    DUPLICATE_ID = "RK301", ERROR, "duplicate card id", (CHECKS,)
    DUPLICATE_NAME = "RK302", ERROR, "duplicate card name within a kind", (CHECKS,)
    COMBO_NEVER_FIRES = "RK303", WARNING, "a combo that can never fire", (CHECKS,)
    SMALL_STAGE = "RK304", WARNING, "a stage with fewer cards than players", (CHECKS,)
    PROPOSED_CARDS = "RK305", INFO, "proposed cards await the designer's decision", (CHECKS,)
    TBD_CARDS = "RK306", INFO, "cards marked tbd", (CHECKS,)
    FEW_ADVISORS = "RK307", WARNING, "too few advisors for the draft", (CHECKS,)
    NAME_IS_ANOTHER_ID = "RK308", ERROR, "a card's name is another card's id", (CHECKS,)
    # scenario files (rulekit test); their YAML, schema and card problems are the RK codes above
    BOARD_TEXT_MALFORMED = "SC001", ERROR, "the board text is malformed", (SCENARIO,)
    SEAT_NOT_AT_TABLE = "SC002", ERROR, "a player who is not at this table", (SCENARIO,)
    MORE_COPIES_THAN_THE_GAME = "SC003", ERROR, "a card named more times than the game has copies of it", (SCENARIO,)
    START_OUT_OF_RANGE = "SC004", ERROR, "a start value outside its track's range", (SCENARIO,)
    ANSWER_OF_NO_FORM = "SC005", ERROR, "a scripted answer of a form no question takes", (SCENARIO,)
    NO_SUCH_CELL = "SC006", ERROR, "an expectation about a cell that does not exist at this table", (SCENARIO,)


# Causes first: the problems of files and folders as such (RK00x, and the links and sizes of RK016 and
# RK017) can leave cards unknown and so explain later problems; they sort before the rest.
CAUSES: frozenset[str] = frozenset([*(r.code for r in R if r.code.startswith("RK00")), R.LINK_OUTSIDE.code,
                                            R.FILE_TOO_LARGE.code])
# Problems after which a file's cards are unknown: a missing card may be one of them.
UNREADABLE: tuple[R, ...] = (R.YAML_SYNTAX, R.NOT_UTF8, R.DUPLICATE_KEY, R.UNREADABLE_FILE, R.NOT_A_CARD, R.LINK_OUTSIDE,
                             R.FILE_TOO_LARGE)


def rule(code: str) -> R:
    """The rule of a code ("RK223" or R.EMPTY_CHOICE); ValueError for a code no rule has."""
    found = _BY_CODE.get(code)
    if found is None:
        raise ValueError(f"no rule has the code {code!r}: add it to rulekit/diagnostics/codes.py")
    return found


_BY_CODE: dict[str, R] = {r.code: r for r in R}


# code -> (severity, title): the shape of the checker's old CODES table, made from this one.
CODES: Mapping[str, tuple[str, str]] = {r.code: (r.severity, r.summary) for r in R}
