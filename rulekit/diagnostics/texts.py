"""The documentation of every rule, in the words a card designer uses: data, keyed by the rules of codes.py.

Each entry says what the check does, why it matters, an example (a card, or rules.yaml, that really
gets the code; tests lint it) and how to fix it, with the example fixed (which really does not).
`rulekit rule CODE` and docs/lint-rules.md print it (rulekit.lint.rules renders it). A data table,
so longer than the 900 lines a module of code may have.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Any

from rulekit.diagnostics.codes import R


@dataclass(frozen=True)
class Doc:
    """One rule's documentation."""

    what: str          # What it does
    why: str           # Why it matters
    example: str       # a card (or rules.yaml) that gets this code
    fix: str           # How to fix, in words
    fixed: str         # the example, fixed ('' when the fix is not a change of the file)
    path: str | None = "policies/example.yaml"   # where the example sits in a content folder (None: no file)
    fixed_path: str | None = None                  # where the fixed example sits, if it moved
    context: tuple[tuple[str, str], ...] = ()      # other files the example needs: (path, text)
    encoding: str = "utf-8"                        # how the example file is saved
    lang: str = "yaml"


def _doc(rule: R, what: str, why: str, example: str, fix: str, fixed: str, **more: Any) -> tuple[R, Doc]:
    return rule, Doc(what, why, example, fix, fixed, **more)


def _docs(*entries: tuple[R, Doc]) -> dict[R, Doc]:
    table: dict[R, Doc] = {}
    for rule, doc in entries:
        assert rule not in table, rule
        table[rule] = doc
    return table


HOSPITAL = """
- id: hospital_expansion
  name: 医院扩容
  stage: 1
  price: 2
  effect: |
    on play:
      medical += 1
"""


def _policy(effect: str, *, id: str = "field_hospital", name: str = "野战医院", stage: int = 2,
            price: int = 3, extra: str = "") -> str:
    """A policy card around an effect, for the examples."""
    body = textwrap.indent(textwrap.dedent(effect).strip("\n"), "    ")
    return f"""
- id: {id}
  name: {name}
  stage: {stage}
  price: {price}{extra}
  effect: |
{body}
"""


def _with_field_hospital(name: str) -> str:
    """HOSPITAL and a second policy named `name`, for the examples about names."""
    return HOSPITAL + f"""
- id: field_hospital
  name: {name}
  stage: 2
  price: 3
  effect: |
    on play:
      medical += 2
"""


def _card(kind_fields: str, effect: str) -> str:
    body = textwrap.indent(textwrap.dedent(effect).strip("\n"), "    ")
    return f"\n{textwrap.dedent(kind_fields).strip(chr(10))}\n  effect: |\n{body}\n"


