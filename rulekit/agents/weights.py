"""The weights of the greedy agent's estimate: what each thing a card does is worth, in points (one point of
score is the unit). Every number here is a guess a designer can read and change; the rules' own numbers
(ranges, formulas, vocabulary) come from the registry, the rules in force and rulekit/core/quantities.py.
"""

from __future__ import annotations

from rulekit import registry

MONEY = 0.3           # a coin, in points: about what a coin buys elsewhere
LASTING = 0.6         # discount on effects that repeat every round: the future is uncertain
LATER = 0.9           # discount for each round an `after N rounds:` block waits
OTHERS = 0.25         # what another player's gain costs me (a point for them = -0.25 for me)
PER_ROUND = {"medical": 0.45, "disease": -0.6, "economy": MONEY}
DRAW = {1: 1.0, 2: 1.5, 3: 2.0}   # a card kept from a draw, by stage
REVEAL = 0.3          # a tile revealed early: a fully revealed board scores each event phase, less the risk
PRICE = 2             # a typical price, the base a `modify price` works on
# A modified quantity: (points per unit per round, +1 if more is better / -1 if less is better).
# `price`: about one card played a round, so a coin off every price is a coin a round.
QUANTITY = {"new_mild": (0.8, -1), "new_severe": (0.6, -1), "new_dead": (1.2, -1), "income": (MONEY, 1),
            "mild_cost": (0.5, -1), "severe_cost": (0.4, -1), "bury_cost": (0.1, -1),
            "relocate_cost": (0.05, -1), "discovery": (REVEAL, 1), "price": (MONEY, -1)}
# Beyond the score a change of cell state scores (cure +1, death -1): what it does to the spread.
TRANSITION = {("mild", "healthy"): 0.5, ("severe", "mild"): 0.9, ("healthy", "mild"): -1.0,
              ("mild", "severe"): -0.8, ("healthy", "dead"): -0.6, ("mild", "dead"): -0.6,
              ("severe", "dead"): -0.3, ("dead", "empty"): 1.0, ("severe", "empty"): 0.9,
              ("mild", "empty"): 0.5, ("healthy", "empty"): -1.2,
              ("dead", "healthy"): 1.5}       # revive: a dead that infects no more, and a healthy resident
# A resident by its state, for comparing two whole positions (the lookahead): about TRANSITION's steps.
RESIDENT = {"healthy": 0.4, "mild": -0.5, "severe": -1.4, "dead": -1.7}
# Which residents a verb takes first when it may take several states (the agent answers the same way).
VERB_ORDER = {"cure": ("mild",), "treat": ("severe",), "infect": ("healthy",), "worsen": ("mild",),
              "kill": ("severe", "mild", "healthy"), "remove": ("dead", "severe", "mild", "healthy"),
              "revive": ("dead",)}
# What each verb leaves a cell as, and which cell states each kind covers: the registry's, but for the
# verbs the reading cannot value (UNREADABLE, below).
VERB_TO = {name: verb.target for name, verb in registry.VERBS.items() if name != "move"}
KIND_STATES = registry.KIND_STATES
# The kinds that cover several states (a count of them is the sum of theirs).
DERIVED = {kind: states for kind, states in KIND_STATES.items() if len(states) > 1}
STATES = ("healthy", "mild", "severe", "dead", "tiles")
# The state of `it` in a handler of each trigger (a cure's cell is healthy by then), and how often a
# trigger comes per round (death and cure: from the board, see handler_worth).
IT_STATE = {"reveal mild": "mild", "reveal healthy": "healthy", "reveal": "mild", "death": "severe",
            "death severe": "severe", "death mild": "mild", "death healthy": "healthy", "cure": "healthy"}
# `becomes` (`once when becomes COND:`): the reading cannot tell when a condition first holds; a once-trigger
# that comes now and then.
TRIGGER_RATE = {"becomes": 0.2, "reveal": 2.0, "reveal mild": 0.4, "reveal healthy": 1.6, "unsold": 0.3, "event": 1.0,
                "play": 1.0, "death mild": 0.2, "death healthy": 0.1}
