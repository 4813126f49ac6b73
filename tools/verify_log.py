#!/usr/bin/env python3
"""Reference verifier of an Epic War campaign log, written from the documents alone, standard library only.

    epicwar log --raw --db DIR > campaign.raw && python3 tools/verify_log.py campaign.raw    (no file or "-": stdin)

Checks the hash chain and the envelope's members (docs/storage.md, "The raw log"), every order commitment against its
reveal (docs/secrets.md), every player's seed commitment before its turn's TurnStarted, every seed against its
commitment and every roll against the seeds (docs/fair-dice.md; on a branch, the seeds made afresh after its fork:
docs/replays.md), each roll's form at once (pending or not), what the battle kit's dice mean (docs/battle-kit.md:
conditions, Gravity Flux levels, saves, TK damage, what they destroy, barrage hits), every signed command against its
party's key in force, that no event of a party with a key in force goes unsigned, and that recorded times never go
back (docs/signatures.md). Prints what it checked and exits 0, or exits 1 naming the first failure: the
chain's, else the earliest by seq.

    python3 tools/verify_log.py --proof PROOF.json [campaign.raw]

With --proof (a file `epicwar audit` wrote against a server, docs/signatures.md): checks the receipt in it by the
server's key it names, that the entries in it are the ones that receipt signed (they chain from its `from` head to its
`view`), and compares them with the raw log's events at the same seqs, or, without a raw log, with the entries of the
log as served that the proof holds. Exits 1 naming the first event that is not what the server showed the seat.
"""
import hashlib
import hmac
import json
import re
import sys
from datetime import datetime

import ed25519

GENESIS = "0" * 64
ENVELOPE = {"actor", "at", "command", "data", "prev", "seq", "stream", "type", "version"}
COMMAND_DOMAIN = "epicwar-command/1"
RECEIPT_DOMAIN = "epicwar-receipt/1"
PROOF_FORMAT = "epicwar-view-proof/1"
VIEW_ENTRY = {"actor", "at", "data", "hidden", "seq", "stream", "type", "version"}
SCALARS = (str, int, float, bool)
ORDERS = ("firstFire", "advance", "charge", "fortify")
HEX = re.compile(r"[0-9a-f]+\Z")


class Failure(Exception):
    def __init__(self, seq, what):
        super().__init__(f"seq {seq}: {what}" if seq is not None else what)


