"""Hostile PDFs for the fuzzing driver (fuzz.py): mutations of the project's fixtures that aim at what
Redline reads. Case N of seed S is always the same file, so a failure is reproduced by its seed and number.

Mutations, one to three per case:
- numbers out of range or of the wrong kind in every field Redline reads (/Rotate, boxes, /Rect, /F, /Count, …),
  written as exact tokens qpdf reads (1e19 as a real, 64-bit limits, 400-digit reals);
- type confusion (a name, a string, an array, a dictionary or a loop where a number or a dictionary belongs);
- text fields holding terminal escapes, C1 controls, NUL, invalid UTF-16 and megabytes of text; odd dates;
- broken and cyclic structure: /IRT loops, /Kids and /Parent loops, /Annots that are not arrays;
- many annotations, long reply chains, one annotation listed thousands of times;
- XMP that is not well-formed, declares entities, is not UTF-8, nests deeply or holds absurd bookmarks;
- byte damage: truncation, flipped bytes, a lost cross-reference table or trailer.
"""
import io
import os
import random

import pikepdf
from pikepdf import Array, Dictionary, Name, String

NUMBER_TOKENS = [
    b"10000000000000000000.0", b"9223372036854775807", b"-9223372036854775808", b"2147483648", b"-2147483649",
    b"1" + b"0" * 40 + b".0", b"9" * 400 + b".5", b"-" + b"9" * 300 + b".0", b"0.0000000001", b"-0.0", b"45.5",
    b"359.999", b"1e19", b"-1", b"0", b"99999", b"4294967295", b"18446744073709551615",
    # Every boundary a reader's integers have: 2^31 - 1 and 2^31, 2^32, 2^63 - 1 and 2^63, and past them.
    b"2147483647", b"4294967296", b"9223372036854775808", b"-9223372036854775809", b"99999999999", b"1e300",
]
ESCAPES = ["\x1b]2;owned\x07", "\x1b[2J", "\x1b[31m", "\u009b2J", "\u009d0;title\u009c", "\x07", "\x00", "\r\n",
           "\u202e", "\x7f", "\x1bP+q\x1b\\"]
DATES = ["D:99999999999999+99'99'", "D:0000", "", "D:2024-13-45", "D:" + "9" * 5000, "D:20241301256161Z",
         "D:197001010000-", "garbage", "D:20240230120000+25'70'"]
PLACEHOLDER = "RLFZ"


class Case:
    """One hostile document: `data` plus what was done to it, for the report."""

    def __init__(self, name, data, mutations):
        self.name = name
        self.data = data
        self.mutations = mutations