DOCS: dict[R, Doc] = _docs(
    # ---- RK0xx: files, YAML and card fields ------------------------------------------------
    _doc(
        R.YAML_SYNTAX,
        """
        Reads each content file as YAML and reports the first place where it is not valid
        YAML: a missing `:` after a field name, a line that does not line up with the fields
        above it, a tab used for indentation, a quote that is never closed.
        """,
        """
        YAML is the notation every card is written in; where it cannot be read, rulekit sees
        none of the cards of the file. Fix this first: the other checks of the file only run
        once it reads.
        """,
        """
        - id: hospital_expansion
          name 医院扩容
          stage: 1
          price: 2
        """,
        """
        Each field is `name: value`, with a `:` and a space. All fields of a card start in
        the same column, and indentation is made of spaces, never tabs. Put text that
        contains `: ` or starts with `*`, `&`, `@` or a backquote in quotes.
        """,
        """
        - id: hospital_expansion
          name: 医院扩容
          stage: 1
          price: 2
        """,
    ),
    _doc(
        R.NOT_UTF8,
        """
        Checks that each content file is UTF-8 text without control characters.
        """,
        """
        Card names and flavour text are Chinese; a file saved in another encoding (GBK,
        Big5) or a binary file copied by mistake would turn them into nonsense, so rulekit
        reads nothing from it rather than something wrong.
        """,
        """
        # 第一阶段政策 — this file was saved as GBK
        - id: hospital_expansion
          name: 医院扩容
          stage: 1
          price: 2
        """,
        """
        Save the file as UTF-8: in most editors, "Save with encoding" or "Reopen with
        encoding → GBK" then "Save with encoding → UTF-8". The text itself does not change.
        """,
        """
        # 第一阶段政策 — saved as UTF-8
        - id: hospital_expansion
          name: 医院扩容
          stage: 1
          price: 2
        """,
        encoding="gbk",
    ),
    _doc(
        R.DUPLICATE_KEY,
        """
        Finds a field written twice in the same card (or twice in the same part of
        rules.yaml).
        """,
        """
        YAML silently keeps only one of the two values, so the card would not be what you
        see: you might change the first `price:` and wonder why nothing happens.
        """,
        """
        - id: hospital_expansion
          name: 医院扩容
          stage: 1
          price: 2
          price: [2, 3, 4]
        """,
        """
        Keep the one value you mean and delete the other.
        """,
        """
        - id: hospital_expansion
          name: 医院扩容
          stage: 1
          price: [2, 3, 4]
        """,
    ),
    _doc(
        R.EMPTY_FILE,
        """
        Finds a content file with no card in it (empty, or only comments).
        """,
        """
        An empty file is usually a card that was forgotten or a file saved before it was
        written. It does no harm, so this is a warning.
        """,
        """
        # 第四阶段政策: cards to come
        """,
        """
        Write the cards into the file, or delete the file.
        """,
        HOSPITAL,
    ),
    _doc(
        R.UNREADABLE_FILE,
        """
        Reports a content file, or a folder inside the content folder, that the computer
        does not let rulekit open or list.
        """,
        """
        A card that cannot be read is missing from every check and every game; a folder
        that cannot be listed would hide all of its cards, so it is an error, never skipped.
        """,
        """
        $ rulekit lint content
        content/policies/stage1.yaml: RK005 cannot read this file: Permission denied
        """,
        """
        Check the permissions of the file or folder (or whether another program locks it)
        and that a file is a plain file. This is about the computer, not about the card.
        """,
        "",
        path=None, lang="text",
    ),
    _doc(
        R.NOT_A_CARD,
        """
        Checks that a card file holds one card (fields such as `id:` and `name:`) or a list
        of cards (each starting with `- `).
        """,
        """
        rulekit reads every card as a set of fields. A list of names or a single line of text
        is not a card, so nothing in the file could be used.
        """,
        """
        - 医院扩容
        - 集思广益
        """,
        """
        Write each card as fields under its `- `.
        """,
        HOSPITAL,
    ),
    _doc(
        R.FILE_OUTSIDE_KIND_FOLDERS,
        """
        Finds YAML files in a content folder that are not in `advisors/`, `policies/`,
        `events/` or `combos/` (and are not `rules.yaml`, nor the scenario files of
        `scenarios/`, which `rulekit test` runs).
        """,
        """
        The folder a file sits in says what kind of card it holds, so rulekit ignores a file
        elsewhere: its cards would silently be missing from the game.
        """,
        HOSPITAL,
        """
        Move the file into the folder of its kind.
        """,
        HOSPITAL,
        path="cards/stage1.yaml", fixed_path="policies/stage1.yaml",
    ),
    _doc(
        R.NO_SUCH_PATH,
        """
        Reports a file or folder to check that does not exist.
        """,
        """
        Nothing can be checked there; usually the path has a typing mistake.
        """,
        """
        >>> check_paths(["contnet"])
        contnet: RK008 no such file or folder
        """,
        """
        Give the path of an existing content folder or file. (`rulekit lint` itself stops
        with a usage error, exit status 2, before checking anything.)
        """,
        "",
        path=None, lang="text",
    ),
    _doc(
        R.NOT_A_CONTENT_FOLDER,
        """
        Checks that a content folder is one: it holds `rules.yaml` and at least one card
        file in `advisors/`, `policies/`, `events/` or `combos/`. `rulekit play`,
        `playtest` and `test` refuse such a folder with this error (exit status 1).
        """,
        """
        Without it a game would be played with no cards at all, or without its rules, and
        look like a finished game. Usually the wrong folder was given (`content/policies`
        instead of `content`), or the rules file has another name.
        """,
        """
        players: 4
        max_rounds: 14
        """,
        """
        Give the content folder itself, the one that holds `rules.yaml`; name the rules
        file exactly `rules.yaml`, and keep each card file in the folder of its kind.
        """,
        """
        players: 4
        max_rounds: 14
        """,
        path="rules.yml", fixed_path="rules.yaml",
        context=(("policies/stage1.yaml", HOSPITAL),),
    ),
    _doc(
        R.WRONG_VALUE,
        """
        Checks every field's value against what the field takes: `stage` is 1, 2 or 3,
        `price` a whole number or a list of them, `copies` a whole number, `status` one of
        `designed`, `proposed`, `tbd`, and so on, in cards and in rules.yaml. The position
        is the value's own.
        """,
        """
        The game reads these values directly; a price written as text or a stage that does
        not exist would make the card impossible to draw or to pay for.
        """,
        """
        - id: hospital_expansion
          name: 医院扩容
          stage: 4
          price: 2, 3, 4
        """,
        """
        Write the value the message asks for. A list goes in square brackets; numbers
        without quotes.
        """,
        """
        - id: hospital_expansion
          name: 医院扩容
          stage: 1
          price: [2, 3, 4]
        """,
    ),
    _doc(
        R.UNKNOWN_FIELD,
        """
        Finds a field the card's kind does not have, most often a typing mistake such as
        `pirce:`, and suggests the nearest known field.
        """,
        """
        A misspelt field is silently meaningless: the card would be played with no price at
        all. A field of another kind (a `stage:` on an event) is a sign the card is in the
        wrong folder.
        """,
        """
        - id: hospital_expansion
          name: 医院扩容
          stage: 1
          pirce: 2
        """,
        """
        Correct the field's name (the message suggests one), or move free text into
        `notes:`.
        """,
        """
        - id: hospital_expansion
          name: 医院扩容
          stage: 1
          price: 2
        """,
    ),
    _doc(
        R.MISSING_FIELD,
        """
        Finds a card without a field its kind needs: every card an `id` and a `name`, a
        policy its `stage` and its `price`, a combo its `when`, and every card not marked
        `status: tbd` an `effect`. (Fields with a default are not needed: `copies` — see
        RK015 —, `score` 0, `duration: lasting`, `switchable: false`.)
        """,
        """
        Without them the card cannot be named in other cards, put in a deck, or do anything
        when it is played. A policy without a price would be free: a card that is meant to
        cost nothing says so with `price: 0`.
        """,
        """
        - id: hospital_expansion
          name: 医院扩容
          price: 2
          effect: |
            on play:
              medical += 1
        """,
        """
        Add the missing field. A card whose effect is not decided yet gets `status: tbd`
        instead of an effect.
        """,
        HOSPITAL,
    ),
    _doc(
        R.WRONG_KIND,
        """
        Checks that each card's kind is clear: it comes from the folder (`policies/` holds
        policies), and a `kind:` field, where given, must agree with the folder.
        """,
        """
        The kind decides everything about a card: which deck it is in, which fields it has,
        which handlers its effect may use. A card whose kind is unclear cannot be checked.
        """,
        """
        - id: mutation
          name: 病毒变异
          kind: event
          effect: |
            on resolve:
              each player:
                disease += 1
        """,
        """
        Move the card into the folder of its kind (here `events/`), or correct `kind:`.
        """,
        """
        - id: mutation
          name: 病毒变异
          kind: event
          effect: |
            on resolve:
              each player:
                disease += 1
        """,
        fixed_path="events/example.yaml",
    ),
    _doc(
        R.TBD_WITH_EFFECT,
        """
        Finds a card marked `status: tbd` that has an effect anyway.
        """,
        """
        `tbd` means "no effect yet": the card is left out of the decks and its effect is
        ignored. If the effect is written, the status is probably out of date.
        """,
        """
        - id: hospital_expansion
          name: 医院扩容
          stage: 1
          price: 2
          status: tbd
          effect: |
            on play:
              medical += 1
        """,
        """
        Change the status to `proposed` (an effect suggested, awaiting a decision) or remove
        `status:` (designed), or delete the effect.
        """,
        """
        - id: hospital_expansion
          name: 医院扩容
          stage: 1
          price: 2
          status: proposed
          effect: |
            on play:
              medical += 1
        """,
    ),
    _doc(
        R.DEFAULT_COPIES,
        """
        Notes a policy or an event that does not say how many `copies:` its deck holds, and
        says the default it gets: 3 for a stage 1 policy, 2 for stage 2, 1 for stage 3, and
        1 for an event.
        """,
        """
        The number of copies decides how often a card comes up. The default is often what is
        meant; the note shows what it is, so a card never ends up in the deck three times
        by surprise. It is a note: `rulekit lint` still exits 0.
        """,
        HOSPITAL,
        """
        Write `copies:` with the number the card should have (the default, to say so).
        """,
        """
        - id: hospital_expansion
          name: 医院扩容
          stage: 1
          price: [2, 3, 4]
          copies: 3
          effect: |
            on play:
              medical += 1
        """,
    ),
    _doc(
        R.LINK_OUTSIDE,
        """
        Checks every link (symlink) in a content folder that could hold cards: a YAML file,
        or a folder. A link that leads to a file or folder inside the content folder is
        followed, and its cards are read under the link's own name. A link that leads
        outside the content folder, to nothing (the file it named was moved or deleted), or
        round in a loop (to itself, or to a folder that holds it) is reported here.
        """,
        """
        The content folder is what a game is made of: its fingerprint, its logs and its
        playtests say which cards were played. A card read from elsewhere could change with
        no sign in the folder, so rulekit refuses it; and a link that leads nowhere or in a
        loop would hide cards without a word. `rulekit play`, `playtest` and `test` refuse
        the folder with this error, as `rulekit lint` reports it.
        """,
        """
        $ rulekit lint content
        content/events/events.yaml: RK016 this link (symlink) leads outside the content folder, to /home/me/shared/events.yaml: rulekit reads only what is inside the content folder
        """,  # noqa: E501 (the terminal's line and the file's, as they are)
        """
        Copy the file or folder into the content folder in place of the link (or move it
        there and link the other way round); mend or delete a link that leads nowhere.
        """,
        "",
        path=None, lang="text",
    ),
    _doc(
        R.FILE_TOO_LARGE,
        """
        Refuses a content or scenario file larger than rulekit reads (1,000,000 bytes, the
        limit `file_size`), before reading it, and a file whose YAML aliases would write it
        out larger: an alias (`*name`) repeats the whole value its anchor (`&name`) marks,
        so a few lines can stand for millions of values. The expanded file may hold at most
        1,000,000 characters of text and 20,000 values (`yaml_values`); the message points
        at the alias that goes past.
        """,
        """
        A file that big is not a set of cards a designer wrote: it would take minutes to
        check, or all of the computer's memory, before any message. Refused at once, it
        costs nothing. The whole content of a game is a few tens of kilobytes.
        """,
        """
        - &ten [医院扩容, 医院扩容, 医院扩容, 医院扩容, 医院扩容, 医院扩容, 医院扩容, 医院扩容, 医院扩容, 医院扩容]
        - &hundred [*ten, *ten, *ten, *ten, *ten, *ten, *ten, *ten, *ten, *ten]
        - &thousand [*hundred, *hundred, *hundred, *hundred, *hundred, *hundred, *hundred, *hundred, *hundred, *hundred]
        - [*thousand, *thousand, *thousand, *thousand, *thousand, *thousand, *thousand, *thousand, *thousand, *thousand, *thousand, *thousand, *thousand, *thousand, *thousand, *thousand, *thousand, *thousand, *thousand, *thousand, *thousand]
        """,  # noqa: E501 (the terminal's line and the file's, as they are)
        """
        Write each card out in full rather than repeating a part with an alias, and keep
        files small: split a big file into several (one per stage, say).
        """,
        HOSPITAL,
    ),
    _doc(
        R.HIDDEN_CHARACTER,
        """
        Finds a character that does not show as text in a card's `name`, `flavor` or
        `notes`: a control character (such as the escape YAML writes for `\\e`), a mark that
        turns the text around it (a bidi control such as U+202E), and, in a name, any
        invisible character (a zero-width space U+200B, a soft hyphen, a line separator).
        The message names the character by its code.
        """,
        """
        Two names that look the same on screen would be two cards: `played("医院扩容")`
        would not find the card whose name hides a zero-width space. A control character
        printed to a terminal can clear the screen or change the window's title, and a bidi
        control makes text read other than it is. They come from copying text out of a web
        page or a chat; nobody types them.
        """,
        """
        - id: hospital_expansion
          name: "医院\\u200b扩容"
          stage: 1
          price: 2
          effect: |
            on play:
              medical += 1
        """,
        """
        Delete the character: retype the name (the character cannot be seen, so it is
        easiest to write the whole name again).
        """,
        HOSPITAL,
    ),
    # ---- RK1xx: the effect text cannot be read ------------------------------------------
    _doc(
        R.EFFECT_SYNTAX,
        """
        Reads the `effect` text (and `when:` conditions) and reports each place where it
        stops making sense: a missing `:` at the end of a line that opens a block, a line
        ending in `:` with nothing indented under it, a misspelt keyword (`iff`, `wen`,
        `each players` — with the word it is nearest to), a statement outside any handler,
        a word or sign where another was expected, every tab, a curly quote “…” or a
        full-width sign such as `（` or `：` copied from a Chinese document. After each
        mistake it reads on, so the rest of the card is still checked.
        """,
        """
        A card whose effect cannot be read cannot be played: the game would not know what it
        does. The message says what was expected at that place, in the language's words.
        """,
        """
        - id: hospital_expansion
          name: 医院扩容
          stage: 1
          price: 2
          effect: |
            on play
              medical += 1
        """,
        """
        Write what the message asks for at the caret. Here the line that opens the
        `on play` block needs a `:` at its end. Signs are half-width (`:`, `(`, `=`), names
        are quoted with straight quotes `"…"`, and indentation uses spaces.
        """,
        HOSPITAL,
    ),
    _doc(
        R.EFFECT_INDENTATION,
        """
        Checks the indentation of the effect: its first line starts at the left edge, and a
        line that ends a block lines up with a block it belongs to.
        """,
        """
        Indentation says which lines belong to which block (`on play:`, `if …:`,
        `each player:`). A line indented by an amount no block uses could belong to either,
        so the card's meaning is unclear.
        """,
        """
        - id: doctor_death
          name: 医生殉职
          effect: |
            on resolve:
              player with most infected:
                  policy -= 2
                medical -= 1
        """,
        """
        Give every line of one block the same indentation (two spaces per level is the
        custom). Here both lines belong to the `player with` block.
        """,
        """
        - id: doctor_death
          name: 医生殉职
          effect: |
            on resolve:
              player with most infected:
                policy -= 2
                medical -= 1
        """,
        path="events/example.yaml",
    ),
    _doc(
        R.EFFECT_TOO_DEEP,
        """
        Stops reading an effect or condition nested more than 32 levels deep: blocks inside
        blocks, brackets inside brackets, or operators, comparisons and calls inside one
        another (a chain `a + b + c` counts one level for each sign, `not not x` one for
        each `not`), across as many lines as the expression takes.
        """,
        """
        No card needs that much nesting; it comes from a copying mistake or a generated file
        gone wrong, and every stage that reads the card (the checker, the game) would have to
        follow it. The limit keeps checks fast, games safe and messages clear.
        """,
        _policy("""
            on play:
              money += ((((((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))))))))
        """),
        """
        Write the expression more simply, or break it into steps with `let`.
        """,
        _policy("""
            on play:
              money += 1
        """),
    ),
    _doc(
        R.NUMBER_TOO_LARGE,
        """
        Finds a whole number larger than 1,000,000,000 in an effect or a condition.
        """,
        """
        The game holds no number that large (money stops at 9,999); such a number is a
        typing mistake, and a game that computed with it would stop with an error.
        """,
        _policy("""
            on play:
              money += 10000000000
        """),
        """
        Write the number the card means.
        """,
        _policy("""
            on play:
              money += 10
        """),
    ),
    # ---- RK2xx: the effect does not make sense --------------------------------------------
    _doc(
        R.UNKNOWN_TRACK,
        """
        Checks the word before `+=`, `-=` or `=`: it must be a track (`medical` 医疗,
        `disease` 疾病, `policy` 政策, `score` 计分, `economy` 经济) or `money` 金钱. Suggests
        the nearest one.
        """,
        """
        Only tracks can change. A misspelt track would otherwise change nothing, and a board
        count (`mild`) or a quantity (`new_mild`) is changed in other ways.
        """,
        _policy("""
            on play:
              medicl += 1
        """),
        """
        Write the track's English name. To change the board use a verb (`cure 1 mild`); to
        change a quantity, a declaration (`modify new_mild by -1`).
        """,
        _policy("""
            on play:
              medical += 1
        """),
    ),
    _doc(
        R.UNKNOWN_VERB,
        """
        Checks the first word of a statement such as `cure 1 mild`: it must be a verb of the
        language (`cure treat infect worsen kill remove reveal arrange discard`).
        """,
        """
        The verbs are the only ways an effect can change the board; a word the game does not
        know cannot be carried out.
        """,
        _policy("""
            on play:
              heal 2 mild
        """),
        """
        Use the verb the message suggests. `cure` turns mild into healthy (治愈), `treat`
        severe into mild (治疗).
        """,
        _policy("""
            on play:
              cure 2 mild
        """),
    ),
    _doc(
        R.UNKNOWN_KIND,
        """
        Checks the word after a verb's amount: it must be a kind of resident (`healthy mild
        severe dead infected alive resident`).
        """,
        """
        The kind says which residents the verb acts on; an unknown word leaves that open.
        """,
        _policy("""
            on play:
              cure 2 sick
        """),
        """
        Write one of the kinds; `infected` means mild or severe, `alive` healthy, mild or
        severe, `resident` alive or dead.
        """,
        _policy("""
            on play:
              cure 2 mild
        """),
    ),
    _doc(
        R.UNKNOWN_QUANTITY,
        """
        Checks the word after `modify`: it must be one of the quantities the game computes
        (`new_mild new_severe new_dead discovery income mild_cost severe_cost final_penalty
        bury_cost relocate_cost`).
        """,
        """
        `modify` changes how the game computes a number each round. A quantity that does not
        exist would be a rule the game never applies; a new one needs a change to the game
        itself.
        """,
        _policy("""
            modify new_sever by -1 min 1
        """, id="immune_training", name="免疫训练", stage=1),
        """
        Use the quantity the message suggests. To change a track once, write a handler:
        `on play:` then `medical += 1`.
        """,
        _policy("""
            modify new_severe by -1 min 1
        """, id="immune_training", name="免疫训练", stage=1),
    ),
    _doc(
        R.UNKNOWN_TRIGGER,
        """
        Checks the words after `when`, `once when` and `react`: they must be a trigger
        (`reveal`, `reveal mild`, `reveal healthy`, `death`, `overthrown`, `unsold`).
        """,
        """
        A trigger says when the card acts; an unknown one would never happen.
        """,
        _policy("""
            when dying:
              may pay 5:
                prevent
        """, id="life_support", name="生命维持", extra="\n  switchable: true"),
        """
        Use one of the triggers; `death` is "a resident of mine is about to die".
        """,
        _policy("""
            when death:
              may pay 5:
                prevent
        """, id="life_support", name="生命维持", extra="\n  switchable: true"),
    ),
    _doc(
        R.UNKNOWN_HANDLER,
        """
        Checks the words after `on`: `play`, `setup`, `resolve`, or a phase (`round income
        reserve actions treatment spread exchange event`) followed by `start` or `end`.
        """,
        """
        The handler says when the block runs. A misspelt phase, or a phase without `start`
        or `end`, would leave the card's timing undefined.
        """,
        _policy("""
            on spred start:
              disease -= 1
        """),
        """
        Write the phase's English name and `start` or `end`.
        """,
        _policy("""
            on spread start:
              disease -= 1
        """),
    ),
    _doc(
        R.UNKNOWN_SUPERLATIVE,
        """
        Checks the word after `player with`: `highest`, `lowest`, `most` or `fewest`.
        """,
        """
        It decides which player the block visits; any other word leaves that open.
        """,
        _card("""
            - id: united
              name: 团结一致
        """, """
            on resolve:
              player with biggest score:
                policy += 3
        """),
        """
        Use one of the four words: `highest`/`most` pick the largest value, `lowest`/`fewest`
        the smallest; every tied player is visited.
        """,
        _card("""
            - id: united
              name: 团结一致
        """, """
            on resolve:
              player with highest score:
                policy += 3
        """),
        path="events/example.yaml",
    ),
    _doc(
        R.UNKNOWN_SHIELD,
        """
        Checks what a `shield` declaration protects: `hand` and `money`.
        """,
        """
        Only hand cards and money can be shielded from others' cards, events and combos;
        anything else would be a promise the game does not keep.
        """,
        _card("""
            - id: security_team
              name: 安保团队
        """, """
            shield cards, money
        """),
        """
        Write `shield hand`, `shield money` or `shield hand, money`.
        """,
        _card("""
            - id: security_team
              name: 安保团队
        """, """
            shield hand, money
        """),
        path="advisors/example.yaml",
    ),
    _doc(
        R.UNKNOWN_SEAL,
        """
        Checks what a `seal` declaration closes: `border`.
        """,
        """
        `seal border` stops contagion from other players' boards; nothing else can be sealed.
        """,
        _policy("""
            seal borders
        """, id="quarantine", name="封锁边境"),
        """
        Write `seal border`.
        """,
        _policy("""
            seal border
        """, id="quarantine", name="封锁边境"),
    ),
    _doc(
        R.UNKNOWN_FUNCTION,
        """
        Checks the name before `(` in an expression: a predicate (`played event happened
        unlocked`) or a function (`min max abs`).
        """,
        """
        The game computes only these; an unknown function has no value.
        """,
        _policy("""
            on play:
              if playd("医院扩容"):
                medical += 2
        """),
        """
        Use the name the message suggests.
        """,
        _policy("""
            on play:
              if played("医院扩容"):
                medical += 2
        """),
        context=(("policies/stage1.yaml", HOSPITAL),),
    ),
    _doc(
        R.UNKNOWN_NAME,
        """
        Checks each name read in an expression: a track, `money`, a board count (`healthy
        mild severe dead infected alive tiles`), `revealed`, `hand`, `round`, `players`,
        `uses`, or a name made earlier in the block by `let`, `choose` or `as`.
        """,
        """
        A name the game does not know has no value, so the expression cannot be computed.
        Quantities (`new_mild` …) are computed by the game during a phase and cannot be read.
        """,
        _policy("""
            on play:
              money += helthy // 2
        """),
        """
        Correct the name (the message suggests the nearest), or make it first with `let`.
        """,
        _policy("""
            on play:
              money += healthy // 2
        """),
    ),
    _doc(
        R.NO_PLAYER,
        """
        Finds a statement or value that belongs to a player where there is none: in an
        event's `on resolve:` outside `each player:` and `player with …:`.
        """,
        """
        An event is nobody's card. `policy -= 1` there does not say whose policy track goes
        down; the player block says who.
        """,
        _card("""
            - id: audit
              name: 财政审查
        """, """
            on resolve:
              policy -= 1
        """),
        """
        Put the statement inside a player block.
        """,
        _card("""
            - id: audit
              name: 财政审查
        """, """
            on resolve:
              each player where money < 5:
                policy -= 1
        """),
        path="events/example.yaml",
    ),
    _doc(
        R.IT_WITHOUT_TRIGGER,
        """
        Finds `it` where no trigger gives it a meaning. `it` is the cell of a `reveal…`,
        `death…` or `cure` trigger, or the card of an `event`, `play` or `unsold` trigger.
        """,
        """
        Outside such a handler there is no "it": the game would not know which cell or card
        is meant.
        """,
        _policy("""
            on play:
              remove it
        """, id="shut_the_door", name="拒之门外", stage=1, price=1),
        """
        Use a trigger handler, or name the residents with a kind and an amount
        (`remove 1 mild`).
        """,
        _policy("""
            react reveal mild:
              remove it
        """, id="shut_the_door", name="拒之门外", stage=1, price=1),
    ),
    _doc(
        R.IT_WRONG_TYPE,
        """
        Checks that a verb can act on the `it` of its trigger: board verbs take a cell
        (`reveal…`, `death…`, `cure`), `discard` takes a card (`unsold`).
        """,
        """
        `it` in an `unsold` handler is a card, which has no residents to remove; the
        statement cannot be carried out.
        """,
        _card("""
            - id: auctioneer
              name: 拍卖师
        """, """
            when unsold:
              may:
                remove it
                money += 3
        """),
        """
        Use a verb that fits what `it` is.
        """,
        _card("""
            - id: auctioneer
              name: 拍卖师
        """, """
            when unsold:
              may:
                discard it
                money += 3
        """),
        path="advisors/example.yaml",
    ),
    _doc(
        R.PREVENT_OUTSIDE_HANDLER,
        """
        Finds `prevent` outside a `death`, `overthrown` or `event` handler.
        """,
        """
        `prevent` cancels what is about to happen; only a death, an overthrow and an event
        (for the card's owner) can be cancelled.
        """,
        _policy("""
            when reveal mild:
              prevent
        """, id="shut_the_door", name="拒之门外", stage=1, price=1),
        """
        Put it under `when death:` or `once when overthrown:`, or act on the cell instead
        (`remove it`).
        """,
        _policy("""
            when reveal mild:
              remove it
        """, id="shut_the_door", name="拒之门外", stage=1, price=1),
    ),
    _doc(
        R.USES_OUTSIDE_POLICY,
        """
        Finds `uses` (how many times this card was executed) in a card that is not a policy.
        """,
        """
        Only policies are executed, possibly several times (`price: [2, 3, 4]`); an advisor,
        event or combo has no count of executions.
        """,
        _card("""
            - id: investor
              name: 投资人
        """, """
            on setup:
              economy += uses
        """),
        """
        Use a number or another value.
        """,
        _card("""
            - id: investor
              name: 投资人
        """, """
            on setup:
              economy += 1
        """),
        path="advisors/example.yaml",
    ),
    _doc(
        R.VERB_WRONG_KIND,
        """
        Checks that a verb can act on the kind given: `cure` takes mild, `treat` severe,
        `infect` healthy, `worsen` mild, `kill` a living kind, `remove` any kind; `reveal`
        and `arrange` take tiles; `discard` takes only `it`.
        """,
        """
        `cure 1 severe` has no meaning in the game: curing turns a mild case into a healthy
        resident, and a severe case must first be treated.
        """,
        _policy("""
            on play:
              cure 1 severe
        """),
        """
        Use the verb that fits the kind, or the kind that fits the verb.
        """,
        _policy("""
            on play:
              treat 1 severe
        """),
    ),
    _doc(
        R.HANDLER_NOT_FOR_KIND,
        """
        Checks that each handler and declaration suits the card's kind: `on play` and
        `react` for policies, `on setup` for advisors, `on resolve` for events and combos;
        lasting handlers (`when …`, `on PHASE start`) and declarations only for advisors and
        policies.
        """,
        """
        A handler the card's kind never reaches would silently never run: an event is never
        "played", it is resolved when drawn.
        """,
        _card("""
            - id: charity
              name: 慈善捐款
        """, """
            on play:
              each player where policy > 0:
                money += 3
        """),
        """
        Use the handler of the card's kind.
        """,
        _card("""
            - id: charity
              name: 慈善捐款
        """, """
            on resolve:
              each player where policy > 0:
                money += 3
        """),
        path="events/example.yaml",
    ),
    _doc(
        R.DUPLICATE_HANDLER,
        """
        Finds the same handler twice in one card, such as two `on play:` blocks.
        """,
        """
        Both blocks run, which is rarely what was meant; usually a block was copied and the
        first one forgotten.
        """,
        _policy("""
            on play:
              medical += 1
            on play:
              money += 1
        """),
        """
        Merge the two blocks into one.
        """,
        _policy("""
            on play:
              medical += 1
              money += 1
        """),
    ),
    _doc(
        R.NO_SUCH_STAGE,
        """
        Checks stage numbers in `draw … from stage K`, `unlock stage K` and `unlocked(K)`:
        the game has stages 1, 2 and 3.
        """,
        """
        There is no deck for another stage to draw from or unlock.
        """,
        _policy("""
            on play:
              draw 2 from stage 4
        """, id="policy_reserve", name="政策储备"),
        """
        Use 1, 2 or 3.
        """,
        _policy("""
            on play:
              draw 2 from stage 3
        """, id="policy_reserve", name="政策储备"),
    ),
    _doc(
        R.KEEP_MORE_THAN_DRAWN,
        """
        Finds `draw N from stage K keep M` with M larger than N.
        """,
        """
        A player cannot keep more cards than were drawn; the numbers are probably swapped.
        """,
        _policy("""
            on play:
              draw 1 from stage 1 keep 3
        """, id="brainstorm", name="集思广益", stage=1, price=2),
        """
        Keep at most as many as are drawn.
        """,
        _policy("""
            on play:
              draw 3 from stage 1 keep 1
        """, id="brainstorm", name="集思广益", stage=1, price=2),
    ),
    _doc(
        R.REPEAT_TOO_MANY,
        """
        Finds `repeat N:` with N above 100.
        """,
        """
        A block repeated so often would stall the game; no card of this size needs it.
        """,
        _policy("""
            on play:
              repeat 1000:
                cure 1 mild
        """),
        """
        Use a smaller number, or an amount (`cure all mild`).
        """,
        _policy("""
            on play:
              cure all mild
        """),
    ),
    _doc(
        R.EMPTY_CHOICE,
        """
        Finds `choose NAME from A to B` with A larger than B, and `after N rounds:` with N
        below 1 — also through names whose values the text fixes (`let k = 0`, then
        `k += 1`, then `after k rounds:` is fine).
        """,
        """
        The player would have no number to pick, and the game stops with an error at that
        card.
        """,
        _policy("""
            on play:
              choose k from 3 to 0
              spend k
              medical += k
        """),
        """
        Write the smaller number first.
        """,
        _policy("""
            on play:
              choose k from 0 to 3
              spend k
              medical += k
        """),
    ),
    _doc(
        R.UNKNOWN_CARD,
        """
        Checks the quoted name in `played("…")`, `event("…")` and `happened("…")`: a policy
        (for `played`) or an event (for the other two) of the content, by id or by name.
        """,
        """
        A condition about a card that does not exist is never true, so the effect behind it
        would never happen, most often because of a typing mistake in the name.
        """,
        _policy("""
            on play:
              if played("医院扩建"):
                medical += 2
        """),
        """
        Write the card's `name:` or `id:` exactly (the message suggests the nearest).
        """,
        _policy("""
            on play:
              if played("医院扩容"):
                medical += 2
        """),
        context=(("policies/stage1.yaml", HOSPITAL),),
    ),
    _doc(
        R.WRONG_ARGUMENTS,
        """
        Checks what is inside the brackets of a call: `min(a, b)` and `max(a, b)` take two
        values, `abs(a)` one; `played`, `event` and `happened` take one quoted name,
        `unlocked` one stage number.
        """,
        """
        With a missing or extra value the result is undefined; a name without quotes is read
        as a value, not as a card.
        """,
        _policy("""
            on play:
              money += min(3)
        """),
        """
        Give the call what it takes; card names go in straight quotes.
        """,
        _policy("""
            on play:
              money += min(3, hand)
        """),
    ),
    _doc(
        R.NEEDS_CONDITION,
        """
        Checks that `if`, `elif`, `where`, `when:` and unlock conditions are true/false: a
        comparison (`money > 5`), a predicate (`played("…")`), or `and`/`or`/`not` of them.
        """,
        """
        `if money:` does not say what about money matters; the game does not guess.
        """,
        _policy("""
            on play:
              if money:
                money -= 1
                medical += 1
        """),
        """
        Compare the value with something.
        """,
        _policy("""
            on play:
              if money > 0:
                money -= 1
                medical += 1
        """),
    ),
    _doc(
        R.NEEDS_NUMBER,
        """
        Checks that arithmetic, amounts, prices and track changes use numbers, not a
        true/false condition, a quoted name or `it`.
        """,
        """
        `policy += money > 5` cannot be computed: "money is more than 5" is true or false,
        not an amount.
        """,
        _policy("""
            on play:
              policy += money > 5
        """),
        """
        Use an `if` for the condition and a number for the amount.
        """,
        _policy("""
            on play:
              if money > 5:
                policy += 1
        """),
    ),
    _doc(
        R.NAME_DEFINED_TWICE,
        """
        Finds a name made by `let`, `choose` or `as` made again where the first one is
        still visible.
        """,
        """
        Two values with one name make the effect ambiguous: which one does a later line
        mean?
        """,
        _policy("""
            on play:
              let n = mild // 2
              let n = severe
              cure n mild
        """),
        """
        Give the second value its own name.
        """,
        _policy("""
            on play:
              let n = mild // 2
              let m = severe
              cure n mild
              treat m severe
        """),
    ),
    _doc(
        R.RESERVED_NAME,
        """
        Finds a `let`, `choose` or `as` name that is already a word of the language: a
        track, a board count, a kind, a keyword or `it`.
        """,
        """
        `remove any infected as dead` would hide the board count `dead` for the rest of the
        block, and every later `dead` would mean something else.
        """,
        _policy("""
            on play:
              remove any infected as dead
              policy -= 2 * dead
        """, id="execute_infected", name="处决感染者", stage=3),
        """
        Choose another name, such as `n` or `removed`.
        """,
        _policy("""
            on play:
              remove any infected as n
              policy -= 2 * n
        """, id="execute_infected", name="处决感染者", stage=3),
    ),
    _doc(
        R.IT_NEVER_CHANGES,
        """
        Finds a verb on `it` that can never act on that cell: in a `reveal mild` handler
        `it` is mild, so `treat it` (severe → mild) does nothing.
        """,
        """
        The card would be played and paid for to no effect; usually the wrong verb was
        chosen.
        """,
        _policy("""
            react reveal mild:
              treat it
        """, id="shut_the_door", name="拒之门外", stage=1, price=1),
        """
        Use a verb that acts on what the trigger reveals.
        """,
        _policy("""
            react reveal mild:
              cure it
        """, id="shut_the_door", name="拒之门外", stage=1, price=1),
    ),
    _doc(
        R.NEVER_RUNS,
        """
        Finds an effect that can never do anything: no handler and no declaration, or an
        event or combo without `on resolve:`.
        """,
        """
        The card would be drawn, played and paid for with no effect at all.
        """,
        _policy("""
            # medical += 1
        """),
        """
        Write the handler of the card's kind, or mark the card `status: tbd` until its
        effect is decided.
        """,
        _policy("""
            on play:
              medical += 1
        """),
    ),
    _doc(
        R.DIVISION_BY_ZERO,
        """
        Finds `// 0`, also through a name the text makes 0 line after line (`let k = 5`,
        then `k -= 5`, then `6 // k`). A name changed inside an `if`, `may` or a loop may
        hold other values after it: dividing by it is RK236, a warning.
        """,
        """
        Dividing by zero has no result; the game would stop at that card.
        """,
        _policy("""
            on play:
              money += alive // 0
        """),
        """
        Divide by a number that is never 0.
        """,
        _policy("""
            on play:
              money += alive // 5
        """),
    ),
    _doc(
        R.NUMBER_OVERFLOW,
        """
        Works out arithmetic made of numbers alone (also through `let` names that hold
        one) and warns when a result is larger than 1,000,000,000, the largest number the
        game can hold.
        """,
        """
        The game stops with an error, naming the card, as soon as a number grows past the
        limit: a chain of `let b = a * a` doubles the digits each time.
        """,
        _policy("""
            on play:
              let a = 100000
              let b = a * a
              score += b
        """),
        """
        Use the numbers the card needs; no track holds more than 9,999.
        """,
        _policy("""
            on play:
              let a = 10
              let b = a * a
              score += b
        """),
    ),
    _doc(
        R.EFFECT_TOO_LONG,
        """
        Counts the steps a handler takes where the text shows them: each statement once, a
        `repeat N` block N times (blocks inside one another multiply), one step for each
        card of `draw N`, and for `count(player …)`, `highest(…)`, `lowest(…)` and
        `player with` one step per player (4 at most) each time they are read, their own
        steps included (counts inside counts multiply too). Warns when they pass 10,000,
        the most one effect may run.
        """,
        """
        The game stops with an error, naming the card, when one effect runs longer; a
        hundred `repeat 100` inside one another would otherwise keep a game busy for ever.
        """,
        _policy("""
            on play:
              repeat 100:
                repeat 100:
                  repeat 2:
                    cure 1 mild
        """),
        """
        Use smaller counts, or an amount that says it at once (`cure all mild`,
        `cure up to 5 mild`).
        """,
        _policy("""
            on play:
              cure all mild
        """),
    ),
    _doc(
        R.AMOUNT_OUT_OF_REACH,
        """
        Finds amounts the game can never hold: a track change larger than the track's whole
        range (`money += 1000000000` where money stops at 9,999), a `choose` reaching past
        9,999, or `spend`, `pay` or `may pay` of more money than a player can ever have.
        (Lowering `policy` past its floor is left alone: that overthrows the player.)
        """,
        """
        The card cannot do what it says: the track stops at its end, the payment can never
        be made, and a choice of a billion numbers cannot be offered to a player.
        """,
        _policy("""
            on play:
              money += 1000000000
        """),
        """
        Write the amount the card means, within the track's range (docs/rules.md lists them).
        """,
        _policy("""
            on play:
              money += 10
        """),
    ),
    _doc(
        R.DIVISION_BY_MAYBE_ZERO,
        """
        Finds `A // B` where B can be 0 when the game runs: a board count such as `dead`, a
        track that reaches 0, a `choose` from 0. It looks at what each name can hold, so
        `max(1, dead)`, `(dead + 1)` and `players` pass. Also in rules.yaml's unlock
        conditions, such as `unlock.stage2: "infected // dead > 1"`.
        """,
        """
        Dividing by 0 has no result: the game stops with an error, naming the card and the
        seed, the first time the value is 0 — for `dead`, in the first round.
        """,
        _policy("""
            on play:
              money += infected // dead
        """),
        """
        Divide by a value that cannot be 0, such as `max(1, dead)`.
        """,
        _policy("""
            on play:
              money += infected // max(1, dead)
        """),
    ),
    _doc(
        R.TRANSFER_OUTSIDE_PLAYER_BLOCK,
        """
        Finds `take` or `give` that is not inside a player block (`choose other player:`,
        `each other player:`, `player with …:`).
        """,
        """
        `take` moves things from the block's player to the player outside the block, and `give`
        the other way; outside a player block there is only one player, so nothing can move.
        """,
        _policy("""
            on play:
              take 2 money
        """),
        """
        Say whom the card takes from: choose a player, or visit each other player.
        """,
        _policy("""
            on play:
              choose other player:
                take 2 money
        """),
    ),
    _doc(
        R.IT_OR_PREVENT_IN_AFTER,
        """
        Finds `it` or `prevent` inside an `after N rounds:` block.
        """,
        """
        The block runs rounds later: the cell or card `it` stood for may be gone, and what
        `prevent` would cancel has already happened.
        """,
        _policy("""
            when death:
              after 1 rounds:
                prevent
        """),
        """
        Use `it` and `prevent` in the handler itself; in the `after` block, act by kind.
        """,
        _policy("""
            when death:
              prevent
              after 1 rounds:
                kill 1 severe
        """),
    ),
    _doc(
        R.UNKNOWN_COUNT,
        """
        Finds a `count(…)` of something other than `player`, `other player` or `played`.
        """,
        """
        Those are the things an effect can count with a condition; anything else has no
        meaning for the game.
        """,
        _policy("""
            on play:
              money += count(cards where price > 2)
        """),
        """
        Count players (`count(player where …)`) or the subject's played cards
        (`count(played where …)`); board counts are names of their own (`infected`, `dead`).
        """,
        _policy("""
            on play:
              money += count(played where price > 2)
        """),
    ),
    _doc(
        R.CARD_VALUE_OUTSIDE_COUNT,
        """
        Finds `stage` or `price` read outside `count(played where …)`.
        """,
        """
        `stage` and `price` are the values of each played card that `count(played where …)`
        looks at; elsewhere there is no card to read them from.
        """,
        _policy("""
            on play:
              money += price
        """),
        """
        Count the cards you mean, or write the number.
        """,
        _policy("""
            on play:
              money += count(played where price >= 3)
        """),
    ),
    _doc(
        R.UNKNOWN_SKIP,
        """
        Finds `skip` followed by something other than a spread step that can be skipped:
        `contagion`, `dead_contagion`, `deaths` or `worsening`.
        """,
        """
        `skip` makes one step of the spread phase do nothing on its owner's board. Discovery
        cannot be skipped: without it a board could never be fully revealed.
        """,
        _policy("""
            skip contagon
        """),
        """
        Name the step as the rules do.
        """,
        _policy("""
            skip contagion
        """),
    ),
    _doc(
        R.COUNTER_NAME,
        """
        Finds a number a card keeps (`counters:`) under a name the language already uses: a
        track, a board count, a keyword.
        """,
        """
        `uses_left -= 1` must mean the card's own number; a counter named `money` or `dead`
        would hide the track or the count, and `uses_left` is clearer anyway.
        """,
        _policy("""
            on play:
              money += 1
        """, extra="\n  counters: {money: 3}"),
        """
        Give the counter a name of its own.
        """,
        _policy("""
            on play:
              charges -= 1
        """, extra="\n  counters: {charges: 3}"),
    ),
    _doc(
        R.TRANSFER_OR_UNIT_WORD,
        """
        Finds what `take`/`give` cannot move (only a track, `money` or `cards`), `take`/`give`
        with `any` or `up to`, `may discard` with something other than cards, and `after N`
        with a unit other than `rounds`.
        """,
        """
        These words shape the statement: with another word the card would not say what moves,
        or when its block runs.
        """,
        _policy("""
            on play:
              choose other player:
                take 1 tiles
        """),
        """
        Move a track, money or cards; count time in rounds.
        """,
        _policy("""
            on play:
              choose other player:
                take 1 cards
        """),
    ),
    _doc(
        R.BOTS_CANNOT_READ,
        """
        Names each policy and advisor with a part the greedy bots (`rulekit play`, `rulekit
        playtest`) cannot value from its text, and says which part and why. Today that is
        `move`: where a moved resident goes, and what it then spares, depends on the layout of
        the board, which the bots' reading of a card does not look at.
        """,
        """
        The playtest numbers come from the bots. A card they misjudge is played too little or
        too much, and its win rate says more about the bots than about the card. For such a
        policy the bots measure instead: when they could play it, they play two copies of the
        game on to the end of the round, one with the card and one without, and compare where
        they stand (a few dozen decisions each; see docs/playtest.md). That is slower and
        rougher than reading, so a playtest of cards like this takes longer and is noisier.
        An advisor is chosen before any round is played: the bots count the part they cannot
        read as worth nothing. It is a note: nothing is wrong with the card.
        """,
        _policy("""
            on play:
              move up to 2 infected as n
              money += n
        """, id="evacuation", name="疏散", stage=1, price=2),
        """
        Nothing to fix: the note says how the bots will judge the card. If you would rather
        they read it, say what it does in other words (here, `remove up to 2 infected` would
        take the residents off the board instead of moving them), or hide the note with
        `--ignore RK244`.
        """,
        _policy("""
            on play:
              remove up to 2 infected as n
              money += n
        """, id="evacuation", name="疏散", stage=1, price=2),
    ),
    _doc(
        R.PARAM_CHANGED,
        """
        Finds an effect that changes a parameter of its card (a name under `params:`) with
        `=`, `+=` or `-=`.
        """,
        """
        A parameter is a number the designer sets once, beside the effect, so that it can be
        read at a glance and tuned (`rulekit tune CARD --field params.NAME`) without touching the
        effect. An effect that changed it would make the number beside the effect untrue.
        """,
        _policy("""
            on play:
              money += gain
              gain += 1
        """, extra="\n  params: {gain: 2}"),
        """
        Read the parameter into a name of the effect's own (`let n = gain`) and change that; or, for
        a number the card keeps and changes while in play, use `counters:` instead.
        """,
        _policy("""
            on play:
              let n = gain + 1
              money += n
        """, extra="\n  params: {gain: 2}"),
    ),
    _doc(
        R.PARAM_NAME,
        """
        Finds a parameter (`params:`) under a name the language already uses — a track, a board
        count, a keyword, `stage` or `price` — or under the name of one of the card's counters.
        """,
        """
        `money += gain` must mean the card's own number. A parameter named `money` or `dead` would
        hide the track or the count, and one named like a counter would leave it unclear which of
        the two the effect reads.
        """,
        _policy("""
            on play:
              score += 1
        """, extra="\n  params: {score: 2}"),
        """
        Give the parameter a name of its own, and read it in the effect.
        """,
        _policy("""
            on play:
              score += bonus
        """, extra="\n  params: {bonus: 2}"),
    ),
    _doc(
        R.PARAM_UNREAD,
        """
        Finds a parameter (`params:`) that the card's effect never reads.
        """,
        """
        Changing it — by hand or with `rulekit tune` — would change nothing, which is nearly always
        a misspelt name or a number left over from an older effect.
        """,
        _policy("""
            on play:
              money += 2
        """, extra="\n  params: {gain: 2}"),
        """
        Read the parameter where the number belongs, or remove it from `params:`.
        """,
        _policy("""
            on play:
              money += gain
        """, extra="\n  params: {gain: 2}"),
    ),
    _doc(
        R.SELF_COMPARISON,
        """
        Finds a comparison whose two sides are written the same, such as `money > money`.
        """,
        """
        Both sides read the same value of the same player, so the comparison is always false (`<`, `>`,
        `!=`) or always true (`==`, `<=`, `>=`): a block under it never runs, or always does. It is
        nearly always meant as "more than mine": inside `each player where …` every name reads that
        player, so the owner's own value has to be noted first.
        """,
        _policy("""
            on play:
              each other player where money > money:
                money -= 1
        """),
        """
        Note the owner's value with `let` before the player block and compare with that.
        """,
        _policy("""
            on play:
              let mine = money
              each other player where money > mine:
                money -= 1
        """),
    ),
    _doc(
        R.NEXT_TO,
        """
        Finds `next to` after a statement that is not a board verb (`reveal`, `move`, `take`…), with
        a word that is not a kind of resident, or as `next to it` where `it` is a card.
        """,
        """
        `next to` narrows the residents a board verb may pick to those orthogonally next to a kind
        (or to the trigger's cell); a statement that picks no residents, or an `it` that is no cell,
        leaves it nothing to mean.
        """,
        _policy("""
            when unsold:
              cure all mild next to it
        """),
        """
        Use `next to it` in a trigger whose `it` is a cell, or name a kind.
        """,
        _policy("""
            when reveal mild:
              cure all mild next to it
        """),
    ),
    _doc(
        R.UNKNOWN_SHIELD_SOURCE,
        """
        Checks the sources after `shield … from`: `events`, `combos` and `players` (other players'
        cards).
        """,
        """
        A shield with `from` stops only the losses its sources cause; a source the game does not know
        would stop nothing, and the card would promise a protection it never gives.
        """,
        _policy("""
            shield medical from event
        """, id="storm_cellar", name="防灾地窖"),
        """
        Write `from events`, `from combos` or `from players`, or several (`from events, combos`);
        without `from`, the shield stops all three.
        """,
        _policy("""
            shield medical from events
        """, id="storm_cellar", name="防灾地窖"),
    ),
    _doc(
        R.UNKNOWN_SEAL_DIRECTION,
        """
        Checks the word after `seal border`: `in` (the same as `seal border` alone), `out` or `both`.
        """,
        """
        The direction says which contagion the border stops: others' coming in, mine going out, or
        both; any other word would leave that unsaid.
        """,
        _policy("""
            seal border outward
        """, id="export_ban", name="出境管制"),
        """
        Write `seal border out` (or `in`, or `both`).
        """,
        _policy("""
            seal border out
        """, id="export_ban", name="出境管制"),
    ),
    _doc(
        R.LIMIT_NOT_A_TRACK,
        """
        Checks the word after `floor` or `ceiling`: one of the tracks `medical`, `disease`,
        `policy`, `score`, `economy`.
        """,
        """
        A floor or a ceiling holds a track at every change; money and the hand are not tracks (a
        floor on money would refuse prices and bids the player chose). A misspelt track would hold
        nothing.
        """,
        _policy("""
            floor money 3
        """, id="safety_net", name="安全网"),
        """
        Put the floor on a track; to keep money from others, write `shield money`.
        """,
        _policy("""
            shield money
        """, id="safety_net", name="安全网"),
    ),
    _doc(
        R.FORESEE_LIMIT,
        """
        Finds a `foresee N events` or `arrange N events` whose N can come to less than 0 or more
        than 10, by the values the text lets N take.
        """,
        """
        A look at the event deck has a ceiling, like every number content can grow: `arrange` asks a
        question for each event looked at, and a look of `money` events could ask thousands. The
        game stops with an error when a look passes its limit; lint says so first.
        """,
        _policy("""
            on play:
              arrange money events
        """),
        """
        Put a ceiling on the number with `min(…, 10)`, or write the number of events.
        """,
        _policy("""
            on play:
              arrange min(money, 3) events
        """),
    ),
    _doc(
        R.SEAT_WORD,
        """
        Finds a player by turn order written with a word the language does not take there: anything but
        `after` or `before` in `player … me:`, anything but `first` in `… player:`, or `player after me:`
        in an event, which has no owner to be after.
        """,
        """
        `player after me:` and `player before me:` name the player next to the card's owner in this round's
        turn order, and `first player:` the round's first player; a misspelt word would otherwise name
        nobody, and the block would silently never run.
        """,
        _policy("""
            on play:
              player aftr me:
                money -= 1
        """),
        """
        Write `after` or `before` between `player` and `me`, or `first player:`.
        """,
        _policy("""
            on play:
              player after me:
                money -= 1
        """),
    ),
    _doc(
        R.OTHER_MOMENT,
        """
        Finds another player's moment where a card cannot hear it: `when other` before a trigger other than
        `unsold`, `cure` or `play`; `react other …` (a card in hand reacts to its owner's own moments);
        `that player:` outside a `when other …` handler or inside its `after`; `discard it` in
        `when other unsold` (the card is in the other player's hand).
        """,
        """
        A card in play hears another player's unsold offer, cure and play, after that player's own cards, in
        turn order; anything else written so would never run, or would act on a card that is not yours.
        """,
        _policy("""
            when other reveal:
              money += 1
        """),
        """
        Hear one of the moments a card can hear of another player, or write the trigger for your own.
        """,
        _policy("""
            when other cure:
              money += 1
        """),
    ),
    _doc(
        R.CELL_TAG,
        """
        Finds `tag it WORD` or `untag it WORD` where WORD is no tag of the language, a
        misspelt `tag`/`untag` (or another verb followed by a word after `it`), and `tag it` where
        `it` is a card.
        """,
        """
        A tag has a fixed meaning the spread respects (`sheltered`: infects no one, neither
        worsens nor dies); a word the language does not know has none, so the card would tag
        nothing. A card cannot hold a tag: only a cell can.
        """,
        _policy("""
            on play:
              choose cell with mild:
                tag it shelterd
        """),
        """
        Write a tag of the table in language.md section 7 (`sheltered`), on a cell `it`: inside
        `choose cell:` or a trigger whose `it` is a cell.
        """,
        _policy("""
            on play:
              choose cell with mild:
                tag it sheltered
        """),
    ),
    _doc(
        R.CHOOSE_CELL,
        """
        Finds a `choose WORD:` block whose word is not `cell` (a misspelt `choose cell:`, or a
        `choose NAME` that lost its `from … to …`), and `choose cell with KIND:` where KIND is no
        kind of resident.
        """,
        """
        `choose cell:` lets the card's owner pick one cell of the subject's board, which is `it` in
        the block; with a word the language does not know, nothing says what to pick, or among which
        residents.
        """,
        _policy("""
            on play:
              choose cel with mild:
                cure it
        """),
        """
        Write `choose cell:` (any revealed cell) or `choose cell with KIND:` (a cell holding that
        kind: healthy, mild, severe, dead, infected, alive or resident).
        """,
        _policy("""
            on play:
              choose cell with mild:
                cure it
        """),
    ),
    _doc(
        R.ROLL_LIMIT,
        """
        Finds a `roll(N)` whose number of sides can come to less than 1 or more than 100, or a
        `roll(N, rerolls K)` whose rerolls can come to less than 0 or more than 10, by the values
        the text lets N and K take.
        """,
        """
        A die has a ceiling, like every number content can grow (docs/language.md, Limits): a die
        of `money` sides could be a die of thousands, and rerolls without a ceiling a question that
        never ends. The game stops with an error when a roll passes its limit; lint says so first.
        """,
        _policy("""
            on play:
              money += roll(money)
        """),
        """
        Put a ceiling on the number with `min(…, 100)`, or write the number of sides.
        """,
        _policy("""
            on play:
              money += roll(min(money, 6))
        """),
    ),
    _doc(
        R.ROLL_OUTSIDE_EFFECT,
        """
        Finds `roll(…)` in a declaration (`modify … by roll(6)`), in a combo's `when:` or in an
        unlock condition: places that are read, not run.
        """,
        """
        A declaration or a condition is read again whenever the game needs its value (each
        spread step, each check), so a die there would be rolled over and over, and each reading
        would differ. A die is rolled once, when an effect's statement runs.
        """,
        _policy("""
            modify new_mild by roll(2)
        """),
        """
        Roll in a handler, and keep the result where the declaration reads it (a counter), or
        change the track directly.
        """,
        _policy("""
            on play:
              disease -= roll(2)
        """),
    ),
    _doc(
        R.MARK_MISUSED,
        """
        Finds `mark` outside an event's `on resolve:` (in a policy or advisor, or in a marking event's
        phase handler), `mark 0`, and `marks` read in a card that leaves no mark.
        """,
        """
        A mark is what an event leaves on players when it happens; its phase handlers then run for
        each player carrying it. A card already in play needs no mark, a phase handler runs for those
        already marked, and a card that leaves no mark has no stacks to read.
        """,
        _card("""
            - id: poison_fog
              name: 毒雾
        """, """
            on resolve:
              each player:
                medical -= marks
        """),
        """
        Leave the mark in `on resolve:`, inside a player block; the event's phase handler then runs
        for every player carrying it, and reads `marks`.
        """,
        _card("""
            - id: poison_fog
              name: 毒雾
        """, """
            on resolve:
              each player:
                mark
            on round end:
              medical -= marks
        """),
        path="events/example.yaml",
    ),
    _doc(
        R.COUNTER_START,
        """
        Finds a counter whose first value (`counters: {NAME: "= EXPR"}`) reads a counter of the
        card: its own or another one.
        """,
        """
        The first value is worked out once, as the card enters play, from the game so far; at that
        moment no counter has a value yet, so reading one would read nothing meant.
        """,
        _policy("""
            on round end:
              money += max(0, dead - seen)
        """, extra='\n  counters: {seen: "= seen + dead"}'),
        """
        Work the first value out from the tracks, the board counts and the card's `params:`.
        """,
        _policy("""
            on round end:
              money += max(0, dead - seen)
        """, extra='\n  counters: {seen: "= dead"}'),
    ),
    _doc(
        R.THEY_CHOOSE,
        """
        Finds `they choose:` outside another player's block (where the subject is the card's owner),
        or in an event (which has no owner: each player already chooses in their own block).
        """,
        """
        `they choose:` hands the block's choices on the board from the card's owner to the block's
        player; where the two are the same, or there is no owner, it changes nothing, and the
        card probably meant it somewhere else.
        """,
        _policy("""
            on play:
              they choose:
                cure 1 mild
        """),
        """
        Put it inside the block of the player who should choose.
        """,
        _policy("""
            on play:
              choose other player:
                they choose:
                  cure 1 mild
        """),
    ),
    _doc(
        R.CAUSE,
        """
        Finds `caused_by(…)` outside the handler of a trigger (`when …`, `once when …`, `react …`), inside
        its `after`, or with a word that is not a cause (`event`, `combo`, `mine`, `others`, `card`).
        """,
        """
        What made a moment happen is known only while the trigger's handler runs; elsewhere there is no
        moment to ask about, and a misspelt cause would always be false.
        """,
        _policy("""
            when cure:
              if caused_by(evnt):
                money += 1
        """),
        """
        Write one of the causes, or a card's name in quotes.
        """,
        _policy("""
            when cure:
              if caused_by(event):
                money += 1
        """),
    ),
    _doc(
        R.DRAFT_IN_PLAYER_BLOCK,
        """
        Finds `draft N from stage K` inside a player block (`each player:`, `choose player:`,
        `player with …:`, `me:`).
        """,
        """
        One draft already goes round the whole table: every player takes a card in turn order.
        Inside a player block it runs once for each player the block visits, laying out new cards
        each time, so every player takes several.
        """,
        _policy("""
            on play:
              each player:
                draft 2 from stage 1
        """),
        """
        Write `draft` once, outside the block.
        """,
        _policy("""
            on play:
              draft players + 1 from stage 1
        """),
    ),
    _doc(
        R.BECOMES_NEEDS_ONCE,
        """
        Finds `when becomes COND:` written without `once`.
        """,
        """
        A condition that holds may go on holding for rounds; `becomes` means the moment it first
        holds, which comes once in a game, so the block runs once: `once` says so.
        """,
        _policy("""
            when becomes healthy == 0:
              score += 3
        """),
        """
        Write `once when becomes`; for every round it holds, check it in a handler (`on round end:`
        then `if …:`).
        """,
        _policy("""
            once when becomes healthy == 0:
              score += 3
        """),
    ),
    _doc(
        R.BECOMES_NEVER_CHANGES,
        """
        Finds a `once when becomes` condition that reads nothing of the game: only numbers and the
        card's `params:`.
        """,
        """
        Such a condition never changes: the block runs as soon as the card is in play (or never),
        which an `on play:` says plainly.
        """,
        _policy("""
            once when becomes 1 > 0:
              score += 3
        """),
        """
        Compare something of the game: a track, a board count, `round`, `hand`, a counter.
        """,
        _policy("""
            once when becomes round > 5:
              score += 3
        """),
    ),
    # ---- RK3xx: the content folder as a whole ---------------------------------------------
    _doc(
        R.DUPLICATE_ID,
        """
        Finds two cards with the same `id`, across all files and kinds.
        """,
        """
        Cards, scenarios and game logs name cards by id; with two cards under one id, any of
        them could be meant.
        """,
        HOSPITAL + """
- id: hospital_expansion
  name: 野战医院
  stage: 2
  price: 3
  effect: |
    on play:
      medical += 2
""",
        """
        Give one of the cards a new id (snake_case letters, digits and `_`).
        """,
        _with_field_hospital("野战医院"),
    ),
    _doc(
        R.DUPLICATE_NAME,
        """
        Finds two cards of the same kind with the same `name`. Names that Unicode writes in
        two ways but that look the same (é as one character, or as e and an accent) count
        as the same name.
        """,
        """
        Other cards refer to cards by name (`played("医院扩容")`); two policies with one
        name make that ambiguous, and players could not tell the cards apart.
        """,
        _with_field_hospital("医院扩容"),
        """
        Rename one of the cards.
        """,
        _with_field_hospital("野战医院"),
    ),
    _doc(
        R.COMBO_NEVER_FIRES,
        """
        Finds a combo whose `when:` can never be true because a card it needs is never in
        play: marked `status: tbd` (left out of the decks) or with `copies: 0`.
        """,
        """
        Such a combo is dead text: no game can ever show it. Usually the card it waits for
        has not been designed yet.
        """,
        """
        - id: quiet_graves
          name: 入土为安
          when: played("公共墓园")
          effect: |
            on resolve:
              policy += 1
        """,
        """
        Design the card the combo needs (give it an effect and a status other than `tbd`, and
        copies), or change the combo's condition.
        """,
        """
        - id: quiet_graves
          name: 入土为安
          when: played("医院扩容")
          effect: |
            on resolve:
              policy += 1
        """,
        path="combos/example.yaml",
        context=(("policies/stage1.yaml", HOSPITAL + """
- id: public_cemetery
  name: 公共墓园
  stage: 1
  status: tbd
"""),),
    ),
    _doc(
        R.SMALL_STAGE,
        """
        Counts the policy cards of each stage (copies included) and warns when a stage has
        fewer than the players of rules.yaml (`players:`, 4 by default).
        """,
        """
        Each player draws from these decks, and cards like `draw 5 from stage 3 keep 3`
        draw several at once; a deck this small runs dry in the first rounds.
        """,
        """
        - id: hospital_expansion
          name: 医院扩容
          stage: 1
          price: 2
          copies: 4
          effect: |
            on play:
              medical += 1
        - id: vaccination
          name: 疫苗接种
          stage: 2
          price: 3
          copies: 4
          effect: |
            modify new_mild by -uses min 1
        - id: emergency_plan
          name: 应急预案
          stage: 3
          price: 5
          copies: 1
          effect: |
            on play:
              draw 5 from stage 3 keep 3
        """,
        """
        Add cards or copies to the stage, or lower `players:` if the game is meant for
        fewer.
        """,
        """
        - id: hospital_expansion
          name: 医院扩容
          stage: 1
          price: 2
          copies: 4
          effect: |
            on play:
              medical += 1
        - id: vaccination
          name: 疫苗接种
          stage: 2
          price: 3
          copies: 4
          effect: |
            modify new_mild by -uses min 1
        - id: emergency_plan
          name: 应急预案
          stage: 3
          price: 5
          copies: 4
          effect: |
            on play:
              draw 5 from stage 3 keep 3
        """,
    ),
    _doc(
        R.PROPOSED_CARDS,
        """
        Counts the cards marked `status: proposed`: an effect or a value suggested where the
        design document gives none.
        """,
        """
        Proposed cards play like designed ones, but they are suggestions; the count is a
        reminder of the decisions the designer still has to make. It is a note, not a
        problem: `rulekit lint` still exits 0.
        """,
        """
        - id: hygiene_kits
          name: 派发卫生用品
          stage: 1
          price: 1
          status: proposed
          effect: |
            on play:
              disease -= 1
        """,
        """
        Decide: keep the card as it is and remove `status: proposed` (it becomes designed),
        change it, or delete it. `rulekit lint --list proposed` names every proposed card with
        its file and line. To hide the count, `--ignore RK305`.
        """,
        """
        - id: hygiene_kits
          name: 派发卫生用品
          stage: 1
          price: 1
          effect: |
            on play:
              disease -= 1
        """,
    ),
    _doc(
        R.TBD_CARDS,
        """
        Counts the cards marked `status: tbd`: cards the document names but whose effect is
        not written yet.
        """,
        """
        tbd cards are left out of the decks, so games are played without them. The count is
        a reminder, not a problem: `rulekit lint` still exits 0.
        """,
        """
        - id: hygiene_kits
          name: 派发卫生用品
          stage: 1
          price: 1
          status: tbd
        """,
        """
        Write the card's effect and remove `status: tbd` (or mark it `proposed`).
        `rulekit lint --list tbd` names every tbd card with its file and line. To hide the
        count, `--ignore RK306`.
        """,
        """
        - id: hygiene_kits
          name: 派发卫生用品
          stage: 1
          price: 1
          effect: |
            on play:
              disease -= 1
        """,
    ),
    _doc(
        R.FEW_ADVISORS,
        """
        Counts the advisors and warns when there are fewer than two for each player of
        rules.yaml (`players:`, 4 by default).
        """,
        """
        At setup each player draws 2 advisors and keeps one. With fewer advisors the last
        players get one to keep without a choice, or none at all.
        """,
        """
        - id: tycoon
          name: 富商巨贾
          effect: |
            on setup:
              money += 5
        """,
        """
        Write more advisors, or set fewer `players:` in rules.yaml.
        """,
        """
        - id: tycoon
          name: 富商巨贾
          effect: |
            on setup:
              money += 5
        - id: epidemiologist
          name: 疾病专家
          effect: |
            on setup:
              medical += 2
        - id: beloved
          name: 受爱戴者
          effect: |
            on setup:
              policy += 2
        - id: investor
          name: 投资妙手
          effect: |
            on setup:
              economy += 1
        """,
        path="advisors/example.yaml",
        context=(("rules.yaml", "players: 2\n"),),
    ),
    _doc(
        R.NAME_IS_ANOTHER_ID,
        """
        Finds a card whose `name` is the `id` of another card (of any kind).
        """,
        """
        A card is referred to by its id or by its name (`played("hospital_expansion")`,
        `event("大罢工")`). A card named like another card's id makes that reference mean
        either card: a player who plays the impostor would count as having played the
        real one.
        """,
        _with_field_hospital("hospital_expansion"),
        """
        Give the card a name of its own (names are what players read, in Chinese).
        """,
        _with_field_hospital("野战医院"),
    ),
)
