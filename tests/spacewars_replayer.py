#!/usr/bin/env python3
"""An independent Space Wars replayer, written from the rule book (rules/space-wars.md, with the
readings of docs/spacewars.md "Rules as implemented") and nothing of the project's code.

It reads `orrery` JSON-lines records and replays each Space Wars game from its own content only:
the deal (`extra.deal`: every hand and the draw pile, top first), the order of every reshuffle
(`extra.reshuffles`) and the decisions (`moves`). No random generator and no seed are involved.
Its own log (rounds, cards drawn, ships destroyed and captured, seats out, the result) must equal
the record's event log (`extra.events`, filtered to those kinds).

Usage: spacewars_replayer.py RECORDS.jsonl  -- prints one line per game, exits 1 on a mismatch.
"""

import json
import sys

RANKS = "A23456789TJQK"


def value(c):
    return 0 if c == "X" else RANKS.index(c[0]) + 1


def suit(c):
    return None if c == "X" else c[1]


def attack_role(c):
    """Laser (diamonds A-10), missile (hearts A-10), boarding (any J, Q, K), or None."""
    if c == "X":
        return None
    if value(c) >= 11:
        return "board"
    return {"D": "laser", "H": "missile"}.get(suit(c))


def blocks(c, role):
    """Diamonds and spades A-10 block lasers; only spades A-10 block missiles."""
    if c == "X" or value(c) >= 11:
        return False
    return suit(c) in ("DS" if role == "laser" else "S")


def is_crew(c):
    return c != "X" and value(c) <= 10 and suit(c) == "C"


# name: (code, marker test, marker stays on the table, ships, size, cards drawn on reveal)
CLASSES = {
    "battleship": ("B", lambda c: c != "X" and value(c) == 12, True, 1, 9, 0),
    "mothership": ("M", lambda c: c == "X", True, 1, 12, 3),
    "fighters": ("F", lambda c: True, False, 3, 3, 0),
}
ROUND_LIMIT = 100


class Mismatch(Exception):
    pass


def take(cards, wanted):
    """Removes one copy of each wanted card from `cards`; every one must be there."""
    for c in wanted:
        if c not in cards:
            raise Mismatch(f"{c} is not held there ({cards})")
        cards.remove(c)


def cards_of(text):
    return [] if text in ("none", "-") else text.split(",") if "," in text else [text]