class Builder:
    def __init__(self, rng, pdf):
        self.rng = rng
        self.pdf = pdf
        self.tokens = {}
        self.done = []
        self.length_overflow = False

    def token(self, raw):
        """A placeholder name of the same length as `raw`, swapped for it after saving so offsets stay right."""
        width = max(len(raw), len(PLACEHOLDER) + 4)
        key = "/" + PLACEHOLDER + str(len(self.tokens)).rjust(width - len(PLACEHOLDER) - 1, "0")
        self.tokens[key.encode()] = raw.ljust(len(key))
        return Name(key)

    def number(self):
        return self.token(self.rng.choice(NUMBER_TOKENS))

    def confusing(self):
        choices = [Name.Confused, String("text"), Array([]), Dictionary(), self.token(b"null"), True,
                   Array([self.number(), self.number()]), self.number()]
        if len(self.pdf.pages):
            choices.append(self.pdf.pages[0].obj)
        return self.rng.choice(choices)

    def text(self):
        kind = self.rng.randrange(5)
        if kind == 0:
            return String("".join(self.rng.choice(ESCAPES) + "x" for _ in range(self.rng.randint(1, 6))))
        if kind == 1:
            return String("A" * self.rng.choice([10_000, 300_000, 1_100_000]))
        if kind == 2:
            return String(b"\xfe\xff\xd8\x00\x00A\xdc\x00")  # lone surrogates in UTF-16
        if kind == 3:
            return String(bytes(self.rng.randrange(256) for _ in range(self.rng.randint(1, 200))))
        return String(self.rng.choice(DATES))

    def annotations(self, page):
        annots = page.obj.get("/Annots")
        if not isinstance(annots, Array) or len(annots) == 0:
            annots = Array([self.pdf.make_indirect(Dictionary(Type=Name.Annot, Subtype=Name.Text, Rect=[10, 10, 30, 30],
                                                              Contents=String("seed"), T=String("Fuzz")))])
            page.obj.Annots = annots
        return [item for item in annots if isinstance(item, Dictionary)]

    def page(self):
        return self.pdf.pages[self.rng.randrange(len(self.pdf.pages))]

    # Mutations: each changes the document and says what it did.

    def page_numbers(self):
        page = self.page()
        key = self.rng.choice(["/Rotate", "/MediaBox", "/CropBox", "/Rotate", "/MediaBox"])
        if key == "/Rotate":
            page.obj[key] = self.rng.choice([self.number(), self.confusing()])
        else:
            page.obj[key] = Array([self.number() if self.rng.random() < 0.5 else self.rng.choice([0, 612, 792])
                                   for _ in range(self.rng.choice([4, 4, 4, 2, 6]))])
        self.done.append(f"page {key}")

    def inherited_numbers(self):
        root = self.pdf.Root.Pages
        root[self.rng.choice(["/Rotate", "/MediaBox", "/CropBox"])] = self.rng.choice([self.number(), self.confusing()])
        self.done.append("page tree inherited attribute")

    def annotation_fields(self):
        page = self.page()
        for annotation in self.rng.sample(self.annotations(page), k=min(3, len(self.annotations(page)))):
            key = self.rng.choice(["/Rect", "/F", "/T", "/Contents", "/NM", "/M", "/CreationDate", "/State",
                                   "/StateModel", "/RT", "/Subtype", "/IRT", "/Popup"])
            if key == "/Rect":
                value = Array([self.number() for _ in range(self.rng.choice([4, 4, 3, 0]))])
            elif key == "/F":
                value = self.rng.choice([self.number(), self.confusing()])
            elif key in ("/T", "/Contents", "/NM", "/M", "/CreationDate", "/State", "/StateModel"):
                value = self.rng.choice([self.text(), self.text(), self.confusing()])
            elif key == "/IRT":
                # Only indirect objects may point back at themselves: a direct loop cannot be written at all.
                candidates = [item for item in [annotation, *self.annotations(page)] if item.is_indirect]
                value = self.rng.choice(candidates + [page.obj, self.confusing()])
            else:
                value = self.confusing()
            annotation[key] = value
            self.done.append(f"annotation {key}")

    def reply_cycle(self):
        page = self.page()
        annotations = self.annotations(page)
        extra = self.pdf.make_indirect(Dictionary(Type=Name.Annot, Subtype=Name.Text, Rect=[10, 10, 30, 30],
                                                  Contents=String("loop"), T=String("Fuzz")))
        page.obj.Annots.append(extra)
        first = annotations[0]
        first.IRT = extra
        extra.IRT = first
        self.done.append("reply loop")

    def many_annotations(self):
        page = self.page()
        count = self.rng.choice([500, 2000, 5000])
        mode = self.rng.randrange(3)
        template = Dictionary(Type=Name.Annot, Subtype=Name.Square, Rect=[50, 50, 90, 90], Contents=String("same"),
                              T=String("Fuzz"))
        if mode == 0:
            shared = self.pdf.make_indirect(template)
            page.obj.Annots = Array([shared] * count)
        elif mode == 1:
            page.obj.Annots = Array([self.pdf.make_indirect(Dictionary(template)) for _ in range(count)])
        else:
            chain = [self.pdf.make_indirect(Dictionary(template))]
            for index in range(count - 1):
                reply = Dictionary(Type=Name.Annot, Subtype=Name.Text, Rect=[50, 50, 90, 90], IRT=chain[-1],
                                   Contents=String(f"reply {index}"), T=String("Fuzz"))
                chain.append(self.pdf.make_indirect(reply))
            page.obj.Annots = Array(chain)
        self.done.append(f"{count} annotations ({['one object repeated', 'identical', 'reply chain'][mode]})")

    def broken_structure(self):
        kind = self.rng.randrange(5)
        page = self.page()
        if kind == 0:
            page.obj.Annots = self.rng.choice([Dictionary(), String("x"), self.number(), Array([1, Name.X, String("y")])])
        elif kind == 1:
            page.obj.Parent = page.obj
        elif kind == 2:
            self.pdf.Root.Pages.Count = self.rng.choice([self.number(), self.token(b"null"), Name.X])
        elif kind == 3:
            page.obj.Contents = self.confusing()
        else:
            page.obj.Resources = self.confusing()
        self.done.append(f"structure {kind}")

    def hostile_id(self):
        length = self.rng.choice([0, 1, 200, 5000])
        value = String(bytes(self.rng.randrange(256) for _ in range(length)))
        self.pdf.trailer.ID = self.rng.choice([Array([value, value]), value, Array([]), self.number()])
        self.done.append(f"/ID of {length} bytes")

    def metadata(self):
        self.pdf.Root.Metadata = self.pdf.make_stream(hostile_xmp(self.rng), Type=Name.Metadata, Subtype=Name.XML)
        self.done.append("hostile XMP")

    def huge_object_number(self):
        raw = self.rng.choice([b"2147483647", b"2147483648", b"4294967296", b"99999999999"])
        self.pdf.Root[Name("/" + PLACEHOLDER + "Ref")] = self.token(raw + b" 0 R")
        self.done.append(f"catalog refers to object {raw.decode()}")

    def stream_length_overflow(self):
        # Done on the saved bytes (qpdf writes /Length itself), with the cross-reference lost so it is rebuilt.
        self.length_overflow = True
        self.done.append("/Length 9223372036854775807 and no cross-reference")

    def repeated_page_tree(self):
        page = self.pdf.pages[0].obj
        reference = b"%d %d R " % page.objgen
        nodes = [self.pdf.make_indirect(Dictionary(Type=Name.Pages, Count=100,
                                                   Kids=self.token(b"[" + reference * 100 + b"]"))) for _ in range(120)]
        for node in nodes:
            node.Parent = self.pdf.Root.Pages
        self.pdf.Root.Pages.Kids = Array(nodes)
        self.pdf.Root.Pages.Count = 12_000
        self.done.append("page tree listing one page 12,000 times")

    def form_bomb(self):
        page = self.page()
        depth = self.rng.choice([24, 29, 40])
        forms = []
        for level in range(depth):
            forms.append(self.pdf.make_stream(b"", Type=Name.XObject, Subtype=Name.Form, BBox=[0, 0, 10, 10]))
        for level, form in enumerate(forms):
            if level + 1 < depth:
                form.write(b"/N Do /N Do")
                form.Resources = Dictionary(XObject=Dictionary(N=forms[level + 1]))
            else:
                form.write(b"0 0 1 1 re f")
        resources = page.obj.get("/Resources")
        resources = Dictionary(resources) if isinstance(resources, Dictionary) else Dictionary()
        resources.XObject = Dictionary(RLFZForm=forms[0])
        page.obj.Resources = resources
        page.contents_add(self.pdf.make_stream(b"q /RLFZForm Do Q"), prepend=False)
        self.done.append(f"forms drawing each other 2^{depth} times")

    def tiling_bomb(self):
        page = self.page()
        step = self.rng.choice([0.0001, 0.001, 1e-9])
        pattern = self.pdf.make_stream(b"0 0 1 1 re f", Type=Name.Pattern, PatternType=1, PaintType=1, TilingType=1,
                                       BBox=[0, 0, 1, 1], XStep=step, YStep=step, Resources=Dictionary())
        resources = page.obj.get("/Resources")
        resources = Dictionary(resources) if isinstance(resources, Dictionary) else Dictionary()
        resources.Pattern = Dictionary(RLFZTile=pattern)
        page.obj.Resources = resources
        page.contents_add(self.pdf.make_stream(b"q /Pattern cs /RLFZTile scn 0 0 612 792 re f Q"), prepend=False)
        self.done.append(f"tiling pattern stepped {step}")

    def odd_rich_text(self):
        page = self.page()
        body = self.rng.choice([
            '<body xmlns="http://www.w3.org/1999/xhtml"><p 8a="x">one</p></body>',
            '<body xmlns="http://www.w3.org/1999/xhtml"><p foo:bar="x">two</p></body>',
            '<body xmlns="http://www.w3.org/1999/xhtml" xmlns:xml="urn:other"><p>three</p></body>',
            '<body xmlns="http://www.w3.org/1999/xhtml" xmlns:a="urn:u" xmlns:b="urn:u"><p a:x="1" b:x="2">four</p></body>',
        ])
        for annotation in self.annotations(page)[:2]:
            annotation.RC = String(body)
            annotation.Subtype = Name.Text
        self.done.append("rich text with names namespaces forbid")

    def outline_folder(self):
        """An outline whose folder of Redline's bookmarks is damaged: links that loop, records of the wrong type,
        destinations to no page, counts at their limits, a thousand entries."""
        pdf = self.pdf
        outlines = pdf.make_indirect(Dictionary(Type=Name.Outlines, Count=self.number()))
        own = pdf.make_indirect(Dictionary(Title=self.text(), Parent=outlines,
                                           Dest=Array([pdf.pages[0].obj, Name.Fit])))
        folder = pdf.make_indirect(Dictionary(Title=String("Bookmarks"), Parent=outlines, Prev=own, Count=self.number()))
        own.Next = folder
        written = self.rng.choice([Array([String("A"), 5, Name.X]), self.number(), String("not an array"),
                                   Array([String(f"{index:08X}-0000-0000-0000-000000000000") for index in range(50)])])
        folder[Name("/RedlineBookmarks")] = written
        entries = []
        for index in range(self.rng.choice([1, 3, 1000])):
            # Hostile texts (up to a megabyte) for the first few; a thousand of them would be a gigabyte.
            text = self.text if index < 3 else (lambda: String(f"entry {index}"))
            record = self.rng.choice([Dictionary(ID=text(), Title=text(), Page=self.number()),
                                      Dictionary(ID=self.number(), Page=String("x")), self.number(), String("record")])
            destination = self.rng.choice([Array([pdf.pages[0].obj, Name.Fit]), Array([self.number(), Name.Fit]),
                                           Array([own, Name.Fit]), Name.Nowhere, String("named"), Array([])])
            entry = pdf.make_indirect(Dictionary(Title=self.rng.choice([text(), self.number()]),
                                                 Parent=folder, Dest=destination))
            entry[Name("/RedlineBookmark")] = record
            if entries:
                entry.Prev = entries[-1]
                entries[-1].Next = entry
            entries.append(entry)
        if self.rng.random() < 0.5:
            entries[-1].Next = entries[0]
            folder.Next = own
        folder.First = entries[0]
        folder.Last = entries[-1]
        outlines.First = own
        outlines.Last = folder
        pdf.Root.Outlines = outlines
        self.done.append(f"outline folder of {len(entries)} damaged entries")

    MUTATIONS = ["page_numbers", "inherited_numbers", "annotation_fields", "annotation_fields", "reply_cycle",
                 "many_annotations", "broken_structure", "hostile_id", "metadata", "metadata", "huge_object_number",
                 "stream_length_overflow", "repeated_page_tree", "form_bomb", "tiling_bomb", "odd_rich_text", "outline_folder"]
    # The first cases of every run are one of each of these, so a fixed seed always covers every class.
    EVERY_CLASS = ["huge_object_number", "stream_length_overflow", "repeated_page_tree", "form_bomb", "tiling_bomb",
                   "odd_rich_text", "reply_cycle", "many_annotations", "broken_structure", "metadata", "outline_folder"]


