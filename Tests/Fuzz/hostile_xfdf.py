"""Hostile XFDF for the fuzzing driver: a command that names every subtype and attribute Redline reads (line
endings, border styles, rich text, popups, threads, review states), then mutated the way broken exports and
attackers do: values swapped for escape sequences, huge or non-numbers and overlong text, attributes dropped,
elements repeated or nested deep, a document type declaration with entities, bytes flipped, the file cut short.

The same seed and case number always make the same file."""
import random

HOSTILE_VALUES = [
    "", " ", "\x1b[31mred\x1b[0m", "\x1b]52;c;cGF5bG9hZA==\x07", "nan", "inf", "-inf", "1e999", "-1e308", "0x10",
    "99999999999999999999", "-0", "1,2", "1;2", "1,2,3,4,5,6,7,8,9", "#GGGGGG", "#fff", "D:99999999999999",
    "D:2026", "yes", "maybe", "None", "OpenArrow", "cloudy", "dash", "centered", "Review", "Accepted", "Banana",
    "a" * 5000, "\u202e\u0645\u0631\u062d\u0628\u0627", "\ufeff", "&amp;", "&#0;", "&#x1B;", "]]>",
    "-5", "2", "0", "1000000", "3.4028236e38",
]

BASE = """<?xml version="1.0" encoding="UTF-8"?>
<xfdf xmlns="http://ns.adobe.com/xfdf/" xml:space="preserve">
<add>
<text page="0" rect="40,700,60,720" name="n1" title="Alice" date="D:20261124093005+01'00'" color="#FFD100" flags="print" icon="Comment">
<contents>Note</contents>
<contents-richtext><body xmlns="http://www.w3.org/1999/xhtml"><p>Note <b>bold</b></p></body></contents-richtext>
<popup page="0" rect="420,600,600,720" open="yes"/>
</text>
<text page="0" rect="40,700,60,720" name="r1" inreplyto="n1" replyType="reply" title="Bob"><contents>Reply</contents></text>
<text page="0" rect="40,700,60,720" name="s1" inreplyto="n1" statemodel="Review" state="Accepted" flags="print,noview"/>
<freetext page="0" rect="100,600,300,640" name="f1" color="#FFFF00" justification="centered" intent="FreeTextCallout" width="1" rotation="90">
<contents>Box</contents><defaultappearance>/Helv 14 Tf 0 0 1 rg</defaultappearance><defaultstyle>font: Helvetica 14pt</defaultstyle>
</freetext>
<line page="0" rect="100,500,200,560" name="l1" start="102,502" end="198,558" head="Circle" tail="ClosedArrow" style="dash" dashes="3,2" color="#FF0000" width="2"/>
<polygon page="0" rect="300,300,400,380" name="p1" style="cloudy" intensity="1" fringe="4,4,4,4" interior-color="#00FF00"><vertices>302,302;398,302;350,378</vertices></polygon>
<polyline page="0" rect="300,200,400,280" name="pl1" head="OpenArrow" tail="None"><vertices>302,202;350,278;398,202</vertices></polyline>
<ink page="0" rect="70,450,302,494" name="i1" color="#1F4ED8" width="2" opacity="0.5"><inklist><gesture>72,492;300,452</gesture><gesture>80,480;90,470</gesture></inklist></ink>
<highlight page="0" rect="71,400,273,420" name="h1" coords="72,418,272,418,72,402,272,402" color="#FFE000"/>
<square page="0" rect="300,40,380,90" name="q1" style="bevelled" color="#FF0000" width="3"/>
<circle page="0" rect="300,100,380,150" name="c1" color="#0000FF"/>
<stamp page="0" rect="300,160,420,200" name="st1" icon="Approved" subject="Approved"/>
</add>
<delete><id page="0">{0171f053-5c11-455c-897b-744b6c918ee1}</id></delete>
</xfdf>
"""


# The clean document the cases are imported into (half of them; the others go into the hostile PDF): pdf.js's file,
# whose area highlight the command deletes.
DOCUMENT = "pdfjs_issue14438.pdf"


class Case:
    def __init__(self, name, data, mutations):
        self.name, self.data, self.mutations = name, data, mutations


def _swap_value(rng, text):
    spots = [index for index in range(len(text)) if text.startswith('="', index)]
    if not spots:
        return text, "no value"
    start = rng.choice(spots) + 2
    end = text.find('"', start)
    value = rng.choice(HOSTILE_VALUES).replace('"', "&quot;")
    if rng.random() < 0.3:
        value = value.replace("&", "&amp;").replace("<", "&lt;")
    return text[:start] + value + text[end:], f"value {text[max(0, start - 12):start - 2].split()[-1] if text[:start - 2].split() else '?'}"


def _drop_attribute(rng, text):
    names = ["page", "rect", "name", "inreplyto", "start", "end", "coords", "open", "state", "statemodel"]
    name = rng.choice(names)
    index = text.find(f' {name}="')
    if index < 0:
        return text, f"drop {name} (absent)"
    end = text.find('"', index + len(name) + 3)
    return text[:index] + text[end + 1:], f"drop {name}"


def _repeat_element(rng, text):
    lines = [line for line in text.split("\n") if line.startswith(("<line", "<square", "<circle", "<highlight"))]
    line = rng.choice(lines)
    count = rng.choice([2, 50, 5000])
    return text.replace(line, "\n".join([line] * count), 1), f"repeat x{count}"


def _huge_gesture(rng, text):
    points = ";".join(f"{rng.uniform(-1e6, 1e6):.3f},{rng.uniform(-1e6, 1e6):.3f}" for _ in range(rng.choice([3, 20000])))
    return text.replace("<gesture>72,492;300,452</gesture>", f"<gesture>{points}</gesture>", 1), "huge gesture"


def _deep_rich_text(rng, text):
    depth = rng.choice([10, 63, 70, 500])
    nested = "<span>" * depth + "deep" + "</span>" * depth
    return text.replace("<p>Note <b>bold</b></p>", f"<p>{nested}</p>", 1), f"rich text {depth} deep"


def _doctype(rng, text):
    bomb = ('<!DOCTYPE xfdf [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
            '<!ENTITY x SYSTEM "file:///etc/passwd">]>')
    text = text.replace("<xfdf ", bomb + "\n<xfdf ", 1)
    return text.replace("<contents>Note</contents>", "<contents>&b;&x;</contents>", 1), "doctype"


def _flip_bytes(rng, data):
    data = bytearray(data)
    for _ in range(rng.choice([1, 5, 40])):
        data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data), "bytes flipped"


def _cut(rng, data):
    return data[:rng.randrange(1, len(data))], "cut short"


TEXT_MUTATIONS = [_swap_value, _swap_value, _swap_value, _drop_attribute, _repeat_element, _huge_gesture,
                  _deep_rich_text, _doctype]
BYTE_MUTATIONS = [_flip_bytes, _cut]


def make_case(seed, index):
    rng = random.Random(seed * 1_000_003 + index)
    text, mutations = BASE, []
    for _ in range(rng.choice([1, 1, 2, 3, 5])):
        text, said = rng.choice(TEXT_MUTATIONS)(rng, text)
        mutations.append(said)
    data = text.encode("utf-8")
    if rng.random() < 0.2:
        data, said = rng.choice(BYTE_MUTATIONS)(rng, data)
        mutations.append(said)
    return Case(f"{seed}-{index}", data, mutations)