# A death prevented is worth what it would have cost: the point, the resident, the dead's contagion.
# An overthrow prevented keeps the player in the game. An event prevented: its worth to me, read (over_events).
PREVENT = {"death": 1.6, "death severe": 1.6, "death mild": 1.9, "death healthy": 1.9, "overthrown": 20.0}
DISCARD = 0.2         # a card from hand given up (`discard`, `may discard`), or given away (`give … cards`)
TAKEN_CARD = DRAW[1]  # a card taken at random from another hand: about a kept stage-1 card
CHANCE = {"event": 0.15, "happened": 0.3}   # unknown future events, as a probability
SHIELD_OTHERS = 0.1   # a round of a shielded target, against other players' cards (beside the events read)
# `skip STEP`: the quantity the step works through, and the residents it takes.
SKIP = {"contagion": ("new_mild", "healthy"), "worsening": ("new_severe", "mild"), "deaths": ("new_dead", "severe")}
# What the reading cannot value from the text, and why (the agent looks ahead instead).
UNREADABLE = {"move": "`move` (where the resident goes, and whom it then spares, depends on the board's layout, "
                      "which the reading does not look at)",
              "next to": "`next to` (which residents sit next to a kind, or to the trigger's cell, depends on the "
                         "board's layout, which the reading does not look at)",
              "while": "`while` (whether the declaration holds depends on how the condition changes over the game, "
                       "which the reading does not follow)",
              "from": "`shield … from` (how much of the harm comes from the sources named is not something the "
                      "reading tells apart)",
              "seal out": "`seal border out` (whom my contagion would reach depends on the board's layout, which "
                          "the reading does not look at)",
              "floor": "`floor`/`ceiling` (which changes a bound cuts depends on where the track goes, which the "
                       "reading does not follow)",
              "others' moments": "another player's moment (`when other …`: how often the others' offers go unsold, "
                                 "their residents are cured or their cards played is theirs, which the reading does "
                                 "not follow)",
              "cause": "`caused_by` (what made a moment happen, an event, a combo or whose card, is the game's, "
                       "which the reading does not follow)",
              "turn order": "turn order (`player after me:`, `first player:`, `turn`: who sits where this round "
                            "depends on the round and on who is out, which the reading does not follow)",
              "residents": "`take`/`give` of residents (which resident goes, and where it lands on the other board, "
                           "depends on the boards' layout, which the reading does not look at)",
              "tags": "a tag on a cell (`tag it`, count(TAG): what it spares depends on the cell and its "
                         "neighbours, which the reading does not look at)",
              "choose cell": "`choose cell` (which cell is worth choosing, and what its block then does to it and "
                             "around it, depends on the board's layout, which the reading does not look at)",
              "counter start": "a counter's first value worked out when the card enters play (`counters: {NAME: "
                               "\"= EXPR\"}`), which the reading does not work out",
              "event deck": "`foresee`, `arrange … events` or `reshuffle … events` (what seeing or reordering the "
                            "next events is worth depends on the order of the deck, which the reading does not look "
                            "at)"}

TRACKS = ("medical", "disease", "policy", "score", "economy", "money")
TRACK_INDEX = {name: k for k, name in enumerate(TRACKS)}
STATE_INDEX = {name: k for k, name in enumerate(STATES)}
# The reading keeps to the game's own limits (registry.LIMITS): a number past the ceiling fails its
# statement (worth nothing, as any statement the reading cannot read), and one reading runs at most
# as many statements as one effect may, counted over every answer it weighs; what is left unread then
# is worth nothing. So no card's text can make a decision hang.
MAX_NUMBER = registry.MAX_NUMBER
MAX_REPEAT = registry.MAX_REPEAT
WORK = registry.LIMITS["effect_steps"].value