def hostile_xmp(rng):
    def packet(body, prolog=""):
        return ('<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>' + prolog +
                '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
                '<rdf:Description rdf:about="" xmlns:apple-preview="http://ns.apple.com/Preview/1.0/" '
                'xmlns:pspdf="http://pspdfkit.com/pdf/xmp/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">'
                + body + '</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>').encode("utf-8")

    def preview(indexes):
        items = "".join(f'<rdf:li rdf:parseType="Resource"><apple-preview:PageIndex>{index}</apple-preview:PageIndex>'
                        f'<apple-preview:UUID>{rng.getrandbits(128):032X}</apple-preview:UUID></rdf:li>'
                        for index in indexes)
        return f"<apple-preview:Bookmarks><rdf:Seq>{items}</rdf:Seq></apple-preview:Bookmarks>"

    kind = rng.randrange(12)
    if kind == 0:
        return packet("<dc:d>&x;</dc:d>", '<!DOCTYPE x:xmpmeta [<!ENTITY x SYSTEM "file:///etc/passwd">]>')
    if kind == 1:
        levels = "".join(f'<!ENTITY l{n} "{("&l%d;" % (n - 1)) * 10 if n else "lol"}">' for n in range(10))
        return packet("<dc:d>&l9;</dc:d>" + preview([0]), f"<!DOCTYPE x:xmpmeta [{levels}]>")
    if kind == 2:
        good = packet(preview([0]))
        cut = rng.randrange(1, len(good))
        return good[:cut] + bytes([rng.randrange(256)]) + good[cut:]
    if kind == 3:
        return packet(preview([rng.choice(["-1", "99999999999999999999", "abc", "1e300", " 0 ", "0x1", "١"])
                               for _ in range(rng.randint(1, 5))]))
    if kind == 4:
        return packet(preview(range(rng.choice([1000, 5000]))))
    if kind == 5:
        name = rng.choice(ESCAPES) * 3
        entries = ('[{"action":{"actionType":"Goto","pageIndex":%s},"name":"%s","uuid":"%s"}]'
                   % (rng.choice(["0", "1e300", "-5", "null", '"x"', "[[[[[]]]]]"]),
                      name.encode("unicode_escape").decode().replace("\\x", "\\u00"), "A" * rng.choice([1, 36, 5000])))
        return packet(preview([0]) + f"<pspdf:Bookmarks>{entries.replace('&', '&amp;').replace('<', '&lt;')}</pspdf:Bookmarks>")
    if kind == 6:
        depth = rng.choice([1000, 20000])
        return packet("<dc:n>" * depth + "</dc:n>" * depth)
    if kind == 7:
        return packet(f'<dc:t dc:a="{"A" * 2_000_000}"/>' + preview([0]))
    if kind == 8:
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 4000)))
    if kind == 9:
        return "\ufeff".encode("utf-16-le") + packet(preview([0])).decode("utf-8").encode("utf-16-le")
    if kind == 10:
        return packet("<pspdf:Bookmarks>" + "[" * 5000 + "]" * 5000 + "</pspdf:Bookmarks>")
    return packet(preview([0]), "<!DOCTYPE x:xmpmeta>")