class Game:
    def __init__(self, hands, draw, reshuffles):
        self.n = len(hands)
        self.hands = [list(h) for h in hands]
        self.draw = list(draw)  # index 0 is the top
        self.reshuffles = list(reshuffles)
        self.discard = []
        self.choice = {}
        self.classes = [None] * self.n
        self.splits = {}
        self.orders = {}
        self.ships = []
        self.attacks = []
        self.active = [True] * self.n
        self.round = 0
        self.round_start = list(range(self.n))
        self.step = "class"
        self.b = None  # Battle-stations: cursor, ship, sub, attack, count, crew
        self.result = None
        self.log = []

    # -- cards ------------------------------------------------------------------------------
    def draw_card(self):
        if not self.draw:
            if not self.discard:
                return None
            if not self.reshuffles:
                raise Mismatch("a reshuffle the record does not order")
            order = self.reshuffles.pop(0)
            if sorted(order) != sorted(self.discard):
                raise Mismatch("a reshuffle order that is not the discard pile")
            self.draw, self.discard = list(order), []
        return self.draw.pop(0)

    def capacity(self, s):
        _, _, _, ships, size, _ = CLASSES[self.classes[s][0]]
        return ships * size

    # -- who decides --------------------------------------------------------------------------
    def owner(self, ship):
        return self.ships[ship]["owner"]

    def pending(self):
        if self.step == "class":
            return [(s, "class") for s in range(self.n) if s not in self.choice]
        if self.step == "discard":
            return [(s, "discard") for s in range(self.n) if len(self.hands[s]) > self.capacity(s)]
        if self.step == "split":
            return [(s, "split") for s in range(self.n)
                    if CLASSES[self.classes[s][0]][3] > 1 and s not in self.splits]
        if self.step == "tactical":
            return [(s, "attack") for s in range(self.n) if self.active[s] and s not in self.orders]
        if self.step == "battle":
            b = self.b
            sub = b["sub"]
            if sub == "ship":
                return [(b["cursor"], "defend")]
            if sub == "order":
                return [(self.owner(b["ship"]), "resolve")]
            if sub in ("block", "lose", "repel"):
                return [(self.owner(b["attack"]["target"]), sub)]
            if sub == "crew":
                return [(b["attack"]["attacker"], "crew")]
        return []

    # -- automatic steps ----------------------------------------------------------------------
    def advance(self):
        while True:
            if self.step == "class":
                if len(self.choice) < self.n:
                    return
                self.reveal()
            elif self.step == "discard":
                if self.pending():
                    return
                self.step = "split"
            elif self.step == "split":
                if self.pending():
                    return
                self.form_ships()
            elif self.step == "tactical":
                if self.pending():
                    return
                self.engage()
            elif self.step == "battle":
                if not self.battle_progress():
                    return
            else:
                return

    def reveal(self):
        for s in range(self.n):
            name, card = self.choice[s]
            take(self.hands[s], [card])
            self.classes[s] = (name, card)
            if not CLASSES[name][2]:
                self.discard.append(card)
        for s in range(self.n):
            for _ in range(CLASSES[self.classes[s][0]][5]):
                c = self.draw_card()
                if c is not None:
                    self.hands[s].append(c)
                    self.log.append(f"drew {s + 1} hand {c}")
        self.step = "discard"

    def form_ships(self):
        for s in range(self.n):
            name = self.classes[s][0]
            piles = self.splits.get(s, [self.hands[s]])
            self.hands[s] = []
            for pile in piles:
                self.ships.append({"id": len(self.ships), "owner": s, "size": CLASSES[name][4],
                                   "hull": list(pile), "alive": bool(pile)})
        self.start_round()

    def can_attack(self, s):
        enemy = any(sh["alive"] and sh["owner"] != s for sh in self.ships)
        own = any(sh["alive"] and sh["owner"] == s and any(attack_role(c) for c in sh["hull"])
                  for sh in self.ships)
        return enemy and own

    def start_round(self):
        self.round_start = [s for s in range(self.n) if self.active[s]]
        if self.round >= ROUND_LIMIT:
            return self.finish("draw", self.round_start)
        self.round += 1
        self.log.append(f"round {self.round}")
        self.step = "tactical"
        self.orders = {s: [] for s in range(self.n) if self.active[s] and not self.can_attack(s)}

    def finish(self, kind, seats):
        self.step = "over"
        self.result = (kind, seats)
        self.log.append(f"over win {seats[0] + 1}" if kind == "win"
                        else "over draw " + ",".join(str(s + 1) for s in seats))

    def engage(self):
        for s in range(self.n):
            for frm, card, target in self.orders.get(s, []):
                take(self.ships[frm]["hull"], [card])
                self.attacks.append({"card": card, "from": frm, "target": target, "attacker": s})
        for sh in self.ships:
            if sh["alive"] and not sh["hull"]:
                self.destroy(sh["id"])
        self.step = "battle"
        self.b = {"cursor": 0, "ship": None, "sub": "ship"}

    def destroy(self, ship):
        sh = self.ships[ship]
        sh["alive"] = False
        self.discard += sh["hull"]
        sh["hull"] = []
        self.log.append(f"destroyed {ship + 1}")
        for a in [a for a in self.attacks if a["target"] == ship]:
            self.attacks.remove(a)
            self.discard.append(a["card"])

    def battle_progress(self):
        b = self.b
        if b["sub"] == "ship":
            while b["cursor"] < self.n:
                attacked = sorted({a["target"] for a in self.attacks
                                   if self.ships[a["target"]]["alive"]
                                   and self.owner(a["target"]) == b["cursor"]})
                if not attacked:
                    b["cursor"] += 1
                elif len(attacked) == 1:
                    self.select(attacked[0])
                    return True
                else:
                    return False
            self.end_battle()
            return True
        if b["sub"] == "order":
            ship = b["ship"]
            on = [a for a in self.attacks if a["target"] == ship]
            if not self.ships[ship]["alive"] or not on:
                b.update(ship=None, sub="ship")
                return True
            if all((a["card"], a["from"]) == (on[0]["card"], on[0]["from"]) for a in on):
                self.resolve(on[0])
                return True
            return False
        return False

    def select(self, ship):
        self.b.update(ship=ship, sub="order")

    def continue_ship(self):
        ship = self.b["ship"]
        if ship is not None and self.ships[ship]["alive"]:
            self.b["sub"] = "order"
        else:
            self.b.update(ship=None, sub="ship")

    def resolve(self, a):
        self.attacks.remove(a)
        role = attack_role(a["card"])
        target = self.ships[a["target"]]
        if role in ("laser", "missile"):
            blockers = [c for c in target["hull"] if blocks(c, role)]
            if sum(map(value, blockers)) < value(a["card"]):
                take(target["hull"], blockers)
                self.discard += blockers
                self.after_block(a, sum(map(value, blockers)))
            else:
                self.b.update(sub="block", attack=a)
        else:
            frm = self.ships[a["from"]]
            clubs = ([c for c in frm["hull"] if is_crew(c)]
                     if frm["alive"] and frm["owner"] == a["attacker"] else [])
            if target["owner"] == a["attacker"] or not clubs:
                self.discard.append(a["card"])
                self.continue_ship()
            elif len(set(clubs)) == 1:
                self.b.update(sub="crew", attack=a)
                self.send_crew(a, clubs[0])
            else:
                self.b.update(sub="crew", attack=a)

    def after_block(self, a, blocked):
        hull = self.ships[a["target"]]["hull"]
        k = min(max(0, value(a["card"]) - blocked), len(hull))
        if k == 0:
            self.finish_attack(a)
        elif k == len(hull):
            self.discard += hull
            hull.clear()
            self.finish_attack(a)
        else:
            self.b.update(sub="lose", attack=a, count=k)

    def finish_attack(self, a):
        self.discard.append(a["card"])
        t = self.ships[a["target"]]
        if t["alive"] and not t["hull"]:
            self.destroy(a["target"])
        self.continue_ship()

    def send_crew(self, a, crew):
        frm = self.ships[a["from"]]
        take(frm["hull"], [crew])
        self.discard.append(crew)
        if not frm["hull"]:
            self.destroy(a["from"])
        target = self.ships[a["target"]]
        clubs = [c for c in target["hull"] if is_crew(c)]
        if sum(map(value, clubs)) < value(crew):
            take(target["hull"], clubs)
            self.discard += clubs
            self.repelled(a, crew, sum(map(value, clubs)))
        else:
            self.b.update(sub="repel", attack=a, crew=crew)

    def repelled(self, a, crew, total):
        self.discard.append(a["card"])
        t = self.ships[a["target"]]
        if not t["hull"]:
            self.destroy(a["target"])
        elif value(crew) > total:
            t["owner"] = a["attacker"]
            self.log.append(f"captured {a['target'] + 1} by {a['attacker'] + 1}")
        self.continue_ship()

    def end_battle(self):
        self.discard += [a["card"] for a in self.attacks]
        self.attacks = []
        for s in range(self.n):
            if self.active[s] and not any(sh["alive"] and sh["owner"] == s for sh in self.ships):
                self.active[s] = False
                self.log.append(f"out {s + 1}")
        left = [s for s in range(self.n) if self.active[s]]
        if not left:
            return self.finish("draw", self.round_start)
        if len(left) == 1:
            return self.finish("win", left)
        for s in range(self.n):
            for sh in self.ships:
                if sh["alive"] and sh["owner"] == s and len(sh["hull"]) < sh["size"]:
                    c = self.draw_card()
                    if c is not None:
                        sh["hull"].append(c)
                        self.log.append(f"drew {s + 1} ship {sh['id'] + 1} {c}")
        self.start_round()

    # -- decisions ----------------------------------------------------------------------------
    def decide(self, seat, text):
        owed = dict(self.pending())
        words = text.split()
        kind, args = words[0], words[1:]
        if owed.get(seat) != kind:
            raise Mismatch(f"seat {seat + 1} owes {owed.get(seat)}, the record says '{text}'")
        b = self.b
        if kind == "class":
            name, card = args
            if not CLASSES[name][1](card) or card not in self.hands[seat]:
                raise Mismatch(f"'{text}' is not a legal class choice")
            self.choice[seat] = (name, card)
        elif kind == "discard":
            cards = [] if args == ["none"] else args
            take(self.hands[seat], cards)
            self.discard += cards
        elif kind == "split":
            piles = [cards_of(p) for p in args]
            if sorted(c for p in piles for c in p) != sorted(self.hands[seat]):
                raise Mismatch(f"'{text}' does not split the hand")
            self.splits[seat] = piles
        elif kind == "attack":
            orders = []
            for o in ([] if args == ["none"] else args):
                frm, rest = o.split(":")
                card, target = rest.split(">")
                orders.append((int(frm) - 1, card, int(target) - 1))
            self.orders[seat] = orders
        elif kind == "defend":
            self.select(int(args[0]) - 1)
        elif kind == "resolve":
            card, frm = args[0].split(":")
            a = next(a for a in self.attacks
                     if a["target"] == b["ship"] and a["card"] == card and a["from"] == int(frm) - 1)
            self.resolve(a)
        elif kind == "block":
            cards = [] if args == ["none"] else args
            take(self.ships[b["attack"]["target"]]["hull"], cards)
            self.discard += cards
            self.after_block(b["attack"], sum(map(value, cards)))
        elif kind == "lose":
            if len(args) != b["count"]:
                raise Mismatch(f"'{text}' loses {len(args)} cards, {b['count']} are owed")
            take(self.ships[b["attack"]["target"]]["hull"], args)
            self.discard += args
            self.finish_attack(b["attack"])
        elif kind == "crew":
            self.send_crew(b["attack"], args[0])
        elif kind == "repel":
            cards = [] if args == ["none"] else args
            take(self.ships[b["attack"]["target"]]["hull"], cards)
            self.discard += cards
            self.repelled(b["attack"], b["crew"], sum(map(value, cards)))
        self.advance()