def sha256_hex(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def order_commitment(campaign, turn, army, order, salt):
    # RFC 8785 for an object of ASCII ids, hex and an integer: keys sorted, no white space.
    if not (isinstance(turn, int) and not isinstance(turn, bool) and order in ORDERS and isinstance(salt, str) and HEX.match(salt)):
        return None
    return sha256_hex(json.dumps({"army": army, "campaign": campaign, "order": order, "salt": salt, "turn": turn}, sort_keys=True, separators=(",", ":")))


def die(campaign, turn, host_seed, player_seeds, index, sides=6):
    limit, block = 256 - 256 % sides, 0
    while True:
        message = "|".join(["epicwar-die", campaign, str(turn), str(index), *player_seeds, str(block)])
        for byte in hmac.new(host_seed.encode("utf-8"), message.encode("utf-8"), hashlib.sha256).digest():
            if byte < limit:
                return byte % sides + 1
        block += 1


SCENARIOS = ("meetingEngagement", "attackDefense", "annihilation", "breakout", "recover", "assassination", "pincer")
# K3's d6 tables (docs/fair-dice.md, "The kit's data"): each band's id by face, 1 to 6.
CONDITION_TABLES = {
    "light": ("darkestBeforeDawn", "twilightOfTheGods", "twilightOfTheGods", "gatheringDarkness", "hopeFades", "darkestNight"),
    "rain": ("clearingUp", "aintSoBad", "aintSoBad", "stormsComin", "gettingWorse", "hardRain"),
    "blizzard": ("inForSomeChop", "noTimeForThis", "noTimeForThis", "noTimeForThis", "breakingUp", "noEndInSight"),
    "atmosphere": ("cantBreathe", "hullBreach", "remindsMeOfHome", "remindsMeOfHome", "dontLookNow", "welcomeToHell"),
}
GRAVITY = ("low", "normal", "normal", "normal", "high", "flux")
BLIZZARD_EDGES = ("attacker", "defender", "attackerLeft", "attackerRight")
# K5: what each kind of hit may be allocated to (a TK hit: war engines when there are any, else any unit).
AFFECTS = {"AP": ("infantry", "lightVehicle"), "AT": ("lightVehicle", "armouredVehicle", "warEngine"),
           "MW": ("infantry", "lightVehicle", "armouredVehicle", "warEngine")}


def barrage_to_hit(points):
    """K5, Heresy's barrage point table: the d10 score that hits."""
    return 9 if points <= 3 else 7 if points <= 6 else 5 if points <= 9 else 3


def potential_targets(kind, eligible):
    if kind == "TK":
        return [unit for unit in eligible if unit["kind"] == "warEngine"] or eligible
    return [unit for unit in eligible if unit["kind"] in AFFECTS[kind]]


def roll_volley(volley, take):
    """K5 (docs/battle-kit.md): the hits allocated and rolled one by one in the order scored, each allocated to the
    closest eligible unit it can affect among those with the fewest hits so far, then its die drawn: a d3 of damage for
    a TK hit on a war engine (counted as that many hits), else a d6 save. A volley of HitsAllocated version 1 is
    rolled on the allocation it recorded. Gives the saves and the units destroyed, as SavesRolled records them."""
    units = volley["units"]
    eligible = sorted((unit for unit in units if unit["eligible"]), key=lambda unit: unit["distanceCm"])  # stable: ties keep the order given
    given = {a["hit"]: a["unit"] for a in volley["allocation"]} if volley.get("allocation") is not None else None
    by_id = {unit["id"]: unit for unit in units}
    taken, saves, destroyed = {}, [], set()
    for hit, kind in enumerate(volley["hits"]):
        if given is not None:
            unit = by_id.get(given.get(hit))
        else:
            targets = potential_targets(kind, eligible)
            fewest = min((taken.get(unit["id"], 0) for unit in targets), default=None)
            unit = next((unit for unit in targets if taken.get(unit["id"], 0) == fewest), None)
        if unit is None:
            continue
        if kind == "TK" and unit["kind"] == "warEngine":
            damage = take(3)
            taken[unit["id"]] = taken.get(unit["id"], 0) + damage
            saves.append({"hit": hit, "unit": unit["id"], "roll": damage, "saved": False, "damage": damage})
            continue
        taken[unit["id"]] = taken.get(unit["id"], 0) + 1
        roll = take(6)
        if roll < unit["save"]:
            destroyed.add(unit["id"])
        saves.append({"hit": hit, "unit": unit["id"], "roll": roll, "saved": roll >= unit["save"]})
    return saves, [unit["id"] for unit in units if unit["id"] in destroyed]


def recorded_dice(dice):
    """A TakeDie over a kit roll's recorded dice: each taken die must have the sides asked for."""
    position = [0]

    def take(sides):
        if position[0] >= len(dice):
            raise IndexError(f"the rules draw more dice than the {len(dice)} recorded")
        die = dice[position[0]]
        position[0] += 1
        if die["sides"] != sides:
            raise ValueError(f"die {position[0] - 1} of the roll has {die['sides']} sides where the rules draw a d{sides}")
        return die["face"]

    return take, position


def roll_form_problem(roll, scouting, players):
    """What makes a recorded initiative or scouting roll impossible whatever the seeds (docs/fair-dice.md): faces
    outside 1-6, a round without a tie rerolled, a last round tied, a winner, totals or band that do not follow."""
    rounds = roll["rounds"]
    if not rounds:
        return "it has no round"
    totals = []
    for round_ in rounds:
        if scouting is None:
            if sorted(round_) != sorted(players):
                return "a round does not give one die to each player"
            values = [round_[player] for player in players]
        else:
            values = [*round_["scout"], *round_["scouted"]]
            if len(round_["scout"]) != 2 or len(round_["scouted"]) != 2:
                return "a round does not give two dice to each side"
        if any(not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6 for value in values):
            return "a die is not a face of a d6"
        totals.append(values if scouting is None else [values[0] + values[1] + scouting["scout"], values[2] + values[3] + scouting["scouted"]])
    tied = [len(set(values)) < len(values) for values in totals]
    if any(not tie for tie in tied[:-1]) or tied[-1]:
        return "ties and only ties are rerolled: every round but the last must tie and the last must not"
    last = totals[-1]
    if scouting is None:
        return None if roll["winner"] == players[last.index(max(last))] else f"{roll['winner']} did not roll highest in the last round"
    if [roll["scoutTotal"], roll["scoutedTotal"]] != last:
        return f"the totals {roll['scoutTotal']} and {roll['scoutedTotal']} are not the last round's with the bonuses ({last[0]} and {last[1]})"
    band = scouting_band(*last)
    return None if roll["band"] == band else f"band {roll['band']} does not follow from totals {last[0]} and {last[1]} (the band is {band})"


def kit_meaning_problem(kind, roll, volley=None, barrage=None, kit=None, gravity=None):
    """What a battle kit roll records that its own dice do not give by the documented rules (docs/battle-kit.md)."""
    dice = roll["dice"]
    if any(not 1 <= die["face"] <= die["sides"] for die in dice):
        return "a die shows a face its sides do not have"
    take, position = recorded_dice(dice)
    if kind == "SavesRolled":
        if volley is None:
            return f"volley {roll['volley']} was never given (no HitsAllocated), or its saves were already rolled"
        saves, destroyed = roll_volley(volley, take)
        if saves != roll["saves"] or destroyed != roll["destroyed"]:
            return f"saves of volley {roll['volley']} do not follow from its dice: the rules give {json.dumps(saves)}, destroying {destroyed}"
    elif kind == "BarrageRolled":
        if barrage is None:
            return f"barrage {roll['barrage']} was never called (no BarrageCalled), or it was already rolled"
        hits = sum(take(10) >= barrage["toHit"] for _ in range(barrage["models"]))
        if hits != roll["hits"]:
            return f"barrage {roll['barrage']} records {roll['hits']} hits where its d10s give {hits} at {barrage['toHit']}+"
    elif kind == "ScenarioRolled":
        scenario = SCENARIOS[take(7) - 1]
        if scenario != roll["scenario"]:
            return f"scenario {roll['scenario']} where its d7 gives {scenario}"
    elif kind == "BattleConditionsRolled":
        conditions = conditions_from_dice(kit, take)
        if conditions != roll["conditions"]:
            return f"conditions {json.dumps(roll['conditions'])} where the campaign's tables and its dice give {json.dumps(conditions)}"
    elif kind == "GravityFluxRolled":
        if gravity is None or not gravity["flux"]:
            return f"battle {roll['battle']} is not under Gravity Flux (no BattleConditionsRolled put it in flux)"
        face = GRAVITY[take(6) - 1]
        level = gravity["level"] if face == "flux" else face
        if roll["level"] != level or roll["changed"] != (level != gravity["level"]):
            return f"level {roll['level']} (changed: {json.dumps(roll['changed'])}) where its d6 gives {level} from {gravity['level']}"
    elif kind == "WhiteOutRolled":
        if (take(6) == 1) != roll["whiteOut"]:
            return "a white-out is a 1 on its d6"
    else:
        return None
    return None if position[0] == len(dice) else f"{len(dice)} dice recorded where the rules draw {position[0]}"


def conditions_from_dice(kit, take):
    """K3: a battle's conditions from its dice, in the order light, rain, blizzard (a d4 edge on a 1), atmosphere,
    gravity (a 6 is Gravity Flux!: the starting level rerolled until it is not a 6), each only when the campaign rolls
    it (its options.battleKit, docs/battle-kit.md)."""
    conditions = {}
    for table in ("light", "rain", "blizzard"):
        if kit.get(table, False):
            die = take(6)
            conditions[table] = {"die": die, "band": CONDITION_TABLES[table][die - 1]}
    if "blizzard" in conditions and conditions["blizzard"]["band"] == "inForSomeChop":
        conditions["blizzard"]["edge"] = BLIZZARD_EDGES[take(4) - 1]
    if kit.get("atmosphere", "normal") == "rolled":
        die = take(6)
        conditions["atmosphere"] = {"die": die, "band": CONDITION_TABLES["atmosphere"][die - 1]}
    world = kit.get("gravity", "normal")
    if world in ("rolled", "flux"):
        dice = [take(6)] if world == "rolled" else []
        level = GRAVITY[dice[0] - 1] if dice else "flux"
        flux = level == "flux"
        while level == "flux":
            dice.append(take(6))
            level = GRAVITY[dice[-1] - 1]
        conditions["gravity"] = {"dice": dice, "level": level, "flux": flux}
    return conditions


def scouting_band(scout, scouted):
    winner, loser, side = (scout, scouted, "scout") if scout > scouted else (scouted, scout, "scouted")
    return side + ("Triple" if winner >= 3 * loser else "Double" if winner >= 2 * loser else "Wins")


def read_chain(lines):
    """The events of a raw log, each body's hash, link, seq and stream checked; the head line last."""
    events, prev, head = [], GENESIS, None
    for line in lines:
        if not line.strip():
            continue
        if head is not None:
            raise Failure(head["seq"], "a line follows the head line: events stored after the head")
        record = json.loads(line)
        if record.get("kind") == "head":
            head = record
            continue
        seq = len(events) + 1
        if record.get("seq") != seq:
            raise Failure(record.get("seq"), f"expected seq {seq}: seqs run 1, 2, 3, ... with no gap")
        if sha256_hex(record["body"]) != record["hash"]:
            raise Failure(seq, "the stored hash is not the SHA-256 of the stored body")
        event = json.loads(record["body"])
        if not isinstance(event, dict) or set(event) - ENVELOPE:
            raise Failure(seq, f"the envelope has members beyond the documented ones: {sorted(set(event) - ENVELOPE) if isinstance(event, dict) else event}")
        if event.get("seq") != seq or event.get("stream") != record["stream"]:
            raise Failure(seq, "the body names another seq or stream than the one it is stored under")
        if event.get("prev") != prev:
            raise Failure(seq, f"prev {str(event.get('prev'))[:16]} is not the hash of seq {seq - 1} ({prev[:16]})")
        prev = record["hash"]
        events.append(event)
    if head is None:
        raise Failure(None, "no head line: the log was cut short")
    if head.get("seq") != len(events) or head.get("hash") != prev:
        raise Failure(head.get("seq"), f"the head is not the last event (seq {len(events)}, {prev[:16]})")
    return events, head


class Contents:
    """Every commitment, seed and roll, event by event: the failures found (seq, what) and counts of what was checked."""

    def __init__(self):
        self.failures, self.campaign, self.players, self.turns, self.current = [], "", [], {}, None
        self.seed_commitments, self.host_hashes, self.activations, self.pledges, self.scoutings = {}, set(), {}, {}, {}
        self.commitment_seqs, self.last_ended, self.last_stream = {}, 0, None
        self.volleys, self.barrages, self.gravity, self.kit = {}, {}, {}, {}
        self.counts = dict.fromkeys(("commitments", "host seeds", "player seeds", "player seed commitments", "rolls", "parent rolls"), 0)

    def check(self, event):
        # A fork's LineForked is the first event of the branch's own, in a stream of its own (docs/replays.md).
        if event["type"] == "LineForked" and event.get("stream") == self.last_stream:
            self.fail(event["seq"], "LineForked is not the first event of a branch: only a fork voids what was open at it")
        self.last_stream = event.get("stream")
        # Each event type checked has a method of its name (every other method's name is lower case); others pass.
        try:
            getattr(self, event["type"], lambda seq, data: None)(event["seq"], event["data"])
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            self.failures.append((event["seq"], f"{event['type']} data is not as its type defines ({type(error).__name__}: {error})"))

    def fail(self, seq, what):
        self.failures.append((seq, what))

    def under_way(self, data):
        """The turn the event names, when it is the one under way."""
        turn = self.turns.get(data["turn"])
        return turn if turn is not None and turn is self.current and not turn["ended"] else None

    def CampaignCreated(self, seq, data):
        self.campaign, self.players = data["campaign"], [player["id"] for player in data["players"]]
        self.kit = data["options"].get("battleKit") or {}

    def PlayerSeedCommitted(self, seq, data):
        self.counts["player seed commitments"] += 1
        key = (data["turn"], data["player"])
        reseeding = self.current is not None and self.current.get("reseeding") and self.current["turn"] == data["turn"]
        if reseeding:
            # D1 on a branch: a fresh seed for the turn whose seeds the fork voided, before the host reseeds it.
            if key in self.seed_commitments:
                self.fail(seq, f"{data['player']} commits to a fresh seed for turn {data['turn']} a second time")
        elif key in self.seed_commitments or data["turn"] in self.turns:
            self.fail(seq, f"{data['player']} commits to a seed for turn {data['turn']} a second time or after the turn's TurnStarted")
        elif self.current is not None and not self.current["ended"]:
            self.fail(seq, f"{data['player']} commits to a seed for turn {data['turn']} while turn {self.current['turn']} is under way")
        self.seed_commitments.setdefault(key, data["seedHash"])
        self.commitment_seqs.setdefault(key, seq)

    def TurnStarted(self, seq, data):
        if self.current is not None and not self.current["ended"]:
            self.fail(seq, f"turn {data['turn']} starts before turn {self.current['turn']} ended: that host seed was never revealed")
        if data["turn"] in self.turns or data["hostSeedHash"] in self.host_hashes:
            self.fail(seq, f"turn {data['turn']} started a second time, or with a host seed committed to in an earlier turn")
        # Every player commits to its seed for the turn in its run-up, before the host commits to its own (D1).
        uncommitted = [player for player in self.players if self.commitment_seqs.get((data["turn"], player), 0) <= self.last_ended]
        if uncommitted:
            self.fail(seq, f"turn {data['turn']} starts before {', '.join(uncommitted)} committed to a seed for it: no PlayerSeedCommitted since the last TurnEnded")
        self.host_hashes.add(data["hostSeedHash"])
        self.current = self.turns[data["turn"]] = {"turn": data["turn"], "hash": data["hostSeedHash"], "seeds": {}, "dice": 0, "rolls": [], "ended": False}

    def LineForked(self, seq, data):
        """A branch's first event (docs/replays.md): what the fork voids, made afresh on the branch."""
        turn = self.under_way(data)
        if turn is not None and "host" in data["voidedSeeds"]:
            if data["fromDie"] != turn["dice"]:
                self.fail(seq, f"the fork says {data['fromDie']} dice of turn {data['turn']} were drawn, not {turn['dice']}")
            # The rolls so far were drawn from the parent line's seeds, which stay on that line: its log checks them.
            self.counts["parent rolls"] += len(turn["rolls"])
            turn.update(rolls=[], seeds={}, reseeding=True, forked=seq)
        for party in data["voidedSeeds"]:
            self.seed_commitments.pop((data["turn"], party), None)
            self.commitment_seqs.pop((data["turn"], party), None)
        for voided in data["voidedOrders"]:
            self.activations[(data["turn"], voided["army"])] = None

    def TurnReseeded(self, seq, data):
        turn = self.under_way(data)
        if turn is None or not turn.get("reseeding"):
            return self.fail(seq, f"turn {data['turn']} is reseeded, but no fork voided its seeds")
        uncommitted = [player for player in self.players if self.commitment_seqs.get((data["turn"], player), 0) <= turn["forked"]]
        if uncommitted:
            self.fail(seq, f"turn {data['turn']} is reseeded before {', '.join(uncommitted)} committed to a fresh seed for it")
        if data["hostSeedHash"] in self.host_hashes or data["fromDie"] != turn["dice"]:
            self.fail(seq, f"turn {data['turn']} is reseeded with a host seed committed to before, or from another die than {turn['dice']}")
        self.host_hashes.add(data["hostSeedHash"])
        turn.update(hash=data["hostSeedHash"], reseeding=False)

    def OrderRecommitted(self, seq, data):
        key = (data["turn"], data["army"])
        if key not in self.activations or self.activations[key] is not None:
            return self.fail(seq, f"{data['army']}'s order is committed again, but no fork voided it")
        self.activations[key] = data["commitment"]

    def PlayerSeedGiven(self, seq, data):
        turn, player = self.under_way(data), data["player"]
        if turn is not None and turn.get("reseeding"):
            return self.fail(seq, f"{player} gives a seed for turn {data['turn']} before the host reseeded it")
        if turn is None or player in turn["seeds"]:
            return self.fail(seq, f"{player} gives a seed for turn {data['turn']} when that turn is not under way, or a second time")
        turn["seeds"][player] = data["seed"]
        self.counts["player seeds"] += 1
        if self.seed_commitments.get((data["turn"], player)) != sha256_hex(data["seed"]):
            self.fail(seq, f"{player}'s seed for turn {data['turn']} does not hash to a PlayerSeedCommitted of {player} for that turn")

    def InitiativeRolled(self, seq, data, scouting=None, dice_a_round=None):
        turn = self.under_way(data)
        if turn is None:
            return self.fail(seq, f"a roll for turn {data['turn']}, which is not under way")
        if len(turn["seeds"]) < len(self.players):
            return self.fail(seq, f"a roll of turn {data['turn']} before every player gave its seed")
        if data["firstDie"] != turn["dice"]:
            return self.fail(seq, f"a roll from die {data['firstDie']} of turn {data['turn']}, not from the next die, {turn['dice']}")
        turn["rolls"].append((seq, scouting, data, [turn["seeds"][player] for player in self.players]))
        turn["dice"] = data["firstDie"] + len(data["rounds"]) * (dice_a_round or len(self.players))
        # The form is checked at once, pending or not: no seeds can give an impossible roll.
        problem = roll_form_problem(data, scouting, self.players)
        if problem:
            self.fail(seq, f"{'scouting' if scouting else 'initiative'} roll of turn {data['turn']} is impossible: {problem}")

    def ScoutingRolled(self, seq, data):
        scouting = self.scoutings.get(data["scouting"])
        if scouting is None or scouting["scouted"] is None:
            return self.fail(seq, f"scouting {data['scouting']} is rolled before it was declared and answered")
        self.InitiativeRolled(seq, data, scouting, 4)

    def kit_roll(self, seq, data):
        """A battle kit roll (K2, K3, K5): its dice, each with its sides, drawn from the turn's next die on."""
        turn = self.under_way(data)
        if turn is None:
            return self.fail(seq, f"a battle kit roll for turn {data['turn']}, which is not under way")
        if len(turn["seeds"]) < len(self.players):
            return self.fail(seq, f"a battle kit roll of turn {data['turn']} before every player gave its seed")
        if data["firstDie"] != turn["dice"]:
            return self.fail(seq, f"a battle kit roll from die {data['firstDie']} of turn {data['turn']}, not from the next die, {turn['dice']}")
        turn["rolls"].append((seq, "kit", data, [turn["seeds"][player] for player in self.players]))
        turn["dice"] = data["firstDie"] + len(data["dice"])
        return turn

    def kit_roll_meaning(self, seq, data, kind, **named):
        if self.kit_roll(seq, data) is None:
            return
        problem = kit_meaning_problem(kind, data, **named)
        if problem:
            self.fail(seq, f"battle {data['battle']}'s {kind} is not what its dice give: {problem}")

    def BattleConditionsRolled(self, seq, data):
        self.kit_roll_meaning(seq, data, "BattleConditionsRolled", kit=self.kit)
        gravity = data["conditions"].get("gravity")
        if gravity is not None:
            self.gravity[data["battle"]] = {"level": gravity["level"], "flux": gravity["flux"]}

    def GravityFluxRolled(self, seq, data):
        gravity = self.gravity.get(data["battle"])
        self.kit_roll_meaning(seq, data, "GravityFluxRolled", gravity=gravity)
        if gravity is not None:
            gravity["level"] = data["level"]

    def ScenarioRolled(self, seq, data):
        self.kit_roll_meaning(seq, data, "ScenarioRolled")

    def WhiteOutRolled(self, seq, data):
        self.kit_roll_meaning(seq, data, "WhiteOutRolled")

    def HitsAllocated(self, seq, data):
        eligible = [unit for unit in data["units"] if unit["eligible"]]
        unallocated = [hit for hit, kind in enumerate(data["hits"]) if not potential_targets(kind, eligible)]
        if unallocated != data["unallocated"]:
            self.fail(seq, f"volley {data['volley']} lists hits {data['unallocated']} as unallocated where no unit can take {unallocated}")
        self.volleys[(data["battle"], data["volley"])] = data

    def SavesRolled(self, seq, data):
        self.kit_roll_meaning(seq, data, "SavesRolled", volley=self.volleys.pop((data["battle"], data["volley"]), None))

    def BarrageCalled(self, seq, data):
        if data["toHit"] != barrage_to_hit(data["barragePoints"]):
            self.fail(seq, f"barrage {data['barrage']} of {data['barragePoints']} barrage points hits on {data['toHit']}+, not the table's {barrage_to_hit(data['barragePoints'])}+")
        self.barrages[(data["battle"], data["barrage"])] = data

    def BarrageRolled(self, seq, data):
        self.kit_roll_meaning(seq, data, "BarrageRolled", barrage=self.barrages.pop((data["battle"], data["barrage"]), None))

    def ArmyActivated(self, seq, data):
        key = (data["turn"], data["army"])
        self.activations[key] = data["commitment"]
        if self.pledges.get(key, data["commitment"]) != data["commitment"]:
            self.fail(seq, f"{data['army']} is activated with another commitment than the one its scouting made public")

    def OrderRevealed(self, seq, data, rejected=False):
        self.counts["commitments"] += 1
        committed = self.activations.get((data["turn"], data["army"]))
        if committed is None and not rejected:
            return self.fail(seq, f"{data['army']}'s order is revealed, but it has no ArmyActivated in turn {data['turn']}")
        if (order_commitment(self.campaign, data["turn"], data["army"], data["order"], data["salt"]) == committed) == rejected:
            self.fail(seq, f"{data['army']}'s {data['order']} and salt {'hash' if rejected else 'do not hash'} to the commitment of its ArmyActivated")

    def RevealRejected(self, seq, data):
        self.OrderRevealed(seq, data, rejected=True)

    def ScoutingDeclared(self, seq, data, order="advance", opened=None):
        opened = opened or data
        self.counts["commitments"] += 1
        key = (data["turn"], data["army"])
        if order_commitment(self.campaign, data["turn"], data["army"], order, opened["salt"]) != opened["commitment"]:
            self.fail(seq, f"{data['army']}'s {order} and salt given for scouting do not hash to the commitment given")
        elif self.activations.get(key, self.pledges.get(key, opened["commitment"])) != opened["commitment"]:
            self.fail(seq, f"{data['army']} reveals {order} for scouting under another commitment than it was activated or scouted with")
        self.pledges[key] = opened["commitment"]
        if order == "advance":
            self.scoutings[data["scouting"]] = {"scout": data["bonus"], "scouted": None}

    def ScoutingAnswered(self, seq, data):
        if (data["bonus"] == 2) != ("firstFire" in data):
            self.fail(seq, f"{data['army']} takes a bonus of {data['bonus']} in scouting {data['scouting']}: +2 goes with a revealed First Fire, 0 without")
        if "firstFire" in data:
            self.ScoutingDeclared(seq, data, "firstFire", data["firstFire"])
        if data["scouting"] in self.scoutings:
            self.scoutings[data["scouting"]]["scouted"] = data["bonus"]

    def TurnEnded(self, seq, data):
        turn = self.under_way(data)
        if turn is None:
            return self.fail(seq, f"turn {data['turn']} ends but is not under way")
        turn["ended"], self.last_ended = True, seq
        self.counts["host seeds"] += 1
        if sha256_hex(data["hostSeed"]) != turn["hash"]:
            return self.fail(seq, f"the host seed of turn {data['turn']} does not hash to the hostSeedHash of its TurnStarted")
        for roll_seq, scouting, roll, seeds in turn["rolls"]:
            self.counts["rolls"] += 1
            if scouting == "kit":
                faces = [die(self.campaign, data["turn"], data["hostSeed"], seeds, roll["firstDie"] + i, d["sides"]) for i, d in enumerate(roll["dice"])]
                if faces != [d["face"] for d in roll["dice"]]:
                    self.fail(roll_seq, f"battle kit roll of turn {data['turn']} does not recompute from the seeds")
                continue
            if recompute(roll, scouting, lambda index: die(self.campaign, data["turn"], data["hostSeed"], seeds, index), self.players) != roll:
                self.fail(roll_seq, f"{'scouting' if scouting else 'initiative'} roll of turn {data['turn']} does not recompute from the seeds")


HOST, ORGANISER = "host", "organiser"
# The host's commands that are the organiser's own (O1, O2, the T5 close), signed by the organiser's key once it has one
# (before that, by the host's key or not at all); and the first events they write (docs/signatures.md).
ORGANISER_COMMANDS = {"PauseCampaign", "ResumeCampaign", "SetActionDeadline", "CloseActionPhase"}
ORGANISER_EVENTS = {"CampaignPaused", "CampaignResumed", "ActionDeadlineSet", "ActionDeadlineEnforced", "ActionPhaseEnded"}


def key_party(actor, command_type, role=None):
    """Whose key signs a command: the organiser's for its commands and its key's registration, else its actor's."""
    if actor != HOST:
        return actor
    organiser = role == ORGANISER if command_type == "RegisterSeatKey" else command_type in ORGANISER_COMMANDS
    return ORGANISER if organiser else HOST


class Signatures:
    """D2: each signed command against its party's key in force; the events of a party with a key in force either
    signed or written by the engine in the same batch after one of its signed commands; recorded times never going back."""

    def __init__(self):
        self.failures, self.keys, self.campaign, self.batch = [], {}, "", None
        self.last, self.run_start = None, 1
        self.counts = {"signed": 0, "derived": 0, "unsigned": 0}
        self.replacements, self.organiser, self.unsigned_organiser = [], [], None

    def fail(self, seq, what):
        self.failures.append((seq, what))

    def check(self, event):
        seq, actor = event["seq"], event["actor"]
        try:
            at = datetime.fromisoformat(event["at"])
        except (TypeError, ValueError):
            return self.fail(seq, f"the recorded time {event['at']!r} is not an RFC 3339 date-time")
        if self.last is not None and at < self.last[1]:
            self.fail(seq, f"recorded at {event['at']}, before seq {self.last[0]} ({self.last[2]}): recorded times never go back")
        if self.last is None or self.last[2] != event["at"]:
            self.run_start = seq
        if self.last is None or at >= self.last[1]:
            self.last = (seq, at, event["at"])
        if event["type"] == "CampaignCreated":
            self.campaign = event["data"].get("campaign", "")
        if "command" in event:
            self.signed(event)
        elif self.batch == (actor, event["at"]):
            self.counts["derived"] += 1
        else:
            party = self.unsigned_party(event)
            if party in self.keys:
                self.fail(seq, f"{event['type']} is {party}'s, who has a key in force, but is neither signed nor written in the batch of a signed command of {party}'s")
            else:
                self.counts["unsigned"] += 1
                self.batch = None
        if event["type"] == "SeatKeyRegistered":
            data = event["data"]
            if data["party"] != key_party(actor, "RegisterSeatKey", data["party"]) or data["replaces"] != self.keys.get(data["party"]):
                self.fail(seq, f"a key of {data['party']} registered by {actor}, or replacing another key than the one in force")
            self.keys[data["party"]] = data["publicKey"]
            if data["replaces"] is not None:
                self.replacements.append((data["party"], seq, event["at"]))

    def unsigned_party(self, event):
        """Whose key an unsigned event should have been signed by: the organiser's for the first event of an organiser's
        command and those after it in its batch, else its actor's."""
        actor, at = event["actor"], event["at"]
        if self.unsigned_organiser == (actor, at):
            return ORGANISER
        self.unsigned_organiser = None
        if actor != HOST or event["type"] not in ORGANISER_EVENTS:
            return actor
        self.unsigned_organiser = (actor, at)
        self.organiser.append((event["seq"], event["type"], None))
        return ORGANISER

    def signed(self, event):
        seq, actor, signed = event["seq"], event["actor"], event["command"]
        self.batch = None
        try:
            text = json.loads(signed["signed"])
            signature = bytes.fromhex(signed["signature"])
            command = text["command"]
            point = (text["domain"], text["campaign"], text["line"])
        except (ValueError, KeyError, TypeError):
            return self.fail(seq, "its signed command is not a signed command as docs/signatures.md describes it")
        if point != (COMMAND_DOMAIN, self.campaign, event["stream"]):
            return self.fail(seq, f"its command is signed for another campaign or line ({point[1]}, {point[2]})")
        if not isinstance(text["seq"], int) or not self.run_start - 1 <= text["seq"] < seq:
            return self.fail(seq, f"its command is signed at seq {text['seq']}, not at the seq its batch was decided on ({self.run_start - 1})")
        if not isinstance(command, dict) or command.get("actor") != actor:
            return self.fail(seq, f"its signed command is not {actor}'s")
        party = key_party(actor, command.get("type"), command.get("role"))
        signer = HOST if party == ORGANISER and ORGANISER not in self.keys else party
        key = command.get("publicKey") if command.get("type") == "RegisterSeatKey" else self.keys.get(signer)
        if not isinstance(key, str) or not re.fullmatch(r"[0-9a-f]{64}", key):
            return self.fail(seq, f"{signer} has no key in force to sign with")
        if not ed25519.verify(bytes.fromhex(key), signed["signed"].encode("utf-8"), signature):
            return self.fail(seq, f"the signature is not by {signer}'s key in force ({key[:12]}) over its signed command")
        if party == ORGANISER:
            self.organiser.append((seq, event["type"], signer))
        data = event["data"] if isinstance(event["data"], dict) else {}
        # What the command says in so many words (a text, a number, a yes or no) its first event must say alike.
        for member, value in command.items():
            said = data.get(member)
            if member not in ("actor", "type") and isinstance(value, SCALARS) and type(said) is type(value) and said != value:
                return self.fail(seq, f"its data's {member} is not the {member} of the command {actor} signed")
        self.counts["signed"] += 1
        self.batch = (actor, event["at"])


def recompute(roll, scouting, die_at, players):
    """What the seeds give for a roll (initiative, or the scouting given): its data as it should have been recorded."""
    rounds, index = [], roll["firstDie"]
    while True:
        if scouting is None:
            values = [die_at(index + j) for j in range(len(players))]
            rounds.append(dict(zip(players, values)))
            index += len(players)
            if len(set(values)) == len(values):
                return {**roll, "rounds": rounds, "winner": players[values.index(max(values))]}
        else:
            a, b, c, d = (die_at(index + j) for j in range(4))
            rounds.append({"scout": [a, b], "scouted": [c, d]})
            index += 4
            scout, scouted = a + b + scouting["scout"], c + d + scouting["scouted"]
            if scout != scouted:
                return {**roll, "rounds": rounds, "scoutTotal": scout, "scoutedTotal": scouted, "band": scouting_band(scout, scouted)}


def canonical(value):
    """RFC 8785 for what a view entry holds (texts, integers, lists and objects): keys sorted, no white space."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def entry_of(event, hidden):
    """The event as it enters a seat's view chain (docs/signatures.md, View chains): its data less the hidden paths."""
    data = json.loads(json.dumps(event["data"]))
    for path in hidden:
        parts = path.split(".")[1:]
        holder = data
        for part in parts[:-1]:
            holder = holder.get(part) if isinstance(holder, dict) else None
        if isinstance(holder, dict):
            holder.pop(parts[-1], None)
    return {"actor": event["actor"], "at": event["at"], "data": data, "hidden": hidden, "seq": event["seq"],
            "stream": event["stream"], "type": event["type"], "version": event["version"]}


def check_proof(proof, events):
    """A seat's proof: the receipt by the server's key, its entries chained to what it signed, the log against them."""
    if proof.get("format") != PROOF_FORMAT:
        raise Failure(None, f"the proof is not an {PROOF_FORMAT} file")
    key, receipt = proof["serverKey"], proof["receipt"]
    if not (isinstance(key, str) and re.fullmatch(r"[0-9a-f]{64}", key)):
        raise Failure(None, "the proof names no server key (64 hex)")
    if not ed25519.verify(bytes.fromhex(key), receipt["signed"].encode("utf-8"), bytes.fromhex(receipt["signature"])):
        raise Failure(None, f"the proof's receipt is not signed by the server key it names ({key[:12]})")
    text = json.loads(receipt["signed"])
    if text.get("domain") != RECEIPT_DOMAIN or (text["campaign"], text["line"], text["seat"]) != (proof["campaign"], proof["line"], proof["seat"]):
        raise Failure(None, "the proof's receipt is for another campaign, line or seat than the proof says")
    print(f"proof: receipt of seq {text['seq']} for {text['seat']} on {text['line']}, signed by the server key {key}")
    entries = proof["entries"]
    if entries:
        start = text.get("from") or {}
        head, seq = start.get("view"), start.get("seq")
        for entry in entries:
            if not isinstance(entry, dict) or set(entry) != VIEW_ENTRY or entry["seq"] != seq + 1:
                raise Failure(None, "the proof's entries are not a run of view entries from the receipt's from seq")
            head, seq = sha256_hex(head + sha256_hex(canonical(entry))), entry["seq"]
        if (seq, head) != (text["seq"], text["view"]):
            raise Failure(None, "the proof's entries do not chain to the view head its receipt signed: they are not what the server showed")
        print(f"  {len(entries)} entries chain from seq {text['from']['seq']} to the view head it signed, {text['view'][:16]}")
    against = {event["seq"]: event for event in events} if events is not None else None
    served = {entry["seq"]: entry for entry in proof.get("served", [])}
    for entry in entries:
        if against is not None:
            event = against.get(entry["seq"])
            if event is None:
                raise Failure(entry["seq"], f"the log has no event {entry['seq']}, which the server showed {text['seat']} ({entry['type']}, receipt of seq {text['seq']})")
            if event["version"] != entry["version"]:
                print(f"  seq {entry['seq']}: stored at version {event['version']}, shown at {entry['version']}: compared by epicwar audit only")
                continue
            now = entry_of(event, entry["hidden"])
        else:
            now = served.get(entry["seq"])
        if now is None or canonical(now) != canonical(entry):
            members = [m for m in sorted(VIEW_ENTRY) if now is None or canonical(now.get(m)) != canonical(entry[m])]
            where = "the log" if against is not None else "the log as served (the seat's reading of it)"
            raise Failure(entry["seq"], f"{where} differs in {', '.join(members)} from what the server showed {text['seat']} in its receipt of seq {text['seq']}")
    print(f"  every event the receipt showed is in {'the log' if against is not None else 'the log as served'} as shown")


def main(argv):
    if len(argv) > 1 and argv[1] == "--proof":
        return main_proof(argv[2:])
    stream = sys.stdin.buffer if len(argv) < 2 or argv[1] == "-" else open(argv[1], "rb")
    try:
        events, head = read_chain(line.decode("utf-8") for line in stream)
    except Failure as failure:
        print(f"FAIL chain at {failure}")
        return 1
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        print(f"FAIL: not a raw log as docs/storage.md describes it ({type(error).__name__}: {error})")
        return 1
    contents, signatures = Contents(), Signatures()
    for event in events:
        contents.check(event)
        signatures.check(event)
    failures, counts = contents.failures + signatures.failures, contents.counts
    pending = sum(len(turn["rolls"]) for turn in contents.turns.values() if not turn["ended"])
    print(f"events: {len(events)}, chain intact; head seq {head['seq']} hash {head['hash']}")
    print(f"order commitments: {counts['commitments']} checked against their reveals")
    print(f"host seeds: {counts['host seeds']} checked against their TurnStarted")
    print(f"player seeds: {counts['player seeds']} checked against their PlayerSeedCommitted ({counts['player seed commitments']} commitments)")
    print(f"rolls: {counts['rolls']} recomputed ({pending} pending, their host seed not yet revealed)")
    if counts["parent rolls"]:
        print(f"rolls drawn on the parent line before a fork: {counts['parent rolls']} (the parent line's log checks them)")
    signed = signatures.counts
    print(f"signatures: {signed['signed']} signed commands verified against the keys in force, {signed['derived']} events written after them in their batch, {signed['unsigned']} events unsigned (their party had no key in force)")
    for party, seq, at in signatures.replacements:
        print(f"WARNING: {party}'s key was replaced at seq {seq} ({at}): from then on whoever holds {party}'s seat signs for {party}")
    for seq, kind, signer in signatures.organiser:
        print(f"  the organiser's {kind} (seq {seq}): " + ("unsigned (no organiser's key in force yet)" if signer is None else "signed by the organiser's key" if signer == ORGANISER else "signed by the host's key (before the organiser had a key of its own)"))
    if failures:
        seq, what = min(failures, key=lambda failure: failure[0])
        print(f"FAIL seq {seq}: {what}" + (f" (and {len(failures) - 1} more)" if len(failures) > 1 else ""))
        return 1
    print("OK: every check passed")
    return 0


def main_proof(args):
    if not args:
        print("usage: verify_log.py --proof PROOF.json [campaign.raw]")
        return 2
    with open(args[0], "rb") as file:
        proof = json.loads(file.read().decode("utf-8"))
    try:
        events = None
        if len(args) > 1:
            with open(args[1], "rb") as raw:
                events, _head = read_chain(line.decode("utf-8") for line in raw)
        check_proof(proof, events)
    except Failure as failure:
        print(f"FAIL {failure}")
        return 1
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        print(f"FAIL: not a proof as docs/signatures.md describes it ({type(error).__name__}: {error})")
        return 1
    print("OK: the log holds every event the receipt showed, as shown")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