def damage(rng, data):
    """Byte-level damage after saving."""
    kind = rng.randrange(5)
    data = bytearray(data)
    if kind == 0:
        return bytes(data[: rng.randrange(len(data) // 4, len(data))]), "truncated"
    if kind == 1:
        for _ in range(rng.randint(1, 20)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return bytes(data), "flipped bytes"
    if kind == 2:
        start = data.rfind(b"xref")
        return (bytes(data[:start] + data[start + 200:]) if start > 0 else bytes(data)), "cross-reference damaged"
    if kind == 3:
        start = data.rfind(b"trailer")
        if start > 0:
            data[start:start + 7] = b"trailed"
        return bytes(data), "trailer keyword lost"
    depth = rng.choice([600, 5000])
    start = data.rfind(b"trailer")
    if start > 0:
        data[start:start] = b"999 0 obj\n" + b"[" * depth + b"]" * depth + b"\nendobj\n"
    return bytes(data), "deep nesting before the trailer"


def seeds(fixtures):
    # Every real document the tests carry, whatever its size (the encrypted one needs its password).
    names = sorted(name for name in os.listdir(fixtures) if name.endswith(".pdf") and "enc-" not in name)
    return [os.path.join(fixtures, name) for name in names]


def make_case(seed, index, fixtures):
    rng = random.Random(f"redline-fuzz-{seed}-{index}")
    source = rng.choice(seeds(fixtures))
    mutations = [os.path.basename(source)]
    try:
        pdf = pikepdf.open(source)
    except pikepdf.PdfError:
        with open(source, "rb") as handle:
            return Case(f"{seed}-{index}", handle.read(), mutations + ["seed as it is"])
    builder = Builder(rng, pdf)
    chosen = [Builder.EVERY_CLASS[index]] if index < len(Builder.EVERY_CLASS) else []
    chosen += [rng.choice(Builder.MUTATIONS) for _ in range(rng.randint(1, 3) - len(chosen))]
    for mutation in chosen:
        try:
            getattr(builder, mutation)()
        except (pikepdf.PdfError, ValueError, TypeError, IndexError, KeyError, AttributeError) as error:
            builder.done.append(f"(mutation skipped: {type(error).__name__})")
    out = io.BytesIO()
    try:
        pdf.save(out, object_stream_mode=pikepdf.ObjectStreamMode.disable, compress_streams=False,
                 fix_metadata_version=False)
    except pikepdf.PdfError as error:
        with open(source, "rb") as handle:
            return Case(f"{seed}-{index}", handle.read(), mutations + [f"save failed: {error}"])
    data = out.getvalue()
    for key, raw in builder.tokens.items():
        data = data.replace(key, raw)
    mutations += builder.done
    if builder.length_overflow:
        at = data.find(b"/Length ")
        end = at + 8
        while at >= 0 and end < len(data) and data[end:end + 1].isdigit():
            end += 1
        if at >= 0:
            data = data[:at] + b"/Length 9223372036854775807" + data[end:]
        start = data.rfind(b"xref")
        data = data[:start] + data[start + 200:] if start > 0 else data
    elif rng.random() < 0.3:
        data, what = damage(rng, data)
        mutations.append(what)
    return Case(f"{seed}-{index}", data, mutations)