def parse_deal(deal):
    """`{"hands": [[card, ...], ...], "draw": [card, ...]}` (the draw pile top first)."""
    return [list(h) for h in deal["hands"]], list(deal["draw"])


KINDS = ("round", "drew", "destroyed", "captured", "out", "over")


def replay(rec):
    hands, draw = parse_deal(rec["extra"]["deal"])
    g = Game(hands, draw, rec["extra"]["reshuffles"])
    for m in rec["moves"]:
        if g.step == "over":
            raise Mismatch("a decision after the end of the game")
        g.decide(m["seat"], m["mv"])
        g.advance()
    expected = [e for e in rec["extra"]["events"] if e.split()[0] in KINDS]
    if g.log != expected:
        for i, (a, b) in enumerate(zip(g.log, expected)):
            if a != b:
                raise Mismatch(f"event {i + 1}: replayed '{a}', the record says '{b}'")
        raise Mismatch(f"{len(g.log)} events replayed, the record has {len(expected)}")
    if rec.get("fault_seat") is None and g.step != "over":
        raise Mismatch("the replayed game is not over")
    return g


def main():
    bad = 0
    games = 0
    with open(sys.argv[1]) as f:
        for line in f:
            if not line.strip():
                continue
            rec = json.loads(line)
            if rec.get("game") != "space-wars":  # settings lines and other games
                continue
            games += 1
            try:
                g = replay(rec)
                print(f"game {rec['id'] + 1}: ok ({g.log[-1] if g.log else 'no events'}, "
                      f"{len(rec['moves'])} decisions)")
            except (Mismatch, KeyError, ValueError, StopIteration) as e:
                bad += 1
                print(f"game {rec['id'] + 1}: MISMATCH: {e!r}")
    print(f"{games} games replayed, {bad} mismatches")
    sys.exit(1 if bad or not games else 0)


if __name__ == "__main__":
    main()
