"""Hostile markup files for the fuzzing driver: a file with one item of every kind (text, ink, marks over words and
every shape), then mutated the way scripts and attackers get them wrong: numbers at their limits or of the wrong
kind, points and corners by the ten thousand or none, kinds and fields misspelt, escapes in every string, the
text cut short. The same seed and case number always make the same file."""
import json
import random

KINDS = ["text", "ink", "highlight", "underline", "strike-out", "squiggly",
         "rectangle", "ellipse", "line", "arrow", "polygon", "polyline", "stamp", "note"]

BASE = [
    {"page": 1, "kind": "text", "x": 72, "y": 72, "text": "Fuzz", "size": 12},
    {"page": 1, "kind": "ink", "strokes": [[[72, 100], [120, 110]]], "width": 2},
    {"page": 1, "kind": "squiggly", "rects": [[72, 130, 100, 12]]},
    {"page": 1, "kind": "rectangle", "points": [[72, 160], [172, 220]], "width": 3},
    {"page": 1, "kind": "ellipse", "points": [[200, 160], [300, 220]], "fill": True, "color": "blue"},
    {"page": 1, "kind": "line", "points": [[72, 240], [172, 260]]},
    {"page": 1, "kind": "arrow", "points": [[200, 240], [300, 260]], "color": "#00A000"},
    {"page": 1, "kind": "polygon", "points": [[72, 300], [172, 300], [120, 360]], "fill": True},
    {"page": 1, "kind": "polyline", "points": [[200, 300], [250, 360], [300, 300]]},
    {"page": 1, "kind": "stamp", "points": [[320, 400], [470, 440]], "name": "Reviewed by Legal", "comment": "Fuzz"},
    {"page": 1, "kind": "note", "points": [[400, 100]], "comment": "Fuzz note\nsecond line"},
]

NUMBERS = [0, -0.0, -1, 1e-300, 1e300, 1e308, -1e308, 2 ** 53 + 1, 10 ** 400, 0.5, 612, 792, 100000]
VALUES = NUMBERS + ["", "NaN", "Infinity", "\x1b[2J", "\u009b2J", "\u202e", "a" * 100000, None, True, False, [], {},
                    [[1, 2]], [[1, 2, 3]], [["1", "2"]], [[1e308, 1e308], [1e308, -1e308]]]


def corners(rng):
    """Corners by the ten thousand or none; half the time all on the page, so that they are drawn and written."""
    count = rng.choice([0, 1, 2, 3, 10, 9999, 10000, 10001, 30000])
    on_page = rng.random() < 0.5
    return [[rng.uniform(0, 612), rng.uniform(0, 792)] if on_page else [rng.uniform(-10, 700), rng.uniform(-10, 800)]
            for _ in range(count)]


def mutate(rng, items):
    said = []
    for _ in range(rng.choice([1, 2, 3, 5, 8])):
        item = rng.choice(items)
        choice = rng.randrange(9)
        if choice == 0:
            field = rng.choice(list(item.keys()))
            item[field] = rng.choice(VALUES)
            said.append(f"{item.get('kind')}.{field} replaced")
        elif choice == 1 and "points" in item:
            item["points"] = corners(rng)
            said.append(f"{item.get('kind')} with {len(item['points'])} corners")
        elif choice == 2:
            item["kind"] = rng.choice(KINDS + ["Rectangle", "circle", "square", "arrow\x00", "\u0430rrow"])
            said.append(f"kind now {item['kind']!r}")
        elif choice == 3:
            item.pop(rng.choice(list(item.keys())), None)
            said.append("a field dropped")
        elif choice == 4:
            item[rng.choice(["fill", "width", "opacity", "points", "rects", "strokes", "id", "extra"])] = rng.choice(VALUES)
            said.append("a field added")
        elif choice == 5 and len(json.dumps(item)) < 4096:
            # Many items, not many bytes: a file past the 64 MB limit is refused before it is read.
            items.extend(dict(item) for _ in range(rng.choice([10, 1000, 5000])))
            said.append("items repeated")
        elif choice == 6 and "points" in item:
            item["points"] = [[rng.choice(NUMBERS), rng.choice(NUMBERS)] for _ in range(rng.choice([2, 3, 4]))]
            said.append("corners at the limits")
        elif choice == 7:
            # Valid, at the limits: drawn and written, not refused.
            item["width"] = rng.choice([0.01, 0.5, 199.99, 200])
            if "points" in item:
                item["points"] = rng.choice([[[0, 0], [612, 792]], [[0, 0], [0.001, 0.001]], [[611.99, 791.99], [612, 792]]]
                                            + ([[[0, 0], [612, 0], [306, 792]]] if item.get("kind") == "polygon" else [])
                                            + ([[[0, 0], [40, 40]], [[572, 752], [612, 792]], [[592, 772]], [[0, 0], [12, 12]]]
                                               if item.get("kind") == "note" else []))
            said.append("valid at the limits")
        else:
            item["page"] = rng.choice([0, 1, 2, 4, 5, -1, 10 ** 9, 1.5, "1"])
            said.append(f"page {item['page']!r}")
    return said


def make_case(seed, index):
    """The file's bytes and what was done to them."""
    rng = random.Random(seed * 7_000_001 + index)
    items = [dict(item) for item in BASE]
    said = mutate(rng, items)
    text = json.dumps({"version": 1, "items": items}, allow_nan=True)
    if rng.random() < 0.1:
        text = text[: rng.randrange(len(text))]
        said.append("cut short")
    return text.encode("utf-8"), said
